package seat

import (
	"errors"
	"testing"

	"corruption/protocol"
	"corruption/ui"
)

// heldOnly is a backend that writes only while its lock is held, as the browser's storage
// does (protocol/browserstore: the tab that holds the seat).
type heldOnly struct {
	*protocol.DirBackend
	held bool
}

func (b *heldOnly) Lock() error {
	if err := b.DirBackend.Lock(); err != nil {
		return err
	}
	b.held = true
	return nil
}

func (b *heldOnly) Unlock() { b.held = false; b.DirBackend.Unlock() }

var errNotHeld = errors.New("the seat is not held")

func (b *heldOnly) WriteFile(name string, data []byte) error {
	if !b.held {
		return errNotHeld
	}
	return b.DirBackend.WriteFile(name, data)
}

func (b *heldOnly) Remove(name string) error {
	if !b.held {
		return errNotHeld
	}
	return b.DirBackend.Remove(name)
}

// TestKeepAfterTheNodeEnds: once a node has ended (and given the store's lock up, as every
// node does), the seat still notes the next table, forgets the one it left and keeps the
// person's name, on a backend that writes only while held. Before, a phone that left a table
// it could not sit at (a full one) kept it noted, and came back to it instead of the lobby.
func TestKeepAfterTheNodeEnds(t *testing.T) {
	d, err := protocol.NewDirBackend(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := &heldOnly{DirBackend: d}
	s, err := protocol.NewStore(b)
	if err != nil {
		t.Fatal(err)
	}
	c := current{Choice: ui.TableChoice{Table: "ann's table", Game: "corruption", Players: 3}}
	if err := saveCurrent(s, c); err != nil {
		t.Fatal(err)
	}
	s.Close() // as a node does when its run ends
	var notes []string
	forgetCurrent(s, func(f string, a ...any) { notes = append(notes, f) })
	if _, ok := loadCurrent(s); ok || len(notes) > 0 {
		t.Errorf("the table left is still noted (%v)", notes)
	}
	s.Close()
	if err := saveCurrent(s, c); err != nil {
		t.Errorf("the next table is not noted: %v", err)
	}
	s.Close()
	if err := saveName(s, "bea"); err != nil || loadName(s) != "bea" {
		t.Errorf("the name is not kept: %v", err)
	}
}
