package bot

import (
	"math"
	"math/rand/v2"
	"slices"

	"corruption/engine/botkit"
	k "corruption/engine/kingdoms"
	"corruption/engine/search"
)

// Strong searches (package search): for each decision it samples games that agree with its
// seat's view (View.Determinize: the others' shareholder and chaos cards and the decks
// redrawn), plays each on with heuristic bots in every seat until the round after this one is
// over, and keeps the move whose playouts it won most (its chance to win, from every seat's
// projected score then). Its moves come in the heuristic's order, best first, so that a small
// budget refines the heuristic's choice. During the setup (the chaos discard) it plays as the
// heuristic bot.
type Strong struct {
	botkit.Strong[*Heuristic] // its heuristic bots: Heuristic ranks the moves, Policy plays the playouts
}

// The strong bot's budgets in Corrupted Kingdoms, in playouts a decision (botkit.Kinds' Person and
// Simulate; their figures are in docs/PERFORMANCE.md).
const (
	ThinkPerson   = 400 // at a person's table (demo, play, bot)
	ThinkSimulate = 100 // simulate's: 100 games of one strong bot and three heuristic ones
)

// NewStrong makes a strong bot drawing from rng that thinks playouts playouts a decision.
func NewStrong(rng *rand.Rand, playouts int) *Strong {
	return &Strong{Strong: botkit.NewStrong(rng, playouts, k.MaxPlayers, func(r *rand.Rand) *Heuristic { return &Heuristic{rng: r} })}
}

func (b *Strong) Decide(v k.View) (m k.Move) {
	// A sample the rules refuse (a bug of this package's determinizer or playouts) panics in
	// the search; the bot recovers and lets the heuristic decide, so that a person's table
	// never stops on it.
	defer botkit.OrElse(&m, func() k.Move { return b.Heuristic.Decide(v) })
	if !v.Playing || v.Over {
		return b.Heuristic.Decide(v)
	}
	cut := v.Round + 1
	return botkit.Search(&b.Searcher, v.Seat, func(r *rand.Rand) search.Game[k.Move] {
		g := &game{l: v.Determinize(r), b: b, cut: cut}
		for !g.Over() && g.Mover() != v.Seat {
			g.Play(g.Policy(r)) // the votes cast before this seat's, which it does not see
		}
		return g
	})
}

// game is one determinization, as package search plays it.
type game struct {
	l   *k.Local
	b   *Strong
	cut int // the rollout stops when this round is over
	d   k.Decision
	ok  bool // d is the decision due
}

func (g *game) next() k.Decision {
	if !g.ok {
		d, err := g.l.Next()
		if err != nil {
			panic("strong bot: " + err.Error())
		}
		g.d, g.ok = d, true
	}
	return g.d
}

func (g *game) Over() bool { return g.next().Kind == k.DecideNothing }
func (g *game) Mover() int { return g.next().Seat }

// Moves are the mover's legal moves, best first by the heuristic's score; a chaos card it would
// not play comes last.
func (g *game) Moves(buf []k.Move) []k.Move {
	v := g.l.Game().View(g.Mover())
	legal := v.Legal()
	if len(legal) == 0 {
		return append(buf, k.PassMove(v.Seat))
	}
	bd := look(v, weights(v.Config))
	scores := make([]float64, len(legal))
	for i, m := range legal {
		scores[i] = bd.score(m)
		if m.Kind == k.MoveChaos && v.Next.Kind == k.DecideAction && scores[i] <= 0 {
			scores[i] = math.Inf(-1)
		}
	}
	idx := make([]int, len(legal))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	for _, i := range idx {
		buf = append(buf, legal[i])
	}
	return buf
}

func (g *game) Play(m k.Move) {
	g.ok = false
	if err := g.l.Play(m); err != nil {
		panic("strong bot: " + err.Error())
	}
}

func (g *game) Policy(*rand.Rand) k.Move {
	seat := g.Mover()
	return g.b.Policy[seat].Decide(g.l.Game().View(seat))
}

// Rollout plays on until round cut is over (or the game), and scores each seat's chance to win
// from every seat's projected score then: a softmax whose temperature grows with the rounds
// the decks have left.
func (g *game) Rollout(r *rand.Rand, rewards []float64) {
	for !g.Over() && g.l.Game().Round() <= g.cut {
		g.Play(g.Policy(r))
	}
	game := g.l.Game()
	n := game.Players()
	var scores [k.MaxPlayers]float64
	if g.Over() {
		out := game.Outcome()
		for _, w := range out.Winners {
			rewards[w] = 1 / float64(len(out.Winners))
		}
		return
	}
	var rounds float64
	for s := range n {
		v := game.View(s)
		sc := v.Projected(s)
		scores[s] = float64(sc.Total) + 0.01*float64(sc.Minions)
		if s == 0 {
			rounds = math.Min(float64(v.FavorDeck)/(1.2*float64(n)), float64(v.PleasureDeck)/2)
		}
	}
	search.Softmax(scores[:n], 1.5+1.5*math.Sqrt(max(rounds, 0)), rewards)
}
