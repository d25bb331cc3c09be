package corruption

import (
	"errors"
	"fmt"
	"slices"

	"corruption/engine"
)

// What a Game waits for (Due) and how it takes each input (Apply): the numbered steps of
// game.go.

// Due says what the game waits for (see the numbered steps in game.go).
func (g *Game) Due() engine.Step {
	switch g.stage {
	case stageFirst:
		return engine.Step{Kind: engine.StepRandom, Ranges: []int{g.players}}
	case stageBuild:
		cards := make([]int, NumContracts)
		for i := range cards {
			cards[i] = i
		}
		return engine.Step{Kind: engine.StepBuild, Deck: 0, Cards: cards}
	case stageShuffle:
		return engine.Step{Kind: engine.StepShuffle, Deck: 0}
	}
	if g.peek > 0 {
		i := g.peek - 1
		return engine.Step{Kind: engine.StepAnswer, Seat: g.s.plays[i].Seat, To: g.s.turnSeat(), Refs: []int{g.refs[i]}}
	}
	switch d := g.s.Next(); d.Kind {
	case DecideNothing:
		return engine.Step{Kind: engine.StepOver}
	case DecideDeal:
		pos := make([]int, ContractsPerDeal)
		for i := range pos {
			pos[i] = g.s.dealt + i
		}
		return engine.Step{Kind: engine.StepDeal, Deck: 0, Positions: pos, To: -1}
	case DecideReveal:
		var refs []int
		for _, i := range g.faceDown(d.Seat) {
			refs = append(refs, g.refs[i])
		}
		return engine.Step{Kind: engine.StepOpen, Seat: d.Seat, Refs: refs}
	case DecidePlace:
		return engine.Step{Kind: engine.StepMove, Seat: d.Seat, Hidden: 1}
	default:
		return engine.Step{Kind: engine.StepMove, Seat: d.Seat}
	}
}

// faceDown lists seat's plays (0-based) of this round still face down, in play order.
func (g *Game) faceDown(seat int) []int {
	var out []int
	for i := 0; i < g.s.nplays; i++ {
		if p := &g.s.plays[i]; p.Seat == seat && !p.Revealed {
			out = append(out, i)
		}
	}
	return out
}

// waits is the step due in words, for errors.
func (g *Game) waits(st engine.Step) string {
	switch st.Kind {
	case engine.StepRandom:
		return "the first player to be drawn"
	case engine.StepBuild:
		return "the contract deck to be built"
	case engine.StepShuffle:
		return "the contract deck to be shuffled"
	case engine.StepAnswer:
		return fmt.Sprintf("seat %d to answer seat %d's peek at card %d", st.Seat, st.To, g.peek)
	case engine.StepOpen:
		return fmt.Sprintf("seat %d to open its face-down cards", st.Seat)
	}
	return g.s.Next().describe()
}

// inputFor is the input that answers each step.
var inputFor = map[engine.StepKind]engine.InputKind{
	engine.StepRandom: engine.InRandom, engine.StepBuild: engine.InBuilt, engine.StepShuffle: engine.InShuffled,
	engine.StepDeal: engine.InDealt, engine.StepMove: engine.InMove, engine.StepAnswer: engine.InAnswered,
	engine.StepOpen: engine.InOpened,
}

