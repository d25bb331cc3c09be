package protocol

import (
	"testing"

	"corruption/crypto"
	"corruption/engine"
)

// TestLayoutSizes pins the sizes docs/PROTOCOL.md states for the bodies ("Kinds and who writes
// them", "Hidden values", "Peeks"), which the privacy test reads by layout: a committed value is
// a 32-byte commitment and a 49-byte note; a note seals a value padded to 33 bytes; a sealed
// answer seals an opening padded to 65 bytes; a share is 96 bytes.
func TestLayoutSizes(t *testing.T) {
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"a committed value", committedSize, 32 + 49},
		{"a note to self", noteSize, 49},
		{"a note's padded value", notePlain, 33},
		{"a sealed answer's padded opening", answerSize, 65},
		{"a decryption share", crypto.ShareSize, 96},
		{"a hidden value, at most", engine.MaxValueSize, 32},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes; docs/PROTOCOL.md says %d", c.what, c.got, c.want)
		}
	}
	// A commit entry's body is exactly one committed value.
	s := NewSelf(nil, [32]byte{})
	s.seat, s.root = 0, mustKey(t)
	tb := &Table{self: s}
	tb.ctx = crypto.Context{Table: []byte("t"), Roster: [][]byte{{1}}}
	c, err := s.hide(tb, 0, []byte("da"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.note) + len(c.commit); n != committedSize {
		t.Errorf("a committed value encodes to %d bytes, want %d", n, committedSize)
	}
}

func mustKey(t *testing.T) *crypto.PrivateKey {
	k, err := crypto.GenerateKey(newPRF([]byte("k"), [32]byte{}, "layout"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
