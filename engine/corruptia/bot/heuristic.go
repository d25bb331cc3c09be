package bot

import (
	"math"
	"math/rand/v2"

	"corruption/engine/corruptia"
)

// Heuristic plays for its own score, with what its view shows:
//   - it discards, at the start, a bill of the department it holds fewest of (the least valued
//     on a tie);
//   - it proposes the bill, place and workers that promise it most: the chance the bill passes
//     (from the votes it expects) times what the bill adds to its hand's value, less 5 for each
//     of its employees used, plus the token its own vote earns, less what the bill it gives up
//     is worth in hand;
//   - it expects each senator to vote for the better of yes and no for that senator, counting
//     tokens and half its gain; it votes the same way itself, weighing the chance its vote
//     moves the result, and is absent when a swap with the discard pile is worth more;
//   - it honours a blackmail unless voting otherwise is worth more than the token it would
//     lose (5 points);
//   - it blackmails a senator expected to vote against a bill that moves its own score by 8 or
//     more, when the vote looks open;
//   - it offers an employee when the active senator's best amendment with it would be worth
//     more than 5 points more to it; as the active senator, it amends when an offer makes a
//     better proposal.
type Heuristic struct {
	rng *rand.Rand
	buf []corruptia.Proposal // reused by the listing of proposals, which one decision needs at a time
}

func (b *Heuristic) Name() string { return "heuristic" }

func (b *Heuristic) Decide(v *corruptia.View) corruptia.Move {
	m := newModel(v)
	switch v.Next.Kind {
	case corruptia.DecideDiscard:
		return corruptia.Move{Kind: corruptia.MoveDiscard, Slot: b.discard(v)}
	case corruptia.DecidePropose:
		if p, _, ok := b.best(m, b.proposals(v)); ok {
			return corruptia.Move{Kind: corruptia.MovePropose, Proposal: p}
		}
		return corruptia.Move{Kind: corruptia.MoveNoBill}
	case corruptia.DecideRespond:
		return b.respond(m)
	case corruptia.DecideNegotiate:
		return b.negotiate(m)
	case corruptia.DecideSwap:
		if slot, take, gain := swapGain(v); gain > 0 {
			return corruptia.Move{Kind: corruptia.MoveSwap, Slot: slot, Take: take}
		}
	}
	return corruptia.Move{Kind: corruptia.MovePass}
}

