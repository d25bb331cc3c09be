package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"corruption/engine"
)

// A node of a private table keeps the table beside its other secrets, so that a node killed or
// restarted with the same command line finds the table's sealed channel again and resumes its
// seat, as at an open table. The file is the welcome the node was sealed (or, for the creator,
// the one it seals to others), mode 0600, under private/ in the data directory: "created" for
// the last table this node created, and one per join code it joined with, named by a hash of
// the code (the code itself is not written down).

// SavePrivate keeps p as the private table this node created (code empty) or joined with code.
func (s *Store) SavePrivate(code string, p *PrivateTable) error {
	return s.b.WriteFile("private/"+privateFile(code), p.marshal())
}

// SavedPrivate returns the private table this node created (code empty) or joined with code, if
// one is saved and its game is under way in this data directory (its log begun and not ended);
// nil otherwise: a table that never formed here, or ended, is not resumed.
func (s *Store) SavedPrivate(code string) (*PrivateTable, error) {
	path := "private/" + privateFile(code)
	b, err := s.b.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, err := parsePrivateTable(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.b.Path(path), err)
	}
	entries, err := s.LoadLog(p.Name())
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	t, err := NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		return nil, nil // a log this build cannot read: start afresh
	}
	for _, e := range entries[1:] {
		if t.Append(e) != nil {
			break
		}
	}
	notes, err := s.Notes(p.Name())
	if err != nil {
		return nil, err
	}
	if endedWhy(t, notes) != "" {
		return nil, nil
	}
	return p, nil
}

// privateFile names the file of a private table: "created", or "join-" and a hash of the code.
func privateFile(code string) string {
	if code == "" {
		return "created"
	}
	h := sha256.Sum256([]byte("corruption/private-code/v1\x00" + code))
	return "join-" + hex.EncodeToString(h[:16])
}
