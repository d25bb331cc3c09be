package enginetest

import (
	"fmt"
	"slices"

	"corruption/engine"
)

// perform does what st asks, in the open: the input that reports it, and what each seat learns
// privately. Decks are slices of card ids; hidden values are kept by ref, with the seat that
// committed them.
func (t *table) perform(st engine.Step) (engine.Input, []learning, error) {
	switch st.Kind {
	case engine.StepRandom:
		return t.random(st)
	case engine.StepBuild:
		return t.build(st)
	case engine.StepShuffle:
		d, err := t.deck(st.Deck)
		if err != nil {
			return engine.Input{}, nil, err
		}
		if t.chance != nil {
			if err := t.chance.Order(st.Deck, d.cards); err != nil {
				return engine.Input{}, nil, fmt.Errorf("shuffle: %w", err)
			}
		} else {
			t.rng.Shuffle(len(d.cards), func(i, j int) { d.cards[i], d.cards[j] = d.cards[j], d.cards[i] })
		}
		for i := range d.to {
			d.to[i] = -1 // nobody knows where its cards went
		}
		return engine.Input{Kind: engine.InShuffled, Deck: st.Deck}, nil, nil
	case engine.StepDeal:
		return t.deal(st)
	case engine.StepShow:
		return t.show(st)
	case engine.StepMove:
		return t.move(st)
	case engine.StepOpen:
		values := make([][]byte, len(st.Refs))
		for i, ref := range st.Refs {
			if err := t.owns(st.Seat, ref); err != nil {
				return engine.Input{}, nil, fmt.Errorf("open: %w", err)
			}
			values[i] = t.values[ref]
		}
		return engine.Input{Kind: engine.InOpened, Seat: st.Seat, Refs: st.Refs, Values: values}, nil, nil
	case engine.StepAnswer:
		if len(st.Refs) != 1 || !t.seat(st.To) || st.To == st.Seat {
			return engine.Input{}, nil, fmt.Errorf("answer: seat %d cannot answer seat %d about refs %v", st.Seat, st.To, st.Refs)
		}
		if err := t.owns(st.Seat, st.Refs[0]); err != nil {
			return engine.Input{}, nil, fmt.Errorf("answer: %w", err)
		}
		in := engine.Input{Kind: engine.InAnswered, Seat: st.Seat, To: st.To, Refs: st.Refs}
		return in, []learning{{seat: st.To, ref: st.Refs[0], value: t.values[st.Refs[0]]}}, nil
	case engine.StepChoose:
		return t.choose(st)
	}
	return engine.Input{}, nil, fmt.Errorf("unknown step kind %s", st.Kind)
}

func (t *table) seat(s int) bool { return s >= 0 && s < len(t.seats) }

func (t *table) deck(i int) (*deck, error) {
	if i < 0 || i >= engine.MaxDecks {
		return nil, fmt.Errorf("deck %d is not between 0 and %d", i, engine.MaxDecks-1)
	}
	return &t.decks[i], nil
}

// owns checks that ref is a hidden value seat committed.
func (t *table) owns(seat, ref int) error {
	if ref < 0 || ref >= len(t.values) {
		return fmt.Errorf("ref %d was never committed (%d so far)", ref, len(t.values))
	}
	if t.owners[ref] != seat {
		return fmt.Errorf("ref %d is seat %d's, not seat %d's", ref, t.owners[ref], seat)
	}
	return nil
}

func (t *table) random(st engine.Step) (engine.Input, []learning, error) {
	if t.randoms++; t.randoms > engine.MaxRandomDraws {
		return engine.Input{}, nil, fmt.Errorf("random: more than %d random steps", engine.MaxRandomDraws)
	}
	ints := make([]int, len(st.Ranges))
	for i, r := range st.Ranges {
		if r < 1 {
			return engine.Input{}, nil, fmt.Errorf("random: range %d is %d, want at least 1", i, r)
		}
		if t.chance == nil {
			ints[i] = t.rng.IntN(r)
			continue
		}
		v, err := t.chance.Int(r)
		if err != nil || v < 0 || v >= r {
			return engine.Input{}, nil, fmt.Errorf("random: %d drawn in [0, %d) (%v)", v, r, err)
		}
		ints[i] = v
	}
	return engine.Input{Kind: engine.InRandom, Ints: ints}, nil, nil
}

func (t *table) build(st engine.Step) (engine.Input, []learning, error) {
	d, err := t.deck(st.Deck)
	if err != nil {
		return engine.Input{}, nil, fmt.Errorf("build: %w", err)
	}
	var nd deck
	if st.Keep {
		nd = deck{clone(d.cards), clone(d.to)}
	}
	for _, c := range st.Cards {
		if c < 0 || c >= engine.MaxDeckSize {
			return engine.Input{}, nil, fmt.Errorf("build: card id %d is not between 0 and %d", c, engine.MaxDeckSize-1)
		}
		nd.cards, nd.to = append(nd.cards, c), append(nd.to, -1)
	}
	for _, dc := range st.From {
		src, err := t.deck(dc.Deck)
		if err != nil || dc.Pos < 0 || dc.Pos >= len(src.cards) {
			return engine.Input{}, nil, fmt.Errorf("build: deck %d has no position %d", dc.Deck, dc.Pos)
		}
		nd.cards, nd.to = append(nd.cards, src.cards[dc.Pos]), append(nd.to, -1)
	}
	if len(nd.cards) > engine.MaxDeckSize {
		return engine.Input{}, nil, fmt.Errorf("build: deck %d would hold %d cards, more than %d", st.Deck, len(nd.cards), engine.MaxDeckSize)
	}
	*d = nd
	return engine.Input{Kind: engine.InBuilt, Deck: st.Deck}, nil, nil
}

