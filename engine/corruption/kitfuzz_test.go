package corruption_test

// FuzzGameApply: arbitrary inputs, and arbitrary values learnt, on Corruption games part-way
// through never panic; a rejected input leaves the game exactly as it was (its Digest included),
// and learning never changes the Digest. Short runs:
//
//	go test -run='^$' -fuzz='^FuzzGameApply$' -fuzztime=3000x ./engine/corruption/

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/enginetest"
)

// kitSnapshots are games part-way: a fresh one, and from kit games of four tables, the first
// game waiting for each kind of step and decision, as a seat's node and the observer know it.
var kitSnapshots = sync.OnceValue(func() []*corruption.Game {
	fresh, err := corruption.Rules{}.New(corruption.EncodeConfig(corruption.FreeStud, true), 4, engine.Options{})
	if err != nil {
		panic(err)
	}
	out := []*corruption.Game{fresh.(*corruption.Game)}
	for _, k := range []tableKind{{4, corruption.FreeStud, true}, {3, corruption.Standard, true},
		{5, corruption.Closed, false}, {7, corruption.DownTheRiver, true}} {
		seen := map[string]bool{}
		_, err := playKit(k, 77, func(tn enginetest.Turn) error {
			obs := tn.Observer.(*corruption.Game)
			key := fmt.Sprint(obs.Due().Kind, obs.State().Next().Kind)
			if !seen[key] {
				seen[key] = true
				out = append(out, tn.Seats[tn.N%k.players].Clone().(*corruption.Game), obs.Clone().(*corruption.Game))
			}
			return nil
		})
		if err != nil {
			panic(err)
		}
	}
	return out
})

// fuzzKit decodes data into a starting game (the first byte) and a sequence of operations: a
// byte from 0xf0 learns a value (ref, value), any other byte is an input, mostly the one due
// (see fuzzInput). It returns how many inputs the game accepted.
func fuzzKit(t *testing.T, data []byte) (accepted int) {
	snaps := kitSnapshots()
	if len(data) == 0 {
		return 0
	}
	g := snaps[int(data[0])%len(snaps)].Clone().(*corruption.Game)
	data = data[1:]
	rd := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	players := corruption.MaxPlayers
	if s := g.State(); s != nil {
		players = s.Config().Players
	}
	for step := 0; len(data) > 0 && step < 400; step++ {
		op := rd()
		if op >= 0xf0 {
			digest := g.Digest()
			_ = g.LearnValue(int(rd())-1, fuzzValue(rd()))
			if g.Digest() != digest {
				t.Fatalf("step %d: learning changed the digest", step)
			}
			continue
		}
		in := fuzzInput(g, op, rd, step)
		before, digest := g.Clone(), g.Digest()
		err := g.Apply(in)
		if err == nil {
			accepted++
			continue
		}
		if g.Digest() != digest || !reflect.DeepEqual(before, g.Clone()) {
			t.Fatalf("step %d: %+v was rejected (%v) but changed the game", step, in, err)
		}
		var f *engine.Fault
		if errors.As(err, &f) && (f.Seat < -1 || f.Seat >= players) {
			t.Fatalf("step %d: %+v: fault of seat %d at a table of %d", step, in, f.Seat, players)
		}
	}
	g.Outcome()
	return accepted
}

// fuzzValue is a hidden value: a card's name, or not.
func fuzzValue(b byte) []byte {
	switch {
	case b < 10:
		return []byte(corruption.Card(b).String())
	case b < 0x80:
		return []byte{b}
	}
	return nil
}

var inputFor = map[engine.StepKind]engine.InputKind{
	engine.StepRandom: engine.InRandom, engine.StepBuild: engine.InBuilt, engine.StepShuffle: engine.InShuffled,
	engine.StepDeal: engine.InDealt, engine.StepMove: engine.InMove, engine.StepAnswer: engine.InAnswered,
	engine.StepOpen: engine.InOpened,
}

