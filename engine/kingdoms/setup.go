package kingdoms

import (
	"fmt"
	"slices"

	"corruption/engine"
)

// The setup, as the rule sheet's "Basic Setup" and "Advanced Setup" give it, step by step:
//
//  1. Draw the corporations and the starting player (StepRandom: the corporations one by one
//     from those left, then the starting player). Each player takes its starting minions from
//     the left of its mat: 2, 2, 3, 3, 4, 4 in turn order.
//  2. Build the favor deck: one deck per favor type, each shuffled, and the favor deck built
//     from the top FavorsPerType cards of each, then shuffled again: which favors are in play
//     and their order stay hidden, and the favors set aside are never seen. (With six players
//     all 50 favors are used: the favor deck is built from them at once.)
//  3. Deal the favor market: as many favors face up as players.
//  4. Shuffle the guilty pleasure deck and deal its display: as many face up as players.
//  5. Shuffle the shareholder cards and deal each player one (two in a 2-player game), to it
//     alone.
//  6. Advanced rules: shuffle each player's six chaos cards and deal it three (four in a
//     2-player game), to it alone; then each player, in turn order, discards one face down (a
//     move whose hidden value is the discarded position).

// drawStep is setup step 1.
func (g *Game) drawStep() engine.Step {
	r := make([]int, 0, g.n+1)
	for i := range g.n {
		r = append(r, NumCorporations-i)
	}
	return engine.Step{Kind: engine.StepRandom, Ranges: append(r, g.n)}
}

// setupSteps is the whole setup, once the corporations are drawn.
func (g *Game) setupSteps() []engine.Step {
	steps := []engine.Step{g.drawStep()}
	add := func(s engine.Step) { steps = append(steps, s) }
	k := FavorsPerType(g.n)
	if k < NumFavors/int(NumFavorTypes) {
		var from []engine.DeckCard
		for t := range int(NumFavorTypes) {
			add(engine.Step{Kind: engine.StepBuild, Deck: t, Cards: favorsOfType(FavorType(t))})
			add(engine.Step{Kind: engine.StepShuffle, Deck: t})
			for i := range k {
				from = append(from, engine.DeckCard{Deck: t, Pos: i})
			}
		}
		add(engine.Step{Kind: engine.StepBuild, Deck: deckFavors, From: from})
	} else {
		add(engine.Step{Kind: engine.StepBuild, Deck: deckFavors, Cards: upTo(NumFavors)})
	}
	add(engine.Step{Kind: engine.StepShuffle, Deck: deckFavors})
	add(engine.Step{Kind: engine.StepDeal, Deck: deckFavors, Positions: upTo(g.n), To: -1})
	add(engine.Step{Kind: engine.StepBuild, Deck: deckPleasures, Cards: upTo(NumPleasures)})
	add(engine.Step{Kind: engine.StepShuffle, Deck: deckPleasures})
	add(engine.Step{Kind: engine.StepDeal, Deck: deckPleasures, Positions: upTo(g.n), To: -1})
	add(engine.Step{Kind: engine.StepBuild, Deck: deckShareholder, Cards: upTo(NumShareholders)})
	add(engine.Step{Kind: engine.StepShuffle, Deck: deckShareholder})
	c := ShareholderCards(g.n)
	for s := range g.n {
		add(engine.Step{Kind: engine.StepDeal, Deck: deckShareholder, Positions: span(s*c, c), To: s})
	}
	if g.cfg.Chaos {
		for s := range g.n {
			cards := corporations[g.p.corp[s]].Chaos
			add(engine.Step{Kind: engine.StepBuild, Deck: deckChaos + s, Cards: cards})
			add(engine.Step{Kind: engine.StepShuffle, Deck: deckChaos + s})
			add(engine.Step{Kind: engine.StepDeal, Deck: deckChaos + s, Positions: upTo(ChaosDrawn(g.n)), To: s})
		}
		for i := range g.n {
			add(engine.Step{Kind: engine.StepMove, Seat: (int(g.p.first) + i) % g.n, Hidden: 1})
		}
	}
	return steps
}

