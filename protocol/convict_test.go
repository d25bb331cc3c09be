package protocol_test

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/protocol"
)

// Convictions in lockstep (convict.go, docs/PROTOCOL.md "Convictions"): a seat's own signed
// entry that breaks a rule, at a table that escrows its seats' secrets, convicts the seat and
// opens it; the others play on, the stand-in in its place.

// cheatOnce has seat write, the first time it is due an entry of kind, the entry forge makes
// (signed with its key) instead of its own; its node is taken over from then on. at is set to
// the seq of the forged entry.
func cheatOnce(seat int, kind protocol.Kind, forge func(w *world, seat int) *protocol.Entry, at *uint64) hook {
	done := false
	return func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
		if w.obs.OpenDue() {
			return w.obs.OpenEntry()
		}
		if done || due != seat || kinds[0] != kind {
			return nil
		}
		done = true
		w.honest[seat] = false
		*at = w.obs.Len()
		return forge(w, seat)
	}
}

// garbage is an entry of the kind due whose body decodes to nothing.
func garbage(kind protocol.Kind) func(w *world, seat int) *protocol.Entry {
	return func(w *world, seat int) *protocol.Entry { return w.sign(seat, kind, []byte{0xde, 0xad}) }
}

// TestConvictionPlaysOn: at a toy table of four that escrows, one seat cheats once, in its own
// entry, in each of several ways; every node convicts it at that entry, the staying seats
// release its key, the stand-in plays it to the end, and the log audits valid, the conviction
// in the report. The log replays to the same table.
func TestConvictionPlaysOn(t *testing.T) {
	for _, c := range []struct {
		name  string
		kind  protocol.Kind // the entry due that the cheater replaces
		forge func(w *world, seat int) *protocol.Entry
		what  string // the conviction's What
		says  string // a piece of its reason
	}{
		{"shuffle not proven", protocol.KindShuffle, garbage(protocol.KindShuffle), "shuffle", "shuffle"},
		{"shares that do not decode", protocol.KindShares, garbage(protocol.KindShares), "shares", "share"},
		{"an entry out of place", protocol.KindShares, garbage(protocol.KindSignOff), "turn", "signoff entry when the table waits for its decryption shares"},
		{"a signoff of another digest", protocol.KindSignOff, func(w *world, seat int) *protocol.Entry {
			return w.sign(seat, protocol.KindSignOff, bytes.Repeat([]byte{7}, 32))
		}, "signoff", "signed off digest"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, escrowToy(4), "")
			const cheater = 2
			var at uint64
			if v := w.play(t, w.botDecider(t), cheatOnce(cheater, c.kind, c.forge, &at)); v != nil {
				t.Fatalf("the table halted: %v", v)
			}
			if at == 0 {
				t.Fatalf("seat %d was never due a %s entry", cheater, c.kind)
			}
			if !w.obs.Done() || w.obs.Verdict() != nil {
				t.Fatalf("the table ended with verdict %v, done %v; want it played to its end", w.obs.Verdict(), w.obs.Done())
			}
			cs := w.obs.Convictions()
			if len(cs) != 1 || cs[0].Seat != cheater || cs[0].Seq != at || cs[0].What != c.what || !strings.Contains(cs[0].Reason, c.says) {
				t.Fatalf("convictions %v; want seat %d at entry %d, what %q, for %q", cs, cheater, at, c.what, c.says)
			}
			if !w.obs.IsOpen(cheater) || !w.obs.Convicted(cheater) {
				t.Fatalf("seat %d: open %v, convicted %v", cheater, w.obs.IsOpen(cheater), w.obs.Convicted(cheater))
			}
			if e := w.log[at]; e.Seat != cheater || !e.Verify(w.keys[cheater].Public().(ed25519.PublicKey)) {
				t.Fatalf("entry %d is %s; want the cheater's own signed entry, kept as the proof", at, e)
			}
			// The staying seats' shares follow the proof at once.
			for s := at + 1; s < at+4; s++ {
				if w.log[s].Kind != protocol.KindRelease {
					t.Fatalf("entry %d is %s; want the staying seats' releases after the proof", s, w.log[s])
				}
			}
			rep, err := protocol.Audit(bytes.NewReader(logBytes(t, w.log)), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Valid || len(rep.Convicted) != 1 || rep.Convicted[0] != cs[0] {
				t.Fatalf("audit: valid %v (%s), convicted %v; want valid with %v", rep.Valid, rep.Problem, rep.Convicted, cs[0])
			}
			if obs := replayed(t, w.log); obs.Digest() != w.obs.Digest() || len(obs.Convictions()) != 1 {
				t.Fatal("the log replays to another table")
			}
		})
	}
}

