package engine_test

// Rejected moves leave the state unchanged (issue 2; engine doc: "a rejected move leaves the
// state exactly as it was"). At states reached by random games, full-information and hidden,
// arbitrary moves are tried: every rejection must be a *MoveError (naming the seat that moved)
// or ErrGameOver and leave the state, its Digest, Next and every PlayAt as they were; every
// move accepted must be legal by the rules.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"corruption/engine"
)

// garbage is an arbitrary move, often close to a legal one so that the deeper checks are
// reached: the kind the decision wants, the seat that must act, a spot on the table, an index
// among the cards placed.
func garbage(rng *rand.Rand, s *engine.State) engine.Move {
	n := s.Config().Players
	d := s.Next()
	m := engine.Move{
		Kind:      engine.MoveKind(rng.IntN(12)),
		Seat:      rng.IntN(n+4) - 2,
		Card:      engine.Card(rng.IntN(12)),
		Spot:      engine.Spot(rng.IntN(30)),
		Contract:  engine.Contract(rng.IntN(27)),
		Index:     rng.IntN(s.NumPlays()+4) - 1,
		Positions: engine.Positions(rng.IntN(256)),
	}
	for i := range m.Deal {
		m.Deal[i] = engine.Contract(rng.IntN(26))
	}
	if rng.IntN(2) == 0 {
		m.Kind = map[engine.DecisionKind]engine.MoveKind{
			engine.DecideDeal: engine.MoveDeal, engine.DecideFaceUp: engine.MoveFaceUp,
			engine.DecidePlace: engine.MovePlace, engine.DecideReveal: engine.MoveReveal,
			engine.DecideAssign: engine.MoveAssign, engine.DecideKill: engine.MoveKill,
			engine.DecideRemove: engine.MoveRemove}[d.Kind]
		if d.Kind == engine.DecidePlace && rng.IntN(4) == 0 {
			m.Kind = engine.MovePeek
		}
		if d.Kind == engine.DecideRemove && rng.IntN(3) == 0 {
			m.Kind = engine.MovePass
		}
	}
	if d.Seat >= 0 && rng.IntN(3) != 0 {
		m.Seat = d.Seat
	}
	if table := s.Table(); len(table) > 0 && rng.IntN(2) == 0 {
		m.Spot = engine.ContractSpot(table[rng.IntN(len(table))])
		m.Contract = table[rng.IntN(len(table))]
	}
	if rng.IntN(3) == 0 {
		m.Card = engine.Card(1 + rng.IntN(9))
	}
	if s.NumPlays() > 0 && rng.IntN(2) == 0 {
		m.Index = 1 + rng.IntN(s.NumPlays())
	}
	return m
}

// tryGarbage applies k arbitrary moves to copies of s. For each rejected one it checks the
// error and that nothing changed; it returns the moves accepted, with the Next they answered.
func tryGarbage(rng *rand.Rand, s *engine.State, k int) ([]engine.Move, error) {
	var accepted []engine.Move
	for j := 0; j < k; j++ {
		c := s.Clone()
		c.OnEvent = nil
		m := garbage(rng, c)
		take := snapLight
		if j%8 == 0 {
			take = snap
		}
		before := take(c)
		err := c.Apply(m)
		if err == nil {
			accepted = append(accepted, m)
			continue
		}
		var me *engine.MoveError
		switch {
		case errors.Is(err, engine.ErrGameOver):
			if !s.Over() {
				return nil, fmt.Errorf("%v: ErrGameOver before the end", m)
			}
		case !errors.As(err, &me):
			return nil, fmt.Errorf("%v: error %q (%T) is not a *MoveError", m, err, err)
		case m.Kind == engine.MoveDeal || m.Seat < 0 || m.Seat >= s.Config().Players:
			if me.Seat != -1 {
				return nil, fmt.Errorf("%v: error %q names seat %d, want -1", m, err, me.Seat)
			}
		case me.Seat != m.Seat:
			return nil, fmt.Errorf("%v: error %q names seat %d, want %d", m, err, me.Seat, m.Seat)
		}
		if err.Error() == "" {
			return nil, fmt.Errorf("%v: an empty error", m)
		}
		if d := before.same(take(c)); d != "" {
			return nil, fmt.Errorf("%v was rejected (%v) but %s", m, err, d)
		}
	}
	return accepted, nil
}

// legalNow checks a move the engine accepted at s against the rules: placements, peeks and
// face-up choices through the reference model, awarding decisions against the options listed.
func legalNow(s *engine.State, model *ref, m engine.Move) error {
	d := s.Next()
	switch m.Kind {
	case engine.MovePlace, engine.MovePeek, engine.MoveFaceUp:
		return model.clone().move(d, m)
	case engine.MoveAssign:
		if d.Kind == engine.DecideAssign && m.Seat == d.Seat && slices.Contains(s.AssignOptions(), m.Contract) {
			return nil
		}
	case engine.MoveKill:
		if d.Kind == engine.DecideKill && m.Seat == d.Seat && slices.Contains(s.KillTargets(), m.Index) {
			return nil
		}
	case engine.MoveRemove:
		if d.Kind == engine.DecideRemove && m.Seat == d.Seat && slices.Contains(s.RemoveOptions(), m.Index) {
			return nil
		}
	case engine.MovePass:
		if d.Kind == engine.DecideRemove && m.Seat == d.Seat {
			return nil
		}
	}
	return fmt.Errorf("%v accepted while the game waits for %v", m, d)
}

