package kingdoms

import (
	"fmt"

	"corruption/engine"
)

// What a Game waits for (Due) and how it takes each input (Apply).
//
// After the setup (setup.go) the game is a turn, plus a list of tasks the rules ask for in
// order: an action or a chaos card pushes its consequences to the front of the list (the market
// refilled, a vote held, a steal answered), and the turn goes on when the list is empty. Tasks
// that need no input (a vote counted, favors collected) run at once; Due is the step of the
// first task that needs one, or the turn's next move.

type taskKind uint8

const (
	taskRefill      taskKind = iota + 1 // deal the favor deck's next card into market slot a
	taskDisplay                         // deal the guilty pleasure deck's next card into display slot a
	taskStealAnswer                     // seat a may answer the steal with a chaos card
	taskSteal                           // the steal resolves
	taskOpen                            // seat a opens its face-down chaos discard
	taskShow                            // seat a shows, with proof, the chaos card at position b
	taskEffect                          // the chaos card played takes effect
	taskVote                            // a vote on bill a, called by seat b (-1: automatically)
	taskChoose                          // the secret, simultaneous votes
	taskAnswer                          // seat a may answer the revealed votes with a chaos card
	taskResolve                         // the vote is counted and the bill resolved
	taskPick                            // seat a takes a guilty pleasure (and its bill bonus)
	taskCycleBack                       // guilty pleasure a goes from the display under the deck (environment bonus)
	taskCollect                         // the passed bill's favors go to their owners' score piles
	taskReturn                          // the unclaimed guilty pleasures go under the deck
	taskRedraw                          // a new display is dealt
	taskReveal                          // seat a shows its shareholder cards, with proof
)

type task struct {
	kind taskKind
	a, b int8
}

// push puts tasks at the front of the list, in the order given.
func (g *Game) push(ts ...task) { g.p.tasks = append(ts, g.p.tasks...) }

func (g *Game) pop() { g.p.tasks = g.p.tasks[1:] }

// Due says what the game waits for.
func (g *Game) Due() engine.Step {
	p := &g.p
	if int(p.stage) < len(g.steps) {
		return g.steps[p.stage]
	}
	if p.over {
		return engine.Step{Kind: engine.StepOver}
	}
	if len(p.tasks) == 0 {
		return engine.Step{Kind: engine.StepMove, Seat: int(p.turn)}
	}
	t := p.tasks[0]
	switch t.kind {
	case taskRefill:
		return engine.Step{Kind: engine.StepDeal, Deck: deckFavors, Positions: []int{int(p.favorNext)}, To: -1}
	case taskDisplay:
		return engine.Step{Kind: engine.StepDeal, Deck: deckPleasures, Positions: []int{int(p.gpNext)}, To: -1}
	case taskStealAnswer, taskAnswer:
		return engine.Step{Kind: engine.StepMove, Seat: int(t.a), Respond: true}
	case taskOpen:
		return engine.Step{Kind: engine.StepOpen, Seat: int(t.a), Refs: []int{int(p.hands[t.a].discardRef)}}
	case taskShow:
		return engine.Step{Kind: engine.StepShow, Seat: int(t.a), Deck: deckChaos + int(t.a), Positions: []int{int(t.b)}}
	case taskChoose:
		return engine.Step{Kind: engine.StepChoose, Seats: p.vote.seatList()}
	case taskPick:
		return engine.Step{Kind: engine.StepMove, Seat: int(t.a)}
	case taskCycleBack:
		return engine.Step{Kind: engine.StepBuild, Deck: deckPleasures, Cards: []int{int(t.a)}, Keep: true}
	case taskReturn:
		return engine.Step{Kind: engine.StepBuild, Deck: deckPleasures, Cards: g.unclaimed(), Keep: true}
	case taskRedraw:
		return engine.Step{Kind: engine.StepDeal, Deck: deckPleasures, Positions: span(int(p.gpNext), g.redrawCount()), To: -1}
	case taskReveal:
		c := ShareholderCards(g.n)
		return engine.Step{Kind: engine.StepShow, Seat: int(t.a), Deck: deckShareholder, Positions: span(int(t.a)*c, c)}
	}
	panic(fmt.Sprintf("kingdoms: task %d needs no input but was left at the front", t.kind))
}

