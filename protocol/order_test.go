package protocol_test

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"slices"
	"strings"
	"testing"

	"corruption/crypto"
	"corruption/engine/corruption"
	"corruption/protocol"
)

// The seat order (docs/PROTOCOL.md, "Seats"): once every key is in, each seat in roster order
// reveals the first link of its random chain, and a permutation drawn from all the reveals
// seats the players.

// drawOrder is an independent reading of docs/PROTOCOL.md's draw: Fisher–Yates over the roster,
// position i taking one of the n−i players left with JointInt under "seat order i", from the
// reveals in roster order. It returns the roster index at each seat.
func drawOrder(t testing.TB, g *protocol.Genesis, id [32]byte, reveals []*protocol.Entry) []int {
	t.Helper()
	ctx := crypto.Context{Table: id[:]}
	for _, m := range g.Roster {
		ctx.Roster = append(ctx.Roster, []byte(m.Key))
	}
	var rs []crypto.RandomReveal
	for _, e := range reveals {
		r, err := crypto.ParseRandomReveal(e.Body)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	n := len(g.Roster)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < n-1; i++ {
		j, err := crypto.JointInt(ctx.WithStep(fmt.Sprintf("seat order %d", i)), rs, n-i)
		if err != nil {
			t.Fatal(err)
		}
		perm[i], perm[i+j] = perm[i+j], perm[i]
	}
	return perm
}

// TestSeatOrder draws the seat order of many tables of the same players (one genesis nonce
// each), in lockstep worlds: the keys and the order's reveals come in roster order, one a seat;
// the order is the permutation docs/PROTOCOL.md draws from the reveals, the same on every node
// and for the observer; each node's Self takes its seat in it; the genesis roster stays as it
// was heard. Across the tables the order is not the roster's every time, and every roster index
// sits at every seat.
func TestSeatOrder(t *testing.T) {
	t.Parallel()
	const n, tables = 4, 48
	spec := corruptionWorld("order", "seat order", n, corruption.Standard, false)
	sat := make([][]int, n) // sat[roster index][seat]: how many tables seated it there
	for i := range sat {
		sat[i] = make([]int, n)
	}
	identity := 0
	for k := range tables {
		w := newWorld(t, spec, fmt.Sprint(k))
		dec := w.botDecider(t)
		g := w.obs.Genesis()
		for i := range 2 * n {
			if w.obs.Ordered() {
				t.Fatalf("table %d: the order is drawn after %d entries, before every seat revealed", k, w.obs.Len())
			}
			if !slices.EqualFunc(w.obs.Players(), g.Roster, sameMember) {
				t.Fatalf("table %d: before the draw the players are not the roster", k)
			}
			seat, kinds := w.obs.Due()
			want := protocol.KindKey
			if i >= n {
				want = protocol.KindRandom
			}
			if seat != i%n || len(kinds) != 1 || kinds[0] != want {
				t.Fatalf("table %d, entry %d: the table waits for seat %d to write %v, want seat %d and %s", k, w.obs.Len(), seat, kinds, i%n, want)
			}
			w.feed(t, w.write(t, dec))
		}
		if !w.obs.Ordered() || w.obs.Game() == nil {
			t.Fatalf("table %d: after every key and reveal the order is not drawn (or the game not started)", k)
		}
		order := rosterOrder(w.obs)
		if want := drawOrder(t, g, w.obs.ID(), w.log[n+1:2*n+1]); !slices.Equal(order, want) {
			t.Fatalf("table %d: the table seats roster indices %v, docs/PROTOCOL.md's draw %v", k, order, want)
		}
		if again, err := protocol.ParseGenesis(w.genesis.Body); err != nil || !slices.EqualFunc(again.Roster, g.Roster, sameMember) {
			t.Fatalf("table %d: the genesis roster changed with the draw", k)
		}
		for seat, tb := range w.tables { // reseated: tables[seat] is the node at seat
			if !slices.Equal(rosterOrder(tb), order) {
				t.Fatalf("table %d: seat %d's node seats %v, the observer %v", k, seat, rosterOrder(tb), order)
			}
			if got := w.selves[seat].Seat(); got != seat || !bytes.Equal(w.keys[seat].Public().(ed25519.PublicKey), w.obs.Players()[seat].Key) {
				t.Fatalf("table %d: the node of the player at seat %d says it sits at seat %d", k, seat, got)
			}
		}
		if slices.Equal(order, []int{0, 1, 2, 3}) {
			identity++
		}
		for seat, r := range order {
			sat[r][seat]++
		}
		// The game then plays on in the drawn order: the next entries (the first player's draw)
		// come from seat 0, 1, ... of it.
		for s := range n {
			seat, kinds := w.obs.Due()
			if seat != s || kinds[0] != protocol.KindRandom {
				t.Fatalf("table %d: the first draw of the game waits for seat %d (%v), want seat %d", k, seat, kinds, s)
			}
			w.feed(t, w.write(t, dec))
		}
	}
	if identity == tables {
		t.Fatalf("all %d tables seat the players in roster order", tables)
	}
	for r := range n {
		for seat := range n {
			if sat[r][seat] == 0 {
				t.Errorf("roster index %d never sat at seat %d in %d tables: %v", r, seat, tables, sat)
			}
		}
	}
	t.Logf("%d tables of %d seats: %d in roster order; sat[roster index][seat] = %v", tables, n, identity, sat)
}

func sameMember(a, b protocol.Member) bool { return a.Name == b.Name && a.Key.Equal(b.Key) }

// TestSeatOrderCheats: a bad reveal for the seat order's draw is a cheat, named at its entry
// by the seat (the roster index) that wrote it, on every node and in the audit; the order is
// never drawn. The last revealer, who writes knowing every other reveal, is tried too.
func TestSeatOrderCheats(t *testing.T) {
	const n = 3
	spec := corruptionWorld("order cheats", "seat order cheats", n, corruption.Standard, false)
	for _, tc := range []struct {
		name   string
		seat   int // the roster index that cheats
		body   func(w *world, seat int) []byte
		kind   protocol.Kind
		reason string
	}{
		{"off its chain", 0, func(*world, int) []byte { return bytes.Repeat([]byte{7}, 32) }, protocol.KindRandom, "does not follow its chain"},
		{"the last, off its chain", n - 1, func(*world, int) []byte { return bytes.Repeat([]byte{9}, 32) }, protocol.KindRandom, "does not follow its chain"},
		{"another seat's reveal", 1, func(w *world, seat int) []byte { return w.log[len(w.log)-1].Body }, protocol.KindRandom, "does not follow its chain"},
		{"its anchor again", 2, func(w *world, seat int) []byte { return w.log[1+seat].Body[len(w.log[1+seat].Body)-32:] }, protocol.KindRandom, "does not follow its chain"},
		{"a short reveal", 1, func(*world, int) []byte { return make([]byte, 31) }, protocol.KindRandom, "malformed random entry"},
		{"a key where its reveal is due", 0, func(w *world, seat int) []byte { return w.log[1+seat].Body }, protocol.KindKey, "waits for its random reveal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, spec, "cheat "+tc.name)
			dec := w.botDecider(t)
			for w.obs.Len() < uint64(n+1+tc.seat) {
				w.feed(t, w.write(t, dec))
			}
			if seat, kinds := w.obs.Due(); seat != tc.seat || kinds[0] != protocol.KindRandom || w.obs.Ordered() {
				t.Fatalf("the table waits for seat %d (%v), want seat %d's reveal for the order", seat, kinds, tc.seat)
			}
			w.honest[tc.seat] = false
			e := w.sign(tc.seat, tc.kind, tc.body(w, tc.seat))
			v := w.feed(t, e)
			if v == nil || v.Kind != protocol.VerdictCheat || v.Seat != tc.seat || v.Seq != e.Seq || !strings.Contains(v.Reason, tc.reason) {
				t.Fatalf("verdict %v, want seat %d cheated at %d with %q", v, tc.seat, e.Seq, tc.reason)
			}
			if w.obs.Ordered() || w.obs.Game() != nil {
				t.Fatal("a table halted in the draw seats its players")
			}
			rep := auditBytes(t, logBytes(t, w.log)) // the log ends with the offending entry
			if rep.Valid || rep.Blamed != tc.seat || rep.At != int64(e.Seq) || rep.Verdict == nil || rep.Verdict.Kind != protocol.VerdictCheat {
				t.Fatalf("audit %+v, want seat %d blamed at %d", rep, tc.seat, e.Seq)
			}
		})
	}
}
