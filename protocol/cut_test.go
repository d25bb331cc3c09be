package protocol_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"corruption/engine"
	"corruption/protocol"
)

// Equivocations settled by playing on (cut.go, docs/PROTOCOL.md "Equivocation: one outcome"),
// in lockstep: the twins of one seat cut every node's log at their place, whichever twin a node
// built on, and the table plays on without the seat: its key released, the staying seats'
// reshuffle, then the stand-in.

// cutWorlds are the tables the cut is tried at: the toy (private deals, a choice, a peek) and
// Corruptia (dice in the game, thrown after the cut from the staying seats' fresh chains).
func cutWorlds() []worldSpec {
	c := corruptiaWorld("cut-corruptia-4", "4 senators, escrow", 4)
	c.escrow = true
	return []worldSpec{escrowToy(4), c}
}

// TestEquivocationCut: seat 1 signs two entries for its first decryption shares after the first
// shuffle: its own, which every node applies and builds on for a few entries (shares published
// on that branch included), and a second one. Given the second, every node cuts its log at the
// twins, takes the same twins entry there, and plays on to a valid end: the seat convicted of
// equivocation and opened, the staying seats' releases, then their reshuffle, then the
// stand-in. A node that saw the other twin first ends on the same log. The entries of the
// dropped branch are refused afterwards without blaming anyone: an honest seat's entry there
// and its entry at the same seq after the cut are not its equivocation.
func TestEquivocationCut(t *testing.T) {
	for _, spec := range cutWorlds() {
		t.Run(spec.name, func(t *testing.T) {
			w := newWorld(t, spec, "")
			dec := w.botDecider(t)
			const cheater = 1
			w.playUntil(t, dec, openHook, func() bool {
				seat, kinds := w.obs.Due()
				return seat == cheater && kinds[0] == protocol.KindShares
			})
			at := w.obs.Len()
			a := w.write(t, dec) // the cheater's own shares
			b := w.sign(cheater, protocol.KindShares, []byte{0xde, 0xad})
			before := slices.Clone(w.log)
			if v := w.feed(t, a); v != nil {
				t.Fatalf("the cheater's own entry: %v", v)
			}
			// The branch the cut drops: a few entries built on the first twin.
			for range 6 {
				if v := w.feed(t, w.write(t, dec)); v != nil {
					t.Fatalf("the table halted on the first branch: %v", v)
				}
			}
			dropped := slices.Clone(w.log[at+1:])
			// The second twin: every node cuts.
			err := w.obs.Append(b)
			var cut *protocol.CutError
			if !errors.As(err, &cut) || cut.Seq != at || cut.Seat != cheater || cut.Dropped != len(dropped)+1 {
				t.Fatalf("the observer, given the second twin: %v; want a cut at entry %d naming seat %d, dropping %d entries", err, at, cheater, len(dropped)+1)
			}
			for i, tb := range w.tables {
				if err := tb.Append(b); !errors.As(err, &cut) || cut.Seq != at {
					t.Fatalf("seat %d's node, given the second twin: %v; want a cut at entry %d", i, err, at)
				}
				if tb.Len() != at+1 || tb.Head() != w.obs.Head() {
					t.Fatalf("seat %d's node holds %d entries after the cut; want %d, ending in the observer's twins entry", i, tb.Len(), at+1)
				}
			}
			w.log = append(w.log[:at:at], w.obs.Entries(at)...)
			twins := w.log[at]
			if twins.Kind != protocol.KindTwins || twins.Seat != cheater || !bytes.Equal(twins.Marshal(), protocol.TwinsEntry(b, a).Marshal()) {
				t.Fatalf("entry %d after the cut is %s; want the twins entry of the two", at, twins)
			}
			// A node that saw the second twin first (a cheat by itself: convicted and played on)
			// cuts when it sees the first, to the same log.
			other := replayed(t, before)
			if err := other.Append(b); err != nil {
				t.Fatalf("the second twin, first: %v", err)
			}
			if err := other.Append(a); !errors.As(err, &cut) {
				t.Fatalf("the first twin, second: %v; want a cut", err)
			}
			if other.Head() != w.obs.Head() {
				t.Fatal("a node that saw the twins in the other order holds another log")
			}
			// The dropped branch blames nobody now (what lies ahead of the log waits for it).
			refused := func(when string, ahead bool) {
				for _, e := range dropped {
					err := w.obs.Append(e)
					var rj *protocol.RejectError
					var gap *protocol.GapError
					if !(errors.As(err, &rj) || ahead && errors.As(err, &gap)) || w.obs.Verdict() != nil {
						t.Fatalf("%s of the dropped branch, %s: %v; want it refused, blaming nobody", e, when, err)
					}
				}
			}
			refused("after the cut", true)
			if v := w.play(t, dec, openHook); v != nil {
				t.Fatalf("the table halted after the cut: %v", v)
			}
			refused("once the game is over", false)
			if !w.obs.Done() {
				t.Fatal("the table did not finish")
			}
			cs := w.obs.Convictions()
			if len(cs) != 1 || cs[0].Seat != cheater || cs[0].Seq != at || cs[0].What != "equivocation" || !w.obs.IsOpen(cheater) || w.obs.Cuts() != 1 {
				t.Fatalf("convictions %v, open %v, cuts %d; want seat %d convicted of equivocation at entry %d, open", cs, w.obs.IsOpen(cheater), w.obs.Cuts(), cheater, at)
			}
			// After the twins: the three staying seats' releases, then their reshuffles, in seat
			// order, then the stand-in's shares where the cheater broke off.
			var kinds []protocol.Kind
			var seats []int
			for _, e := range w.log[at+1 : at+8] {
				kinds, seats = append(kinds, e.Kind), append(seats, e.Seat)
			}
			R, S := protocol.KindRelease, protocol.KindShuffle
			if !slices.Equal(kinds, []protocol.Kind{R, R, R, S, S, S, protocol.KindShares}) || !slices.Equal(seats[3:], []int{0, 2, 3, cheater}) {
				t.Fatalf("after the twins: kinds %v by seats %v; want three releases, three reshuffles by seats 0, 2, 3, then seat %d's shares", kinds, seats, cheater)
			}
			// Each reshuffle carries decks (cards nobody had seen were left: the first shuffle's
			// undealt ones) besides its fresh chain's anchor.
			for _, e := range w.log[at+4 : at+7] {
				if len(e.Body) <= 64 {
					t.Fatalf("%s carries %d bytes: no deck reshuffled", e, len(e.Body))
				}
			}
			if spec.game != toyID {
				// Corruptia throws dice after the cut: from the staying seats' fresh chains.
				if n := countKinds(w.log[at+7:])[protocol.KindRandom]; n == 0 {
					t.Fatal("no random draw after the cut: the fresh chains are not tried")
				}
			}
			auditsConvicted(t, w, cs[0])
		})
	}
}