// Apply feeds one input, which must answer the step due. It applies it whole or not at all. A
// seat's input that breaks the rules is a *engine.Fault naming the seat; an input that does not
// echo the step due (the table's mistake) is a plain error or a fault of no seat (-1).
func (g *Game) Apply(in engine.Input) error {
	st := g.Due()
	if st.Kind == engine.StepOver || in.Kind != inputFor[st.Kind] {
		what := "nothing (the game is over)"
		if st.Kind != engine.StepOver {
			what = g.waits(st)
		}
		if in.Kind == engine.InMove && in.Seat >= 0 && in.Seat < g.n {
			return engine.Faultf(in.Seat, "seat %d cannot move: the game waits for %s", in.Seat, what)
		}
		return fmt.Errorf("a %s input, but the game waits for %s", in.Kind, what)
	}
	t := g.clone()
	t.recording = g.onEvent != nil
	if err := t.apply(st, in); err != nil {
		return err
	}
	events := t.events
	t.events, t.recording, t.onEvent = nil, false, g.onEvent
	*g = *t
	for _, e := range events {
		g.onEvent(engine.Event{Text: e.String(), Data: e})
	}
	return nil
}

func (g *Game) apply(st engine.Step, in engine.Input) error {
	if int(g.p.stage) < len(g.steps) {
		if st.Kind == engine.StepMove {
			if err := g.checkMover(st, in); err != nil {
				return err
			}
		}
		if err := g.applySetup(st, in); err != nil {
			return err
		}
	} else if err := g.applyPlay(st, in); err != nil {
		return err
	}
	g.advance()
	return nil
}

// checkMover checks that a move comes from the seat due.
func (g *Game) checkMover(st engine.Step, in engine.Input) error {
	if in.Seat == st.Seat {
		return nil
	}
	if in.Seat >= 0 && in.Seat < g.n {
		return engine.Faultf(in.Seat, "seat %d cannot move: the game waits for %s", in.Seat, g.waits(st))
	}
	return fmt.Errorf("a move by seat %d, but the game waits for %s", in.Seat, g.waits(st))
}

func (g *Game) applyPlay(st engine.Step, in engine.Input) error {
	if st.Kind == engine.StepMove {
		return g.applyMove(st, in)
	}
	t := g.p.tasks[0]
	switch t.kind {
	case taskRefill, taskDisplay, taskRedraw:
		if err := checkDeal(st, in); err != nil {
			return err
		}
		return g.applyDealt(t, in.Cards)
	case taskCycleBack, taskReturn:
		if in.Deck != st.Deck {
			return fmt.Errorf("built deck %d, but the game waits for deck %d", in.Deck, st.Deck)
		}
		g.p.gpLen += int16(len(st.Cards))
		if t.kind == taskCycleBack {
			g.p.display[g.displaySlot(int(t.a))] = -1
		} else {
			g.emit(Event{Kind: EventReturned, Count: len(st.Cards)})
			for i := range g.p.display {
				g.p.display[i] = -1
			}
		}
		g.pop()
		return nil
	case taskOpen:
		return g.applyOpen(st, in)
	case taskShow:
		return g.applyShow(st, in)
	case taskChoose:
		return g.applyVotes(st, in)
	case taskReveal:
		return g.applyReveal(st, in)
	}
	return fmt.Errorf("a %s input, but the game waits for %s", in.Kind, g.waits(st))
}

// applyDealt takes the cards the table dealt face up for a task: a market refill, a display
// refill, or a new display.
func (g *Game) applyDealt(t task, cards []int) error {
	p := &g.p
	switch t.kind {
	case taskRefill:
		if err := g.toMarket(int(t.a), cards[0]); err != nil {
			return err
		}
		if p.favorNext++; p.favorNext == p.favorLen {
			g.endGame(EndFavors)
		}
	default:
		slot := int(t.a)
		for i, c := range cards {
			if t.kind == taskRedraw {
				slot = i
			}
			if err := g.toDisplay(slot, c); err != nil {
				return err
			}
		}
		if p.gpNext += int16(len(cards)); p.gpNext == p.gpLen {
			g.endGame(EndPleasures)
		}
	}
	g.pop()
	return nil
}

// applyMove takes a seat's move: an action or chaos card on its turn, an answer, a pick.
func (g *Game) applyMove(st engine.Step, in engine.Input) error {
	if err := g.checkMover(st, in); err != nil {
		return err
	}
	seat := st.Seat
	m, err := DecodeMove(seat, in.Move)
	if err != nil {
		return engine.Faultf(seat, "seat %d: %v", seat, err)
	}
	if len(in.Refs) != 0 {
		return engine.Faultf(seat, "seat %d's %s carries %d hidden values, want none", seat, m.Kind, len(in.Refs))
	}
	if len(g.p.tasks) == 0 {
		err = g.turnMove(m)
	} else {
		switch t := g.p.tasks[0]; t.kind {
		case taskStealAnswer:
			err = g.answer(m, OnSteal)
		case taskAnswer:
			err = g.answer(m, OnVote)
		default:
			err = g.pickMove(m)
		}
	}
	if err != nil {
		return engine.Faultf(seat, "seat %d cannot %s", seat, err)
	}
	return nil
}

