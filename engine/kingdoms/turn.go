package kingdoms

import (
	"fmt"
	"math/bits"
)

// A player's turn: two actions (the same one twice allowed), as "Basic Gameplay" gives them.
// Each action is checked in full before anything changes; its consequences (the market
// refilled, a vote, a steal's answer) are pushed as tasks.

// action applies a turn's action and spends one of the turn's actions.
func (g *Game) action(m Move) error {
	var err error
	switch m.Kind {
	case MoveTake:
		err = g.take(m.Seat, m.Favor)
	case MovePlace:
		err = g.place(m.Seat, m.Favor, m.Bill)
	case MoveInfluence:
		err = g.influence(m.Seat, m.Leader, m.Waive, m.Minion)
	case MoveCall:
		err = g.call(m.Seat, m.Bill)
	}
	if err == nil {
		g.p.actions--
	}
	return err
}

// marketSlot is favor f's slot in the market, or -1.
func (g *Game) marketSlot(f int) int {
	for i, c := range g.p.market[:g.n] {
		if f >= 0 && int(c) == f {
			return i
		}
	}
	return -1
}

// Take a Favor, first way: take one minion of each type shown and discard the favor.
func (g *Game) take(seat, f int) error {
	slot := g.marketSlot(f)
	if slot < 0 {
		return fmt.Errorf("take %s: it is not in the market", favorID(f))
	}
	var got [NumMinions]int
	for _, m := range favors[f].Minions {
		if g.gain(seat, m) {
			got[m]++
		}
	}
	g.p.market[slot] = -1
	g.p.discards |= 1 << f
	g.emit(Event{Kind: EventTake, Seat: seat, Favor: f, Minions: got})
	g.push(task{kind: taskRefill, a: int8(slot)})
	return nil
}

// Take a Favor, second way: place it under a bill slot of any kingdom, below the favors
// already there, with the player's marker.
func (g *Game) place(seat, f, bill int) error {
	slot := g.marketSlot(f)
	if slot < 0 {
		return fmt.Errorf("place %s: it is not in the market", favorID(f))
	}
	if !BillInPlay(bill, g.n) {
		return fmt.Errorf("place %s on %s: that bill is not at this table", favorID(f), BillID(bill))
	}
	g.placeOnBill(seat, slot, bill)
	return nil
}

// AutoVoteAt is the number of favors a bill must already hold for one more to call a vote on
// it at no action cost.
const AutoVoteAt = 4

// placeOnBill moves the favor of market slot to the bottom of bill, then has the market
// refilled and, if the bill already held AutoVoteAt favors or more, a vote held on it.
func (g *Game) placeOnBill(seat, slot, bill int) {
	p := &g.p
	f := p.market[slot]
	auto := len(p.bills[bill]) >= AutoVoteAt
	p.bills[bill] = append(p.bills[bill], onBill{favor: f, seat: int8(seat)})
	p.market[slot] = -1
	g.emit(Event{Kind: EventPlace, Seat: seat, Favor: int(f), Bill: bill})
	if auto {
		g.push(task{kind: taskRefill, a: int8(slot)}, task{kind: taskVote, a: int8(bill), b: callAuto})
	} else {
		g.push(task{kind: taskRefill, a: int8(slot)})
	}
}

// Callers of a vote that are not a seat.
const (
	callAuto  = -1 // a favor added to a bill of four or more
	callFinal = -2 // final voting
)

// Influence a Leader: pay its cost (one or two matching guilty pleasures waive one or both of
// its minions), plus one minion of any type to steal it from an opponent. A steal may be
// answered (a chaos card); the minions are paid in any case.
func (g *Game) influence(seat, l int, waive uint8, extra Minion) error {
	if !InPlay(l, g.n) {
		return fmt.Errorf("influence %s: that leader is not at this table", leaderID(l))
	}
	owner := int(g.p.control[l])
	if owner == seat {
		return fmt.Errorf("influence %s: it controls it already", leaderID(l))
	}
	pay, err := g.payment(seat, l, waive, extra)
	if err != nil {
		return fmt.Errorf("influence %s: %v", leaderID(l), err)
	}
	for m, k := range pay {
		g.p.minions[seat][m] -= int8(k)
		g.p.supply[m] += int8(k)
	}
	g.emit(Event{Kind: EventInfluence, Seat: seat, Leader: l, Minions: pay, Target: owner})
	if owner >= 0 {
		g.p.steal = steal{active: true, thief: int8(seat), victim: int8(owner), leader: int8(l)}
		g.push(task{kind: taskStealAnswer, a: int8(owner)}, task{kind: taskSteal})
		return nil
	}
	g.setControl(l, seat)
	return nil
}

// Discount is how many of leader l's cost minions seat's guilty pleasures may waive: one per
// guilty pleasure of l's heart, at most two.
func (g *Game) Discount(seat, l int) int {
	n := 0
	for p := range NumPleasures {
		if g.p.owned[seat]&(1<<p) != 0 && pleasures[p].Heart == leaders[l].Heart {
			n++
		}
	}
	return min(n, 2)
}

