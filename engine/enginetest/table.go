// Package enginetest plays any engine.Game at a table in memory: the way the network table
// (package protocol) plays it, with a seeded random source in place of the cryptography, so
// that every game can be tested, fuzzed and simulated through the kit's interface alone.
//
// Play keeps one copy of the game per seat (that seat's node) and one observer that is never
// told anything privately (an auditor). It performs each step the game asks for, feeds every
// input to every copy in the same order, and tells a seat's copy alone what that seat may see:
// its own hidden values, the cards dealt to it, the answers to its peeks. After every input it
// holds the game to the kit's promises: every copy waits for the same step and has the same
// Digest whatever it learnt; every copy accepts the input or every copy rejects it; the game
// ends within a bound, and every copy sees the same Outcome. A broken promise, a rejected
// input or a step the table cannot perform is an error naming the input. The same game,
// configuration, players and seed give the same game.
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"

	"corruption/engine"
)

// Result is how a game played by Play ended.
type Result struct {
	Outcome  engine.Outcome
	Digest   [32]byte
	Inputs   int           // inputs applied
	Seats    []engine.Game // each seat's copy, by seat
	Observer engine.Game   // the copy that learnt nothing privately
}

// Turn is one input as the table applied it: the step it performed and the input, with every
// copy after it (and after what the seats learnt from it). The copies are the table's own:
// read them during the callback, do not keep or change them.
type Turn struct {
	N        int // the input's number, from 0
	Step     engine.Step
	Input    engine.Input
	Seats    []engine.Game
	Observer engine.Game
}

// An Option adjusts Play.
type Option func(*table)

// Watch has fn see every input as it is applied; an error from fn stops the game with it.
func Watch(fn func(Turn) error) Option { return func(t *table) { t.watch = fn } }

// MaxInputs bounds the game (default 100,000 inputs): a game not over by then is an error.
func MaxInputs(n int) Option { return func(t *table) { t.max = n } }

// Events gives the observer's copy fn as its OnEvent.
func Events(fn func(engine.Event)) Option { return func(t *table) { t.events = fn } }

// WithContext is the context the players decide in (default context.Background()).
func WithContext(ctx context.Context) Option { return func(t *table) { t.ctx = ctx } }

// Chance is what a table draws: the order of a deck just shuffled, a random draw.
type Chance interface {
	// Order puts deck in its order once shuffled: it permutes cards (card ids by position) in
	// place.
	Order(deck int, cards []int) error
	// Int is a draw in [0, n).
	Int(n int) (int, error)
}

// WithChance has the table draw from c instead of its seeded source: a game whose decks and
// draws are given (a scenario script's).
func WithChance(c Chance) Option { return func(t *table) { t.chance = c } }

type table struct {
	seats   []engine.Game
	obs     engine.Game
	players []engine.Player
	rng     *rand.Rand
	decks   [engine.MaxDecks]deck
	values  [][]byte // the hidden values, by ref
	owners  []int    // the seat that committed each ref
	randoms int      // StepRandom steps so far

	watch  func(Turn) error
	chance Chance // nil: the seeded source
	max    int
	events func(engine.Event)
	ctx    context.Context
}

// deck is one deck: its cards by position, and for each the seat it was dealt to alone (-1).
type deck struct{ cards, to []int }

// learning is what one seat's copy is told privately after an input.
type learning struct {
	seat, ref int
	value     []byte
	deal      bool // LearnCard(deckNo, pos, card) instead of LearnValue
	deckNo    int
	pos, card int
}

// Play plays a game of rules with config among players (one per seat), drawing every random
// thing from seed, until the game is over.
func Play(rules engine.Rules, config []byte, players []engine.Player, seed uint64, opts ...Option) (*Result, error) {
	t := &table{players: players, rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), max: 100000, ctx: context.Background()}
	for _, o := range opts {
		o(t)
	}
	n := len(players)
	if lo, hi := rules.Players(); n < lo || n > hi {
		return nil, fmt.Errorf("%d players: %s is played by %d to %d", n, rules.Name(), lo, hi)
	}
	if err := rules.CheckConfig(config, n); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	for i := 0; i <= n; i++ {
		var opt engine.Options
		if i == n {
			opt.OnEvent = t.events
		}
		g, err := rules.New(config, n, opt)
		if err != nil {
			return nil, fmt.Errorf("new game: %w", err)
		}
		if i < n {
			t.seats = append(t.seats, g)
		} else {
			t.obs = g
		}
	}
	for i := 0; ; i++ {
		st, err := t.due()
		if err != nil {
			return nil, fmt.Errorf("before input %d: %w", i, err)
		}
		if st.Kind == engine.StepOver {
			return t.finish(i)
		}
		if i >= t.max {
			return nil, fmt.Errorf("the game is not over after %d inputs (it waits for a %s step)", i, st.Kind)
		}
		in, learn, err := t.perform(st)
		if err == nil {
			err = t.apply(in, learn)
		}
		if err == nil && t.watch != nil {
			err = t.watch(Turn{N: i, Step: st, Input: in, Seats: t.seats, Observer: t.obs})
		}
		if err != nil {
			return nil, fmt.Errorf("input %d (%s): %w", i, stepWords(st), err)
		}
	}
}

