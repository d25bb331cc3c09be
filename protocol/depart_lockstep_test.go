package protocol_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/protocol"
)

// Departures in lockstep (world_test.go): a seat opened by the world's staying nodes, then the
// stand-in's decisions and the escrow's last checks, without a network.

// depart opens the seat due: every staying seat's node signs its agreement, every node takes
// the depart entry built from them, and the staying seats write their shares in turn.
func (w *world) depart(t testing.TB, dec decider) {
	t.Helper()
	seat, _ := w.obs.Due()
	if why := w.obs.Departable(); why != "" {
		t.Fatalf("seat %d cannot be opened at entry %d: %s", seat, w.obs.Len(), why)
	}
	agreements := map[int]*protocol.Departure{}
	for s, tb := range w.tables {
		if s != seat && !w.obs.IsOpen(s) {
			agreements[s] = tb.Agreement(w.selves[s])
		}
	}
	e := w.obs.DepartEntry(agreements)
	if e == nil {
		t.Fatalf("no depart entry for seat %d from %d agreements", seat, len(agreements))
	}
	if v := w.feed(t, e); v != nil {
		t.Fatalf("the depart entry of seat %d: %v", seat, v)
	}
	for !w.obs.IsOpen(seat) && w.obs.Verdict() == nil {
		w.feed(t, w.write(t, dec))
	}
}

// openHook has every node compute the open seat's entry, as a node does.
func openHook(w *world, _ int, _ []protocol.Kind) *protocol.Entry {
	if w.obs.OpenDue() {
		return w.obs.OpenEntry()
	}
	return nil
}

// playUntil plays the table in lockstep until stop holds (or the table ends: it fails then).
func (w *world) playUntil(t testing.TB, dec decider, h hook, stop func() bool) {
	t.Helper()
	for !stop() {
		seat, kinds := w.obs.Due()
		if seat < 0 {
			t.Fatalf("the table ended (%v) before the point the test wants", w.obs.Verdict())
		}
		e := h(w, seat, kinds)
		if e == nil {
			e = w.write(t, dec)
		}
		if v := w.feed(t, e); v != nil {
			t.Fatalf("a verdict before the point the test wants: %v", v)
		}
	}
}

// replayed is an observer's table of entries.
func replayed(t testing.TB, entries []*protocol.Entry) *protocol.Table {
	t.Helper()
	obs, err := protocol.NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries[1:] {
		if err := obs.Append(e); err != nil {
			t.Fatalf("replaying %s: %v", e, err)
		}
	}
	return obs
}

// TestStandInNotSteered: at a 3-seat toy table with escrow, a seat is opened before the bid,
// where the open seat commits right after a live seat. That seat can rewrite the note to itself
// in its commit (nobody else can read it, so every node accepts it) and sign it again, as often
// as it likes: the stand-in's bid must not change. (Version 2 seeded the stand-in with the hash
// of the entry before, and the toy's stand-in picks its bid by the seed: rewritten notes picked
// both cards.)
func TestStandInNotSteered(t *testing.T) {
	w := newWorld(t, escrowToy(3), "")
	dec := w.botDecider(t)
	// The seat to open: one that is due in the deal and is not the first bidder (so that a live
	// seat commits just before it).
	w.playUntil(t, dec, openHook, func() bool {
		g, ok := w.obs.Game().(*toy)
		seat, _ := w.obs.Due()
		return ok && g.stage == toyDeal && seat != g.first && w.obs.Departable() == ""
	})
	open, _ := w.obs.Due()
	w.depart(t, dec)
	w.playUntil(t, dec, openHook, func() bool {
		seat, kinds := w.obs.Due()
		return seat == open && kinds[0] == protocol.KindCommit
	})
	before := w.log[len(w.log)-1]
	if before.Kind != protocol.KindCommit || before.Seat == open {
		t.Fatalf("the entry before the open seat's bid is %s", before)
	}
	want := w.obs.OpenEntry()
	key := w.keys[before.Seat]
	for k := range 8 {
		f := *before
		f.Body = bytes.Clone(before.Body)
		note := sha256.Sum256(fmt.Appendf(nil, "another note %d", k))
		copy(f.Body[len(f.Body)-len(note):], note[:]) // the note's last 32 bytes (it has 49)
		f.Sign(key)
		obs := replayed(t, append(append([]*protocol.Entry(nil), w.log[:len(w.log)-1]...), &f))
		got := obs.OpenEntry()
		if got == nil || !bytes.Equal(got.Body, want.Body) {
			t.Fatalf("with seat %d's note rewritten (%d), the open seat's bid is another: the stand-in was steered", before.Seat, k)
		}
	}
}

// TestEscrowBadShareFoundLate: at a 4-seat toy table with escrow, dealer D seals a bad share of
// its key to O, which does not complain (its reveal for the seat order says its shares check).
// O's seat is opened, then D's: rebuilding D's key opens, with O's rebuilt key, a share that
// does not check. The log proves D dealt it: the table halts with a cheat verdict naming D, at
// the last share of D's key, on every node and in the audit (version 2 halted "broken", naming
// nobody).
func TestEscrowBadShareFoundLate(t *testing.T) {
	w := newWorld(t, escrowToy(escrowN), "")
	dec := w.botDecider(t)
	bad := escrowDealHook(escrowDealer, func(w *world) []byte { return escrowBadShare(t, w, escrowDealer, escrowVictim) })
	quiet := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if seat != escrowVictim || kinds[0] != protocol.KindRandom || w.obs.Ordered() {
			return nil
		}
		b, err := protocol.RevealForTest(w.tables[seat])
		if err != nil {
			t.Fatal(err)
		}
		w.honest[seat] = false
		return w.sign(seat, protocol.KindRandom, b)
	}
	hooks := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		for _, h := range []hook{bad, quiet, openHook} {
			if e := h(w, seat, kinds); e != nil {
				return e
			}
		}
		return nil
	}
	due := func(r int) func() bool {
		return func() bool {
			seat, _ := w.obs.Due()
			return w.obs.Ordered() && seat == seatAt(w, r) && w.obs.Departable() == ""
		}
	}
	w.playUntil(t, dec, hooks, due(escrowVictim))
	w.depart(t, dec)
	w.playUntil(t, dec, hooks, due(escrowDealer))
	d := seatAt(w, escrowDealer)
	w.depart(t, dec)
	v := w.obs.Verdict()
	last := w.log[len(w.log)-1]
	if v == nil || v.Kind != protocol.VerdictCheat || v.Seat != d || v.Seq != last.Seq || last.Kind != protocol.KindRelease {
		t.Fatalf("verdict %v at %s; want a cheat by seat %d (the dealer) at the last share of its key", v, last, d)
	}
	rep, err := protocol.Audit(bytes.NewReader(logBytes(t, w.log)), engine.Options{})
	if err != nil || rep.Valid || rep.Verdict == nil || rep.Verdict.Kind != protocol.VerdictCheat || rep.Blamed != d || rep.At != int64(v.Seq) {
		t.Fatalf("audit: %v %+v; want seat %d blamed at %d", err, rep, d, v.Seq)
	}
}

// seatAt is the seat of the player at roster index r, once the seat order is drawn.
func seatAt(w *world, r int) int {
	for seat, m := range w.obs.Players() {
		if m.Key.Equal(w.rosterKeys[r].Public().(ed25519.PublicKey)) {
			return seat
		}
	}
	return -1
}
