package protocol_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"corruption/crypto"
	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
)

// The bad logs made by playing a golden table again with one seat's node taken over by a hook
// (see badlogs_test.go): cards its node commits to but may not play, lying answers, false
// blames, and the toy's services.
// takeOver plays the golden table again with the decisions of its log, and lets place choose a
// seat's last placement of a round (card and spot: the card is committed face down, to the
// seat's node, which carries on as if it were legal and opens it with the others). It returns
// the log up to the verdict, and the cheater.
func (k *badKit) takeOver(t testing.TB, place func(w *world, seat int) (corruption.Card, corruption.Spot, bool)) ([]*protocol.Entry, int) {
	w := newWorld(t, k.spec, "")
	cheater := -1
	h := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		tb := w.tables[seat]
		if cheater >= 0 || kinds[0] != protocol.KindMove || protocol.StepForTest(tb).Hidden != 1 {
			return nil
		}
		if corruptionOf(w.obs).Placed(seat) != corruption.CardsPerRound-1 {
			return nil
		}
		card, spot, ok := place(w, seat)
		if !ok {
			return nil
		}
		hidden, err := protocol.HiddenForTest(tb, protocol.NextRefForTest(tb), []byte(card.String()))
		if err != nil {
			t.Fatal(err)
		}
		cheater = seat
		w.honest[seat] = false
		return w.sign(seat, protocol.KindMove, placeBody(t, corruption.Move{Kind: corruption.MovePlace, Seat: seat, Spot: spot}, hidden))
	}
	v := w.play(t, scriptDecider(t, goldScript(t, k.entries)), h)
	if v == nil || cheater < 0 || lastEntry(w.log).Kind != protocol.KindOpen {
		t.Fatalf("the take-over ends with verdict %v after %s (cheater %d)", v, lastEntry(w.log), cheater)
	}
	return w.log, cheater
}

// ownState is the game as seat's own node knows it.
func ownState(w *world, seat int) *corruption.State { return corruptionOf(w.tables[seat]) }

func buildPlacedTwice(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	var card corruption.Card
	entries, seat := k.takeOver(t, func(w *world, seat int) (corruption.Card, corruption.Spot, bool) {
		if corruptionOf(w.obs).Round() != 2 {
			return 0, 0, false
		}
		hand := ownState(w, seat).Hand(seat)
		for _, c := range corruption.Bribes {
			if !slices.Contains(hand, c) {
				card = c
				return c, corruption.SwissSpot(1), true
			}
		}
		return 0, 0, false
	})
	return entries, nil, cheat(seat, lastEntry(entries).Seq, "has already played its "+card.Words()+" this round")
}

func buildCharacterOnSwiss(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	entries, seat := k.takeOver(t, func(w *world, seat int) (corruption.Card, corruption.Spot, bool) {
		if corruptionOf(w.obs).Round() != 2 {
			return 0, 0, false
		}
		for _, c := range ownState(w, seat).Hand(seat) {
			if c.IsCharacter() {
				return c, corruption.SwissSpot(0), true
			}
		}
		return 0, 0, false
	})
	return entries, nil, cheat(seat, lastEntry(entries).Seq, "characters go only under contracts")
}

func buildCharacterUsedEarlier(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	var card corruption.Card
	entries, seat := k.takeOver(t, func(w *world, seat int) (corruption.Card, corruption.Spot, bool) {
		g := ownState(w, seat)
		if g.Round() < 2 {
			return 0, 0, false
		}
		// Characters used up in earlier rounds: none left, and none placed this round.
		var this [3]int
		for i := 1; i <= g.NumPlays(); i++ {
			if p, _ := g.PlayAt(i); p.Seat == seat && p.Card.IsCharacter() {
				this[p.Card-corruption.DA]++
			}
		}
		da, rep, hit := g.CharactersLeft(seat)
		for i, left := range []int{da, rep, hit} {
			if left == 0 && this[i] == 0 {
				card = corruption.Characters[i]
				return card, corruption.ContractSpot(g.Table()[0]), true
			}
		}
		return 0, 0, false
	})
	return entries, nil, cheat(seat, lastEntry(entries).Seq, fmt.Sprintf("seat %d has no %s left", seat, card.Words()))
}

// answerHook has the answerer of the table's first peek write the body seal makes instead of
// its honest answer.
func answerHook(t testing.TB, seal func(w *world, seat int) []byte) (hook, *int) {
	answerer := -1
	return func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if answerer >= 0 || kinds[0] != protocol.KindAnswer {
			return nil
		}
		answerer = seat
		w.honest[seat] = false
		return w.sign(seat, protocol.KindAnswer, seal(w, seat))
	}, &answerer
}

