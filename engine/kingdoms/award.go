package kingdoms

import "fmt"

// A bill passed: each player with a favor on it takes a guilty pleasure, in the order of their
// markers from top to bottom, with the bill's bonus (advanced rules) if it asks for it; then the
// favors go to their owners' score piles ("Take Guilty Pleasures", "Take Favors", "Bill
// Bonuses").

// pickMove is a seat's move when it is to take a guilty pleasure.
func (g *Game) pickMove(m Move) error {
	switch m.Kind {
	case MovePick:
		return g.pick(m)
	case MoveCycle:
		return g.cycle(m)
	}
	return fmt.Errorf("%s now: it takes a guilty pleasure (pick, or cycle after an environment bill)", m.Kind)
}

// displaySlot is guilty pleasure gp's slot in the display, or -1.
func (g *Game) displaySlot(gp int) int {
	for i, c := range g.p.display[:g.n] {
		if gp >= 0 && int(c) == gp {
			return i
		}
	}
	return -1
}

// cycle is the environment bonus: before taking its guilty pleasure, a player may put one of
// the display under the deck and draw the top card in its place.
func (g *Game) cycle(m Move) error {
	v := &g.p.vote
	if t, _ := g.BillType(int(v.bill)); !g.cfg.Bonuses || t != Environment || v.cycled {
		return fmt.Errorf("put %s under the deck: only once, before taking a guilty pleasure, after an environment bill passes", pleasureID(m.Pleasure))
	}
	slot := g.displaySlot(m.Pleasure)
	if slot < 0 {
		return fmt.Errorf("put %s under the deck: it is not in the display", pleasureID(m.Pleasure))
	}
	v.cycled = true
	g.emit(Event{Kind: EventCycle, Seat: m.Seat, Pleasure: m.Pleasure})
	g.push(task{kind: taskCycleBack, a: int8(m.Pleasure)}, task{kind: taskDisplay, a: int8(slot)})
	return nil
}

// pick takes a guilty pleasure from the display, with the bill's bonus if the seat asks for it,
// or none (Pleasure -1: the sheet says a player "may" take one).
func (g *Game) pick(m Move) error {
	p := &g.p
	seat := m.Seat
	if m.Pleasure < 0 { // "may take": the seat declines, and so takes no bonus either
		if m.Leader >= 0 || m.Favor >= 0 || m.Other >= 0 || m.Minion != NoMinion {
			return fmt.Errorf("take a bill bonus without a guilty pleasure")
		}
		g.emit(Event{Kind: EventPleasure, Seat: seat, Pleasure: -1})
		p.vote.cycled = false
		g.pop()
		return nil
	}
	slot := g.displaySlot(m.Pleasure)
	if slot < 0 {
		return fmt.Errorf("take %s: it is not in the display", pleasureID(m.Pleasure))
	}
	if err := g.checkBonus(m); err != nil {
		return fmt.Errorf("take %s %v", pleasureID(m.Pleasure), err)
	}
	p.owned[seat] |= 1 << m.Pleasure
	p.display[slot] = -1
	g.emit(Event{Kind: EventPleasure, Seat: seat, Pleasure: m.Pleasure})
	if m.Leader >= 0 {
		g.emit(Event{Kind: EventUnmarked, Seat: seat, Leader: m.Leader, Target: int(p.control[m.Leader])})
		g.setControl(m.Leader, -1)
	}
	if m.Favor >= 0 {
		b, i := g.onBills(m.Favor)
		p.bills[b][i].favor = int8(m.Other)
		p.market[g.marketSlot(m.Other)] = int8(m.Favor)
		g.emit(Event{Kind: EventExchange, Seat: seat, Favor: m.Favor, Other: m.Other, Bill: b})
	}
	if m.Minion != NoMinion {
		g.gain(seat, m.Minion)
		var got [NumMinions]int
		got[m.Minion] = 1
		g.emit(Event{Kind: EventGain, Seat: seat, Minions: got})
	}
	p.vote.cycled = false
	g.pop()
	return nil
}

// checkBonus checks the bill bonus a pick asks for: defense, remove an opponent's marker from a
// leader of the pleasure's heart; magic, exchange one of the seat's favors on another bill
// with a favor of the market; industry, take a minion of its choice from the supply.
func (g *Game) checkBonus(m Move) error {
	p := &g.p
	t, _ := g.BillType(int(p.vote.bill))
	if !g.cfg.Bonuses {
		t = NumFavorTypes
	}
	if m.Leader >= 0 {
		c := int(p.control[m.Leader])
		switch {
		case t != Defense:
			return fmt.Errorf("and remove a marker: only after a defense bill passes")
		case !InPlay(m.Leader, g.n) || c < 0 || c == m.Seat:
			return fmt.Errorf("and remove the marker on %s: no opponent controls it", leaderID(m.Leader))
		case leaders[m.Leader].Heart != pleasures[m.Pleasure].Heart:
			return fmt.Errorf("and remove the marker on %s: its heart is %s, not %s", leaderID(m.Leader), leaders[m.Leader].Heart, pleasures[m.Pleasure].Heart)
		}
	}
	if m.Favor >= 0 || m.Other >= 0 {
		b, i := g.onBills(m.Favor)
		switch {
		case t != Magic:
			return fmt.Errorf("and exchange a favor: only after a magic bill passes")
		case m.Favor < 0 || m.Other < 0:
			return fmt.Errorf("and exchange a favor: name the favor on a bill and the favor of the market")
		case b < 0 || b == int(p.vote.bill) || int(p.bills[b][i].seat) != m.Seat:
			return fmt.Errorf("and exchange %s: it is not its favor on another bill", favorID(m.Favor))
		case g.marketSlot(m.Other) < 0:
			return fmt.Errorf("and exchange it for %s: that favor is not in the market", favorID(m.Other))
		}
	}
	if m.Minion != NoMinion {
		switch {
		case t != Industry:
			return fmt.Errorf("and a minion: only after an industry bill passes")
		case p.supply[m.Minion] == 0:
			return fmt.Errorf("and a %s: the supply has none left", m.Minion)
		}
	}
	return nil
}

// onBills finds favor f on a bill: the bill and its place, or -1.
func (g *Game) onBills(f int) (bill, i int) {
	for b := range NumBills {
		for i, x := range g.p.bills[b] {
			if f >= 0 && int(x.favor) == f {
				return b, i
			}
		}
	}
	return -1, -1
}

// collect moves the passed bill's favors to their owners' score piles.
func (g *Game) collect() {
	p := &g.p
	bill := int(p.vote.bill)
	var got [MaxPlayers]int
	for _, f := range p.bills[bill] {
		p.piles[f.seat] |= 1 << f.favor
		got[f.seat]++
	}
	for s, k := range got[:g.n] {
		if k > 0 {
			g.emit(Event{Kind: EventCollect, Seat: s, Bill: bill, Count: k})
		}
	}
	p.bills[bill] = nil
	p.vote = vote{bill: -1}
}
