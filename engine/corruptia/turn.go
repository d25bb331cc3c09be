package corruptia

import (
	"slices"

	"corruption/engine"
)

// A senator's turn: the die (apply.go), the proposal and its negotiation, the vote, the
// resolution and public opinion, the absent senators' swaps.

// startTurn begins the turn of the senator at place i of the round's order.
func (g *Game) startTurn(i int) {
	g.turn = i
	g.t = turnState{active: g.order(i), die: DieNone}
	g.stage = stDie
}

// endTurn passes the turn on, ends the round, or begins the end of the game.
func (g *Game) endTurn() {
	if g.turn+1 < g.n {
		g.startTurn(g.turn + 1)
		return
	}
	if g.round == Rounds {
		g.t = turnState{active: -1, die: DieNone}
		g.stage, g.count = stFinal, 0
		g.emit(Event{Kind: EventEnd})
		g.nextFinal()
		return
	}
	g.round++
	g.first = (g.first + 1) % g.n
	g.t = turnState{active: -1, die: DieNone}
	g.stage, g.count, g.turn = stRoundDeal, 0, 0
	g.emit(Event{Kind: EventRound, Seat: g.first})
}

func (g *Game) applyMove(seat int, m Move) error {
	switch g.stage {
	case stDiscard:
		if m.Kind != MoveDiscard {
			return engine.Faultf(seat, "seat %d: a %s, but the game waits for its opening discard", seat, m.Kind)
		}
		if m.Slot >= len(g.hands[seat]) {
			return engine.Faultf(seat, "seat %d has no bill in slot %d (it holds %d)", seat, m.Slot, len(g.hands[seat]))
		}
		g.opening[seat] = g.hands[seat][m.Slot]
		g.hands[seat] = slices.Delete(g.hands[seat], m.Slot, m.Slot+1)
		g.emit(Event{Kind: EventDiscarded, Seat: seat})
		if g.count++; g.count == g.n {
			g.count, g.stage = 0, stPile
		}
		return nil
	case stPropose:
		switch m.Kind {
		case MovePropose:
			return g.propose(seat, m)
		case MoveNoBill:
			return g.noBill(seat)
		}
		return engine.Faultf(seat, "seat %d: a %s, but the game waits for its proposal", seat, m.Kind)
	case stRespond:
		switch m.Kind {
		case MovePass:
			g.emit(Event{Kind: EventPass, Seat: seat})
			if g.t.resp++; g.t.resp == g.n-1 {
				g.stage = stNegotiate
			}
			return nil
		case MoveOffer:
			return g.offer(seat)
		case MoveBlackmail:
			return g.blackmail(seat, m)
		}
		return engine.Faultf(seat, "seat %d: a %s, but the game waits for its response (offer, blackmail or pass)", seat, m.Kind)
	case stNegotiate:
		switch m.Kind {
		case MoveAmend:
			if g.t.amends >= g.cfg.Amendments {
				return engine.Faultf(seat, "seat %d has made its %d amendments this turn and must call the vote", seat, g.cfg.Amendments)
			}
			return g.propose(seat, m)
		case MoveBlackmail:
			return g.blackmail(seat, m)
		case MoveCall:
			g.stage = stVote
			g.emit(Event{Kind: EventCall, Seat: seat})
			return nil
		}
		return engine.Faultf(seat, "seat %d: a %s, but the game waits for it to amend, blackmail or call the vote", seat, m.Kind)
	}
	// stSwap
	switch m.Kind {
	case MovePass:
		g.nextSwap(g.t.swapIdx + 1)
		return nil
	case MoveSwap:
		return g.swap(seat, m)
	}
	return engine.Faultf(seat, "seat %d: a %s, but the game waits for its swap or a pass", seat, m.Kind)
}

// propose checks a proposal or an amendment on public information, with its bill as claimed;
// the bill is shown next if no node has seen it.
func (g *Game) propose(seat int, m Move) error {
	p := m.Proposal
	if p.Slot >= len(g.hands[seat]) {
		return engine.Faultf(seat, "seat %d proposes slot %d of its hand, which holds %d bills", seat, p.Slot, len(g.hands[seat]))
	}
	h := g.hands[seat][p.Slot]
	if h.Bill != Unknown && h.Bill != p.Bill {
		return engine.Faultf(seat, "seat %d proposes %s from slot %d, which holds %s", seat, p.Bill, p.Slot, h.Bill)
	}
	if where := g.whereIs(p.Bill, seat, p.Slot); where != "" {
		return engine.Faultf(seat, "seat %d proposes %s, which is %s, not in its hand", seat, p.Bill, where)
	}
	offers := g.t.offers
	if m.Kind == MovePropose {
		offers = [MaxPlayers]int{}
	}
	if err := CheckProposal(g.program, p, seat, g.n, g.reserve[seat], offers); err != nil {
		return engine.Faultf(seat, "seat %d: %v", seat, err)
	}
	g.t.prop, g.t.proposed = p, true
	if m.Kind == MoveAmend {
		g.t.amends++
	}
	e := Event{Kind: EventProposed, Seat: seat, Bill: p.Bill, At: p.At, Workers: p.Workers, Amended: m.Kind == MoveAmend,
		Near: g.program.Near(p.At)}
	for i, w := range p.Workers {
		e.Sources[i] = Unknown
		if !w.Employee {
			e.Sources[i] = g.program[w.From].Bill
		}
	}
	g.emit(e)
	if h.Bill == Unknown {
		g.stage = stShowBill
	} else {
		g.t.resp, g.stage = 0, stRespond
	}
	return nil
}

