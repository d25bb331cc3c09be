package bot

import (
	"math"
	"math/rand/v2"
	"slices"

	"corruption/engine"
	"corruption/engine/botkit"
	"corruption/engine/corruptia"
	"corruption/engine/search"
)

// Strong searches (package search): for each decision and vote it samples games that agree
// with its seat's view (View.Determinize: the hands it has not seen and the deck redrawn),
// plays each on with heuristic bots in every seat until this turn is over, and
// keeps the move whose playouts it won most (its chance to win, from every senator's score
// then). Its moves come in the heuristic's order, best first, so that a small budget refines
// the heuristic's choice. Its opening discard is the heuristic's.
type Strong struct {
	botkit.Strong[*Heuristic] // its heuristic bots: Heuristic ranks the moves, Policy plays the playouts
	// what ranked lists and reckons, reused (a listing of proposals was most of a search's
	// allocations): valid until the next ranking
	props []corruptia.Proposal
	vals  []float64
	idx   []int
}

// The strong bot's budgets in Corruptia, in playouts a decision (botkit.Kinds' Person and
// Simulate; their figures are in docs/PERFORMANCE.md).
const (
	ThinkPerson   = 300 // at a person's table (demo, play, bot)
	ThinkSimulate = 150 // simulate's: 100 games of one strong bot and three heuristic ones
)

// NewStrong makes a strong bot drawing from rng that thinks playouts playouts a decision.
func NewStrong(rng *rand.Rand, playouts int) *Strong {
	return &Strong{Strong: botkit.NewStrong(rng, playouts, corruptia.MaxPlayers, func(r *rand.Rand) *Heuristic { return &Heuristic{rng: r} })}
}

func (b *Strong) Decide(v *corruptia.View) (m corruptia.Move) {
	// A sample the rules refuse (a bug of this package's determinizer or playouts) panics in
	// the search; the bot recovers and lets the heuristic decide, so that a person's table
	// never stops on it.
	defer botkit.OrElse(&m, func() corruptia.Move { return b.Heuristic.Decide(v) })
	if v.Next.Kind == corruptia.DecideDiscard || v.Round == 0 {
		return b.Heuristic.Decide(v)
	}
	return b.search(v).M
}

func (b *Strong) Vote(v *corruptia.View) (vote corruptia.Vote) {
	defer botkit.OrElse(&vote, func() corruptia.Vote { return b.Heuristic.Vote(v) }) // as in Decide
	return b.search(v).V
}

func (b *Strong) search(v *corruptia.View) act {
	return botkit.Search(&b.Searcher, v.Seat, func(r *rand.Rand) search.Game[act] {
		h, c := v.Determinize(r)
		g := &game{h: h, c: c, b: b}
		g.settle()
		for !g.Over() && g.Mover() != v.Seat {
			g.Play(g.Policy(r)) // the votes cast before this seat's, which it does not see
		}
		g.plays = 0
		return g
	})
}

// act is a move or a vote, as the search keys its tree.
type act struct {
	M    corruptia.Move
	V    corruptia.Vote
	Vote bool
}

// game is one determinization, as package search plays it.
type game struct {
	h     *corruptia.Host
	c     corruptia.Chance
	b     *Strong
	votes [corruptia.MaxPlayers]corruptia.Vote // cast so far at the vote under way
	cast  int
	plays int // moves and votes played since the search's decision
}

// settle performs the table's steps up to the next decision.
func (g *game) settle() {
	if err := g.h.Run(g.c); err != nil {
		panic("strong bot: " + err.Error())
	}
}

func (g *game) Over() bool { return g.h.Game().Due().Kind == engine.StepOver }

func (g *game) Mover() int {
	st := g.h.Game().Due()
	if st.Kind == engine.StepChoose {
		return st.Seats[g.cast]
	}
	return st.Seat
}

