package kingdoms

import (
	"fmt"
	"slices"

	"corruption/engine"
)

// Chaos cards in play (advanced rules). A seat plays one by naming it, its position in the
// seat's chaos deck and its arguments (a move, checked on public information); at its first
// play it opens its face-down discard, to show it does not play the card it discarded (the
// position is opened, never the discarded card); then it shows the card with proof, which must
// be the card it named; then the card takes effect. A card that needs an answer (a steal) or a
// vote pushes them as tasks; the card resolves completely before anything else happens.

// PlaysAllowed is how many chaos cards a seat may play: all those it keeps.
func PlaysAllowed(n int) int { return ChaosDrawn(n) - 1 }

// claimChaos is a chaos card played on the seat's own turn.
func (g *Game) claimChaos(m Move, when Timing) error {
	if err := g.checkClaim(m, when); err != nil {
		return err
	}
	g.startClaim(m)
	return nil
}

// checkClaim checks a chaos card played at a moment of timing when, on public information: the
// card is its corporation's and not played yet, the position is one dealt to the seat and not
// played nor opened as its discard, the seat has plays left, and the effect's arguments are
// legal now.
func (g *Game) checkClaim(m Move, when Timing) error {
	if why := g.claimProblem(m, when); why != "" {
		return fmt.Errorf("play %s: %s", chaosID(m.Card), why)
	}
	if err := g.checkEffect(m, chaosCards[m.Card]); err != nil {
		return fmt.Errorf("play %s: %v", chaosID(m.Card), err)
	}
	return nil
}

// claimProblem is what is wrong with playing m's card from its position now, or "".
func (g *Game) claimProblem(m Move, when Timing) string {
	p := &g.p
	seat := m.Seat
	h := &p.hands[seat]
	if !g.cfg.Chaos {
		return "this table plays without chaos cards"
	}
	if m.Card < 0 || m.Card >= NumChaos || m.Pos < 0 {
		return "there is no such card"
	}
	c := chaosCards[m.Card]
	switch {
	case c.Corp != int(p.corp[seat]):
		return fmt.Sprintf("it is %s's card, not %s's", corporations[c.Corp].Name, corporations[p.corp[seat]].Name)
	case slices.Contains(h.played[:], int8(m.Card)):
		return "it was played already"
	case int(h.plays) >= PlaysAllowed(g.n):
		return fmt.Sprintf("it has played all its %d chaos cards", PlaysAllowed(g.n))
	case m.Pos >= ChaosDrawn(g.n) || h.played[m.Pos] >= 0:
		return fmt.Sprintf("no card of its hand is left at position %d", m.Pos)
	case int(h.discardPos) == m.Pos:
		return fmt.Sprintf("position %d holds the card it discarded", m.Pos)
	case c.Effect.Timing() != when:
		return "it is played " + c.Effect.Timing().String()
	}
	return ""
}

// startClaim has the claimed card opened (discard), shown and resolved.
func (g *Game) startClaim(m Move) {
	g.p.claim = m
	var ts []task
	if g.p.hands[m.Seat].discardPos < 0 {
		ts = append(ts, task{kind: taskOpen, a: int8(m.Seat)})
	}
	g.push(append(ts, task{kind: taskShow, a: int8(m.Seat), b: int8(m.Pos)}, task{kind: taskEffect})...)
}

// applyOpen takes a seat's opened discard: the position it discarded, which must not be the one
// it plays now.
func (g *Game) applyOpen(st engine.Step, in engine.Input) error {
	seat := st.Seat
	if in.Seat != seat || !slices.Equal(in.Refs, st.Refs) || len(in.Values) != 1 {
		return fmt.Errorf("seat %d opened refs %v (%d values), but the game waits for %s", in.Seat, in.Refs, len(in.Values), g.waits(st))
	}
	pos, err := g.discardPos(in.Values[0])
	if err != nil {
		return engine.Faultf(seat, "seat %d opens its chaos discard: %v", seat, err)
	}
	if pos == g.p.claim.Pos {
		return engine.Faultf(seat, "seat %d plays %s from position %d, which it discarded face down", seat, chaosID(g.p.claim.Card), pos)
	}
	g.p.hands[seat].discardPos = int8(pos)
	g.pop()
	return nil
}

// applyShow takes the chaos card shown: it must be the card the seat named.
func (g *Game) applyShow(st engine.Step, in engine.Input) error {
	seat := st.Seat
	if in.Seat != seat || in.Deck != st.Deck || !slices.Equal(in.Positions, st.Positions) || len(in.Cards) != 1 {
		return fmt.Errorf("seat %d showed deck %d positions %v, but the game waits for %s", in.Seat, in.Deck, in.Positions, g.waits(st))
	}
	if c := in.Cards[0]; c != g.p.claim.Card {
		return engine.Faultf(seat, "seat %d plays %s, but the card at position %d of its hand is %s: not the card it named",
			seat, chaosID(g.p.claim.Card), st.Positions[0], chaosID(c))
	}
	g.pop()
	return nil
}

// mayAnswer reports whether seat may be holding a card it could play now, by public
// information alone: it has plays left, and its corporation has a card of that timing it has
// not played. A seat that cannot is not asked (no entry on the table's log).
func (g *Game) mayAnswer(seat int, when Timing) bool {
	h := &g.p.hands[seat]
	if !g.cfg.Chaos || int(h.plays) >= PlaysAllowed(g.n) {
		return false
	}
	for _, c := range corporations[g.p.corp[seat]].Chaos {
		if chaosCards[c].Effect.Timing() == when && !slices.Contains(h.played[:], int8(c)) {
			return true
		}
	}
	return false
}

