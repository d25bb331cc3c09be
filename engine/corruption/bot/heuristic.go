package bot

import (
	"math"
	"math/rand/v2"

	"corruption/engine/corruption"
)

// Heuristic plays like a sensible person, from its own view only. It sizes up every contract on
// the table (the bribes it can see, a guess for each face-down card, district attorneys in
// sight), then places the card with the best expected gain: it concentrates bribes where it can
// win, keeps big bribes flexible and hidden on Swiss accounts, sends district attorneys after
// contracts a rival is winning, reporters where a rival's big bribe stands in its way, and hit
// men where a rival's character threatens a contract it leads. A little noise keeps it from
// being predictable, and face-down cards let it bluff.
type Heuristic struct {
	rng   *rand.Rand
	round int                              // the round its tastes are for
	taste [corruption.NumContracts]float64 // how much it fancies each contract this round
}

// NewHeuristic makes a heuristic bot drawing from rng.
func NewHeuristic(rng *rand.Rand) *Heuristic { return &Heuristic{rng: rng} }

func (b *Heuristic) Name() string { return "heuristic" }

// Guesses for cards the bot cannot see.
const (
	guessFaceDown = 5000 // a face-down card under a contract
	guessSwiss    = 1500 // a rival's face-down Swiss card, spread over its body's contracts
	spread        = 3500 // how sure a lead is: the scale of the win-probability curve
)

// board is what the bot makes of its view.
type board struct {
	v       corruption.View
	me, n   int
	table   []corruption.Contract
	sums    [corruption.NumContracts][corruption.MaxPlayers]int // visible bribes (+ guesses) per seat
	unknown [corruption.NumContracts]int                        // face-down cards it cannot see
	das     [corruption.NumContracts]int                        // living district attorneys in sight
	mySwiss [corruption.NumBodies]int                           // its own unassigned Swiss bribes, at half value
}

func look(v corruption.View) *board {
	bd := &board{v: v, me: v.Seat(), n: v.Config().Players}
	var tb [corruption.NumContracts]corruption.Contract
	bd.table = v.AppendTable(tb[:0])
	for i := 1; i <= v.NumPlays(); i++ {
		p, _ := v.Play(i)
		if p.Spot.IsSwiss() {
			switch {
			case p.Seat == bd.me && !p.IsAssigned:
				bd.mySwiss[p.Spot.SwissBody()] += p.Card.Value() / 2
			case p.IsAssigned:
				bd.sums[p.Assigned][p.Seat] += p.Card.Value() / 2
			case p.Card == corruption.CardUnknown:
				for _, c := range bd.table {
					if v.ContractBody(c) == p.Spot.SwissBody() {
						bd.sums[c][p.Seat] += guessSwiss
					}
				}
			}
			continue
		}
		c := p.Spot.Contract()
		switch {
		case p.Card == corruption.CardUnknown:
			bd.unknown[c]++
			bd.sums[c][p.Seat] += guessFaceDown
		case p.Card.IsBribe() && !p.Removed:
			bd.sums[c][p.Seat] += p.Card.Value()
		case p.Card == corruption.DA && !p.Dead:
			bd.das[c]++
		}
	}
	return bd
}

// margin is how far the bot leads (or trails, if negative) the best rival on c, counting its own
// Swiss bribes on c's body as if assigned there.
func (bd *board) margin(c corruption.Contract) int {
	best := 0
	for s := 0; s < bd.n; s++ {
		if s != bd.me && bd.sums[c][s] > best {
			best = bd.sums[c][s]
		}
	}
	return bd.sums[c][bd.me] + bd.mySwiss[bd.v.ContractBody(c)] - best
}

// pWin is a rough chance of winning a contract with the given margin.
func pWin(margin int) float64 { return 1 / (1 + math.Exp(-float64(margin)/spread)) }

// pStands is a rough chance the contract is not cancelled.
func (bd *board) pStands(c corruption.Contract) float64 {
	if bd.das[c] > 0 {
		return 0.1
	}
	return 1 - 0.04*float64(bd.unknown[c])
}