// shownBill checks the proposed bill shown against the claim.
func (g *Game) shownBill(b Bill) error {
	seat, p := g.t.active, g.t.prop
	if b != p.Bill {
		return engine.Faultf(seat, "seat %d proposed %s from slot %d, but shows %s", seat, p.Bill, p.Slot, b)
	}
	g.hands[seat][p.Slot].Bill = b
	g.emit(Event{Kind: EventShown, Seat: seat, Bill: b})
	g.t.resp, g.stage = 0, stRespond
	return nil
}

// noBill: the active senator says it cannot propose; its hand is shown to prove it.
func (g *Game) noBill(seat int) error {
	for _, h := range g.hands[seat] {
		if h.Bill == Unknown {
			g.stage = stShowHand
			return nil
		}
	}
	if p, ok := g.anyProposal(seat, g.hands[seat]); ok {
		return engine.Faultf(seat, "seat %d says it has no bill to propose, but it could propose %s at %s", seat, p.Bill, p.At)
	}
	g.emit(Event{Kind: EventNoBill, Seat: seat})
	g.endTurn()
	return nil
}

func (g *Game) offer(seat int) error {
	if g.t.offers[seat] >= g.reserve[seat] {
		return engine.Faultf(seat, "seat %d offers an employee, but all %d in its reserve are offered already", seat, g.reserve[seat])
	}
	g.t.offers[seat]++
	g.emit(Event{Kind: EventOffer, Seat: seat, Count: g.t.offers[seat]})
	return nil
}

func (g *Game) blackmail(seat int, m Move) error {
	t := m.Target
	switch {
	case t >= g.n || t == seat:
		return engine.Faultf(seat, "seat %d cannot blackmail seat %d", seat, t)
	case !g.holds[seat][t]:
		return engine.Faultf(seat, "seat %d holds no blackmail card on seat %d any more", seat, t)
	case g.approval[t] == 0:
		return engine.Faultf(seat, "seat %d cannot blackmail seat %d: it has no public approval", seat, t)
	case g.t.pressed[t] != VoteNone:
		return engine.Faultf(seat, "seat %d cannot blackmail seat %d: seat %d blackmailed it this turn already", seat, t, g.t.pressedBy[t])
	}
	g.holds[seat][t] = false
	g.t.pressed[t], g.t.pressedBy[t] = m.Demand, seat
	g.emit(Event{Kind: EventBlackmail, Seat: seat, Target: t, Vote: m.Demand, Title: BlackmailTitle(seat, t, g.n)})
	return nil
}

// CheckChoice says whether seat may vote value now: yes, no, or absent with an approval token.
func (g *Game) CheckChoice(seat int, value []byte) error {
	v, err := ParseVote(string(value))
	if err != nil {
		return err
	}
	if v == VoteAbsent && (seat < 0 || seat >= g.n || g.approval[seat] == 0) {
		return engine.Faultf(seat, "absent needs a public approval token, and seat %d has none", seat)
	}
	return nil
}

func (g *Game) applyVotes(seats []int, values [][]byte) error {
	var votes [MaxPlayers]Vote
	for i, seat := range seats {
		if err := g.CheckChoice(seat, values[i]); err != nil {
			return engine.Faultf(seat, "seat %d votes %q: %v", seat, values[i], err)
		}
		votes[seat], _ = ParseVote(string(values[i]))
	}
	g.t.votes = votes
	yes, no := 0, 0
	for _, v := range votes[:g.n] {
		yes += boolInt(v == VoteYes)
		no += boolInt(v == VoteNo)
	}
	g.emit(Event{Kind: EventVotes, Seat: g.t.active, Votes: slices.Clone(votes[:g.n])})
	if yes == no {
		g.stage = stToss
		return nil
	}
	g.resolve(yes > no)
	return nil
}