// stepWords names a step for errors: "move step, seat 2".
func stepWords(st engine.Step) string {
	switch st.Kind {
	case engine.StepMove, engine.StepShow, engine.StepOpen, engine.StepAnswer:
		return fmt.Sprintf("%s step, seat %d", st.Kind, st.Seat)
	case engine.StepBuild, engine.StepShuffle, engine.StepDeal:
		return fmt.Sprintf("%s step, deck %d", st.Kind, st.Deck)
	}
	return st.Kind.String() + " step"
}

// due is the step every copy waits for.
func (t *table) due() (engine.Step, error) {
	st := t.obs.Due()
	for seat, g := range t.seats {
		if d := g.Due(); !reflect.DeepEqual(d, st) {
			return st, fmt.Errorf("seat %d's copy waits for %+v, the observer's for %+v", seat, d, st)
		}
	}
	return st, nil
}

func (t *table) finish(inputs int) (*Result, error) {
	out := t.obs.Outcome()
	if !out.Over {
		return nil, fmt.Errorf("the game is over, but its outcome says it is not")
	}
	for seat, g := range t.seats {
		if o := g.Outcome(); !reflect.DeepEqual(o, out) {
			return nil, fmt.Errorf("seat %d's copy ends with %+v, the observer's with %+v", seat, o, out)
		}
	}
	return &Result{Outcome: out, Digest: t.obs.Digest(), Inputs: inputs, Seats: t.seats, Observer: t.obs}, nil
}

// apply feeds in to every copy, then tells the seats what they learn, then checks that every
// copy has the same digest.
func (t *table) apply(in engine.Input, learn []learning) error {
	all := append(append([]engine.Game(nil), t.seats...), t.obs)
	errs := make([]error, len(all))
	rejected := 0
	for i, g := range all {
		if errs[i] = g.Apply(cloneInput(in)); errs[i] != nil {
			rejected++
		}
	}
	if rejected > 0 {
		i := 0
		for errs[i] == nil {
			i++
		}
		if rejected < len(all) {
			return fmt.Errorf("%s rejected the %s input (%w) but another copy accepted it", t.who(i), in.Kind, errs[i])
		}
		var f *engine.Fault
		if errors.As(errs[i], &f) {
			return fmt.Errorf("the %s input was refused, fault of seat %d: %w", in.Kind, f.Seat, errs[i])
		}
		return fmt.Errorf("the %s input was refused: %w", in.Kind, errs[i])
	}
	for _, l := range learn {
		var err error
		if l.deal {
			err = t.seats[l.seat].LearnCard(l.deckNo, l.pos, l.card)
		} else {
			err = t.seats[l.seat].LearnValue(l.ref, append([]byte(nil), l.value...))
		}
		if err != nil {
			return fmt.Errorf("seat %d's copy refused what it learnt: %w", l.seat, err)
		}
	}
	d := t.obs.Digest()
	for seat, g := range t.seats {
		if g.Digest() != d {
			return fmt.Errorf("after the %s input, seat %d's copy has digest %x, the observer's %x", in.Kind, seat, g.Digest(), d)
		}
	}
	return nil
}

func (t *table) who(i int) string {
	if i == len(t.seats) {
		return "the observer"
	}
	return fmt.Sprintf("seat %d's copy", i)
}

func cloneInput(in engine.Input) engine.Input {
	c := in
	c.Move = clone(in.Move)
	c.Refs, c.Ints, c.Positions, c.Cards, c.Seats = clone(in.Refs), clone(in.Ints), clone(in.Positions), clone(in.Cards), clone(in.Seats)
	if in.Values != nil {
		c.Values = make([][]byte, len(in.Values))
		for i, v := range in.Values {
			c.Values[i] = clone(v)
		}
	}
	return c
}

func clone[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append([]T(nil), s...)
}