func (k *badKit) lie(t testing.TB, seal func(w *world, seat int) []byte, problem string) ([]*protocol.Entry, []byte, badWant) {
	w := newWorld(t, k.spec, "")
	h, answerer := answerHook(t, seal)
	v := w.play(t, scriptDecider(t, goldScript(t, k.entries)), h)
	last := lastEntry(w.log)
	switch {
	case v == nil:
		t.Fatalf("the lie ends with no verdict, after %s", last)
	case last.Kind == protocol.KindBlame: // the peeker's blame convicts the answerer
	case last.Kind == protocol.KindAnswer && v.Seq == last.Seq:
		// The answer convicts its author by itself, and ends the log as its evidence.
	default:
		t.Fatalf("the lie ends with %v, after %s", v, last)
	}
	return w.log, nil, cheat(*answerer, last.Seq, problem)
}

func buildLyingAnswer(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.lie(t, func(w *world, seat int) []byte {
		tb := w.tables[seat]
		ref := protocol.StepForTest(tb).Refs[0]
		real, _ := protocol.HiddenValueForTest(tb, ref)
		other := corruption.Bribe10000.String()
		if string(real) == other {
			other = corruption.Bribe1000.String()
		}
		o, err := protocol.OpeningForTest(tb, ref, []byte(other))
		if err != nil {
			t.Fatal(err)
		}
		b, err := protocol.AnswerForTest(tb, o)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}, "is not the value it committed to")
}

func buildGarbageAnswer(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.lie(t, func(w *world, seat int) []byte {
		e, err := w.tables[seat].NextEntry(engine.Action{})
		if err != nil {
			t.Fatal(err)
		}
		b := bytes.Clone(e.Body)
		b[len(b)-1] ^= 1 // break the tag: the box's proof, which covers it, fails
		return b
	}, "its sealed answer to seat")
}

func buildFalseBlame(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.blame(t, func([]byte) {}, "which is honest")
}

func buildBadBlameProof(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.blame(t, func(b []byte) { b[crypto.PointSize] ^= 1 }, "does not verify")
}

// blame has the first peeker to get an (honest) answer blame it, with change applied to its
// blame's bytes.
func (k *badKit) blame(t testing.TB, change func([]byte), problem string) ([]*protocol.Entry, []byte, badWant) {
	w := newWorld(t, k.spec, "")
	blamer := -1
	h := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if blamer >= 0 || len(kinds) < 2 || kinds[1] != protocol.KindBlame {
			return nil
		}
		b, err := protocol.BlameForTest(w.tables[seat])
		if err != nil {
			t.Fatal(err)
		}
		blamer = seat
		w.honest[seat] = false
		change(b)
		return w.sign(seat, protocol.KindBlame, b)
	}
	v := w.play(t, scriptDecider(t, goldScript(t, k.entries)), h)
	if v == nil {
		t.Fatal("the false blame ends without a verdict")
	}
	return w.log, nil, cheat(blamer, lastEntry(w.log).Seq, problem)
}

// The toy's bad logs: the services a Corruption log does not use.

func buildToyChoiceOther(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := k.first(t, "opening of a choice", func(e *protocol.Entry) bool { return e.Kind == protocol.KindOpen })
	e := copyEntry(k.entries[seq])
	ops, err := protocol.ParseOpenBodyForTest(e.Body)
	if err != nil || len(ops) != 1 {
		t.Fatalf("%s: %d openings, %v", e, len(ops), err)
	}
	ops[0][32] ^= 1 // same nonce, another card
	e.Body = protocol.OpenBodyForTest(ops...)
	return withEntry(k.entries[:seq], k.resign(e)), nil, cheat(e.Seat, e.Seq, "does not match its commitment")
}

func buildToyPrivateShare(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	return k.swapShares(t, k.first(t, "shares", func(e *protocol.Entry) bool { return e.Kind == protocol.KindShares }))
}

func buildToyShowShare(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	seq := 0
	k.walk(t, func(obs *protocol.Table, e *protocol.Entry) {
		if e.Kind == protocol.KindShares && protocol.StepForTest(obs).Kind == engine.StepShow {
			seq = int(e.Seq)
		}
	})
	if seq == 0 {
		t.Fatal("no show in the toy's log")
	}
	return k.swapShares(t, seq)
}

func buildToyHiddenNotHeld(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
	w := newWorld(t, k.spec, "")
	cheater := -1
	h := func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		tb := w.tables[seat]
		if cheater >= 0 || kinds[0] != protocol.KindMove || protocol.StepForTest(tb).Hidden != 1 {
			return nil
		}
		hidden, err := protocol.HiddenForTest(tb, protocol.NextRefForTest(tb), []byte{99})
		if err != nil {
			t.Fatal(err)
		}
		cheater = seat
		w.honest[seat] = false
		return w.sign(seat, protocol.KindMove, protocol.MoveBodyForTest([]byte("hide"), hidden))
	}
	v := w.play(t, scriptDecider(t, goldScript(t, k.entries)), h)
	if v == nil || cheater < 0 {
		t.Fatalf("the hidden card not held ends with verdict %v (cheater %d)", v, cheater)
	}
	return w.log, nil, cheat(cheater, lastEntry(w.log).Seq, "hid a card it did not hold")
}