// TestThreeTwins: a seat that signed three entries for one place gives three twins entries;
// every node ends on the lowest, whatever order it saw the three in.
func TestThreeTwins(t *testing.T) {
	w := newWorld(t, escrowToy(4), "")
	dec := w.botDecider(t)
	const cheater = 2
	w.playUntil(t, dec, openHook, func() bool {
		seat, kinds := w.obs.Due()
		return seat == cheater && kinds[0] == protocol.KindShares
	})
	x := []*protocol.Entry{w.write(t, dec), w.sign(cheater, protocol.KindShares, []byte{1}), w.sign(cheater, protocol.KindShares, []byte{2})}
	var lowest *protocol.Entry
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			p := protocol.TwinsEntry(x[i], x[j])
			if h, l := p.Hash(), lowest; l == nil || bytes.Compare(h[:], func() []byte { lh := l.Hash(); return lh[:] }()) < 0 {
				lowest = p
			}
		}
	}
	for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {0, 2, 1}} {
		tb := replayed(t, w.log)
		for _, i := range order {
			err := tb.Append(x[i])
			var cut *protocol.CutError
			var rj *protocol.RejectError
			if err != nil && !errors.As(err, &cut) && !errors.As(err, &rj) {
				t.Fatalf("order %v: entry %d: %v", order, i, err)
			}
			if tb.Verdict() != nil {
				t.Fatalf("order %v: the table halted: %v", order, tb.Verdict())
			}
		}
		if got := tb.Entries(w.obs.Len())[0]; got.Hash() != lowest.Hash() {
			t.Fatalf("order %v: the log holds %s; want the lowest of the three twins entries", order, got)
		}
	}
}