// Apply feeds one input, which must answer the step due. It applies it whole or not at all. A
// seat's move or opening that breaks the rules is a *engine.Fault naming the seat; an input
// that does not echo the step due (the table's mistake) is a plain error.
func (g *Game) Apply(in engine.Input) error {
	st := g.Due()
	if want, ok := inputFor[st.Kind]; !ok || in.Kind != want {
		what := "nothing (the game is over)"
		if ok {
			what = g.waits(st)
		}
		if in.Kind == engine.InMove && in.Seat >= 0 && in.Seat < g.players {
			return engine.Faultf(in.Seat, "seat %d cannot move: the game waits for %s", in.Seat, what)
		}
		return fmt.Errorf("a %s input, but the game waits for %s", in.Kind, what)
	}
	switch st.Kind {
	case engine.StepRandom:
		return g.applyFirst(in)
	case engine.StepBuild, engine.StepShuffle:
		if in.Deck != 0 {
			return fmt.Errorf("%s deck %d, but the contract deck is deck 0", in.Kind, in.Deck)
		}
		g.stage++
		return nil
	case engine.StepDeal:
		return g.applyDeal(st, in)
	case engine.StepMove:
		return g.applyMove(st, in)
	case engine.StepAnswer:
		if in.Seat != st.Seat || in.To != st.To || !slices.Equal(in.Refs, st.Refs) {
			return fmt.Errorf("seat %d answered seat %d about refs %v, but the game waits for %s (ref %v)",
				in.Seat, in.To, in.Refs, g.waits(st), st.Refs)
		}
		g.answered[g.peek-1], g.peek = true, 0
		return nil
	}
	return g.applyOpen(st, in)
}

func (g *Game) applyFirst(in engine.Input) error {
	if len(in.Ints) != 1 || in.Ints[0] < 0 || in.Ints[0] >= g.players {
		return fmt.Errorf("random %v: want one seat between 0 and %d", in.Ints, g.players-1)
	}
	opts := []Option{WithHiddenCards()}
	if g.onEvent != nil {
		opts = append(opts, WithEvents(g.emit))
	}
	s, err := New(Config{Players: g.players, Variant: g.variant, LittleBlackBook: g.lbb, First: in.Ints[0]}, opts...)
	if err != nil {
		return err
	}
	g.s, g.stage = s, stageBuild
	return nil
}

func (g *Game) emit(e Event) { g.onEvent(engine.Event{Text: e.String(), Data: e}) }

func (g *Game) applyDeal(st engine.Step, in engine.Input) error {
	if in.Deck != 0 || in.To != -1 || !slices.Equal(in.Positions, st.Positions) || len(in.Cards) != ContractsPerDeal {
		return fmt.Errorf("dealt deck %d positions %v to %d (%d cards), but the game waits for deck 0 positions %v face up",
			in.Deck, in.Positions, in.To, len(in.Cards), st.Positions)
	}
	m := Move{Kind: MoveDeal, Seat: -1}
	for i, c := range in.Cards {
		if c < 0 || c >= NumContracts {
			return engine.Faultf(-1, "deal: card %d (%d) is not a contract", i+1, c)
		}
		m.Deal[i] = Contract(c)
	}
	return fault(g.s.Apply(m))
}

func (g *Game) applyMove(st engine.Step, in engine.Input) error {
	seat := st.Seat
	if in.Seat != seat {
		if in.Seat >= 0 && in.Seat < g.players {
			return engine.Faultf(in.Seat, "seat %d cannot move: the game waits for %s", in.Seat, g.waits(st))
		}
		return fmt.Errorf("a move by seat %d, but the game waits for %s", in.Seat, g.waits(st))
	}
	m, err := DecodeMove(seat, in.Move)
	if err != nil {
		return engine.Faultf(seat, "seat %d: %v", seat, err)
	}
	hidden := 0
	if m.Kind == MovePlace && g.s.Next().Kind == DecidePlace {
		pos := g.s.Placed(seat) + 1
		faceUp := !m.Spot.IsSwiss() && g.s.NextFaceUp(seat)
		switch {
		case faceUp && m.Card == CardUnknown:
			return engine.Faultf(seat, "seat %d must show its card: its card %d this round is played face up", seat, pos)
		case !faceUp && m.Card != CardUnknown:
			return engine.Faultf(seat, "seat %d shows %s on %s, but its card %d this round goes face down", seat, m.Card.Title(), m.Spot, pos)
		case !faceUp:
			hidden = 1
		}
	}
	if len(in.Refs) != hidden {
		return engine.Faultf(seat, "seat %d's %s carries %s, want %s", seat, m.Kind, hiddenValues(len(in.Refs)), hiddenValues(hidden))
	}
	if hidden == 1 && in.Refs[0] <= g.lastRef {
		return fmt.Errorf("ref %d is not new (the last was %d)", in.Refs[0], g.lastRef)
	}
	i := g.s.nplays
	if err := g.s.Apply(m); err != nil {
		return fault(err)
	}
	switch m.Kind {
	case MovePlace:
		g.refs[i], g.answered[i] = -1, false
		if hidden == 1 {
			g.refs[i], g.lastRef = in.Refs[0], in.Refs[0]
		}
	case MovePeek:
		g.peek = m.Index
	}
	return nil
}

