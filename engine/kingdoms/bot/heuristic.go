package bot

import (
	"math"
	"math/rand/v2"

	k "corruption/engine/kingdoms"
)

// Heuristic plays like a sensible person, from its own view only. It estimates, for every bill,
// the chance it passes in the end (each seat voting for the bills it has favors on, with the
// voters it controls, the uncontrolled ones as the rules say) and what its passing is worth to
// the bot (its own favors and guilty pleasures, its shareholder points, less the opponents'
// gains), then takes the action that raises that worth the most: a favor placed where it will
// pass, a vote called when it will win it, a leader where its vote counts, minions when it needs
// them. It votes for what helps it, answers votes and steals with its chaos cards when that
// turns the result, and plays its other chaos cards when they are worth an action or the game
// is ending. A little noise keeps two such bots apart. Its weights are those of the table's rules:
// basicWeights with the basic rules, defaults with any other.
type Heuristic struct {
	rng *rand.Rand
	p   *params // nil: the weights of the table's rules (weights)
}

// params are the heuristic's weights, chosen with TestTune and TestBalance (tune_test.go).
type params struct {
	influence float64 // a senator's worth for the votes to come, early on (a kingdom leader: 0.7 of it)
	place     float64 // how much of a favor's worth on a bill counts early on (once at the end)
	rivalry   float64 // how much an opponent's point counts against the bot's own, spread over them
	minion    float64 // a minion's worth when the bot has few
	coop      float64 // the bot votes for a bill worth at least -coop to it
	future    float64 // how many votes the bill's prospects add per vote expected before the end
}

// defaults are the weights of every table with bill bonuses or chaos cards (the advanced rules,
// and the 2-player game), tuned at advanced tables.
var defaults = params{influence: 0.35, place: 0.9, rivalry: 0.3, minion: 0.2, coop: 0.5, future: 3}

// basicWeights are the weights of the basic rules (with or without the house rules "even"),
// tuned at basic tables: TestTune with KINGDOMS_TUNE_RULES=basic, run once from a first pass
// (docs/KINGDOMS.md, "The basic rules and the bots").
var basicWeights = params{influence: 0.35, place: 3.6, rivalry: 0.6, minion: 0.1, coop: 0.5, future: 2.94}

// weights are the heuristic's weights at a table with rules c.
func weights(c k.Config) *params {
	if !c.Bonuses && !c.Chaos {
		return &basicWeights
	}
	return &defaults
}

func (b *Heuristic) Name() string { return "heuristic" }

func (b *Heuristic) Decide(v k.View) k.Move {
	legal := v.Legal()
	if len(legal) == 0 {
		return k.PassMove(v.Seat)
	}
	p := b.p
	if p == nil {
		p = weights(v.Config)
	}
	bd := look(v, p)
	best, bestScore := k.Move{}, math.Inf(-1)
	chaosBest, chaosScore := k.Move{}, 0.0
	for _, m := range legal {
		s := bd.score(m) + 0.05*b.rng.Float64()
		switch {
		case m.Kind == k.MoveChaos && v.Next.Kind == k.DecideAction:
			// Not an action: played before the best action when it is worth playing at all.
			if s > chaosScore {
				chaosBest, chaosScore = m, s
			}
		case s > bestScore:
			best, bestScore = m, s
		}
	}
	if chaosBest.Kind == k.MoveChaos {
		return chaosBest
	}
	return best
}

// score is how much the bot expects move m to be worth.
func (b *board) score(m k.Move) float64 {
	switch m.Kind {
	case k.MoveTake:
		return b.minionsWorth(favors[m.Favor].Minions[:])
	case k.MovePlace:
		return b.placeWorth(m.Favor, m.Bill)
	case k.MoveInfluence:
		return b.influenceWorth(m)
	case k.MoveCall:
		return b.outcome(m.Bill)
	case k.MoveVote:
		if m.Yes == (b.gain[b.v.Vote.Bill] > -b.p.coop) {
			return 1
		}
		return 0
	case k.MovePick:
		return b.pickWorth(m)
	case k.MoveCycle:
		return -1
	case k.MoveDiscard:
		return -cardWorth[chaos[b.v.Hand[m.Pos].Card].Effect]
	case k.MovePass:
		return 0
	case k.MoveChaos:
		return b.chaosWorth(m)
	}
	return 0
}