func (b *Heuristic) Decide(v corruption.View) corruption.Move {
	b.freshen(v)
	d := v.Next()
	m := corruption.Move{Seat: v.Seat()}
	switch d.Kind {
	case corruption.DecideFaceUp:
		// Show as little as possible: the leader has the most to protect.
		m.Kind, m.Positions = corruption.MoveFaceUp, corruption.Positions(1<<b.rng.IntN(6))
	case corruption.DecidePlace:
		if d.CanPeek {
			if i, ok := b.peek(v); ok {
				m.Kind, m.Index = corruption.MovePeek, i
				return m
			}
		}
		m.Kind = corruption.MovePlace
		m.Card, m.Spot = b.place(v)
	case corruption.DecideAssign:
		m.Kind, m.Contract = corruption.MoveAssign, b.assign(v, d.Index)
	case corruption.DecideKill:
		m.Kind, m.Index = corruption.MoveKill, b.kill(v, d.Index)
	case corruption.DecideRemove:
		if i := b.remove(v, d.Index); i > 0 {
			m.Kind, m.Index = corruption.MoveRemove, i
		} else {
			m.Kind = corruption.MovePass
		}
	}
	return m
}

// freshen draws a fresh taste each round, so that two such bots do not chase the same
// contracts.
func (b *Heuristic) freshen(v corruption.View) {
	if b.round != v.Round() {
		b.round = v.Round()
		for c := range b.taste {
			b.taste[c] = 0.6 + 0.8*b.rng.Float64()
		}
	}
}

// peek looks at the face-down card on the most valuable contract it is fighting for, from the
// second round on (peeks are few).
func (b *Heuristic) peek(v corruption.View) (int, bool) {
	bd := look(v)
	best, bestVal := 0, 0
	for _, i := range v.Peekable() {
		p, _ := v.Play(i)
		c := p.Spot.Contract()
		if val := c.Value(); bd.sums[c][bd.me] > 0 && val > bestVal {
			best, bestVal = i, val
		}
	}
	return best, best > 0 && (v.Round() >= 3 || bestVal >= 700000)
}

// place picks the card and the place with the best expected gain.
func (b *Heuristic) place(v corruption.View) (corruption.Card, corruption.Spot) {
	var hb [10]corruption.Card
	hand := v.AppendHand(hb[:0])
	bestCard, bestSpot, bestScore := hand[0], corruption.SwissCity, math.Inf(-1)
	b.placements(v, func(card corruption.Card, spot corruption.Spot, score float64) {
		score *= 1 + 0.1*(b.rng.Float64()-0.5)
		if score > bestScore {
			bestCard, bestSpot, bestScore = card, spot, score
		}
	})
	return bestCard, bestSpot
}

// placements tells consider every placement worth weighing (a second reporter scores like the
// first, and is left out) with its expected gain, weighted by this round's tastes.
func (b *Heuristic) placements(v corruption.View, consider func(corruption.Card, corruption.Spot, float64)) {
	bd := look(v)
	var hb [10]corruption.Card
	hand := v.AppendHand(hb[:0])
	faceUp := v.NextFaceUp()
	roundsLeft := float64(corruption.Rounds - v.Round() + 1)
	inner := consider
	consider = func(card corruption.Card, spot corruption.Spot, score float64) {
		if !spot.IsSwiss() {
			score *= b.taste[spot.Contract()]
		}
		inner(card, spot, score)
	}
	for k, card := range hand {
		if k > 0 && hand[k-1] == card {
			continue // a second reporter scores like the first
		}
		switch {
		case card.IsBribe():
			for _, c := range bd.table {
				consider(card, corruption.ContractSpot(c), bd.bribeGain(c, card.Value()))
			}
			for body := corruption.Body(0); body < corruption.NumBodies; body++ {
				best := 0.0
				for _, c := range bd.table {
					if v.ContractBody(c) == body {
						best = math.Max(best, bd.bribeGain(c, card.Value()/2))
					}
				}
				// Hidden and assigned at the end where it matters: worth more than it looks,
				// most of all when the card would otherwise be face up.
				bonus := 1.15
				if faceUp {
					bonus = 1.4
				}
				consider(card, corruption.SwissSpot(body), best*bonus)
			}
		default:
			// A character is spent for the game: it must beat what the rounds to come could
			// make of it, and the bribe it leaves in hand this round.
			reserve := 40000 * (roundsLeft - 1)
			for _, c := range bd.table {
				consider(card, corruption.ContractSpot(c), bd.characterGain(card, c)-reserve)
			}
		}
	}
}

