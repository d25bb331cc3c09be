package protocol

import (
	"errors"
	"fmt"

	"corruption/crypto"
	"corruption/engine"
)

// The step machine. While the game plays, the table performs the step the game's Due names:
// it knows which seats write for it, in which order and which kind of entry; it collects their
// entries, checks each on arrival, and when the last has come it hands the game the result as
// one Input. A step no seat writes for (a deck built from known cards) is performed at once.

// stepState is the step under way and what its writers have written so far.
type stepState struct {
	engine.Step
	at      uint64 // the seq of the step's first entry: every proof of the step is bound to it
	writers []int  // who writes, in order (a choice: its seats twice, to commit then to open)
	turn    int    // how many have written

	reveals []crypto.RandomReveal // StepRandom
	shares  [][]*crypto.Share     // StepDeal, StepShow: by turn, by position
	refs    []int                 // StepChoose: the refs committed, by seat of Seats
	values  [][]byte              // StepOpen, StepChoose: opened values
}

// due is the seat that writes next and the kind it writes.
func (s *stepState) due() (int, Kind) {
	seat := s.writers[s.turn]
	switch s.Kind {
	case engine.StepMove:
		return seat, KindMove
	case engine.StepRandom:
		return seat, KindRandom
	case engine.StepShuffle:
		return seat, KindShuffle
	case engine.StepDeal, engine.StepShow:
		return seat, KindShares
	case engine.StepOpen:
		return seat, KindOpen
	case engine.StepAnswer:
		return seat, KindAnswer
	case engine.StepChoose:
		if s.turn < len(s.Seats) {
			return seat, KindCommit
		}
		return seat, KindOpen
	}
	return -1, 0
}

// addReveal, addShares, addRef and addValue keep what a writer of the step wrote, in turn.
func (s *stepState) addReveal(v crypto.RandomReveal) { s.reveals = append(s.reveals, v) }
func (s *stepState) addShares(sh []*crypto.Share)    { s.shares = append(s.shares, sh) }
func (s *stepState) addRef(ref int)                  { s.refs = append(s.refs, ref) }
func (s *stepState) addValue(v []byte)               { s.values = append(s.values, v) }

// openRefs are the refs an open entry must open now.
func (s *stepState) openRefs() []int {
	if s.Kind == engine.StepChoose {
		return []int{s.refs[s.turn-len(s.Seats)]}
	}
	return s.Refs
}

// label binds a step's proofs to it: its kind and the seq of its first entry.
func (s *stepState) label() string { return fmt.Sprintf("%s %d", s.Kind, s.at) }

// stepCtx is the context of the step's proofs.
func (t *Table) stepCtx() crypto.Context { return t.ctx.WithStep(t.step.label()) }

// Step labels outside the game's steps.
const (
	stepKeys   = "keys"
	stepHidden = "hidden values" // commitments to hidden values: bound to seat and ref instead
)

// settle asks the game what it waits for after entry e, performs at once the steps that need
// no seat, and starts the next step that does (its first entry will be e.Seq+1). It ends in
// sign-off when the game is over, or in a verdict when the game asks for something impossible.
func (t *Table) settle(e *Entry) {
	for guard := 0; guard < 1000; guard++ {
		st := t.game.Due()
		switch st.Kind {
		case engine.StepOver:
			t.enter(stageSignOff)
			return
		case engine.StepBuild:
			if err := t.build(st); err != nil {
				t.broken(e, "the game asked to build deck %d: %v", st.Deck, err)
				return
			}
			in := engine.Input{Kind: engine.InBuilt, Deck: st.Deck}
			if err := t.game.Apply(in); err != nil {
				t.broken(e, "the game refused the deck %d it asked for: %v", st.Deck, err)
				return
			}
			t.recordInput(e, in)
			if t.verdict != nil {
				return
			}
			continue
		}
		writers, err := t.writersOf(st)
		if err != nil {
			t.broken(e, "the game asked for a step the table cannot perform (%s): %v", st.Kind, err)
			return
		}
		t.step = stepState{Step: st, at: e.Seq + 1, writers: writers}
		return
	}
	t.broken(e, "the game built decks without end")
}