// checkEffect checks a chaos card's arguments against the state now.
func (g *Game) checkEffect(m Move, c ChaosCard) error {
	p := &g.p
	seat := m.Seat
	switch c.Effect {
	case Indulge:
		if g.displaySlot(m.Pleasure) < 0 {
			return fmt.Errorf("%s is not in the display", pleasureID(m.Pleasure))
		}
	case Coup:
		switch {
		case !InPlay(m.Leader, g.n):
			return fmt.Errorf("%s is not at this table", leaderID(m.Leader))
		case leaders[m.Leader].Heart != c.Heart:
			return fmt.Errorf("%s's heart is %s, not %s", leaderID(m.Leader), leaders[m.Leader].Heart, c.Heart)
		case int(p.control[m.Leader]) == seat:
			return fmt.Errorf("it controls %s already", leaderID(m.Leader))
		}
	case Scandal:
		if !InPlay(m.Leader, g.n) || p.control[m.Leader] < 0 || int(p.control[m.Leader]) == seat {
			return fmt.Errorf("no opponent controls %s", leaderID(m.Leader))
		}
	case Lobby:
		if !BillInPlay(m.Bill, g.n) || len(p.bills[m.Bill]) == 0 {
			return fmt.Errorf("%s has no favors to vote on", BillID(m.Bill))
		}
	case Earmark:
		if g.marketSlot(m.Favor) < 0 || !BillInPlay(m.Bill, g.n) {
			return fmt.Errorf("%s is not in the market or %s is not at this table", favorID(m.Favor), BillID(m.Bill))
		}
	case Shred:
		if b, i := g.onBills(m.Favor); b < 0 || int(p.bills[b][i].seat) == seat {
			return fmt.Errorf("%s is not an opponent's favor on a bill", favorID(m.Favor))
		}
	case Embezzle:
		if m.Target < 0 || m.Target >= g.n || m.Target == seat || m.Minion >= NumMinions {
			return fmt.Errorf("seat %d is not an opponent", m.Target)
		}
	case Guard:
		if !p.steal.active || int(p.steal.victim) != seat {
			return fmt.Errorf("no leader of its is being stolen")
		}
	}
	return nil
}

// effect resolves the chaos card claimed, now shown.
func (g *Game) effect() {
	p := &g.p
	m := p.claim
	p.claim = Move{}
	seat := m.Seat
	h := &p.hands[seat]
	h.played[m.Pos], h.plays = int8(m.Card), h.plays+1
	c := chaosCards[m.Card]
	g.emit(Event{Kind: EventChaos, Seat: seat, Card: m.Card, Move: m})
	switch c.Effect {
	case Recruit:
		var got [NumMinions]int
		for _, mn := range c.Minions {
			if g.gain(seat, mn) {
				got[mn]++
			}
		}
		g.emit(Event{Kind: EventGain, Seat: seat, Minions: got})
	case Hustle:
		p.actions++
	case Indulge:
		slot := g.displaySlot(m.Pleasure)
		p.owned[seat] |= 1 << m.Pleasure
		p.display[slot] = -1
		g.emit(Event{Kind: EventPleasure, Seat: seat, Pleasure: m.Pleasure})
		g.push(task{kind: taskDisplay, a: int8(slot)})
	case Coup:
		if o := p.control[m.Leader]; o >= 0 {
			p.steal = steal{active: true, thief: int8(seat), victim: o, leader: int8(m.Leader), byCoup: true}
			g.push(task{kind: taskStealAnswer, a: o}, task{kind: taskSteal})
		} else {
			g.setControl(m.Leader, seat)
		}
	case Scandal:
		g.emit(Event{Kind: EventUnmarked, Seat: seat, Leader: m.Leader, Target: int(p.control[m.Leader])})
		g.setControl(m.Leader, -1)
	case Lobby:
		g.push(task{kind: taskVote, a: int8(m.Bill), b: int8(seat)})
	case Earmark:
		g.placeOnBill(seat, g.marketSlot(m.Favor), m.Bill)
	case Shred:
		b, i := g.onBills(m.Favor)
		victim := int(p.bills[b][i].seat)
		p.bills[b] = slices.Delete(p.bills[b], i, i+1)
		p.discards |= 1 << m.Favor
		g.emit(Event{Kind: EventShredded, Seat: seat, Favor: m.Favor, Bill: b, Target: victim})
	case Embezzle:
		k := min(2, p.minions[m.Target][m.Minion])
		p.minions[m.Target][m.Minion] -= k
		p.minions[seat][m.Minion] += k
		g.emit(Event{Kind: EventEmbezzled, Seat: seat, Target: m.Target, Count: int(k), Minions: one(m.Minion, int(k))})
	case Ballot:
		if m.Yes {
			p.vote.extraYes += int8(c.Votes)
		} else {
			p.vote.extraNo += int8(c.Votes)
		}
	case Veto:
		p.vote.veto = true
	case Guard:
		p.steal.failed = true
	}
}

func one(m Minion, k int) [NumMinions]int {
	var ms [NumMinions]int
	ms[m] = k
	return ms
}