// bribeGain is the expected value of adding amount to the bot's bribes on c, less a small cost
// per dollar so that it does not pour money where it is already safe.
func (bd *board) bribeGain(c corruption.Contract, amount int) float64 {
	m := bd.margin(c)
	return float64(c.Value())*bd.pStands(c)*(pWin(m+amount)-pWin(m)) - 2*float64(amount)
}

func (bd *board) characterGain(card corruption.Card, c corruption.Contract) float64 {
	val := float64(c.Value())
	m := bd.margin(c)
	switch card {
	case corruption.DA:
		// Cancelling denies the rival who would win; it costs the bot what it would win itself.
		if bd.das[c] > 0 {
			return -val
		}
		return val * bd.pStands(c) * ((1-pWin(m))*0.6 - pWin(m))
	case corruption.Reporter:
		// Removes the biggest bribe of the best rival; worth it only if the bot is in the race.
		if bd.sums[c][bd.me] == 0 {
			return -val
		}
		top := bd.topRivalBribe(c)
		return val * bd.pStands(c) * (pWin(m+top) - pWin(m))
	case corruption.HitMan:
		// Protects a contract the bot leads from a district attorney in sight.
		if bd.das[c] > 0 && bd.sums[c][bd.me] > 0 {
			return val * pWin(m) * 0.9
		}
		return -val
	}
	return math.Inf(-1)
}

// topRivalBribe is the largest bribe a rival placed in sight directly under c.
func (bd *board) topRivalBribe(c corruption.Contract) int {
	top := 0
	for i := 1; i <= bd.v.NumPlays(); i++ {
		p, _ := bd.v.Play(i)
		if p.Spot == corruption.ContractSpot(c) && p.Seat != bd.me && !p.Removed {
			val := p.Card.Value()
			if p.Card == corruption.CardUnknown {
				val = guessFaceDown
			}
			top = max(top, val)
		}
	}
	return top
}

// assign puts a Swiss bribe where it wins the most: every card is face up by now.
func (b *Heuristic) assign(v corruption.View, index int) corruption.Contract {
	bd := look(v)
	p, _ := v.Play(index)
	half := p.Card.Value() / 2
	opts := v.AssignOptions()
	best, bestScore := opts[0], math.Inf(-1)
	for _, c := range opts {
		m := bd.margin(c) - bd.mySwiss[v.ContractBody(c)] // other Swiss bribes are not here yet
		score := float64(c.Value()) * bd.pStands(c) * (pWin(m+half) - pWin(m))
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// kill picks the victim that hurts the bot most: a rival's district attorney on a contract it is
// in, then a rival's reporter, then a rival's hit man; its own cards last.
func (b *Heuristic) kill(v corruption.View, index int) int {
	bd := look(v)
	best, bestScore := 0, math.Inf(-1)
	for _, t := range v.KillTargets() {
		p, _ := v.Play(t)
		c := p.Spot.Contract()
		score := 0.0
		switch p.Card {
		case corruption.DA:
			score = 3 + float64(bd.sums[c][bd.me])/1000
		case corruption.Reporter:
			score = 2
		case corruption.HitMan:
			score = 1
		}
		if p.Seat == bd.me {
			score -= 10
		}
		if score > bestScore {
			best, bestScore = t, score
		}
	}
	return best
}

// remove takes away the biggest bribe of the rival best placed on the reporter's contract, or
// passes (0) if only the bot's own bribes are there.
func (b *Heuristic) remove(v corruption.View, index int) int {
	bd := look(v)
	rep, _ := v.Play(index)
	c := rep.Spot.Contract()
	best, bestKey := 0, -1
	for _, i := range v.RemoveOptions() {
		p, _ := v.Play(i)
		if p.Seat == bd.me {
			continue
		}
		key := bd.sums[c][p.Seat]*100 + p.Card.Value()/100
		if key > bestKey {
			best, bestKey = i, key
		}
	}
	return best
}
