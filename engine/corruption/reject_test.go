package corruption_test

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

	"corruption/engine/corruption"
)

// garbage is an arbitrary move, often close to a legal one so that the deeper checks are
// reached: the kind the decision wants, the seat that must act, a spot on the table, an index
// among the cards placed.
func garbage(rng *rand.Rand, s *corruption.State) corruption.Move {
	n := s.Config().Players
	d := s.Next()
	m := corruption.Move{
		Kind:      corruption.MoveKind(rng.IntN(12)),
		Seat:      rng.IntN(n+4) - 2,
		Card:      corruption.Card(rng.IntN(12)),
		Spot:      corruption.Spot(rng.IntN(30)),
		Contract:  corruption.Contract(rng.IntN(27)),
		Index:     rng.IntN(s.NumPlays()+4) - 1,
		Positions: corruption.Positions(rng.IntN(256)),
	}
	for i := range m.Deal {
		m.Deal[i] = corruption.Contract(rng.IntN(26))
	}
	if rng.IntN(2) == 0 {
		m.Kind = map[corruption.DecisionKind]corruption.MoveKind{
			corruption.DecideDeal: corruption.MoveDeal, corruption.DecideFaceUp: corruption.MoveFaceUp,
			corruption.DecidePlace: corruption.MovePlace, corruption.DecideReveal: corruption.MoveReveal,
			corruption.DecideAssign: corruption.MoveAssign, corruption.DecideKill: corruption.MoveKill,
			corruption.DecideRemove: corruption.MoveRemove}[d.Kind]
		if d.Kind == corruption.DecidePlace && rng.IntN(4) == 0 {
			m.Kind = corruption.MovePeek
		}
		if d.Kind == corruption.DecideRemove && rng.IntN(3) == 0 {
			m.Kind = corruption.MovePass
		}
	}
	if d.Seat >= 0 && rng.IntN(3) != 0 {
		m.Seat = d.Seat
	}
	if table := s.Table(); len(table) > 0 && rng.IntN(2) == 0 {
		m.Spot = corruption.ContractSpot(table[rng.IntN(len(table))])
		m.Contract = table[rng.IntN(len(table))]
	}
	if rng.IntN(3) == 0 {
		m.Card = corruption.Card(1 + rng.IntN(9))
	}
	if s.NumPlays() > 0 && rng.IntN(2) == 0 {
		m.Index = 1 + rng.IntN(s.NumPlays())
	}
	return m
}

// tryGarbage applies k arbitrary moves to copies of s. For each rejected one it checks the
// error and that nothing changed; it returns the moves accepted, with the Next they answered.
func tryGarbage(rng *rand.Rand, s *corruption.State, k int) ([]corruption.Move, error) {
	var accepted []corruption.Move
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
		var me *corruption.MoveError
		switch {
		case errors.Is(err, corruption.ErrGameOver):
			if !s.Over() {
				return nil, fmt.Errorf("%v: ErrGameOver before the end", m)
			}
		case !errors.As(err, &me):
			return nil, fmt.Errorf("%v: error %q (%T) is not a *MoveError", m, err, err)
		case m.Kind == corruption.MoveDeal || m.Seat < 0 || m.Seat >= s.Config().Players:
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
func legalNow(s *corruption.State, model *ref, m corruption.Move) error {
	d := s.Next()
	switch m.Kind {
	case corruption.MovePlace, corruption.MovePeek, corruption.MoveFaceUp:
		return model.clone().move(d, m)
	case corruption.MoveAssign:
		if d.Kind == corruption.DecideAssign && m.Seat == d.Seat && slices.Contains(s.AssignOptions(), m.Contract) {
			return nil
		}
	case corruption.MoveKill:
		if d.Kind == corruption.DecideKill && m.Seat == d.Seat && slices.Contains(s.KillTargets(), m.Index) {
			return nil
		}
	case corruption.MoveRemove:
		if d.Kind == corruption.DecideRemove && m.Seat == d.Seat && slices.Contains(s.RemoveOptions(), m.Index) {
			return nil
		}
	case corruption.MovePass:
		if d.Kind == corruption.DecideRemove && m.Seat == d.Seat {
			return nil
		}
	}
	return fmt.Errorf("%v accepted while the game waits for %v", m, d)
}

// optionsAgree checks that the choices the engine lists (CanPlay, Peekable, CanPeek,
// AssignOptions, KillTargets, RemoveOptions) are exactly the moves Apply accepts.
func optionsAgree(s *corruption.State) error {
	d := s.Next()
	accepts := func(m corruption.Move) bool {
		c := s.Clone()
		c.OnEvent = nil
		return c.Apply(m) == nil
	}
	in := func(xs []int, x int) bool { return slices.Contains(xs, x) }
	switch d.Kind {
	case corruption.DecidePlace:
		v := s.View(d.Seat)
		for card := corruption.Bribe1000; card <= corruption.HitMan; card++ {
			for sp := corruption.Spot(0); sp <= corruption.SwissCapitol; sp++ {
				can := v.CanPlay(card, sp) == nil
				if ok := accepts(corruption.Move{Kind: corruption.MovePlace, Seat: d.Seat, Card: card, Spot: sp}); ok != can {
					return fmt.Errorf("seat %d, %s on %s: CanPlay says %t, Apply %t", d.Seat, card, sp, can, ok)
				}
			}
		}
		ps := v.Peekable()
		if d.CanPeek != (len(ps) > 0) {
			return fmt.Errorf("CanPeek %t with peekable cards %v", d.CanPeek, ps)
		}
		for i := 0; i <= s.NumPlays()+1; i++ {
			if ok := accepts(corruption.Move{Kind: corruption.MovePeek, Seat: d.Seat, Index: i}); ok != in(ps, i) {
				return fmt.Errorf("peek at %d: listed %t, accepted %t", i, in(ps, i), ok)
			}
		}
	case corruption.DecideAssign:
		opts := s.AssignOptions()
		for c := corruption.Contract(0); c < corruption.NumContracts; c++ {
			if ok := accepts(corruption.Move{Kind: corruption.MoveAssign, Seat: d.Seat, Contract: c}); ok != slices.Contains(opts, c) {
				return fmt.Errorf("assign to %s: listed %t, accepted %t", c, slices.Contains(opts, c), ok)
			}
		}
	case corruption.DecideKill, corruption.DecideRemove:
		kind, opts := corruption.MoveKill, s.KillTargets()
		if d.Kind == corruption.DecideRemove {
			kind, opts = corruption.MoveRemove, s.RemoveOptions()
			if !accepts(corruption.Move{Kind: corruption.MovePass, Seat: d.Seat}) {
				return fmt.Errorf("a reporter's owner cannot pass")
			}
		}
		if len(opts) == 0 {
			return fmt.Errorf("%v with no option", d)
		}
		for i := 0; i <= s.NumPlays()+1; i++ {
			if ok := accepts(corruption.Move{Kind: kind, Seat: d.Seat, Index: i}); ok != in(opts, i) {
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
				probe := func(s *corruption.State, model *ref) error {
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
				hprobe := func(h *corruption.State) error {
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