// writersOf checks a step and lists the seats that write for it.
func (t *Table) writersOf(st engine.Step) ([]int, error) {
	n := len(t.keys)
	seat := func(s int) error {
		if s < 0 || s >= n {
			return fmt.Errorf("seat %d is not at this table of %d", s, n)
		}
		return nil
	}
	all := func() []int {
		w := make([]int, n)
		for i := range w {
			w[i] = i
		}
		return w
	}
	switch st.Kind {
	case engine.StepMove:
		if st.Hidden < 0 || st.Hidden > engine.MaxHidden {
			return nil, fmt.Errorf("a move with %d hidden values", st.Hidden)
		}
		return []int{st.Seat}, seat(st.Seat)
	case engine.StepRandom:
		if len(st.Ranges) == 0 || len(st.Ranges) > 64 {
			return nil, fmt.Errorf("%d ranges", len(st.Ranges))
		}
		for _, r := range st.Ranges {
			if r < 1 {
				return nil, fmt.Errorf("a range of %d", r)
			}
		}
		if t.draws >= engine.MaxRandomDraws {
			return nil, fmt.Errorf("more than %d random draws", engine.MaxRandomDraws)
		}
		return all(), nil
	case engine.StepShuffle:
		if err := t.checkDeck(st.Deck); err != nil {
			return nil, err
		}
		return all(), nil
	case engine.StepDeal:
		if err := t.checkPositions(st.Deck, st.Positions); err != nil {
			return nil, err
		}
		if st.To < 0 {
			return all(), nil
		}
		if err := seat(st.To); err != nil {
			return nil, err
		}
		var w []int
		for s := range n {
			if s != st.To {
				w = append(w, s)
			}
		}
		return w, nil
	case engine.StepShow:
		if err := seat(st.Seat); err != nil {
			return nil, err
		}
		if err := t.checkPositions(st.Deck, st.Positions); err != nil {
			return nil, err
		}
		for _, p := range st.Positions {
			if d := t.dealt[engine.DeckCard{Deck: st.Deck, Pos: p}]; d == nil || d.to != st.Seat {
				return nil, fmt.Errorf("card %d of deck %d was not dealt to seat %d alone", p, st.Deck, st.Seat)
			}
		}
		return []int{st.Seat}, nil
	case engine.StepOpen:
		if err := seat(st.Seat); err != nil {
			return nil, err
		}
		if len(st.Refs) == 0 || len(st.Refs) > 255 {
			return nil, fmt.Errorf("%d hidden values to open", len(st.Refs))
		}
		for _, r := range st.Refs {
			if err := t.checkRef(r, st.Seat); err != nil {
				return nil, err
			}
		}
		return []int{st.Seat}, nil
	case engine.StepAnswer:
		if err := seat(st.Seat); err != nil {
			return nil, err
		}
		if err := seat(st.To); err != nil || st.To == st.Seat {
			return nil, fmt.Errorf("an answer from seat %d to seat %d", st.Seat, st.To)
		}
		if len(st.Refs) != 1 {
			return nil, fmt.Errorf("an answer about %d hidden values", len(st.Refs))
		}
		return []int{st.Seat}, t.checkRef(st.Refs[0], st.Seat)
	case engine.StepChoose:
		if len(st.Seats) == 0 {
			return nil, errors.New("a choice with no seat")
		}
		seen := map[int]bool{}
		for _, s := range st.Seats {
			if err := seat(s); err != nil || seen[s] {
				return nil, fmt.Errorf("seat %d listed twice or not at the table", s)
			}
			seen[s] = true
		}
		return append(append([]int(nil), st.Seats...), st.Seats...), nil
	}
	return nil, fmt.Errorf("unknown step kind %d", st.Kind)
}

// applyStep applies an entry written for the step under way, and completes the step with its
// last entry.
func (t *Table) applyStep(e *Entry) error {
	var err error
	switch e.Kind {
	case KindRandom:
		err = t.applyRandom(e)
	case KindShuffle:
		err = t.applyShuffle(e)
	case KindShares:
		err = t.applyShares(e)
	case KindMove:
		return t.applyMove(e) // one entry: completes by itself
	case KindOpen:
		err = t.applyOpen(e)
	case KindAnswer:
		return t.applyAnswer(e)
	case KindCommit:
		err = t.applyCommit(e)
	default:
		err = fmt.Errorf("unknown entry kind %s", e.Kind)
	}
	if err != nil {
		return err
	}
	t.step.turn++
	if t.step.turn < len(t.step.writers) {
		return nil
	}
	in, err := t.result()
	if err != nil {
		return err
	}
	return t.feed(e, in)
}

// result is the Input a step gives once every writer has written.
func (t *Table) result() (engine.Input, error) {
	st := t.step
	switch st.Kind {
	case engine.StepRandom:
		return t.drawResult()
	case engine.StepShuffle:
		return engine.Input{Kind: engine.InShuffled, Deck: st.Deck}, nil
	case engine.StepDeal:
		return t.dealResult()
	case engine.StepShow:
		return t.showResult()
	case engine.StepOpen:
		return engine.Input{Kind: engine.InOpened, Seat: st.Seat, Refs: st.Refs, Values: st.values}, nil
	case engine.StepChoose:
		return engine.Input{Kind: engine.InChosen, Seats: st.Seats, Refs: st.refs, Values: st.values}, nil
	}
	return engine.Input{}, fmt.Errorf("step %s has no result", st.Kind)
}

// feed gives the game a step's result, which entry e completed, and starts the next step. A
// refusal names a seat: e's author (the entry is a cheat), another seat (convicted by e, which
// stays in the log), or nobody (the game is broken).
func (t *Table) feed(e *Entry, in engine.Input) error {
	err := t.game.Apply(in)
	var f *engine.Fault
	if err != nil && errors.As(err, &f) && f.Seat >= 0 && t.open[f.Seat] != nil {
		// An open seat's value the game refuses: its stand-in's in its place (convict.go).
		if r, ok := t.replaced(in, f.Seat); ok {
			in, err = r, t.game.Apply(r)
		}
	}
	if err != nil {
		switch {
		case !errors.As(err, &f) || f.Seat < 0:
			t.broken(e, "the game refused the result of its %s step: %v", t.step.Kind, err)
			return nil
		case f.Seat == e.Seat:
			return err
		case t.replaceable() && t.convictable(f.Seat) == "":
			// Another seat's value, which e's opening showed the game refuses: that seat is
			// convicted, and the choice is fed once it is open, its value replaced (convict.go).
			t.holdIn(in)
			t.convict1(Conviction{Seat: f.Seat, Seq: e.Seq, What: KindCommit.String(), Reason: err.Error()})
			return nil
		default:
			t.convict(f.Seat, e, "%v", err)
			return nil
		}
	}
	t.recordInput(e, in)
	if t.verdict != nil {
		return nil
	}
	t.learnResult(in)
	t.settle(e)
	return nil
}
