package protocol

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"time"
	"unicode/utf8"

	"corruption/engine/corruption"
)

// Member is one seat of a table's roster.
type Member struct {
	Name string            // the player's chosen name (display only)
	Key  ed25519.PublicKey // the identity key that signs the seat's entries
}

// Genesis is the body of a table's first entry: its configuration and roster. The table id is
// SHA-256 of its encoding.
type Genesis struct {
	Name    string // the table's name
	Variant corruption.Variant
	LBB     bool          // little black book
	Timeout time.Duration // how long a seat may stay silent when due before the table names it
	Nonce   [16]byte      // makes every table id unique
	Roster  []Member      // seat order: seat i is Roster[i]; the creator is seat 0
}

// Limits on names.
const (
	MaxNameSize = 64
)

func (g *Genesis) Marshal() []byte {
	w := writer{}
	w.str(g.Name)
	w.u8(uint8(g.Variant))
	w.flag(g.LBB)
	w.u32(uint32(g.Timeout / time.Millisecond))
	w.fixed(g.Nonce[:])
	w.u8(uint8(len(g.Roster)))
	for _, m := range g.Roster {
		w.str(m.Name)
		w.fixed(m.Key)
	}
	return w.b
}

// ID is the table id the genesis defines.
func (g *Genesis) ID() [32]byte { return sha256.Sum256(g.Marshal()) }

// ParseGenesis decodes and checks a genesis body.
func ParseGenesis(b []byte) (*Genesis, error) {
	r := reader{b: b}
	g := &Genesis{}
	g.Name = r.str(MaxNameSize, "table name")
	g.Variant = corruption.Variant(r.u8())
	g.LBB = r.flag("little black book")
	g.Timeout = time.Duration(r.u32()) * time.Millisecond
	r.fixed(g.Nonce[:])
	n := int(r.u8())
	if r.err == nil && (n < corruption.MinPlayers || n > corruption.MaxPlayers) {
		return nil, fmt.Errorf("malformed genesis: %d seats, want %d to %d", n, corruption.MinPlayers, corruption.MaxPlayers)
	}
	for i := 0; i < n && r.err == nil; i++ {
		m := Member{Name: r.str(MaxNameSize, "player name"), Key: make(ed25519.PublicKey, ed25519.PublicKeySize)}
		r.fixed(m.Key)
		g.Roster = append(g.Roster, m)
	}
	if err := r.done("genesis"); err != nil {
		return nil, err
	}
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("malformed genesis: %w", err)
	}
	return g, nil
}

// Check checks the genesis is a table one can play at.
func (g *Genesis) Check() error {
	if g.Name == "" || !utf8.ValidString(g.Name) || len(g.Name) > MaxNameSize {
		return fmt.Errorf("table name %q is empty, too long or not UTF-8", g.Name)
	}
	cfg := g.EngineConfig(0)
	if err := cfg.Validate(); err != nil {
		return err
	}
	if g.Timeout < time.Second {
		return fmt.Errorf("timeout %v is under a second", g.Timeout)
	}
	for i, m := range g.Roster {
		if !utf8.ValidString(m.Name) || len(m.Name) > MaxNameSize {
			return fmt.Errorf("seat %d: name is too long or not UTF-8", i)
		}
		for j := 0; j < i; j++ {
			if bytes.Equal(g.Roster[j].Key, m.Key) {
				return fmt.Errorf("seats %d and %d have the same key", j, i)
			}
		}
	}
	return nil
}

// EngineConfig is the engine configuration of the table, with the given first player (which
// joint randomness decides) and no deck (it stays encrypted until dealt).
func (g *Genesis) EngineConfig(first int) corruption.Config {
	return corruption.Config{Players: len(g.Roster), Variant: g.Variant, LittleBlackBook: g.LBB, First: first}
}

// SeatOf is the seat of an identity key, or -1.
func (g *Genesis) SeatOf(key ed25519.PublicKey) int {
	for i, m := range g.Roster {
		if bytes.Equal(m.Key, key) {
			return i
		}
	}
	return -1
}