// TestConvictionHalts: where no seat can be opened, a cheat halts the table as before, naming
// the cheater: at a table without escrow, before the game is under way, and the second cheat
// at a table of three (one seat would stay).
func TestConvictionHalts(t *testing.T) {
	for _, c := range []struct {
		name string
		spec worldSpec
		hook func(at []*uint64) hook
		want int // which cheat halts the table (0: the first)
	}{
		{"no escrow", goldSpecNamed(t, "toy-3"), func(at []*uint64) hook {
			return cheatOnce(1, protocol.KindShuffle, garbage(protocol.KindShuffle), at[0])
		}, 0},
		{"before the game", escrowToy(4), func(at []*uint64) hook {
			return cheatOnce(1, protocol.KindEscrow, garbage(protocol.KindEscrow), at[0])
		}, 0},
		{"a second cheat at three seats", escrowToy(3), func(at []*uint64) hook {
			first := cheatOnce(1, protocol.KindShuffle, garbage(protocol.KindShuffle), at[0])
			second := cheatOnce(2, protocol.KindShares, garbage(protocol.KindShares), at[1])
			return func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
				if e := first(w, due, kinds); e != nil {
					return e
				}
				return second(w, due, kinds)
			}
		}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, c.spec, "")
			var at [2]uint64
			v := w.play(t, w.botDecider(t), c.hook([]*uint64{&at[0], &at[1]}))
			cheaters := []int{1, 2}
			if v == nil || v.Kind != protocol.VerdictCheat || v.Seat != cheaters[c.want] || v.Seq != at[c.want] || at[c.want] == 0 {
				t.Fatalf("verdict %v (cheats at entries %v); want a cheat naming seat %d at entry %d", v, at, cheaters[c.want], at[c.want])
			}
			if c.want > 0 {
				if cs := w.obs.Convictions(); len(cs) != 1 || cs[0].Seat != cheaters[0] || cs[0].Seq != at[0] {
					t.Fatalf("convictions %v; want the first cheat's, which the table played on from", cs)
				}
			}
			rep, err := protocol.Audit(bytes.NewReader(logBytes(t, append(w.log, w.obs.Evidence()...))), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Valid || rep.Blamed != v.Seat || rep.At != int64(v.Seq) {
				t.Fatalf("audit: valid %v, blamed %d at %d (%s); want seat %d blamed at %d", rep.Valid, rep.Blamed, rep.At, rep.Problem, v.Seat, v.Seq)
			}
		})
	}
}

// BenchmarkConviction is the time a node takes to convict a cheat late in a game and play on:
// a Corruption table of four with escrow, a seat's malformed shares at the last deal of the
// game, appended to a node's table that holds the log before it (the rewind replays that log).
//
//	go test ./protocol/ -run '^$' -bench Conviction -benchtime 5x
func BenchmarkConviction(b *testing.B) {
	spec := corruptionWorld("convict-4", "4 players, escrow", 4, 0, false)
	spec.escrow = true
	w := newWorld(b, spec, "")
	dec := w.botDecider(b)
	var at uint64
	var last *protocol.Entry
	// Play the whole game once to find the last shares entry; then replay up to it.
	w.play(b, dec, func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
		if kinds[0] == protocol.KindShares {
			at = w.obs.Len()
		}
		return nil
	})
	if at == 0 {
		b.Fatal("no shares entry")
	}
	log := w.log[:at]
	last = w.log[at]
	bad := *last
	bad.Body = []byte{0xde, 0xad}
	bad.Sign(seatKey(w.obs, w.rosterKeys, last.Seat))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tb := replayed(b, log)
		b.StartTimer()
		if err := tb.Append(&bad); err != nil {
			b.Fatalf("the cheat halts the table: %v", err)
		}
		if len(tb.Convictions()) != 1 {
			b.Fatal("no conviction")
		}
	}
	b.ReportMetric(float64(at), "entries-before")
}
