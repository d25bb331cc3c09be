package corruptia

import (
	"fmt"
	"slices"

	"corruption/engine"
)

// How a Game takes each input: the setup and the rounds' deals here, a turn in turn.go.

var inputFor = [...]engine.InputKind{
	engine.StepMove: engine.InMove, engine.StepRandom: engine.InRandom, engine.StepBuild: engine.InBuilt,
	engine.StepShuffle: engine.InShuffled, engine.StepDeal: engine.InDealt, engine.StepShow: engine.InShown,
	engine.StepChoose: engine.InChosen,
}

// Apply feeds one input, which must answer the step due. It applies it whole or not at all: a
// seat's input that breaks the rules is a *engine.Fault naming the seat; an input that does not
// echo the step due (the table's mistake) is a plain error, or a Fault naming a seat that moved
// out of turn.
func (g *Game) Apply(in engine.Input) error {
	st := g.Due()
	if st.Kind == engine.StepOver || int(st.Kind) >= len(inputFor) || in.Kind != inputFor[st.Kind] {
		if in.Kind == engine.InMove && in.Seat >= 0 && in.Seat < g.n {
			return engine.Faultf(in.Seat, "seat %d cannot move: the game waits for %s", in.Seat, g.waits())
		}
		return fmt.Errorf("a %s input, but the game waits for %s", in.Kind, g.waits())
	}
	if err := echoes(st, in); err != nil {
		if in.Kind == engine.InMove && in.Seat >= 0 && in.Seat < g.n {
			return engine.Faultf(in.Seat, "seat %d cannot move: the game waits for %s", in.Seat, g.waits())
		}
		return fmt.Errorf("%v, but the game waits for %s", err, g.waits())
	}
	switch st.Kind {
	case engine.StepRandom:
		return g.applyRandom(in.Ints[0])
	case engine.StepBuild, engine.StepShuffle:
		g.applyDeck()
		return nil
	case engine.StepDeal:
		return g.applyDeal(st, in.Cards)
	case engine.StepShow:
		return g.applyShow(st, in.Cards)
	case engine.StepChoose:
		return g.applyVotes(st.Seats, in.Values)
	}
	m, err := DecodeMove(in.Move)
	if err != nil {
		return engine.Faultf(in.Seat, "seat %d: %v", in.Seat, err)
	}
	if len(in.Refs) != 0 {
		return engine.Faultf(in.Seat, "seat %d's move carries %d hidden values: Corruptia's moves carry none", in.Seat, len(in.Refs))
	}
	if m.Kind == MovePass && !st.Respond {
		return engine.Faultf(in.Seat, "seat %d passed, but the game waits for %s", in.Seat, g.waits())
	}
	return g.applyMove(in.Seat, m)
}

// echoes checks that in echoes st: the same seat, deck, positions and recipient, and values
// of the right number.
func echoes(st engine.Step, in engine.Input) error {
	switch st.Kind {
	case engine.StepMove:
		if in.Seat != st.Seat {
			return fmt.Errorf("a move by seat %d", in.Seat)
		}
	case engine.StepRandom:
		if len(in.Ints) != 1 || in.Ints[0] < 0 || in.Ints[0] >= st.Ranges[0] {
			return fmt.Errorf("random %v (want one integer in [0,%d))", in.Ints, st.Ranges[0])
		}
	case engine.StepBuild, engine.StepShuffle:
		if in.Deck != st.Deck {
			return fmt.Errorf("%s deck %d", in.Kind, in.Deck)
		}
	case engine.StepDeal:
		if in.Deck != st.Deck || in.To != st.To || !slices.Equal(in.Positions, st.Positions) || len(in.Cards) != len(st.Positions) {
			return fmt.Errorf("dealt positions %v of deck %d to %d (%d cards)", in.Positions, in.Deck, in.To, len(in.Cards))
		}
	case engine.StepShow:
		if in.Seat != st.Seat || in.Deck != st.Deck || !slices.Equal(in.Positions, st.Positions) || len(in.Cards) != len(st.Positions) {
			return fmt.Errorf("seat %d showed positions %v of deck %d (%d cards)", in.Seat, in.Positions, in.Deck, len(in.Cards))
		}
	case engine.StepChoose:
		if !slices.Equal(in.Seats, st.Seats) || len(in.Values) != len(st.Seats) {
			return fmt.Errorf("choices of seats %v (%d values)", in.Seats, len(in.Values))
		}
	}
	return nil
}

