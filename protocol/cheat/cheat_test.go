package cheat

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"

	"corruption/protocol"
)

func TestParse(t *testing.T) {
	for spec, n := range map[string]int{"garbage-shuffle": 1, "silent@3": 3, "equivocate@1": 1} {
		c, err := Parse(spec)
		if err != nil || c.n != n {
			t.Errorf("Parse(%q): %+v, %v; want its chance %d", spec, c, err, n)
		}
	}
	for spec, says := range map[string]string{
		"steal-cards":       "no such cheat",
		"silent@0":          "not a chance's number",
		"silent@x":          "not a chance's number",
		"garbage-shuffle@-": "not a chance's number",
	} {
		if _, err := Parse(spec); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("Parse(%q): %v; want an error saying %q", spec, err, says)
		}
	}
	list := List()
	for _, k := range Kinds {
		if !strings.Contains(list, k.Name+" ") || k.About == "" {
			t.Errorf("the list misses %s or says nothing of it", k.Name)
		}
	}
}

// TestTamper: a cheater lets its node's entries through until its kind's Nth chance, cheats
// there once (signed with the node's key), and is honest after; a silent one stays silent at
// the entry it withheld.
func TestTamper(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, 32))
	entry := func(seq uint64, k protocol.Kind) *protocol.Entry {
		e := &protocol.Entry{Version: protocol.EntryVersion, Seq: seq, Seat: 1, Kind: k, Body: []byte{1, 2, 3}}
		e.Sign(key)
		return e
	}
	c, err := Parse("garbage-shares@2")
	if err != nil {
		t.Fatal(err)
	}
	tamper := c.Tamper(key)
	for seq, k := range []protocol.Kind{protocol.KindShuffle, protocol.KindShares, protocol.KindMove, protocol.KindShares, protocol.KindShares} {
		e := entry(uint64(seq), k)
		keep, send := tamper(e)
		cheats := seq == 3 // the second shares
		switch {
		case !cheats && (keep != e || len(send) != 1 || send[0] != e):
			t.Fatalf("entry %d (%s): kept %v, sent %v; want it through as it is", seq, k, keep, send)
		case cheats && (keep == nil || keep == e || !bytes.Equal(keep.Body, []byte{0xde, 0xad}) || !keep.Verify(key.Public().(ed25519.PublicKey)) || len(send) != 1 || send[0] != keep):
			t.Fatalf("entry %d: kept %v, sent %v; want the forged entry, signed", seq, keep, send)
		}
	}
	if fired, at := c.Fired(); !fired || at != 3 {
		t.Fatalf("fired %v at %d; want entry 3", fired, at)
	}
	s, _ := Parse("silent")
	quiet := s.Tamper(key)
	e := entry(7, protocol.KindMove)
	for range 3 {
		if keep, send := quiet(e); keep != nil || send != nil {
			t.Fatalf("a silent cheater wrote %v, sent %v", keep, send)
		}
	}
	if keep, _ := quiet(entry(9, protocol.KindMove)); keep == nil {
		t.Fatal("the silent cheater stays silent past the entry it withheld")
	}
	eq, _ := Parse("equivocate")
	keep, send := eq.Tamper(key)(e)
	if keep != e || len(send) != 2 || send[0] != e || send[1].Seq != e.Seq || bytes.Equal(send[1].Body, e.Body) || !send[1].Verify(key.Public().(ed25519.PublicKey)) {
		t.Fatalf("equivocate: kept %v, sent %v; want its entry and another signed version for the same seq", keep, send)
	}
}
