package corruptia

import (
	"fmt"

	"corruption/engine"
)

// What a Game waits for, in the kit's terms (Due) and in the game's (Next).

// Due says what the game waits for now. It depends on public state only.
func (g *Game) Due() engine.Step {
	switch g.stage {
	case stFirst:
		return engine.Step{Kind: engine.StepRandom, Ranges: []int{g.n}}
	case stBuild:
		cards := make([]int, NumBills)
		for i := range cards {
			cards[i] = i
		}
		return engine.Step{Kind: engine.StepBuild, Deck: DeckBills, Cards: cards}
	case stShuffle:
		return engine.Step{Kind: engine.StepShuffle, Deck: DeckBills}
	case stReshuffle:
		return engine.Step{Kind: engine.StepShuffle, Deck: DeckRebuilt}
	case stPileShuffle:
		return engine.Step{Kind: engine.StepShuffle, Deck: DeckPile}
	case stStart:
		k := 1
		if len(g.program) == 0 && len(g.returned) == 0 {
			k = StartingBills
		}
		return g.deal(-1, k)
	case stRebuild:
		st := engine.Step{Kind: engine.StepBuild, Deck: DeckRebuilt}
		for _, b := range g.returned {
			st.Cards = append(st.Cards, int(b))
		}
		for p := g.next; p < g.end; p++ {
			st.From = append(st.From, engine.DeckCard{Deck: DeckBills, Pos: p})
		}
		return st
	case stHands:
		return g.deal(g.order(g.count), OpeningHand)
	case stDiscard:
		return engine.Step{Kind: engine.StepMove, Seat: g.order(g.count)}
	case stPile:
		st := engine.Step{Kind: engine.StepBuild, Deck: DeckPile}
		for i := range g.n {
			o := g.opening[g.order(i)]
			st.From = append(st.From, engine.DeckCard{Deck: o.Deck, Pos: o.Pos})
		}
		return st
	case stPileDeal:
		return engine.Step{Kind: engine.StepDeal, Deck: DeckPile, Positions: span(0, g.n), To: -1}
	case stRoundDeal:
		return g.deal(g.order(g.count), BillsPerRound)
	case stRoundFaceUp:
		return g.deal(-1, FaceUpPerRound)
	case stDie:
		return engine.Step{Kind: engine.StepRandom, Ranges: []int{dieFaces}}
	case stPropose, stNegotiate:
		return engine.Step{Kind: engine.StepMove, Seat: g.t.active}
	case stShowBill:
		return g.show(g.t.active, g.hands[g.t.active][g.t.prop.Slot])
	case stRespond:
		return engine.Step{Kind: engine.StepMove, Seat: g.responder(), Respond: true}
	case stVote:
		seats := make([]int, g.n)
		for i := range seats {
			seats[i] = (g.t.active + i) % g.n
		}
		return engine.Step{Kind: engine.StepChoose, Seats: seats}
	case stToss:
		return engine.Step{Kind: engine.StepRandom, Ranges: []int{2}}
	case stSwap:
		return engine.Step{Kind: engine.StepMove, Seat: g.swapper(g.t.swapIdx), Respond: true}
	case stShowSwap:
		seat := g.swapper(g.t.swapIdx)
		return g.show(seat, g.hands[seat][g.t.swap.Slot])
	case stShowHand:
		return g.showHidden(g.t.active)
	case stFinal:
		return g.showHidden(g.count)
	}
	return engine.Step{Kind: engine.StepOver}
}

// order is the seat i places clockwise from this round's first player.
func (g *Game) order(i int) int { return (g.first + i) % g.n }

// responder is the senator whose response is due: the next after the active senator, then
// clockwise.
func (g *Game) responder() int { return (g.t.active + 1 + g.t.resp) % g.n }

func span(from, n int) []int {
	ps := make([]int, n)
	for i := range ps {
		ps[i] = from + i
	}
	return ps
}

// deal is the next k bills of the draw deck, to seat (face up when seat is -1).
func (g *Game) deal(seat, k int) engine.Step {
	return engine.Step{Kind: engine.StepDeal, Deck: g.draw, Positions: span(g.next, k), To: seat}
}

func (g *Game) show(seat int, h handCard) engine.Step {
	return engine.Step{Kind: engine.StepShow, Seat: seat, Deck: h.Deck, Positions: []int{h.Pos}}
}

