package bot

import (
	"math"
	"math/rand/v2"
	"slices"

	"corruption/engine/botkit"
	"corruption/engine/corruption"
	"corruption/engine/search"
)

// Strong searches (package search): for each decision it samples games that agree with its
// seat's view (View.Determinize: the others' face-down cards and the deck redrawn), plays each
// on with heuristic bots in every seat to the end of the round after this one's, and keeps the
// move whose playouts the seat won most (its chance to win, from the scores and the rounds
// left, at that cut-off). Its moves come in the heuristic's order, best first, so that a small
// budget refines the heuristic's choice. It peeks and chooses free stud's face-up positions as
// the heuristic bot does: a search over determinizations cannot see what a peek would teach.
type Strong struct {
	botkit.Strong[*Heuristic] // its heuristic bots: Heuristic ranks the moves, Policy plays the playouts
}

// The strong bot's budgets in Corruption, in playouts a decision (botkit.Kinds' Person and
// Simulate; their figures are in docs/PERFORMANCE.md).
const (
	ThinkPerson   = 400 // at a person's table (demo, play, bot)
	ThinkSimulate = 150 // simulate's: 100 games of one strong bot and three heuristic ones
)

// NewStrong makes a strong bot drawing from rng that thinks playouts playouts a decision.
func NewStrong(rng *rand.Rand, playouts int) *Strong {
	return &Strong{Strong: botkit.NewStrong(rng, playouts, corruption.MaxPlayers, func(r *rand.Rand) *Heuristic { return NewHeuristic(r) })}
}

func (b *Strong) Decide(v corruption.View) (m corruption.Move) {
	// A sample the rules refuse (a bug of this package's determinizer or playouts) panics in
	// the search; the bot recovers and lets the heuristic decide, so that a person's table
	// never stops on it.
	defer botkit.OrElse(&m, func() corruption.Move { return b.Heuristic.Decide(v) })
	d := v.Next()
	switch d.Kind {
	case corruption.DecidePlace:
		if d.CanPeek {
			b.Heuristic.freshen(v)
			if i, ok := b.Heuristic.peek(v); ok {
				return corruption.Move{Kind: corruption.MovePeek, Seat: v.Seat(), Index: i}
			}
		}
	case corruption.DecideAssign, corruption.DecideKill, corruption.DecideRemove:
	default:
		return b.Heuristic.Decide(v)
	}
	round := v.Round()
	return botkit.Search(&b.Searcher, v.Seat(), func(r *rand.Rand) search.Game[corruption.Move] {
		return &game{s: v.Determinize(r), b: b, cut: round + 1}
	})
}

// game is one determinization, as package search plays it.
type game struct {
	s   *corruption.State
	b   *Strong
	cut int // the rollout stops when this round is over
}

func (g *game) Over() bool { return g.s.Over() }
func (g *game) Mover() int { return g.s.Next().Seat }

// Moves are the mover's moves, best first as the heuristic sees them: every placement (not a
// peek) by its expected gain, or the awarding decision's options with the heuristic's first.
func (g *game) Moves(buf []corruption.Move) []corruption.Move {
	v := g.s.View(g.Mover())
	d := v.Next()
	seat := v.Seat()
	switch d.Kind {
	case corruption.DecidePlace:
		h := g.b.Heuristic
		h.freshen(v)
		type scored struct {
			m corruption.Move
			s float64
		}
		var all []scored
		h.placements(v, func(c corruption.Card, sp corruption.Spot, s float64) {
			all = append(all, scored{corruption.Move{Kind: corruption.MovePlace, Seat: seat, Card: c, Spot: sp}, s})
		})
		slices.SortStableFunc(all, func(a, b scored) int {
			switch {
			case a.s > b.s:
				return -1
			case a.s < b.s:
				return 1
			}
			return 0
		})
		for _, a := range all {
			if !math.IsInf(a.s, -1) {
				buf = append(buf, a.m)
			}
		}
		return buf
	case corruption.DecideAssign:
		first := corruption.Move{Kind: corruption.MoveAssign, Seat: seat, Contract: g.b.Heuristic.assign(v, d.Index)}
		buf = append(buf, first)
		for _, c := range v.AssignOptions() {
			if c != first.Contract {
				buf = append(buf, corruption.Move{Kind: corruption.MoveAssign, Seat: seat, Contract: c})
			}
		}
	case corruption.DecideKill:
		first := g.b.Heuristic.kill(v, d.Index)
		buf = append(buf, corruption.Move{Kind: corruption.MoveKill, Seat: seat, Index: first})
		for _, t := range v.KillTargets() {
			if t != first {
				buf = append(buf, corruption.Move{Kind: corruption.MoveKill, Seat: seat, Index: t})
			}
		}
	case corruption.DecideRemove:
		pass := corruption.Move{Kind: corruption.MovePass, Seat: seat}
		first := pass
		if i := g.b.Heuristic.remove(v, d.Index); i > 0 {
			first = corruption.Move{Kind: corruption.MoveRemove, Seat: seat, Index: i}
		}
		buf = append(buf, first)
		for _, i := range v.RemoveOptions() {
			if i != first.Index {
				buf = append(buf, corruption.Move{Kind: corruption.MoveRemove, Seat: seat, Index: i})
			}
		}
		if first != pass {
			buf = append(buf, pass)
		}
	default:
		buf = append(buf, g.b.Policy[seat].Decide(v))
	}
	return buf
}

func (g *game) Play(m corruption.Move) {
	if err := g.s.Apply(m); err != nil {
		// A move the rules refuse is a bug of this file; the game ends here, scored as is.
		panic("strong bot: " + err.Error())
	}
}

func (g *game) Policy(*rand.Rand) corruption.Move {
	seat := g.Mover()
	return g.b.Policy[seat].Decide(g.s.View(seat))
}

// Rollout plays on to the end of round cut (or of the game) and scores each seat's chance to
// win from the scores then: a softmax whose temperature grows with the rounds left.
func (g *game) Rollout(r *rand.Rand, rewards []float64) {
	for !g.s.Over() && g.s.Round() <= g.cut {
		g.Play(g.Policy(r))
	}
	n := g.s.Config().Players
	var scores [corruption.MaxPlayers]float64
	for s := range n {
		v, k := g.s.Score(s)
		scores[s] = float64(v) + float64(k) // contracts won break ties
	}
	left := corruption.Rounds - g.s.Round() + 1
	if g.s.Over() {
		left = 0
	}
	search.Softmax(scores[:n], tempPerRound*math.Sqrt(float64(left)), rewards)
}

// tempPerRound is the luck a round still to come brings to the scores, in dollars: the scale of
// the softmax that turns scores into chances to win.
const tempPerRound = 400000