// positions checks that ps are distinct positions of deck d.
func positions(d *deck, ps []int) error {
	for i, p := range ps {
		if p < 0 || p >= len(d.cards) || slices.Contains(ps[:i], p) {
			return fmt.Errorf("position %d is not a distinct position of a deck of %d", p, len(d.cards))
		}
	}
	return nil
}

func (t *table) deal(st engine.Step) (engine.Input, []learning, error) {
	d, err := t.deck(st.Deck)
	if err == nil {
		err = positions(d, st.Positions)
	}
	if err == nil && st.To >= len(t.seats) {
		err = fmt.Errorf("there is no seat %d", st.To)
	}
	if err != nil {
		return engine.Input{}, nil, fmt.Errorf("deal: %w", err)
	}
	in := engine.Input{Kind: engine.InDealt, Deck: st.Deck, Positions: st.Positions, To: st.To, Cards: make([]int, len(st.Positions))}
	var learn []learning
	for i, p := range st.Positions {
		if st.To < 0 {
			in.Cards[i] = d.cards[p]
			continue
		}
		in.Cards[i] = -1
		d.to[p] = st.To
		learn = append(learn, learning{seat: st.To, deal: true, deckNo: st.Deck, pos: p, card: d.cards[p]})
	}
	return in, learn, nil
}

func (t *table) show(st engine.Step) (engine.Input, []learning, error) {
	d, err := t.deck(st.Deck)
	if err == nil {
		err = positions(d, st.Positions)
	}
	if err != nil {
		return engine.Input{}, nil, fmt.Errorf("show: %w", err)
	}
	in := engine.Input{Kind: engine.InShown, Seat: st.Seat, Deck: st.Deck, Positions: st.Positions, Cards: make([]int, len(st.Positions))}
	for i, p := range st.Positions {
		if d.to[p] != st.Seat || !t.seat(st.Seat) {
			return engine.Input{}, nil, fmt.Errorf("show: seat %d cannot show position %d of deck %d: it was not dealt to it alone", st.Seat, p, st.Deck)
		}
		in.Cards[i] = d.cards[p]
	}
	return in, nil, nil
}

// decide asks seat's player for its action on a copy of its game, and holds the action to the
// kit's limits; a breach is a *engine.Fault naming the seat.
func (t *table) decide(seat, hidden int) (engine.Action, error) {
	a, err := t.players[seat].Decide(t.ctx, t.seats[seat].Clone(), seat)
	if err != nil {
		return a, fmt.Errorf("seat %d's player: %w", seat, err)
	}
	switch {
	case len(a.Move) > engine.MaxMoveSize:
		return a, engine.Faultf(seat, "seat %d's move is %d bytes, more than %d", seat, len(a.Move), engine.MaxMoveSize)
	case len(a.Hidden) > hidden:
		return a, engine.Faultf(seat, "seat %d's move carries %d hidden values, more than %d", seat, len(a.Hidden), hidden)
	}
	for i, v := range a.Hidden {
		if len(v) > engine.MaxValueSize {
			return a, engine.Faultf(seat, "seat %d's hidden value %d is %d bytes, more than %d", seat, i, len(v), engine.MaxValueSize)
		}
	}
	return a, nil
}

// commit keeps seat's hidden values under new refs.
func (t *table) commit(seat int, values [][]byte) []int {
	var refs []int
	for _, v := range values {
		refs = append(refs, len(t.values))
		t.values, t.owners = append(t.values, clone(v)), append(t.owners, seat)
	}
	return refs
}

func (t *table) move(st engine.Step) (engine.Input, []learning, error) {
	if !t.seat(st.Seat) || st.Hidden < 0 || st.Hidden > engine.MaxHidden {
		return engine.Input{}, nil, fmt.Errorf("move: seat %d with up to %d hidden values", st.Seat, st.Hidden)
	}
	a, err := t.decide(st.Seat, st.Hidden)
	if err != nil {
		return engine.Input{}, nil, err
	}
	if len(a.Move) == 0 && len(a.Hidden) == 0 && !st.Respond {
		return engine.Input{}, nil, engine.Faultf(st.Seat, "seat %d passed, but the step is not a response", st.Seat)
	}
	refs := t.commit(st.Seat, a.Hidden)
	var learn []learning
	for i, ref := range refs {
		learn = append(learn, learning{seat: st.Seat, ref: ref, value: a.Hidden[i]})
	}
	return engine.Input{Kind: engine.InMove, Seat: st.Seat, Move: a.Move, Refs: refs}, learn, nil
}

func (t *table) choose(st engine.Step) (engine.Input, []learning, error) {
	in := engine.Input{Kind: engine.InChosen, Seats: st.Seats}
	for i, seat := range st.Seats {
		if !t.seat(seat) || slices.Contains(st.Seats[:i], seat) {
			return engine.Input{}, nil, fmt.Errorf("choose: seats %v are not distinct seats", st.Seats)
		}
		a, err := t.decide(seat, 1)
		if err != nil {
			return engine.Input{}, nil, err
		}
		if len(a.Hidden) != 1 || len(a.Move) != 0 {
			return engine.Input{}, nil, engine.Faultf(seat, "seat %d's choice is %d bytes of move and %d hidden values, want one hidden value", seat, len(a.Move), len(a.Hidden))
		}
		in.Refs = append(in.Refs, t.commit(seat, a.Hidden)...)
		in.Values = append(in.Values, a.Hidden[0])
	}
	return in, nil, nil
}
