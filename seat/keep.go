package seat

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"

	"corruption/protocol"
	"corruption/ui"
)

// What a seat keeps beside its tables, in its store (the browser's storage, bound to one
// laptop: protocol/browserstore): the person's name, and the table it sits at, so that a
// reload, a reopened tab or a page frozen and thrown away by the phone comes back to it
// (docs/UI.md, "The browser seat on a phone"). Both are small JSON files; the table's own
// files (log, seed) are the node's.

const (
	nameFile    = "seat/name"
	currentFile = "seat/current.json"
)

// current is the table the seat sits at, and the clock it sat with.
type current struct {
	Choice ui.TableChoice `json:"choice"`
	Clock  Clock          `json:"clock"`
}

// loadName is the name the person gave before, "" for none (or one that no longer passes
// --name's rules).
func loadName(s *protocol.Store) string {
	b, err := s.Backend().ReadFile(nameFile)
	if err != nil || protocol.CheckName(string(b)) != nil {
		return ""
	}
	return string(b)
}

func saveName(s *protocol.Store, name string) error {
	b, err := held(s)
	if err != nil {
		return err
	}
	return b.WriteFile(nameFile, []byte(name))
}

// held is the store's backend, its lock taken again: a node that ran gives the lock up when it
// ends (Store.Close), and the browser's storage writes only for the tab that holds the seat
// (protocol/browserstore). Without it, the seat forgot no table after its first: a phone that
// left a table it could not sit at (full) came back to it.
func held(s *protocol.Store) (protocol.Backend, error) {
	b := s.Backend()
	if err := b.Lock(); err != nil {
		return nil, err
	}
	return b, nil
}

// loadCurrent is the table the seat sat at, if any.
func loadCurrent(s *protocol.Store) (current, bool) {
	var c current
	b, err := s.Backend().ReadFile(currentFile)
	if err != nil || json.Unmarshal(b, &c) != nil || c.Choice.Table == "" || c.Choice.Game == "" || c.Choice.Players < 1 {
		return current{}, false
	}
	return c, true
}

func saveCurrent(s *protocol.Store, c current) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	b, err := held(s)
	if err != nil {
		return err
	}
	return b.WriteFile(currentFile, data)
}

// forgetCurrent forgets the table the seat sat at.
func forgetCurrent(s *protocol.Store, notef func(string, ...any)) {
	b, err := held(s)
	if err == nil {
		err = b.Remove(currentFile)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, os.ErrNotExist) {
		notef("cannot forget the table the seat sat at: %v", err)
	}
}