// optionsAgree checks that the choices the engine lists (CanPlay, Peekable, CanPeek,
// AssignOptions, KillTargets, RemoveOptions) are exactly the moves Apply accepts.
func optionsAgree(s *engine.State) error {
	d := s.Next()
	accepts := func(m engine.Move) bool {
		c := s.Clone()
		c.OnEvent = nil
		return c.Apply(m) == nil
	}
	in := func(xs []int, x int) bool { return slices.Contains(xs, x) }
	switch d.Kind {
	case engine.DecidePlace:
		v := s.View(d.Seat)
		for card := engine.Bribe1000; card <= engine.HitMan; card++ {
			for sp := engine.Spot(0); sp <= engine.SwissCapitol; sp++ {
				can := v.CanPlay(card, sp) == nil
				if ok := accepts(engine.Move{Kind: engine.MovePlace, Seat: d.Seat, Card: card, Spot: sp}); ok != can {
					return fmt.Errorf("seat %d, %s on %s: CanPlay says %t, Apply %t", d.Seat, card, sp, can, ok)
				}
			}
		}
		ps := v.Peekable()
		if d.CanPeek != (len(ps) > 0) {
			return fmt.Errorf("CanPeek %t with peekable cards %v", d.CanPeek, ps)
		}
		for i := 0; i <= s.NumPlays()+1; i++ {
			if ok := accepts(engine.Move{Kind: engine.MovePeek, Seat: d.Seat, Index: i}); ok != in(ps, i) {
				return fmt.Errorf("peek at %d: listed %t, accepted %t", i, in(ps, i), ok)
			}
		}
	case engine.DecideAssign:
		opts := s.AssignOptions()
		for c := engine.Contract(0); c < engine.NumContracts; c++ {
			if ok := accepts(engine.Move{Kind: engine.MoveAssign, Seat: d.Seat, Contract: c}); ok != slices.Contains(opts, c) {
				return fmt.Errorf("assign to %s: listed %t, accepted %t", c, slices.Contains(opts, c), ok)
			}
		}
	case engine.DecideKill, engine.DecideRemove:
		kind, opts := engine.MoveKill, s.KillTargets()
		if d.Kind == engine.DecideRemove {
			kind, opts = engine.MoveRemove, s.RemoveOptions()
			if !accepts(engine.Move{Kind: engine.MovePass, Seat: d.Seat}) {
				return fmt.Errorf("a reporter's owner cannot pass")
			}
		}
		if len(opts) == 0 {
			return fmt.Errorf("%v with no option", d)
		}
		for i := 0; i <= s.NumPlays()+1; i++ {
			if ok := accepts(engine.Move{Kind: kind, Seat: d.Seat, Index: i}); ok != in(opts, i) {
				return fmt.Errorf("%s %d: listed %t, accepted %t", kind, i, in(opts, i), ok)
			}
		}
	}
	return nil
}

func TestRejectedMovesChangeNothing(t *testing.T) {
	games, tries := 3, 10
	if testing.Short() {
		games = 1
	}
	for ki, k := range tableKinds() {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			for g := 0; g < games; g++ {
				seed := uint64(ki)<<32 | uint64(g) | 2<<60
				rng := rngFor(seed, 7)
				accepted := 0
				probe := func(s *engine.State, model *ref) error {
					if rng.IntN(3) != 0 {
						return nil
					}
					if rng.IntN(2) == 0 {
						if err := optionsAgree(s); err != nil {
							return err
						}
					}
					ms, err := tryGarbage(rng, s, tries)
					if err != nil {
						return err
					}
					for _, m := range ms {
						if err := legalNow(s, model, m); err != nil {
							return fmt.Errorf("the engine accepted an illegal move: %w", err)
						}
					}
					accepted += len(ms)
					return nil
				}
				if err := playChecked(k.config(seed), seed, false, probe); err != nil {
					t.Fatalf("game %d (seed %#x): %v", g, seed, err)
				}
				if accepted == 0 {
					t.Errorf("game %d: no arbitrary move was ever legal: the moves are too random to test much", g)
				}
				// The same on hidden-card states, reveals included.
				fg := recordGame(t, k.config(seed), seed)
				hprobe := func(h *engine.State) error {
					if rng.IntN(3) != 0 {
						return nil
					}
					_, err := tryGarbage(rng, h, tries)
					return err
				}
				if err := replayHidden(fg, g%k.players, g%2 == 0, hprobe); err != nil {
					t.Fatalf("game %d (seed %#x), hidden: %v", g, seed, err)
				}
			}
		})
	}
}
