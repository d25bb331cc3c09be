package protocol_test

import (
	"testing"

	"corruption/engine/corruptia"
	"corruption/protocol"
)

// Values the game refuses at their opening (convict.go, "Replacing what the game refused"): a
// seat that committed a value against the rules is convicted when it is opened, its seat is
// opened, and its stand-in's value takes the refused one's place: the table plays on.

// TestRefusedChoicePlaysOn: at a Corruptia table of four that escrows, a senator without a
// public approval token commits "absent" to a vote, which needs one: the last to vote (so the
// last to open), or another. When the votes are opened the game refuses it: the senator is
// convicted (of its hidden choice), at its own opening when it opens last (the proof, which the
// table replays without), else at the last opening (which proves it, and whose vote the table
// holds until the seat is open), its seat opened, and the vote fed with its stand-in's vote
// instead. The game plays to a valid end, and the log replays and audits the same.
func TestRefusedChoicePlaysOn(t *testing.T) {
	for _, last := range []bool{true, false} {
		t.Run(map[bool]string{true: "opens last", false: "opens before the last"}[last], func(t *testing.T) {
			refusedChoice(t, last)
		})
	}
}

func refusedChoice(t *testing.T, last bool) {
	spec := corruptiaWorld("replace-corruptia-4", "4 senators, escrow", 4)
	spec.escrow = true
	w := newWorld(t, spec, "")
	cheater := -1
	var committedAt uint64
	h := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if e := openHook(w, seat, kinds); e != nil {
			return e
		}
		if cheater >= 0 || kinds[0] != protocol.KindCommit || corruptiaOf(w.obs).View(-1).Approval[seat] != 0 {
			return nil
		}
		if seats := w.obs.DueStep().Seats; (seat == seats[len(seats)-1]) != last {
			return nil
		}
		tb := w.tables[seat]
		body, err := protocol.HiddenForTest(tb, protocol.NextRefForTest(tb), []byte(corruptia.VoteAbsent.String()))
		if err != nil {
			t.Fatal(err)
		}
		cheater, committedAt = seat, w.obs.Len()
		w.honest[seat] = false
		return w.sign(seat, protocol.KindCommit, body)
	}
	if v := w.play(t, w.botDecider(t), h); v != nil {
		t.Fatalf("the table halted: %v", v)
	}
	if cheater < 0 {
		t.Fatal("no senator without a token ever voted")
	}
	cs := w.obs.Convictions()
	if !w.obs.Done() || len(cs) != 1 || cs[0].Seat != cheater || cs[0].What != "commit" || cs[0].Seq <= committedAt || !w.obs.IsOpen(cheater) {
		t.Fatalf("done %v, convictions %v; want seat %d convicted of its choice after entry %d, open, and the game played to its end",
			w.obs.Done(), cs, cheater, committedAt)
	}
	if e := w.log[cs[0].Seq]; e.Kind != protocol.KindOpen || (e.Seat == cheater) != last {
		t.Fatalf("the conviction's proof is %s; want the opening that showed the vote (the cheater's own: %v)", e, last)
	}
	auditsConvicted(t, w, cs[0])
}