// fuzzInput is an input for g drawn with op and rd: the one due echoing the step, with a random
// bot's move, the next contracts, or cards from the seat's hand, unless op's bits ask for
// another kind (0x80), another seat (0x40) or raw contents (0x20).
func fuzzInput(g *corruption.Game, op byte, rd func() byte, step int) engine.Input {
	st := g.Due()
	in := engine.Input{Kind: inputFor[st.Kind], Seat: st.Seat, To: st.To, Deck: st.Deck, Positions: st.Positions, Refs: st.Refs}
	if op&0x80 != 0 {
		in.Kind = engine.InputKind(rd() % 10)
	}
	if op&0x40 != 0 {
		in.Seat = int(rd()%10) - 1
	}
	raw := op&0x20 != 0
	s := g.State()
	switch in.Kind {
	case engine.InRandom:
		in.Ints = []int{int(rd()%9) - 1}
	case engine.InDealt:
		for c := int(rd()); len(in.Cards) < 6 && s != nil && c < 600; c++ {
			if k := corruption.Contract(c % 24); raw || (!s.OnTable(k) && s.Winner(k) < 0) {
				in.Cards = append(in.Cards, int(k))
			}
		}
	case engine.InMove:
		if !raw && s != nil && st.Kind == engine.StepMove {
			m := bot.NewRandom(rngFor(uint64(op), uint64(step))).Decide(g.View(st.Seat))
			if a, err := g.Action(m); err == nil {
				in.Move = a.Move
				in.Refs = nil
				if len(a.Hidden) > 0 {
					in.Refs = []int{1<<20 + step}
				}
				return in
			}
		}
		in.Move = []byte{rd() % 9, rd(), rd()}[:op%4]
		in.Refs = []int{1<<20 + step, int(rd()) - 1}[:op>>2%3]
	case engine.InOpened:
		in.Values = fuzzOpening(s, st.Seat, len(st.Refs), raw, rd)
	}
	return in
}

// fuzzOpening is seat's opening of n cards: cards from its hand as s knows it (characters only
// under contracts), starting at a drawn card, or raw values.
func fuzzOpening(s *corruption.State, seat, n int, raw bool, rd func() byte) [][]byte {
	var out [][]byte
	if raw || s == nil {
		for range n {
			out = append(out, fuzzValue(rd()))
		}
		return out
	}
	hand := s.Hand(seat)
	for i := 1; i <= s.NumPlays() && len(hand) > 0; i++ {
		p, _ := s.PlayAt(i)
		if p.Seat != seat || p.Revealed {
			continue
		}
		for j, k := int(rd()), 0; k < len(hand); k++ {
			if c := hand[(j+k)%len(hand)]; c.IsBribe() || !p.Spot.IsSwiss() {
				out = append(out, []byte(c.String()))
				hand = append(hand[:(j+k)%len(hand)], hand[(j+k)%len(hand)+1:]...)
				break
			}
		}
	}
	return out
}

func FuzzGameApply(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0})
	for i := byte(1); i < 40; i += 3 {
		f.Add([]byte{i, 0, 1, 2, 3, 0xf0, 0, 5, 0x80, 4, 0x40, 2, 0x21, 3, 0x23, 7, 9, 9, 0, 0})
	}
	f.Add(append([]byte{2}, make([]byte, 300)...))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzKit(t, data) })
}

// The seeds run as a plain test too, and so do longer random inputs from every snapshot.
func TestGameApplyArbitraryInputs(t *testing.T) {
	rng := rngFor(7, 7)
	n := 3 * len(kitSnapshots())
	if testing.Short() {
		n = len(kitSnapshots())
	}
	accepted := 0
	for i := range n {
		data := make([]byte, 20+rng.IntN(600))
		for j := range data {
			if rng.IntN(3) == 0 {
				data[j] = byte(rng.IntN(256))
			} else {
				data[j] = byte(rng.IntN(32)) // mostly the input due
			}
		}
		data[0] = byte(i)
		accepted += fuzzKit(t, data)
	}
	if accepted < 10*n { // the inputs must get games somewhere, not only be refused
		t.Errorf("%d runs from %d snapshots: %d inputs accepted", n, len(kitSnapshots()), accepted)
	}
}