func (g *Game) emit(e Event) {
	if g.onEvent != nil {
		e.Round = g.round
		g.onEvent(engine.Event{Text: e.String(), Data: e})
	}
}

func (g *Game) applyRandom(v int) error {
	switch g.stage {
	case stFirst:
		g.first, g.stage = v, stBuild
		g.emit(Event{Kind: EventFirst, Seat: v})
	case stDie:
		g.t.die = Die(v)
		reroll := g.round == 1 && g.t.die == Revolution
		g.emit(Event{Kind: EventDie, Seat: g.t.active, Die: g.t.die, Reroll: reroll})
		if !reroll {
			g.stage = stPropose
		}
	case stToss:
		g.emit(Event{Kind: EventToss, Seat: g.first, Approved: v == 1})
		g.resolve(v == 1)
	}
	return nil
}

// applyDeck moves past a deck built or shuffled as asked.
func (g *Game) applyDeck() {
	switch g.stage {
	case stBuild:
		g.stage, g.draw, g.next, g.end = stShuffle, DeckBills, 0, NumBills-SetAside(g.n)
		g.setups++
	case stShuffle:
		g.stage = stStart
	case stRebuild:
		g.stage = stReshuffle
	case stReshuffle:
		g.emit(Event{Kind: EventReturned, Bills: slices.Clone(g.returned)})
		g.draw, g.end = DeckRebuilt, len(g.returned)+g.end-g.next
		g.next, g.returned, g.stage = 0, nil, stHands
	case stPile:
		g.stage = stPileShuffle
	case stPileShuffle:
		g.stage = stPileDeal
	}
}

func (g *Game) applyDeal(st engine.Step, cards []int) error {
	if st.To < 0 {
		for i, c := range cards {
			if c < 0 || c >= NumBills {
				return engine.Faultf(-1, "deal: card %d (%d) is not a bill", i+1, c)
			}
		}
	}
	if st.Deck != DeckPile {
		g.next += len(st.Positions)
	}
	switch g.stage {
	case stStart:
		g.startBills(cards)
	case stHands, stRoundDeal:
		for _, p := range st.Positions {
			g.hands[st.To] = append(g.hands[st.To], handCard{Deck: st.Deck, Pos: p, Bill: Unknown})
		}
		g.emit(Event{Kind: EventDealt, Seat: st.To, Count: len(st.Positions)})
		if g.count++; g.count == g.n {
			g.count = 0
			if g.stage == stHands {
				g.stage = stDiscard
			} else {
				g.stage = stRoundFaceUp
			}
		}
	case stPileDeal, stRoundFaceUp:
		bs := toBills(cards)
		g.pile = append(g.pile, bs...)
		g.emit(Event{Kind: EventFaceUp, Bills: bs, Opening: g.stage == stPileDeal})
		if g.stage == stPileDeal {
			g.round, g.stage = 1, stRoundDeal
			g.emit(Event{Kind: EventRound, Seat: g.first})
		} else {
			g.startTurn(0)
		}
	}
	return nil
}

func toBills(cards []int) []Bill {
	bs := make([]Bill, len(cards))
	for i, c := range cards {
		bs[i] = Bill(c)
	}
	return bs
}