func (b *board) minionsWorth(ms []k.Minion) float64 {
	w := 0.0
	for _, m := range ms {
		if b.v.Supply[m] > 0 {
			w += b.minionVs[m]
		}
	}
	return w
}

func (b *board) minionCount() int {
	n := 0
	for _, c := range b.v.Seats[b.me].Minions {
		n += c
	}
	return n
}

// placeWorth is the gain of placing favor f on bill: its bill's worth with the favor, less
// without; if it calls a vote at once, the vote's result.
func (b *board) placeWorth(f, bill int) float64 {
	p, g := b.estimate(bill, f, b.me)
	if len(b.v.Bills[bill].Favors) >= k.AutoVoteAt {
		yes, no := b.votes(bill, f, b.me)
		switch {
		case yes > no || yes == no && b.freedom(bill, f):
			p = 1
		case no > yes:
			p = 0
		}
	}
	w := p*g - b.pass[bill]*b.gain[bill]
	return w*(b.p.place+(1-b.p.place)*b.endSoon) + 0.1
}

// influenceWorth is the gain of controlling a leader: more votes on the bills it votes on, a
// leader to call votes with, a monarch perhaps, less the minions paid.
func (b *board) influenceWorth(m k.Move) float64 {
	l := leaders[m.Leader]
	from := b.v.Control[m.Leader]
	w := b.withPower(from, b.me, l.Kingdom) - b.value()
	if l.Kingdom < 0 {
		w += b.p.influence * (1 - b.endSoon)
	} else {
		w += 0.7 * b.p.influence * (1 - b.endSoon)
	}
	pay := 0.0
	for i, c := range l.Cost {
		if m.Waive&(1<<i) == 0 {
			pay += b.minionVs[c]
		}
	}
	if m.Minion != k.NoMinion {
		pay += b.minionVs[m.Minion]
	}
	return w - pay
}

func bitsCount(x uint8) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// pickWorth is a guilty pleasure's worth: a point per favor of its type in the bot's pile, and
// in its bills, and a cheaper leader of its heart; plus the bonus asked for.
func (b *board) pickWorth(m k.Move) float64 {
	if m.Pleasure < 0 {
		return 0
	}
	p := pleasures[m.Pleasure]
	w := 0.0
	for _, f := range b.v.Seats[b.me].Pile {
		if favors[f].Type == p.Type {
			w++
		}
	}
	voted := -1
	if b.v.Vote != nil {
		voted = b.v.Vote.Bill
	}
	for bill := range b.nbills {
		for _, f := range b.v.Bills[bill].Favors {
			switch {
			case f.Seat != b.me || favors[f.Favor].Type != p.Type:
			case bill == voted:
				w++
			default:
				w += 0.5 * b.pass[bill]
			}
		}
	}
	w += 0.3 * (1 - b.endSoon)
	if m.Leader >= 0 {
		w += 0.4 + 0.1*float64(b.power[b.v.Control[m.Leader]][0])
	}
	if m.Minion != k.NoMinion {
		w += b.minionVs[m.Minion]
	}
	if m.Favor >= 0 {
		w -= 0.1
	}
	return w
}

// cardWorth is what each chaos card is worth held, for the discard.
var cardWorth = map[k.Effect]float64{k.Hustle: 3, k.Coup: 3, k.Earmark: 2.5, k.Indulge: 2.5, k.Recruit: 2,
	k.Lobby: 2, k.Scandal: 2, k.Shred: 2, k.Embezzle: 2, k.Ballot: 2.2, k.Veto: 2, k.Guard: 1.5}
