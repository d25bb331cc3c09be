package protocol_test

import (
	"bytes"
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
)

// TestTableLockstep plays whole Corruption tables in lockstep worlds, for several sizes and
// variants: every seat's node takes every entry, agrees with the observer at each (world.feed
// checks it), and ends complete with the observer's digest.
func TestTableLockstep(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n   int
		v   corruption.Variant
		lbb bool
	}{{3, corruption.Standard, false}, {4, corruption.FreeStud, true}, {5, corruption.DownTheRiver, true}, {7, corruption.Closed, false}} {
		name := fmt.Sprintf("%d-%s-%v", tc.n, tc.v, tc.lbb)
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, corruptionWorld("lockstep "+name, name, tc.n, tc.v, tc.lbb), "")
			if v := w.play(t, w.botDecider(t), nil); v != nil {
				t.Fatalf("an honest table halts: %v", v)
			}
			for i, tb := range w.tables {
				if !tb.Done() || tb.Verdict() != nil || tb.Digest() != w.obs.Digest() {
					t.Fatalf("table %d: done %v, verdict %v, or another digest", i, tb.Done(), tb.Verdict())
				}
			}
			t.Logf("%d entries, winners %v", w.obs.Len(), w.obs.Game().Outcome().Winners)
		})
	}
}

// TestRestartRewritesEntries: a node restarted from its log and its seed at any point rebuilds
// its secrets and its hidden values (from its notes), and writes the very entry it had written
// before, byte for byte (docs/PROTOCOL.md, "One root secret a seat"). For each golden log, a
// fresh node of the seat due replays the log up to an entry of every kind, then writes it.
func TestRestartRewritesEntries(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"standard-3", "freestud-lbb-4", "toy-3"} {
		t.Run(name, func(t *testing.T) {
			spec := goldSpecNamed(t, name)
			entries := readGolden(t, name)
			script := goldScript(t, entries)
			w := newWorld(t, spec, "") // not fed: its nodes stay in roster order
			order := seatOrderOf(t, entries)
			kinds := map[string]int{}
			for _, e := range entries[1:] {
				// Each kind's first two entries before the seat order is drawn and after, the
				// entry that draws it and the next, and every seventh entry.
				k := fmt.Sprint(e.Kind, e.Seq > order.drawnAt)
				edge := e.Seq == order.drawnAt || e.Seq == order.drawnAt+1
				if kinds[k]++; kinds[k] > 2 && e.Seq%7 != 0 && !edge {
					continue
				}
				author := order.rosterIndex(e.Seq, e.Seat)
				self := protocol.NewSelf(w.rosterKeys[author], w.selves[author].Seed)
				tb, err := protocol.NewTable(entries[0], self, engine.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range entries[1:e.Seq] {
					if err := tb.Append(x); err != nil {
						t.Fatal(err)
					}
				}
				again, err := tb.NextEntry(script[e.Seq])
				if err != nil || !bytes.Equal(again.Marshal(), e.Marshal()) {
					t.Fatalf("seat %d's node, restarted before %s, writes %v (%v)", e.Seat, e, again, err)
				}
			}
		})
	}
}
