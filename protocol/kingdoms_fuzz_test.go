package protocol_test

import (
	"bytes"
	"errors"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/protocol"
)

// FuzzKingdomsMove feeds Corrupted Kingdoms' move decoder through Table.Append: at a move step
// of the golden log, the seat due signs a move entry of any bytes (with the hidden values its
// real entry carried). The observer's table never panics; an entry it takes carries a move the
// game decodes and encodes back byte for byte (or a pass, at a response); one it halts on names
// its author; one it refuses without a verdict changes nothing, and the log's real entry still
// goes in. Each execution works on a copy of a table built once.
//
//	go test -run='^$' -fuzz='^FuzzKingdomsMove$' -fuzztime=5m ./protocol/
func FuzzKingdomsMove(f *testing.F) {
	entries := readGolden(f, kingdomsGold)
	w := newWorld(f, goldSpecNamed(f, kingdomsGold), "")
	obs, err := protocol.NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		f.Fatal(err)
	}
	var seqs []int
	snaps := map[int]*protocol.Table{}
	for _, e := range entries[1:] {
		if e.Kind == protocol.KindMove {
			move, _, err := protocol.ParseMoveBodyForTest(e.Body)
			if err != nil {
				f.Fatal(err)
			}
			snaps[int(e.Seq)] = protocol.CloneForTest(obs)
			f.Add(uint16(len(seqs)), move)
			seqs = append(seqs, int(e.Seq))
		}
		if err := obs.Append(e); err != nil {
			f.Fatal(err)
		}
	}
	f.Add(uint16(0), []byte{})
	f.Add(uint16(3), []byte{byte(kingdoms.MoveInfluence), 0, 3, 0xff})
	f.Fuzz(func(t *testing.T, which uint16, move []byte) {
		seq := seqs[int(which)%len(seqs)]
		real := entries[seq]
		_, hidden, err := protocol.ParseMoveBodyForTest(real.Body)
		if err != nil {
			t.Fatal(err)
		}
		tb := protocol.CloneForTest(snaps[seq])
		e := &protocol.Entry{Table: tb.ID(), Seq: tb.Len(), Prev: tb.Head(), Seat: real.Seat, Kind: protocol.KindMove,
			Body: protocol.MoveBodyForTest(move, hidden...)}
		e.Sign(w.keys[real.Seat])
		len0, head0, digest0 := tb.Len(), tb.Head(), tb.Digest()
		err = tb.Append(e)
		var v *protocol.Verdict
		switch {
		case err == nil:
			if len(move) == 0 {
				return // a pass, at a response
			}
			m, derr := kingdoms.DecodeMove(real.Seat, move)
			b, eerr := kingdoms.EncodeMove(m)
			if m.Kind == kingdoms.MoveDiscard {
				b, eerr = []byte{byte(kingdoms.MoveDiscard)}, nil // its position travels hidden
			}
			if derr != nil || eerr != nil || !bytes.Equal(b, move) {
				t.Fatalf("the table took move %x, which decodes to %v (%v) and encodes to %x (%v)", move, m, derr, b, eerr)
			}
		case errors.As(err, &v):
			if v.Seat != real.Seat || v.Kind != protocol.VerdictCheat {
				t.Fatalf("move %x by seat %d: verdict %v", move, real.Seat, v)
			}
		default:
			if tb.Len() != len0 || tb.Head() != head0 || tb.Digest() != digest0 || tb.Verdict() != nil {
				t.Fatalf("move %x refused (%v), but the table changed", move, err)
			}
			if err := tb.Append(real); err != nil {
				t.Fatalf("after refusing move %x (%v), the table refuses the log's entry: %v", move, err, err)
			}
		}
	})
}