func hiddenValues(n int) string {
	switch n {
	case 0:
		return "no hidden value"
	case 1:
		return "one hidden value"
	}
	return fmt.Sprintf("%d hidden values", n)
}

// applyOpen reveals all of the opening seat's face-down cards, or none.
func (g *Game) applyOpen(st engine.Step, in engine.Input) error {
	seat := st.Seat
	if in.Seat != seat || !slices.Equal(in.Refs, st.Refs) || len(in.Values) != len(in.Refs) {
		return fmt.Errorf("seat %d opened refs %v (%d values), but the game waits for seat %d to open refs %v",
			in.Seat, in.Refs, len(in.Values), seat, st.Refs)
	}
	t := g.s.Clone()
	var evs []Event
	if t.OnEvent != nil {
		t.OnEvent = func(e Event) { evs = append(evs, e) }
	}
	for k, i := range g.faceDown(seat) {
		c, err := ParseCard(string(in.Values[k]))
		if err != nil {
			return engine.Faultf(seat, "seat %d opened card %d as %q: not a card", seat, i+1, in.Values[k])
		}
		if err := t.Apply(Move{Kind: MoveReveal, Seat: seat, Index: i + 1, Card: c}); err != nil {
			return fault(err)
		}
	}
	t.OnEvent, g.s = g.s.OnEvent, t
	for _, e := range evs {
		g.emit(e) // as told, in the round it happened
	}
	return nil
}

// fault turns the State's *MoveError into the kit's *engine.Fault.
func fault(err error) error {
	var me *MoveError
	if errors.As(err, &me) {
		return &engine.Fault{Seat: me.Seat, Msg: me.Msg}
	}
	return err
}

// Replace is the cards seat reveals in place of face-down cards of this round that the game
// refused at their reveal (engine.Replacer): the table convicted the seat and plays it by its
// stand-in (docs/RULES.md, "A seat caught cheating"). For each of the seat's face-down cards, in
// play order: the card this copy of the game knows it to be (its own node's, or an open seat's,
// checked when it was placed), else the first card from the seat's hand, counted from seed, that
// the reveal takes there: in its hand, not played this round, no character on a Swiss account.
func (g *Game) Replace(seat int, seed uint64) ([][]byte, error) {
	if st := g.Due(); st.Kind != engine.StepOpen || st.Seat != seat {
		return nil, fmt.Errorf("seat %d reveals nothing now", seat)
	}
	t := g.s.Clone()
	t.OnEvent = nil
	var out [][]byte
	for _, i := range g.faceDown(seat) {
		var took *State
		var card Card
		for k := range uint64(numCards - 1) {
			c := Card(1 + (seed+k)%uint64(numCards-1))
			u := t.Clone()
			if u.Apply(Move{Kind: MoveReveal, Seat: seat, Index: i + 1, Card: c}) == nil {
				took, card = u, c
				break
			}
		}
		if took == nil {
			return nil, fmt.Errorf("seat %d has no card it may reveal as its card %d", seat, i+1)
		}
		t = took
		out = append(out, []byte(card.String()))
	}
	return out, nil
}