// Why a payment is refused.
const (
	payOK = iota
	payWaive
	payNoExtra
	payNotSteal
	payShort
)

// price is what seat pays to influence leader l waiving waive, with extra for a steal, and why
// it may not (payOK if it may).
func (g *Game) price(seat, l int, waive uint8, extra Minion) (pay [NumMinions]int, why int) {
	if bits.OnesCount8(waive) > g.Discount(seat, l) {
		return pay, payWaive
	}
	for i, m := range leaders[l].Cost {
		if waive&(1<<i) == 0 {
			pay[m]++
		}
	}
	steal := g.p.control[l] >= 0
	switch {
	case steal && extra == NoMinion:
		return pay, payNoExtra
	case !steal && extra != NoMinion:
		return pay, payNotSteal
	case steal:
		pay[extra]++
	}
	for m, k := range pay {
		if int(g.p.minions[seat][m]) < k {
			return pay, payShort
		}
	}
	return pay, payOK
}

// payment is price with its refusal in words.
func (g *Game) payment(seat, l int, waive uint8, extra Minion) ([NumMinions]int, error) {
	pay, why := g.price(seat, l, waive, extra)
	switch why {
	case payWaive:
		return pay, fmt.Errorf("it may waive %d of the cost (guilty pleasures of %s), not %d", g.Discount(seat, l), leaders[l].Heart, bits.OnesCount8(waive))
	case payNoExtra:
		return pay, fmt.Errorf("stealing it from seat %d costs one minion more, of any type", g.p.control[l])
	case payNotSteal:
		return pay, fmt.Errorf("nobody controls it: there is no extra minion to pay")
	case payShort:
		return pay, fmt.Errorf("it costs %s and seat %d has %s", minionWords(pay), seat, minionWords(g.minions(seat)))
	}
	return pay, nil
}

func (g *Game) minions(seat int) [NumMinions]int {
	var out [NumMinions]int
	for m, k := range g.p.minions[seat] {
		out[m] = int(k)
	}
	return out
}

// setControl puts seat's marker on leader l (-1: removes it), then gives the kingdom's monarch
// to a player who controls more of its leaders than any other.
func (g *Game) setControl(l, seat int) {
	g.p.control[l] = int8(seat)
	if seat >= 0 {
		g.emit(Event{Kind: EventControl, Seat: seat, Leader: l})
	}
	if k := leaders[l].Kingdom; k >= 0 {
		g.checkMonarch(k)
	}
}

// checkMonarch: whenever a player controls more leaders in a kingdom than any other player, it
// takes the monarch; never on a tie.
func (g *Game) checkMonarch(k int) {
	var count [MaxPlayers]int
	for _, l := range kingdoms[k].Leaders {
		if c := g.p.control[l]; c >= 0 {
			count[c]++
		}
	}
	best, top := -1, 0
	for s, c := range count[:g.n] {
		switch {
		case c > top:
			best, top = s, c
		case c == top:
			best = -1
		}
	}
	if best >= 0 && int(g.p.monarch[k]) != best {
		g.p.monarch[k] = int8(best)
		g.emit(Event{Kind: EventMonarch, Seat: best, Kingdom: k})
	}
}

// Vote on a Bill: a player who controls a leader in a kingdom may call a vote on either of its
// bills (one with favors: there is nothing to vote on an empty bill).
func (g *Game) call(seat, bill int) error {
	if !BillInPlay(bill, g.n) {
		return fmt.Errorf("call a vote on %s: that bill is not at this table", BillID(bill))
	}
	if len(g.p.bills[bill]) == 0 {
		return fmt.Errorf("call a vote on %s: it has no favors", BillID(bill))
	}
	k := BillKingdom(bill)
	if !g.controlsIn(seat, k) {
		return fmt.Errorf("call a vote on %s: it controls no leader in %s", BillID(bill), kingdoms[k].Name)
	}
	g.push(task{kind: taskVote, a: int8(bill), b: int8(seat)})
	return nil
}

// controlsIn reports whether seat controls a leader of kingdom k.
func (g *Game) controlsIn(seat, k int) bool {
	for _, l := range kingdoms[k].Leaders {
		if int(g.p.control[l]) == seat {
			return true
		}
	}
	return false
}

// gain gives seat a minion of type m from the supply, if the supply has one left.
func (g *Game) gain(seat int, m Minion) bool {
	if g.p.supply[m] == 0 {
		return false
	}
	g.p.supply[m]--
	g.p.minions[seat][m]++
	return true
}

// resolveSteal ends a steal: the thief takes the leader unless a chaos card stopped it.
func (g *Game) resolveSteal() {
	st := g.p.steal
	g.p.steal = steal{}
	if st.failed {
		g.emit(Event{Kind: EventStealFailed, Seat: int(st.thief), Leader: int(st.leader), Target: int(st.victim)})
		return
	}
	g.setControl(int(st.leader), int(st.thief))
}

func minionWords(ms [NumMinions]int) string {
	s := ""
	for m, k := range ms {
		if k == 0 {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", k, Minion(m))
		if k > 1 {
			s += "s"
		}
	}
	if s == "" {
		return "nothing"
	}
	return s
}