// startBills takes the starting bills revealed: each fits if its department and income differ
// from those of every bill kept so far, else it goes back into the deck. With three kept, the
// bills sent back and the rest of the deck make a new deck; if the playable deck runs out
// first, the setup starts again.
func (g *Game) startBills(cards []int) {
	for _, c := range cards {
		b, fits := Bill(c), len(g.program) < StartingBills
		for _, p := range g.program {
			fits = fits && p.Bill.Department() != b.Department() && p.Bill.Income() != b.Income()
		}
		if !fits {
			g.returned = append(g.returned, b)
			g.emit(Event{Kind: EventNoFit, Bill: b})
			continue
		}
		p := Placed{Bill: b, At: StartCells[len(g.program)]}
		p.Officials[b.Income()] = OfficialsPerStart
		near := g.program.Near(p.At)
		g.program = append(g.program, p)
		g.emit(Event{Kind: EventStartBill, Bill: b, At: p.At, Near: near})
	}
	switch {
	case len(g.program) == StartingBills && len(g.returned) == 0:
		g.stage = stHands
	case len(g.program) == StartingBills:
		g.stage = stRebuild
	case g.next == g.end:
		g.emit(Event{Kind: EventRestart})
		g.program, g.returned, g.stage = nil, nil, stBuild
	}
}

func (g *Game) applyShow(st engine.Step, cards []int) error {
	seat := st.Seat
	for i, c := range cards {
		if c < 0 || c >= NumBills {
			return engine.Faultf(seat, "seat %d showed card %d (%d), which is not a bill", seat, i+1, c)
		}
	}
	switch g.stage {
	case stShowBill:
		return g.shownBill(Bill(cards[0]))
	case stShowSwap:
		return g.shownSwap(Bill(cards[0]))
	}
	hand := slices.Clone(g.hands[seat])
	k := 0
	for i := range hand {
		if hand[i].Bill == Unknown {
			hand[i].Bill = Bill(cards[k])
			k++
		}
	}
	if err := g.checkPublicBills(seat, hand); err != nil {
		return err
	}
	if g.stage == stShowHand {
		if p, ok := g.anyProposal(seat, hand); ok {
			return engine.Faultf(seat, "seat %d said it has no bill to propose, but its hand shows it could propose %s at %s",
				seat, p.Bill, p.At)
		}
	}
	g.hands[seat] = hand
	g.emit(Event{Kind: EventHand, Seat: seat, Bills: toBills(cards), Final: g.stage == stFinal})
	if g.stage == stShowHand {
		g.emit(Event{Kind: EventNoBill, Seat: seat})
		g.endTurn()
		return nil
	}
	g.count = seat + 1
	g.nextFinal()
	return nil
}

// checkPublicBills: a hand shown holds no bill that every node has seen elsewhere (in the
// program, the discard pile or another hand), nor one bill twice.
func (g *Game) checkPublicBills(seat int, hand []handCard) error {
	for i, h := range hand {
		if h.Bill == Unknown {
			continue
		}
		if where := g.whereIs(h.Bill, seat, -1); where != "" {
			return engine.Faultf(seat, "seat %d shows %s, which is %s", seat, h.Bill, where)
		}
		for _, o := range hand[:i] {
			if o.Bill == h.Bill {
				return engine.Faultf(seat, "seat %d shows %s twice", seat, h.Bill)
			}
		}
	}
	return nil
}

// whereIs says where every node has seen bill b, other than in seat's hand at slot skip
// (every slot of seat's hand when skip is -1), or "".
func (g *Game) whereIs(b Bill, seat, skip int) string {
	if i := g.program.Index(b); i >= 0 {
		return "in the program"
	}
	if slices.Contains(g.pile, b) {
		return "in the discard pile"
	}
	for s := range g.n {
		for i, h := range g.hands[s] {
			if h.Bill == b && s != seat {
				return fmt.Sprintf("in seat %d's hand", s)
			}
			if h.Bill == b && s == seat && skip >= 0 && i != skip {
				return fmt.Sprintf("in slot %d of its hand", i)
			}
		}
	}
	return ""
}

// nextFinal moves to the next senator with bills to show at the end, or ends the game.
func (g *Game) nextFinal() {
	for ; g.count < g.n; g.count++ {
		for _, h := range g.hands[g.count] {
			if h.Bill == Unknown {
				return
			}
		}
	}
	g.stage = stOver
	out := g.Outcome()
	g.emit(Event{Kind: EventOver, Scores: out.Scores, Winners: out.Winners})
}