// resolve carries out the vote, then public opinion; absent senators then swap in turn.
func (g *Game) resolve(approved bool) {
	seat, p := g.t.active, g.t.prop
	near := g.program.Near(p.At)
	if approved {
		placed := Placed{Bill: p.Bill, At: p.At}
		for _, w := range p.Workers {
			if w.Employee {
				g.reserve[w.From]--
				placed.Employees[w.From]++
			} else {
				g.program[w.From].Officials[w.Income]--
				placed.Officials[w.Income]++
			}
		}
		g.program = append(g.program, placed)
	} else {
		g.pile = append(g.pile, p.Bill)
	}
	g.hands[seat] = slices.Delete(g.hands[seat], p.Slot, p.Slot+1)
	g.emit(Event{Kind: EventResolved, Seat: seat, Bill: p.Bill, At: p.At, Approved: approved, Near: near})
	g.opinion(p.Bill)
	g.last = g.t
	g.nextSwap(0)
}

// swapper is the senator i places clockwise from the active one: absent senators swap in
// turn order, from the senator whose turn it is.
func (g *Game) swapper(i int) int { return (g.t.active + i) % g.n }

// nextSwap moves to the first absent senator from place i of the turn order, or ends the
// turn.
func (g *Game) nextSwap(i int) {
	for ; i < g.n; i++ {
		if g.t.votes[g.swapper(i)] == VoteAbsent {
			g.t.swapIdx, g.stage = i, stSwap
			return
		}
	}
	g.endTurn()
}

func (g *Game) swap(seat int, m Move) error {
	if m.Slot >= len(g.hands[seat]) {
		return engine.Faultf(seat, "seat %d has no bill in slot %d (it holds %d)", seat, m.Slot, len(g.hands[seat]))
	}
	if !slices.Contains(g.pile, m.Take) {
		return engine.Faultf(seat, "seat %d takes %s, which is not in the discard pile", seat, m.Take)
	}
	g.t.swap = m
	if g.hands[seat][m.Slot].Bill == Unknown {
		g.stage = stShowSwap
		return nil
	}
	return g.shownSwap(g.hands[seat][m.Slot].Bill)
}

// shownSwap: the bill given up, now shown, goes to the pile; the bill taken joins the hand.
func (g *Game) shownSwap(b Bill) error {
	seat, m := g.swapper(g.t.swapIdx), g.t.swap
	hand := slices.Clone(g.hands[seat])
	hand[m.Slot].Bill = b
	if err := g.checkPublicBills(seat, hand); err != nil {
		return err
	}
	i := slices.Index(g.pile, m.Take)
	g.pile = append(slices.Delete(g.pile, i, i+1), b)
	hand = append(slices.Delete(hand, m.Slot, m.Slot+1), handCard{Deck: -1, Pos: -1, Bill: m.Take})
	g.hands[seat] = hand
	g.emit(Event{Kind: EventSwap, Seat: seat, Bill: b, Take: m.Take})
	g.t.swap = Move{}
	g.nextSwap(g.t.swapIdx + 1)
	return nil
}

// opinion is phase 6 for every senator: tokens lost go back to the supply first, then tokens
// won are taken from it in turn order from the active senator, while it lasts.
func (g *Game) opinion(bill Bill) {
	supply := TokenSupply
	var before [MaxPlayers]int
	var res [MaxPlayers]OpinionResult
	for s := range g.n {
		v := g.t.votes[s]
		before[s], res[s] = g.approval[s], Opinion(g.t.die, bill, v, g.t.pressed[s], g.approval[s])
		lost := boolInt(res[s].Ignored) + boolInt(v == VoteAbsent)
		g.approval[s] = max(0, before[s]-lost)
		supply -= g.approval[s]
	}
	for i := range g.n {
		s := (g.t.active + i) % g.n
		v, o := g.t.votes[s], res[s]
		short := o.Gained && supply == 0
		if o.Gained && !short {
			g.approval[s]++
			supply--
		}
		if o.Gained || o.Ignored || v == VoteAbsent {
			g.emit(Event{Kind: EventApproval, Seat: s, Count: g.approval[s] - before[s], Approval: g.approval[s],
				Vote: v, Ignored: o.Ignored, Gained: o.Gained, Short: short, Die: g.t.die})
		}
	}
}

// OpinionResult is what public opinion makes of a senator's vote.
type OpinionResult struct {
	Approval int  // its approval tokens after
	Gained   bool // its vote earned a token
	Ignored  bool // it ignored a blackmail
}

// Opinion is public opinion on a senator with approval tokens that voted vote on bill, under
// the die and a blackmail's demand (VoteNone if none): +1 for a yes to a bill of the people's
// department, +1 for a no in a revolution; -1 for ignoring a blackmail (an absence ignores it
// too), -1 for being absent; never below zero. (A token won is lost when the supply of
// TokenSupply tokens is empty: the game sees to that.)
func Opinion(die Die, bill Bill, vote, demand Vote, approval int) OpinionResult {
	o := OpinionResult{Gained: (vote == VoteYes && die == Die(bill.Department())) || (vote == VoteNo && die == Revolution)}
	o.Ignored = demand != VoteNone && vote != demand
	o.Approval = max(0, approval+boolInt(o.Gained)-boolInt(o.Ignored)-boolInt(vote == VoteAbsent))
	return o
}