// turnMove is a move on the seat's own turn: an action, or a chaos card before one.
func (g *Game) turnMove(m Move) error {
	switch m.Kind {
	case MoveTake, MovePlace, MoveInfluence, MoveCall:
		return g.action(m)
	case MoveChaos:
		return g.claimChaos(m, OnTurn)
	}
	return fmt.Errorf("%s on its turn: it takes an action (take, place, influence, call) or plays a chaos card", m.Kind)
}

// answer is a seat's answer to a steal or to revealed votes: a chaos card or a pass.
func (g *Game) answer(m Move, when Timing) error {
	if m.Kind == MovePass {
		g.pop()
		return nil
	}
	if m.Kind != MoveChaos {
		return fmt.Errorf("%s now: it may play a chaos card (%s) or pass", m.Kind, when)
	}
	if err := g.checkClaim(m, when); err != nil {
		return err
	}
	g.pop()
	g.startClaim(m)
	return nil
}

// advance runs the tasks that need no input, ends turns and the game, until an input is due.
func (g *Game) advance() {
	p := &g.p
	for !p.over && int(p.stage) >= len(g.steps) {
		if len(p.tasks) == 0 {
			switch {
			case p.final:
				g.finish()
				return
			case p.ending != 0 && !g.roundGoesOn():
				g.beginFinal()
			case p.actions > 0:
				if !g.mustPass() {
					return
				}
				g.emit(Event{Kind: EventNoAction, Seat: int(p.turn), Count: int(p.actions)})
				p.actions = 0
			default:
				g.nextTurn()
			}
			continue
		}
		if !g.runTask(p.tasks[0]) {
			return
		}
	}
}

// runTask runs t if it needs no input, or drops it if it has nothing to do (an answer from a
// seat that holds no card that could answer, a draw from an empty deck), and reports whether
// it did either.
func (g *Game) runTask(t task) bool {
	p := &g.p
	switch t.kind {
	case taskSteal:
		g.pop()
		g.resolveSteal()
	case taskEffect:
		g.pop()
		g.effect()
	case taskVote:
		g.pop()
		g.startVote(int(t.a), int(t.b))
	case taskResolve:
		g.pop()
		g.resolveVote()
	case taskCollect:
		g.pop()
		g.collect()
	case taskStealAnswer:
		if g.mayAnswer(int(t.a), OnSteal) {
			return false
		}
		g.pop()
	case taskAnswer:
		if !p.vote.veto && g.mayAnswer(int(t.a), OnVote) {
			return false
		}
		g.pop()
	case taskPick:
		if g.displayed() > 0 {
			return false
		}
		g.pop()
	case taskRefill:
		if p.favorNext < p.favorLen {
			return false
		}
		g.pop()
	case taskDisplay:
		if p.gpNext < p.gpLen {
			return false
		}
		g.pop()
	case taskReturn:
		if g.displayed() > 0 {
			return false
		}
		g.pop()
	case taskRedraw:
		if g.redrawCount() > 0 {
			return false
		}
		g.pop()
	default:
		return false
	}
	return true
}

// waits is the step due in words, for errors.
func (g *Game) waits(st engine.Step) string {
	switch st.Kind {
	case engine.StepMove:
		if int(g.p.stage) < len(g.steps) {
			return fmt.Sprintf("seat %d to discard a chaos card", st.Seat)
		}
		return g.Next().String()
	case engine.StepChoose:
		return fmt.Sprintf("the votes of seats %v on %s", st.Seats, BillID(int(g.p.vote.bill)))
	case engine.StepShow:
		if st.Deck == deckShareholder {
			return fmt.Sprintf("seat %d to show its shareholder cards", st.Seat)
		}
		return fmt.Sprintf("seat %d to show the chaos card it plays", st.Seat)
	case engine.StepOpen:
		return fmt.Sprintf("seat %d to open its chaos discard", st.Seat)
	}
	return fmt.Sprintf("a %s step (deck %d)", st.Kind, st.Deck)
}

// Replace is the discard seat opens in place of a chaos discard the game refused at its opening
// (engine.Replacer): the table convicted the seat and plays it by its stand-in (docs/KINGDOMS.md,
// "A seat caught cheating"). It is the first position in the seat's hand, counted from seed,
// that the opening takes.
func (g *Game) Replace(seat int, seed uint64) ([][]byte, error) {
	st := g.Due()
	if st.Kind != engine.StepOpen || st.Seat != seat || len(st.Refs) != 1 {
		return nil, fmt.Errorf("seat %d opens no discard now", seat)
	}
	const positions = 64
	for k := range uint64(positions) {
		v := [][]byte{{byte((seed + k) % positions)}}
		if g.clone().Apply(engine.Input{Kind: engine.InOpened, Seat: seat, Refs: st.Refs, Values: v}) == nil {
			return v, nil
		}
	}
	return nil, fmt.Errorf("seat %d has no card it may discard", seat)
}