func (g *game) Moves(buf []act) []act {
	seat := g.Mover()
	v := g.h.Game().View(seat)
	h := g.b.Heuristic
	if g.h.Game().Due().Kind == engine.StepChoose {
		first := h.Vote(v)
		buf = append(buf, act{V: first, Vote: true})
		for _, vt := range []corruptia.Vote{corruptia.VoteYes, corruptia.VoteNo, corruptia.VoteAbsent} {
			if vt != first && (vt != corruptia.VoteAbsent || v.Approval[seat] > 0) {
				buf = append(buf, act{V: vt, Vote: true})
			}
		}
		return buf
	}
	first := h.Decide(v)
	buf = append(buf, act{M: first})
	add := func(m corruptia.Move) {
		if !slices.Contains(buf, act{M: m}) {
			buf = append(buf, act{M: m})
		}
	}
	blackmails := func() {
		for _, t := range targets(v) {
			add(corruptia.Move{Kind: corruptia.MoveBlackmail, Target: t, Demand: corruptia.VoteYes})
			add(corruptia.Move{Kind: corruptia.MoveBlackmail, Target: t, Demand: corruptia.VoteNo})
		}
	}
	switch v.Next.Kind {
	case corruptia.DecidePropose:
		for _, p := range g.ranked(v, 8) {
			add(corruptia.Move{Kind: corruptia.MovePropose, Proposal: p})
		}
	case corruptia.DecideRespond:
		add(corruptia.Move{Kind: corruptia.MovePass})
		if v.Offers[seat] < v.Reserve[seat] {
			add(corruptia.Move{Kind: corruptia.MoveOffer})
		}
		blackmails()
	case corruptia.DecideNegotiate:
		add(corruptia.Move{Kind: corruptia.MoveCall})
		if v.AmendsLeft > 0 {
			for _, p := range g.ranked(v, 3) {
				if p != *v.Proposal {
					add(corruptia.Move{Kind: corruptia.MoveAmend, Proposal: p})
				}
			}
		}
		blackmails()
	case corruptia.DecideSwap:
		add(corruptia.Move{Kind: corruptia.MovePass})
		if slot, take, gain := swapGain(v); gain > 0 {
			add(corruptia.Move{Kind: corruptia.MoveSwap, Slot: slot, Take: take})
		}
	}
	return buf
}

// ranked are the k proposals of v's seat worth most to it, by the heuristic's reckoning.
func (g *game) ranked(v *corruptia.View, k int) []corruptia.Proposal {
	b := g.b
	b.props = v.Proposals(b.props[:0])
	ps := b.props
	m := newModel(v)
	vals := b.vals[:0]
	idx := b.idx[:0]
	for i, p := range ps {
		vals = append(vals, b.Heuristic.value(m, p))
		idx = append(idx, i)
	}
	b.vals, b.idx = vals, idx
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	})
	out := make([]corruptia.Proposal, 0, k)
	for _, i := range idx[:min(k, len(idx))] {
		out = append(out, ps[i])
	}
	return out
}

func (g *game) Play(a act) {
	seat := g.Mover()
	g.plays++
	if a.Vote {
		g.votes[seat] = a.V
		if g.cast++; g.cast < len(g.h.Game().Due().Seats) {
			return
		}
		g.cast = 0
		if err := g.h.Votes(g.votes[:g.h.Game().Players()]); err != nil {
			panic("strong bot: " + err.Error())
		}
	} else {
		if err := g.h.Move(seat, a.M); err != nil {
			panic("strong bot: " + err.Error())
		}
	}
	g.settle()
}

func (g *game) Policy(*rand.Rand) act {
	seat := g.Mover()
	v := g.h.Game().View(seat)
	if g.h.Game().Due().Kind == engine.StepChoose {
		return act{V: g.b.Policy[seat].Vote(v), Vote: true}
	}
	return act{M: g.b.Policy[seat].Decide(v)}
}

// Rollout plays on until this turn is over (or the game), and scores each
// senator's chance to win from every score then: a softmax whose temperature grows with the
// turns left.
func (g *game) Rollout(r *rand.Rand, rewards []float64) {
	for !g.Over() {
		if g.plays > 0 && g.h.Game().Next().Kind == corruptia.DecidePropose {
			break
		}
		g.Play(g.Policy(r))
	}
	game := g.h.Game()
	n := game.Players()
	if g.Over() {
		out := game.Outcome()
		for _, w := range out.Winners {
			rewards[w] = 1 / float64(len(out.Winners))
		}
		return
	}
	var scores [corruptia.MaxPlayers]float64
	var left float64
	for s := range n {
		v := game.View(s)
		scores[s] = float64(v.Scores[s]) + 0.1*float64(v.Approval[s])
		left = float64((corruptia.Rounds-v.Round+1)*n) - 0.5*float64(n)
	}
	search.Softmax(scores[:n], 4+6*math.Sqrt(max(left, 0)), rewards)
}