// showHidden shows every bill of seat's hand not shown yet.
func (g *Game) showHidden(seat int) engine.Step {
	st := engine.Step{Kind: engine.StepShow, Seat: seat, Deck: g.draw}
	for _, h := range g.hands[seat] {
		if h.Bill == Unknown {
			st.Positions = append(st.Positions, h.Pos)
		}
	}
	return st
}

// DecisionKind is what the game waits for, in its own terms.
type DecisionKind uint8

const (
	DecideNothing   DecisionKind = iota // the game is over
	DecideTable                         // the table draws, shuffles, deals or has a seat show bills
	DecideDiscard                       // Seat discards one of its four bills, face down
	DecidePropose                       // Seat, the active senator, proposes a bill (or shows it has none)
	DecideRespond                       // Seat offers an employee, blackmails, or passes
	DecideNegotiate                     // Seat, the active senator, amends, blackmails or calls the vote
	DecideVote                          // every senator votes
	DecideSwap                          // Seat, absent, swaps a bill with the discard pile or passes
)

var decisionNames = [...]string{"nothing", "table", "discard", "propose", "respond", "negotiate", "vote", "swap"}

func (k DecisionKind) String() string { return engine.KindName(decisionNames[:], uint8(k), "decision") }

// Decision is who must decide what now.
type Decision struct {
	Kind DecisionKind
	Seat int // -1 for DecideNothing, DecideTable and DecideVote
}

// Next is the decision due.
func (g *Game) Next() Decision {
	st := g.Due()
	switch {
	case st.Kind == engine.StepOver:
		return Decision{DecideNothing, -1}
	case st.Kind == engine.StepChoose:
		return Decision{DecideVote, -1}
	case st.Kind != engine.StepMove:
		return Decision{DecideTable, -1}
	}
	k := DecideSwap
	switch g.stage {
	case stDiscard:
		k = DecideDiscard
	case stPropose:
		k = DecidePropose
	case stRespond:
		k = DecideRespond
	case stNegotiate:
		k = DecideNegotiate
	}
	return Decision{k, st.Seat}
}

func (d Decision) String() string {
	switch d.Kind {
	case DecideNothing:
		return "nothing (the game is over)"
	case DecideTable:
		return "the table"
	case DecideVote:
		return "every senator's vote"
	case DecideDiscard:
		return fmt.Sprintf("seat %d's opening discard", d.Seat)
	case DecidePropose:
		return fmt.Sprintf("seat %d's proposal", d.Seat)
	case DecideRespond:
		return fmt.Sprintf("seat %d's response (an offer, a blackmail or a pass)", d.Seat)
	case DecideNegotiate:
		return fmt.Sprintf("seat %d to amend, blackmail or call the vote", d.Seat)
	case DecideSwap:
		return fmt.Sprintf("seat %d's swap with the discard pile (or a pass)", d.Seat)
	}
	return d.Kind.String()
}

// waits is the step due in words, for errors.
func (g *Game) waits() string {
	st := g.Due()
	switch st.Kind {
	case engine.StepRandom:
		return map[Draw]string{DrawFirst: "the first player to be drawn", DrawDie: "the people's die",
			DrawToss: "the presidential token's toss"}[g.Drawing()]
	case engine.StepBuild, engine.StepShuffle:
		return fmt.Sprintf("deck %d to be %s", st.Deck, map[engine.StepKind]string{engine.StepBuild: "built", engine.StepShuffle: "shuffled"}[st.Kind])
	case engine.StepDeal:
		if st.To < 0 {
			return fmt.Sprintf("positions %v of deck %d to be dealt face up", st.Positions, st.Deck)
		}
		return fmt.Sprintf("positions %v of deck %d to be dealt to seat %d", st.Positions, st.Deck, st.To)
	case engine.StepShow:
		return fmt.Sprintf("seat %d to show positions %v of deck %d", st.Seat, st.Positions, st.Deck)
	}
	return g.Next().String()
}

// Draw is what a StepRandom draws.
type Draw uint8

const (
	DrawNone  Draw = iota // no StepRandom is due
	DrawFirst             // the first player, 0 to players-1
	DrawDie               // the people's die: 0 to 4 a department, 5 the revolution
	DrawToss              // the presidential token on a tied vote: 1 approves, 0 rejects
)

// Drawing says what the StepRandom due draws.
func (g *Game) Drawing() Draw {
	switch g.stage {
	case stFirst:
		return DrawFirst
	case stDie:
		return DrawDie
	case stToss:
		return DrawToss
	}
	return DrawNone
}
