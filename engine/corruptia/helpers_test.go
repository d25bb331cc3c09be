package corruptia_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
)

// kit is a table fed by hand or by bots: one copy of the game per seat and an observer's (the
// last), like the network table's nodes. Each seat's copy learns its own bills only. Every
// input goes to every copy; they must all accept it, or all refuse it with the same error and
// be left exactly as they were.
type kit struct {
	t      testing.TB
	n      int
	games  []*corruptia.Game
	decks  [corruptia.NumDecks][]int
	rng    *rand.Rand
	deck0  []corruptia.Bill // if set, the first shuffle of the bill deck gives this order
	dice   []int            // die draws to make, in order (then random)
	tosses []int
	bots   []bot.Bot
	events []corruptia.Event // the observer's
	inputs int
	// lenient: a table step refused (a seat convicted when its bills are shown) stops the
	// table (stuck) instead of failing the test.
	lenient, stuck bool
}

func newKit(t testing.TB, n int, seed uint64, kinds ...string) *kit {
	t.Helper()
	k := &kit{t: t, n: n, rng: rand.New(rand.NewPCG(seed, 77))}
	cfg, _ := corruptia.EncodeConfig(corruptia.DefaultConfig())
	for i := 0; i <= n; i++ {
		var opt engine.Options
		if i == n {
			opt.OnEvent = func(e engine.Event) { k.events = append(k.events, e.Data.(corruptia.Event)) }
		}
		g, err := corruptia.Rules{}.New(cfg, n, opt)
		if err != nil {
			t.Fatal(err)
		}
		k.games = append(k.games, g.(*corruptia.Game))
	}
	if len(kinds) == 0 {
		kinds = []string{"heuristic", "random"}
	}
	for s := range n {
		b, err := bot.New(kinds[s%len(kinds)], seed<<4|uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		k.bots = append(k.bots, b)
	}
	return k
}

func (k *kit) obs() *corruptia.Game { return k.games[k.n] }
func (k *kit) due() engine.Step     { return k.obs().Due() }

// snapshot is what must not change when an input is refused.
type snapshot struct {
	digests []([32]byte)
	views   []*corruptia.View
}

func (k *kit) snap() snapshot {
	var s snapshot
	for i, g := range k.games {
		s.digests = append(s.digests, g.Digest())
		seat := i
		if i == k.n {
			seat = -1
		}
		s.views = append(s.views, g.View(seat))
	}
	return s
}

// apply feeds in to every copy, then tells each seat's copy the bills dealt to it alone.
func (k *kit) apply(in engine.Input) error {
	k.t.Helper()
	st, before := k.due(), k.snap()
	var first error
	for i, g := range k.games {
		err := g.Apply(in)
		if i == 0 {
			first = err
			continue
		}
		if (err == nil) != (first == nil) || (err != nil && err.Error() != first.Error()) {
			k.t.Fatalf("copy %d says %v to a %s input, copy 0 %v", i, err, in.Kind, first)
		}
	}
	if first != nil {
		if after := k.snap(); !reflect.DeepEqual(before, after) {
			k.t.Fatalf("a refused %s input (%v) changed the game", in.Kind, first)
		}
		return first
	}
	k.inputs++
	if st.Kind == engine.StepDeal && st.To >= 0 {
		for _, p := range st.Positions {
			if err := k.games[st.To].LearnCard(st.Deck, p, k.decks[st.Deck][p]); err != nil {
				k.t.Fatal(err)
			}
		}
	}
	d := k.obs().Digest()
	for i, g := range k.games {
		if g.Digest() != d {
			k.t.Fatalf("after a %s input, copy %d's digest differs from the observer's", in.Kind, i)
		}
	}
	return nil
}

func (k *kit) mustApply(in engine.Input) {
	k.t.Helper()
	if err := k.apply(in); err != nil {
		k.t.Fatalf("%s input: %v", in.Kind, err)
	}
}

// table performs every step due that no seat decides.
func (k *kit) table() {
	k.t.Helper()
	for k.tableStep() {
	}
}

// tableStep performs the step due if no seat decides it, and says whether it did.
func (k *kit) tableStep() bool {
	k.t.Helper()
	st := k.due()
	var in engine.Input
	switch st.Kind {
	case engine.StepOver, engine.StepMove, engine.StepChoose:
		return false
	case engine.StepRandom:
		v := k.rng.IntN(st.Ranges[0])
		switch k.obs().Drawing() {
		case corruptia.DrawDie:
			if len(k.dice) > 0 {
				v, k.dice = k.dice[0], k.dice[1:]
			}
		case corruptia.DrawToss:
			if len(k.tosses) > 0 {
				v, k.tosses = k.tosses[0], k.tosses[1:]
			}
		}
		in = engine.Input{Kind: engine.InRandom, Ints: []int{v}}
	case engine.StepBuild:
		d := slices.Clone(st.Cards)
		for _, dc := range st.From {
			d = append(d, k.decks[dc.Deck][dc.Pos])
		}
		k.decks[st.Deck] = d
		in = engine.Input{Kind: engine.InBuilt, Deck: st.Deck}
	case engine.StepShuffle:
		d := k.decks[st.Deck]
		if st.Deck == corruptia.DeckBills && k.deck0 != nil {
			for i, b := range k.deck0 {
				d[i] = int(b)
			}
			k.deck0 = nil
		} else {
			k.rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
		}
		in = engine.Input{Kind: engine.InShuffled, Deck: st.Deck}
	case engine.StepDeal:
		in = engine.Input{Kind: engine.InDealt, Deck: st.Deck, Positions: st.Positions, To: st.To, Cards: k.cards(st)}
		if st.To >= 0 {
			in.Cards = slices.Repeat([]int{-1}, len(st.Positions))
		}
	case engine.StepShow:
		in = engine.Input{Kind: engine.InShown, Seat: st.Seat, Deck: st.Deck, Positions: st.Positions, Cards: k.cards(st)}
	}
	k.mustApply(in)
	return true
}

func (k *kit) cards(st engine.Step) []int {
	cs := make([]int, len(st.Positions))
	for i, p := range st.Positions {
		cs[i] = k.decks[st.Deck][p]
	}
	return cs
}

// move is seat's move m as a raw input.
func (k *kit) move(seat int, m corruptia.Move) error {
	k.t.Helper()
	b, err := corruptia.EncodeMove(m)
	if err != nil {
		k.t.Fatal(err)
	}
	return k.apply(engine.Input{Kind: engine.InMove, Seat: seat, Move: b})
}

// votes opens every seat's vote, by seat.
func (k *kit) votes(vs ...corruptia.Vote) error {
	k.t.Helper()
	raw := make([]string, len(vs))
	for i, v := range vs {
		raw[i] = v.String()
	}
	return k.rawVotes(raw...)
}

func (k *kit) rawVotes(vs ...string) error {
	k.t.Helper()
	st := k.due()
	in := engine.Input{Kind: engine.InChosen, Seats: st.Seats}
	for i, s := range st.Seats {
		in.Refs = append(in.Refs, 1000+i)
		in.Values = append(in.Values, []byte(vs[s]))
	}
	return k.apply(in)
}

// bot has the bots make the decision due, through their own copies' Action and VoteAction.
func (k *kit) bot() {
	k.t.Helper()
	st := k.due()
	if st.Kind == engine.StepChoose {
		in := engine.Input{Kind: engine.InChosen, Seats: st.Seats}
		for i, s := range st.Seats {
			g := k.games[s]
			a, err := g.VoteAction(s, k.bots[s].Vote(g.View(s)))
			if err != nil {
				k.t.Fatal(err)
			}
			in.Refs, in.Values = append(in.Refs, 1000+i), append(in.Values, a.Hidden[0])
		}
		k.mustApply(in)
		return
	}
	g := k.games[st.Seat]
	a, err := g.Action(st.Seat, k.bots[st.Seat].Decide(g.View(st.Seat)))
	if err != nil {
		k.t.Fatal(err)
	}
	k.mustApply(engine.Input{Kind: engine.InMove, Seat: st.Seat, Move: a.Move})
}

// until plays on, the table and the bots, until pred holds before a step; false if the game
// ended first.
func (k *kit) until(pred func() bool) bool {
	k.t.Helper()
	for {
		if k.due().Kind == engine.StepOver {
			return false
		}
		if pred() {
			return true
		}
		if !k.tableStep() {
			k.bot()
		}
	}
}

// find plays seeded games of n until pred holds at a decision, and returns that table.
func find(t *testing.T, n int, pred func(k *kit) bool) *kit {
	t.Helper()
	for seed := uint64(1); seed < 300; seed++ {
		k := newKit(t, n, seed)
		if k.until(func() bool { return pred(k) }) {
			return k
		}
	}
	t.Fatal("no game reached the state wanted")
	return nil
}

// stage tells what the observer waits for.
func (k *kit) next() corruptia.Decision { return k.obs().Next() }

// wantFault checks that err is a *engine.Fault naming seat, with want in its words.
func wantFault(t *testing.T, err error, seat int, want string) {
	t.Helper()
	var f *engine.Fault
	switch {
	case err == nil:
		t.Fatalf("accepted; want a fault of seat %d (%q)", seat, want)
	case !errors.As(err, &f):
		t.Fatalf("%v: a %T, want a *engine.Fault", err, err)
	case f.Seat != seat:
		t.Fatalf("%v: the fault of seat %d, want seat %d", err, f.Seat, seat)
	case !strings.Contains(err.Error(), want):
		t.Fatalf("%v: want %q in it", err, want)
	}
}