// TestEquivocationHaltsWithoutEscrow: where the seat cannot be opened (no escrow), twins halt
// the table naming the seat, as before version 5, whichever twin a node built on.
func TestEquivocationHaltsWithoutEscrow(t *testing.T) {
	spec := escrowToy(4)
	spec.escrow, spec.name = false, "cut-no-escrow"
	w := newWorld(t, spec, "")
	dec := w.botDecider(t)
	const cheater = 3
	w.playUntil(t, dec, openHook, func() bool {
		seat, kinds := w.obs.Due()
		return seat == cheater && kinds[0] == protocol.KindShares
	})
	at := w.obs.Len()
	a, b := w.write(t, dec), w.sign(cheater, protocol.KindShares, []byte{9})
	w.feed(t, a)
	w.feed(t, w.write(t, dec))
	err := w.obs.Append(b)
	var v *protocol.Verdict
	if !errors.As(err, &v) || v.Kind != protocol.VerdictEquivocation || v.Seat != cheater || v.Seq != at {
		t.Fatalf("twins at a table without escrow: %v; want the table halted for seat %d's equivocation at entry %d", err, cheater, at)
	}
	if ev := w.obs.Evidence(); len(ev) != 2 || ev[0].Hash() == ev[1].Hash() {
		t.Fatalf("evidence %v; want both twins", ev)
	}
}

// BenchmarkCut is the time from a seat's second twin to the table ready for its next entry, at a
// four-seat Corruption table that escrows, the twins being the last decryption shares of the
// game and the first twin built on by the entries that follow it up to the sign-off: the log
// before the twins replayed, and the twins entry applied (docs/PERFORMANCE.md, "Convictions"):
//
//	go test ./protocol/ -run '^$' -bench Cut -benchtime 5x -count 3
func BenchmarkCut(b *testing.B) {
	spec := corruptionWorld("cut-4", "4 players, escrow", 4, 0, false)
	spec.escrow = true
	w := newWorld(b, spec, "")
	var at uint64
	w.play(b, w.botDecider(b), func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
		if kinds[0] == protocol.KindShares {
			at = w.obs.Len()
		}
		return nil
	})
	if at == 0 {
		b.Fatal("no shares entry")
	}
	first := w.log[at]
	twin := *first
	twin.Body = []byte{0xde, 0xad}
	twin.Sign(seatKey(w.obs, w.rosterKeys, first.Seat))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tb := replayed(b, w.log)
		b.StartTimer()
		var cut *protocol.CutError
		if err := tb.Append(&twin); !errors.As(err, &cut) || tb.Len() != at+1 {
			b.Fatalf("the second twin: %v; want a cut at entry %d", err, at)
		}
	}
	b.ReportMetric(float64(at), "entries-before")
	b.ReportMetric(float64(len(w.log))-float64(at), "entries-dropped")
}

// auditsConvicted checks that the world's log audits valid with the one conviction c, and replays
// to the same table.
func auditsConvicted(t *testing.T, w *world, c protocol.Conviction) {
	t.Helper()
	rep, err := protocol.Audit(bytes.NewReader(logBytes(t, w.log)), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Valid || len(rep.Convicted) != 1 || rep.Convicted[0] != c {
		t.Fatalf("audit: valid %v (%s), convicted %v; want valid with %v", rep.Valid, rep.Problem, rep.Convicted, c)
	}
	if obs := replayed(t, w.log); obs.Digest() != w.obs.Digest() {
		t.Fatal("the log replays to another table")
	}
}
