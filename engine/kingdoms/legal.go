package kingdoms

import "math/bits"

// The legal moves, for bots, front ends and tests. Each list holds exactly the moves Apply
// accepts now (a chaos card: those this node knows the seat holds).

// legalActions lists the seat's actions on its turn.
func (g *Game) legalActions(seat int) []Move {
	p := &g.p
	var out []Move
	bills := BillsPerKingdom * KingdomBoards(g.n)
	for _, f := range p.market[:g.n] {
		if f < 0 {
			continue
		}
		out = append(out, TakeMove(seat, int(f)))
		for b := range bills {
			out = append(out, PlaceMove(seat, int(f), b))
		}
	}
	for l := range NumLeaders {
		if InPlay(l, g.n) && int(p.control[l]) != seat {
			out = append(out, g.Payments(seat, l)...)
		}
	}
	for b := range bills {
		if len(p.bills[b]) > 0 && g.controlsIn(seat, BillKingdom(b)) {
			out = append(out, CallMove(seat, b))
		}
	}
	return out
}

// Payments lists the ways seat may pay to influence leader l now: each set of cost minions its
// guilty pleasures may waive (a doubled minion waived once, the first), and for a steal each
// type of extra minion. Empty if it cannot pay.
func (g *Game) Payments(seat, l int) []Move {
	var out []Move
	cost := leaders[l].Cost
	d := g.Discount(seat, l)
	steal := g.p.control[l] >= 0
	for w := uint8(0); w < 4; w++ {
		if bits.OnesCount8(w) > d || cost[0] == cost[1] && w == 2 {
			continue
		}
		extras := []Minion{NoMinion}
		if steal {
			extras = []Minion{Golem, Goblin, Devil, Zombie}
		}
		for _, e := range extras {
			if _, why := g.price(seat, l, w, e); why == payOK {
				out = append(out, InfluenceMove(seat, l, w, e))
			}
		}
	}
	return out
}

// legalChaos lists the chaos cards seat may play now at a moment of timing when, with their
// arguments.
func (g *Game) legalChaos(seat int, when Timing) []Move {
	if !g.cfg.Chaos {
		return nil
	}
	var out []Move
	for pos := range ChaosDrawn(g.n) {
		card := int(g.k.chaos[seat][pos])
		if card < 0 || g.inHand(seat, card, pos) != nil || chaosCards[card].Effect.Timing() != when {
			continue
		}
		m := ChaosMove(seat, card, pos)
		if g.claimProblem(m, when) != "" {
			continue
		}
		for _, c := range g.chaosArgs(m) {
			if g.checkEffect(c, chaosCards[card]) == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// chaosArgs lists the arguments a chaos card may take now: the candidates checkEffect accepts.
func (g *Game) chaosArgs(m Move) []Move {
	p := &g.p
	var out []Move
	with := func(set func(*Move)) {
		c := m
		set(&c)
		out = append(out, c)
	}
	opponent := func(s int8) bool { return s >= 0 && int(s) != m.Seat }
	c := chaosCards[m.Card]
	switch c.Effect {
	case Indulge:
		for _, gp := range p.display[:g.n] {
			if gp >= 0 {
				with(func(c *Move) { c.Pleasure = int(gp) })
			}
		}
	case Coup, Scandal:
		for l := range NumLeaders {
			ctl := p.control[l]
			if InPlay(l, g.n) && (c.Effect == Coup && leaders[l].Heart == c.Heart && int(ctl) != m.Seat || c.Effect == Scandal && opponent(ctl)) {
				with(func(c *Move) { c.Leader = l })
			}
		}
	case Lobby:
		for b := range NumBills {
			if len(p.bills[b]) > 0 {
				with(func(c *Move) { c.Bill = b })
			}
		}
	case Earmark:
		for _, f := range p.market[:g.n] {
			for b := range BillsPerKingdom * KingdomBoards(g.n) {
				if f >= 0 {
					with(func(c *Move) { c.Favor, c.Bill = int(f), b })
				}
			}
		}
	case Shred:
		for b := range NumBills {
			for _, f := range p.bills[b] {
				if opponent(f.seat) {
					with(func(c *Move) { c.Favor = int(f.favor) })
				}
			}
		}
	case Embezzle:
		for s := range g.n {
			for mn := range NumMinions {
				if s != m.Seat {
					with(func(c *Move) { c.Target, c.Minion = s, mn })
				}
			}
		}
	case Ballot:
		with(func(c *Move) { c.Yes = true })
		with(func(c *Move) { c.Yes = false })
	default:
		out = append(out, m)
	}
	return out
}

// legalPicks lists the guilty pleasures seat may take now, with every bonus it may add, and the
// environment bonus's cycles.
func (g *Game) legalPicks(seat int) []Move {
	p := &g.p
	t, _ := g.BillType(int(p.vote.bill))
	out := []Move{PickMove(seat, -1)} // taking none
	for _, gp := range p.display[:g.n] {
		if gp < 0 {
			continue
		}
		base := PickMove(seat, int(gp))
		out = append(out, base)
		if !g.cfg.Bonuses {
			continue
		}
		switch t {
		case Environment:
			if !p.vote.cycled {
				out = append(out, CycleMove(seat, int(gp)))
			}
		case Defense:
			for l := range NumLeaders {
				m := base
				m.Leader = l
				if g.checkBonus(m) == nil {
					out = append(out, m)
				}
			}
		case Magic:
			for b := range NumBills {
				for _, f := range p.bills[b] {
					for _, o := range p.market[:g.n] {
						m := base
						m.Favor, m.Other = int(f.favor), int(o)
						if int(f.seat) == seat && o >= 0 && g.checkBonus(m) == nil {
							out = append(out, m)
						}
					}
				}
			}
		case Industry:
			for mn := range NumMinions {
				if p.supply[mn] > 0 {
					m := base
					m.Minion = mn
					out = append(out, m)
				}
			}
		}
	}
	return out
}