func favorsOfType(t FavorType) []int {
	var ids []int
	for i, f := range favors {
		if f.Type == t {
			ids = append(ids, i)
		}
	}
	return ids
}

func upTo(n int) []int { return span(0, n) }

func span(from, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = from + i
	}
	return s
}

// dealtAt is the setup stage after which deck's cards were dealt to seat (a private deal).
func (g *Game) dealtAt(deck, seat int) int16 {
	for i, st := range g.steps {
		if st.Kind == engine.StepDeal && st.Deck == deck && st.To == seat {
			return int16(i + 1)
		}
	}
	return int16(len(g.steps) + 1)
}

// inputFor is the input that answers each step.
var inputFor = [...]engine.InputKind{
	engine.StepMove: engine.InMove, engine.StepRandom: engine.InRandom, engine.StepBuild: engine.InBuilt,
	engine.StepShuffle: engine.InShuffled, engine.StepDeal: engine.InDealt, engine.StepShow: engine.InShown,
	engine.StepOpen: engine.InOpened, engine.StepAnswer: engine.InAnswered, engine.StepChoose: engine.InChosen,
}

// applySetup takes the input of setup step g.p.stage, which Apply checked is of the right kind.
func (g *Game) applySetup(st engine.Step, in engine.Input) error {
	switch st.Kind {
	case engine.StepRandom:
		if err := g.applyDraw(in); err != nil {
			return err
		}
	case engine.StepBuild, engine.StepShuffle:
		if in.Deck != st.Deck {
			return fmt.Errorf("%s deck %d, but the game waits for deck %d", in.Kind, in.Deck, st.Deck)
		}
	case engine.StepDeal:
		if err := checkDeal(st, in); err != nil {
			return err
		}
		if st.To < 0 {
			if err := g.dealFaceUp(st.Deck, in.Cards); err != nil {
				return err
			}
		}
	case engine.StepMove:
		if err := g.applyDiscard(st.Seat, in); err != nil {
			return err
		}
	}
	g.p.stage++
	if int(g.p.stage) == len(g.steps) {
		g.startPlay()
	}
	return nil
}

// checkDeal checks that a deal echoes its step: deck, positions, recipient, and cards face up
// (or none, -1, for a private deal).
func checkDeal(st engine.Step, in engine.Input) error {
	if in.Deck != st.Deck || in.To != st.To || !slices.Equal(in.Positions, st.Positions) || len(in.Cards) != len(st.Positions) {
		return fmt.Errorf("dealt deck %d positions %v to %d (%d cards), but the game waits for deck %d positions %v to %d",
			in.Deck, in.Positions, in.To, len(in.Cards), st.Deck, st.Positions, st.To)
	}
	if st.To >= 0 {
		for _, c := range in.Cards {
			if c != -1 {
				return fmt.Errorf("a private deal shows card %d to all", c)
			}
		}
	}
	return nil
}

func (g *Game) applyDraw(in engine.Input) error {
	st := g.drawStep()
	if len(in.Ints) != len(st.Ranges) {
		return fmt.Errorf("random: %d numbers, want %d", len(in.Ints), len(st.Ranges))
	}
	for i, v := range in.Ints {
		if v < 0 || v >= st.Ranges[i] {
			return fmt.Errorf("random: number %d is %d, want 0 to %d", i, v, st.Ranges[i]-1)
		}
	}
	left := upTo(NumCorporations)
	for s := range g.n {
		c := left[in.Ints[s]]
		left = slices.Delete(left, in.Ints[s], in.Ints[s]+1)
		g.p.corp[s] = int8(c)
	}
	g.p.first = int8(in.Ints[g.n])
	for i := range g.n {
		s := (int(g.p.first) + i) % g.n
		var took [NumMinions]int
		for _, m := range corporations[g.p.corp[s]].Mat[:StartingMinions(i)] {
			g.gain(s, m)
			took[m]++
		}
		g.emit(Event{Kind: EventCorporation, Seat: s, Corp: int(g.p.corp[s]), Minions: took})
	}
	g.emit(Event{Kind: EventFirst, Seat: int(g.p.first)})
	g.steps = g.setupSteps()
	return nil
}