func (b *Heuristic) discard(v *corruptia.View) int {
	hand := v.Hand()
	var count [nd]int
	for _, c := range hand {
		count[c.Department()]++
	}
	best, bestScore := 0, math.MaxInt
	for i, c := range hand {
		d := c.Department()
		if s := 4*count[d] + v.Values[d]; s < bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// value is what proposing p is worth to the active senator (this bot).
func (b *Heuristic) value(m *model, p corruptia.Proposal) float64 {
	me := m.v.Seat
	dv := m.delta(p)
	g := m.gain(me, p, dv, p.Bill)
	mg := m.margin(me, p, dv)
	yes := approval(mg+1)*g + m.tokens(me, p.Bill, corruptia.VoteYes)
	no := approval(mg-1)*g + m.tokens(me, p.Bill, corruptia.VoteNo)
	return max(yes, no) - float64(m.v.Values[p.Bill.Department()]) + b.rng.Float64()*1e-6
}

// proposals are v.Seat's legal proposals, in b.buf: valid until the next listing.
func (b *Heuristic) proposals(v *corruptia.View) []corruptia.Proposal {
	b.buf = v.Proposals(b.buf[:0])
	return b.buf
}

// best is the proposal of ps worth most to this bot.
func (b *Heuristic) best(m *model, ps []corruptia.Proposal) (corruptia.Proposal, float64, bool) {
	var best corruptia.Proposal
	bestV := math.Inf(-1)
	for _, p := range ps {
		if val := b.value(m, p); val > bestV {
			best, bestV = p, val
		}
	}
	return best, bestV, len(ps) > 0
}

func (b *Heuristic) respond(m *model) corruptia.Move {
	v := m.v
	p := *v.Proposal
	dv := m.delta(p)
	g := m.gain(v.Seat, p, dv, corruptia.Unknown)
	if mv, ok := b.press(m, p, dv, g); ok {
		return mv
	}
	if v.AmendsLeft > 0 && v.Offers[v.Seat] < v.Reserve[v.Seat] && b.offerPays(m, p, g) {
		return corruptia.Move{Kind: corruptia.MoveOffer}
	}
	return corruptia.Move{Kind: corruptia.MovePass}
}

// press blackmails a senator expected to vote against what the bot wants, when the bill moves
// its score by 8 or more and the vote looks open.
func (b *Heuristic) press(m *model, p corruptia.Proposal, dv [nd]int, g float64) (corruptia.Move, bool) {
	v := m.v
	if math.Abs(g) < 8 {
		return corruptia.Move{}, false
	}
	want, my := corruptia.VoteYes, 1
	if g < 0 {
		want, my = corruptia.VoteNo, -1
	}
	chance := approval(m.margin(v.Seat, p, dv) + my)
	if (want == corruptia.VoteYes && chance >= 1) || (want == corruptia.VoteNo && chance <= 0) {
		return corruptia.Move{}, false
	}
	for _, t := range targets(v) {
		if m.predict(t, p, dv) != want {
			return corruptia.Move{Kind: corruptia.MoveBlackmail, Target: t, Demand: want}, true
		}
	}
	return corruptia.Move{}, false
}

// offerPays: with one more of this bot's employees offered, the active senator's best
// amendment of the same bill (as the bot reckons the active senator's interest) would be worth
// more than 5 points more to the bot than the proposal now.
func (b *Heuristic) offerPays(m *model, p corruptia.Proposal, g float64) bool {
	v := m.v
	o := offers(v)
	o[v.Seat]++
	ps := corruptia.Proposals(v.Program, p.Bill, p.Slot, v.Active, v.Players, v.Reserve[v.Active], o, b.buf[:0])
	b.buf = ps
	var best corruptia.Proposal
	bestV := math.Inf(-1)
	for _, q := range ps {
		dv := m.delta(q)
		if val := m.gain(v.Active, q, dv, q.Bill); val > bestV {
			best, bestV = q, val
		}
	}
	if len(ps) == 0 {
		return false
	}
	return m.gain(v.Seat, best, m.delta(best), corruptia.Unknown)-g > corruptia.PointsPerEmployee
}

func (b *Heuristic) negotiate(m *model) corruptia.Move {
	v := m.v
	p := *v.Proposal
	offered := false
	for s, k := range v.Offers {
		offered = offered || (s != v.Seat && k > 0)
	}
	if offered && v.AmendsLeft > 0 {
		if q, val, ok := b.best(m, b.proposals(v)); ok && val > b.value(m, p)+1 && q != p {
			return corruptia.Move{Kind: corruptia.MoveAmend, Proposal: q}
		}
	}
	dv := m.delta(p)
	if mv, ok := b.press(m, p, dv, m.gain(v.Seat, p, dv, p.Bill)); ok {
		return mv
	}
	return corruptia.Move{Kind: corruptia.MoveCall}
}

func (b *Heuristic) Vote(v *corruptia.View) corruptia.Vote {
	m := newModel(v)
	p := *v.Proposal
	dv := m.delta(p)
	skip := corruptia.Unknown
	if v.Seat == v.Active {
		skip = p.Bill
	}
	g := m.gain(v.Seat, p, dv, skip)
	mg := m.margin(v.Seat, p, dv)
	best, bestU := corruptia.VoteYes, math.Inf(-1)
	for _, c := range []struct {
		vote corruptia.Vote
		d    int
	}{{corruptia.VoteYes, 1}, {corruptia.VoteNo, -1}, {corruptia.VoteAbsent, 0}} {
		if c.vote == corruptia.VoteAbsent && v.Approval[v.Seat] == 0 {
			continue
		}
		u := approval(mg+c.d)*g + m.tokens(v.Seat, p.Bill, c.vote)
		if c.vote == corruptia.VoteAbsent {
			_, _, gain := swapGain(v)
			u += float64(gain)
		}
		if u > bestU {
			best, bestU = c.vote, u
		}
	}
	return best
}

// swapGain is the best swap of a bill of the hand for one of the discard pile, by the
// departments' values now, and what it gains.
func swapGain(v *corruptia.View) (slot int, take corruptia.Bill, gain int) {
	for i, h := range v.Hand() {
		if !h.Valid() || (v.Proposal != nil && v.Seat == v.Active && i == v.Proposal.Slot) {
			continue
		}
		for _, c := range v.Pile {
			if g := v.Values[c.Department()] - v.Values[h.Department()]; g > gain {
				slot, take, gain = i, c, g
			}
		}
	}
	return slot, take, gain
}
