package corruptia

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"corruption/engine"
)

// Chance is what a full-information host draws where a table draws jointly.
type Chance interface {
	// Order puts a deck just shuffled in its order: it permutes cards (the deck as built,
	// card ids by position) in place.
	Order(deck int, cards []int) error
	// Int is a StepRandom's draw d, in [0, n).
	Int(d Draw, n int) (int, error)
}

// Seeded is a Chance drawn from a seeded generator: the same seed, the same game.
func Seeded(seed1, seed2 uint64) Chance { return seeded{rand.New(rand.NewPCG(seed1, seed2))} }

type seeded struct{ r *rand.Rand }

func (s seeded) Order(_ int, cards []int) error {
	s.r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	return nil
}

func (s seeded) Int(_ Draw, n int) (int, error) { return s.r.IntN(n), nil }

// Host plays a Game with full information, in memory: the table of a script or of a
// simulation. It keeps the decks as lists of bills, performs every step that no seat decides,
// and tells its game every bill it deals to a seat alone, so that one copy serves every seat's
// View (which still shows each seat only its own bills). The table kit's privacy is not
// simulated here: engine/enginetest does that, with one copy per seat.
type Host struct {
	game  *Game
	decks [NumDecks][]int
	// OnInput, if set, sees every input after the game applied it, with the step it answered.
	OnInput func(engine.Step, engine.Input)
}

// NewHost hosts g, which must not have begun.
func NewHost(g *Game) *Host { return &Host{game: g} }

// Game is the hosted game.
func (h *Host) Game() *Game { return h.game }

// Deck is deck i as the host holds it: card ids by position (do not change it).
func (h *Host) Deck(i int) []int { return h.decks[i] }

// Run performs every step due that no seat decides, drawing from c, until the game waits for
// a seat's move or for the votes, or is over.
func (h *Host) Run(c Chance) error {
	for {
		st := h.game.Due()
		var in engine.Input
		var err error
		switch st.Kind {
		case engine.StepOver, engine.StepMove, engine.StepChoose:
			return nil
		case engine.StepRandom:
			in.Kind = engine.InRandom
			var v int
			v, err = c.Int(h.game.Drawing(), st.Ranges[0])
			in.Ints = []int{v}
		case engine.StepBuild:
			in = engine.Input{Kind: engine.InBuilt, Deck: st.Deck}
			d := slices.Clone(st.Cards)
			for _, dc := range st.From {
				d = append(d, h.decks[dc.Deck][dc.Pos])
			}
			h.decks[st.Deck] = d
		case engine.StepShuffle:
			in = engine.Input{Kind: engine.InShuffled, Deck: st.Deck}
			err = c.Order(st.Deck, h.decks[st.Deck])
		case engine.StepDeal:
			in = engine.Input{Kind: engine.InDealt, Deck: st.Deck, Positions: st.Positions, To: st.To, Cards: h.cards(st)}
			if st.To >= 0 {
				in.Cards = slices.Repeat([]int{-1}, len(st.Positions))
			}
		case engine.StepShow:
			in = engine.Input{Kind: engine.InShown, Seat: st.Seat, Deck: st.Deck, Positions: st.Positions, Cards: h.cards(st)}
		}
		if err == nil {
			err = h.apply(st, in)
		}
		if err != nil {
			return err
		}
	}
}

func (h *Host) cards(st engine.Step) []int {
	cs := make([]int, len(st.Positions))
	for i, p := range st.Positions {
		cs[i] = h.decks[st.Deck][p]
	}
	return cs
}

func (h *Host) apply(st engine.Step, in engine.Input) error {
	if err := h.game.Apply(in); err != nil {
		return err
	}
	if st.Kind == engine.StepDeal && st.To >= 0 {
		for _, p := range st.Positions {
			if err := h.game.LearnCard(st.Deck, p, h.decks[st.Deck][p]); err != nil {
				return err
			}
		}
	}
	if h.OnInput != nil {
		h.OnInput(st, in)
	}
	return nil
}

// Move applies seat's move, due now.
func (h *Host) Move(seat int, m Move) error {
	st := h.game.Due()
	b, err := EncodeMove(m)
	if err != nil {
		return err
	}
	return h.apply(st, engine.Input{Kind: engine.InMove, Seat: seat, Move: b})
}

// Votes applies the votes due now, by seat.
func (h *Host) Votes(votes []Vote) error {
	st := h.game.Due()
	if st.Kind != engine.StepChoose {
		return fmt.Errorf("votes, but the game waits for %s", h.game.waits())
	}
	if len(votes) != h.game.n {
		return fmt.Errorf("%d votes at a table of %d", len(votes), h.game.n)
	}
	in := engine.Input{Kind: engine.InChosen, Seats: st.Seats}
	for _, s := range st.Seats {
		in.Values = append(in.Values, []byte(votes[s].String()))
	}
	return h.apply(st, in)
}