// dealFaceUp puts the cards dealt face up at setup into the market or the display.
func (g *Game) dealFaceUp(deck int, cards []int) error {
	if deck == deckFavors {
		g.p.favorLen, g.p.favorNext = int8(FavorsPerType(g.n)*int(NumFavorTypes)), int8(len(cards))
	} else {
		g.p.gpLen, g.p.gpNext = NumPleasures, int16(len(cards))
	}
	for i, c := range cards {
		var err error
		if deck == deckFavors {
			err = g.toMarket(i, c)
		} else {
			err = g.toDisplay(i, c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// toMarket puts favor c, just dealt, in market slot i. A card that cannot be in the favor deck
// is the table's fault.
func (g *Game) toMarket(i, c int) error {
	if c < 0 || c >= NumFavors || g.p.seen&(1<<c) != 0 {
		return fmt.Errorf("deal: card %d is not a favor left in the favor deck", c)
	}
	t := favors[c].Type
	n := 0
	for f := range NumFavors {
		if g.p.seen&(1<<f) != 0 && favors[f].Type == t {
			n++
		}
	}
	if n >= FavorsPerType(g.n) {
		return fmt.Errorf("deal: favor %s would be favor %d of type %s, more than the deck holds", favors[c].ID, n+1, t)
	}
	g.p.seen |= 1 << c
	g.p.market[i] = int8(c)
	g.emit(Event{Kind: EventMarket, Favor: c})
	return nil
}

// toDisplay puts guilty pleasure c, just dealt, in display slot i.
func (g *Game) toDisplay(i, c int) error {
	if c < 0 || c >= NumPleasures || g.pleasureOut(c) {
		return fmt.Errorf("deal: card %d is not a guilty pleasure left in the deck", c)
	}
	g.p.display[i] = int8(c)
	g.emit(Event{Kind: EventDisplay, Pleasure: c})
	return nil
}

// pleasureOut reports whether guilty pleasure c is in the display or owned.
func (g *Game) pleasureOut(c int) bool {
	for s := range g.n {
		if g.p.owned[s]&(1<<c) != 0 {
			return true
		}
	}
	return slices.Contains(g.p.display[:g.n], int8(c))
}

// applyDiscard takes a seat's face-down chaos discard: the move "discard" with one hidden
// value.
func (g *Game) applyDiscard(seat int, in engine.Input) error {
	m, err := DecodeMove(seat, in.Move)
	switch {
	case err != nil:
		return engine.Faultf(seat, "seat %d: %v", seat, err)
	case m.Kind != MoveDiscard:
		return engine.Faultf(seat, "seat %d must discard a chaos card face down, not make a %s move", seat, m.Kind)
	case len(in.Refs) != 1:
		return engine.Faultf(seat, "seat %d's discard carries %d hidden values, want 1", seat, len(in.Refs))
	case in.Refs[0] <= int(g.p.lastRef):
		return fmt.Errorf("ref %d is not new (the last was %d)", in.Refs[0], g.p.lastRef)
	}
	g.p.hands[seat].discardRef, g.p.lastRef = int32(in.Refs[0]), int32(in.Refs[0])
	g.emit(Event{Kind: EventDiscarded, Seat: seat})
	return nil
}

// startPlay begins the first turn.
func (g *Game) startPlay() {
	g.p.turn, g.p.actions, g.p.round = g.p.first, ActionsPerTurn, 1
	g.emit(Event{Kind: EventTurn, Seat: int(g.p.turn), Round: 1})
}

// ActionsPerTurn is the number of actions a player takes on its turn.
const ActionsPerTurn = 2
