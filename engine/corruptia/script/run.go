package script

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// errStop: the script ends where the game waits for a draw.
var errStop = errors.New("the script stops here")

// runner replays a script on a hosted game; it is the host's Chance.
type runner struct {
	sc      *Script
	g       *corruptia.Game
	h       *corruptia.Host
	k       int // entries taken
	shuffle int // shuffles of the bill deck
	end     *End
}

// Run replays the script from the start, telling onEvent (if not nil) every event. It
// returns where the game stands when the script ends, with the entry that ended the game once
// it is over; at an entry the rules (or the game's order) refuse, it returns where the game
// stood before it and a *ReplayError "move K: ..." (K counts entries from 1), also in the
// Result. A configuration the game refuses returns no Result.
func (sc *Script) Run(onEvent func(engine.Event)) (*Result, error) {
	g, err := corruptia.NewGame(sc.Config, sc.Players, onEvent)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	r := &runner{sc: sc, g: g, h: corruptia.NewHost(g)}
	err = r.run()
	res := Summarize(g)
	if res.Finished {
		res.End = r.end
	}
	if err != nil {
		res.Error = err.(*ReplayError)
		return res, res.Error
	}
	return res, nil
}

// run replays the entries; its errors are *ReplayError.
func (r *runner) run() error {
	for {
		if err := r.h.Run(r); err != nil {
			if errors.Is(err, errStop) {
				return nil
			}
			return &ReplayError{Move: max(r.k, 1), Err: err}
		}
		st := r.g.Due()
		if st.Kind == engine.StepOver && r.end == nil {
			r.end = &End{Reason: EndLastRound, Move: r.k}
		}
		switch {
		case st.Kind == engine.StepOver && r.k < len(r.sc.Moves):
			return &ReplayError{Move: r.k + 1, Err: fmt.Errorf("the game is over, but the script has %s", words(r.sc.Moves[r.k]))}
		case r.k == len(r.sc.Moves) || st.Kind == engine.StepOver:
			return nil
		}
		e := r.sc.Moves[r.k]
		r.k++
		if err := r.decide(st, e); err != nil {
			return &ReplayError{Move: r.k, Err: err}
		}
	}
}

func (r *runner) decide(st engine.Step, e Entry) error {
	if st.Kind == engine.StepChoose {
		if e.Kind != EntryVotes {
			return fmt.Errorf("the game waits for the votes, not %s", words(e))
		}
		return r.h.Votes(e.Votes)
	}
	if e.Kind != EntryMove || e.Seat != st.Seat {
		return fmt.Errorf("the game waits for %s, not %s", r.g.Next(), words(e))
	}
	m, err := r.move(e)
	if err != nil {
		return err
	}
	return r.h.Move(e.Seat, m)
}

// move is e as the game's move: bills named by their slot in the hand, officials by their
// bill's index in the program.
func (r *runner) move(e Entry) (corruptia.Move, error) {
	m := corruptia.Move{Kind: e.Move, Target: e.Target, Demand: e.Demand, Take: e.Take}
	hand := r.g.View(e.Seat).Hand()
	slot := func(b corruptia.Bill) (int, error) {
		if i := slices.Index(hand, b); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("seat %d does not hold %s", e.Seat, b)
	}
	var err error
	switch e.Move {
	case corruptia.MoveBlackmail:
		if e.Card != "" {
			err = checkCard(e.Seat, e.Target, r.g.Players(), e.Card)
		}
	case corruptia.MoveDiscard, corruptia.MoveSwap:
		m.Slot, err = slot(e.Bill)
	case corruptia.MovePropose, corruptia.MoveAmend:
		p := &m.Proposal
		p.Bill, p.At = e.Bill, e.At
		if p.Slot, err = slot(e.Bill); err != nil {
			return m, err
		}
		prog := r.g.View(-1).Program
		for i, w := range e.Workers {
			if w.Employee {
				p.Workers[i] = corruptia.Worker{Employee: true, From: w.Seat}
				continue
			}
			k := prog.Index(w.Bill)
			if k < 0 {
				return m, fmt.Errorf("%s: %s is not in the program", w, w.Bill)
			}
			p.Workers[i] = corruptia.Worker{Income: w.Income, From: k}
		}
	}
	return m, err
}

// Order puts the decks in the script's order: the bill deck as "deck" says, the rebuilt deck
// as "redeck" says (by default the rest of the deck, then the bills sent back), the opening
// discards as "pile" says (by default in turn order).
func (r *runner) Order(deck int, cards []int) error {
	switch deck {
	case corruptia.DeckBills:
		if r.shuffle++; r.shuffle > 1 {
			return errors.New("the playable deck ran out before three starting bills fit, and a script holds one deck order")
		}
		for i, b := range r.sc.Deck {
			cards[i] = int(b)
		}
	case corruptia.DeckRebuilt:
		if r.sc.Redeck == nil {
			k := len(r.g.Returned())
			copy(cards, append(slices.Clone(cards[k:]), cards[:k]...))
			return nil
		}
		want, got := slices.Sorted(slices.Values(cards)), make([]int, len(r.sc.Redeck))
		for i, b := range r.sc.Redeck {
			got[i] = int(b)
		}
		if !slices.Equal(want, slices.Sorted(slices.Values(got))) {
			return fmt.Errorf("redeck: %d bills, not the %d of the rest of the deck and the bills sent back", len(got), len(cards))
		}
		copy(cards, got)
	case corruptia.DeckPile:
		if r.sc.Pile == nil {
			return nil
		}
		want, got := slices.Sorted(slices.Values(cards)), make([]int, len(r.sc.Pile))
		for i, b := range r.sc.Pile {
			got[i] = int(b)
		}
		if !slices.Equal(want, slices.Sorted(slices.Values(got))) {
			return fmt.Errorf("pile: %s, not the opening discards %s", billWords(r.sc.Pile), billWords(toBills(cards)))
		}
		copy(cards, got)
	}
	return nil
}

func toBills(cards []int) []corruptia.Bill {
	bs := make([]corruptia.Bill, len(cards))
	for i, c := range cards {
		bs[i] = corruptia.Bill(c)
	}
	return bs
}

func billWords(bs []corruptia.Bill) string { return strings.Join(names(bs), ", ") }

// Int takes a draw from the script: the first player from "first", a die or a toss from the
// next entry.
func (r *runner) Int(d corruptia.Draw, n int) (int, error) {
	if d == corruptia.DrawFirst {
		return r.sc.First, nil
	}
	if r.k == len(r.sc.Moves) {
		return 0, errStop
	}
	e := r.sc.Moves[r.k]
	r.k++
	switch {
	case d == corruptia.DrawDie && e.Kind == EntryDie:
		return int(e.Die), nil
	case d == corruptia.DrawToss && e.Kind == EntryToss:
		if e.Approve {
			return 1, nil
		}
		return 0, nil
	case d == corruptia.DrawDie:
		return 0, fmt.Errorf("the game rolls the people's die, not %s", words(e))
	}
	return 0, fmt.Errorf("the game tosses the presidential token on a tied vote, not %s", words(e))
}

// words names an entry for errors: "seat 1's offer", "the votes".
func words(e Entry) string {
	switch e.Kind {
	case EntryVotes:
		return "the votes"
	case EntryDie:
		return "a roll of the die"
	case EntryToss:
		return "a toss"
	}
	return fmt.Sprintf("seat %d's %s", e.Seat, e.Move)
}

// Follow replays the script and returns seat's own copy of the game where the script stops: the
// copy seat's node would hold, fed every input of the table in order and told only the bills
// dealt to seat, with its events told to onEvent (when not nil). A seat below 0 is the seat the
// game then waits for (the first of a vote's seats; seat 0 once the game is over). It returns
// the seat too, and the illegal entry's *ReplayError, if any.
func (sc *Script) Follow(seat int, onEvent func(engine.Event)) (*corruptia.Game, int, error) {
	if seat < 0 {
		res, err := sc.Run(nil)
		if res == nil {
			return nil, 0, err
		}
		seat = 0
		if res.Next != nil {
			seat = max(res.Next.Seat, 0)
		}
	}
	if seat >= sc.Players {
		return nil, 0, fmt.Errorf("there is no seat %d at a table of %d", seat, sc.Players)
	}
	g, err := corruptia.NewGame(sc.Config, sc.Players, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("config: %w", err)
	}
	c, err := corruptia.NewGame(sc.Config, sc.Players, onEvent)
	if err != nil {
		return nil, 0, fmt.Errorf("config: %w", err)
	}
	r := &runner{sc: sc, g: g, h: corruptia.NewHost(g)}
	var copyErr error
	r.h.OnInput = func(st engine.Step, in engine.Input) {
		if copyErr != nil {
			return
		}
		if copyErr = c.Apply(in); copyErr != nil {
			return
		}
		if st.Kind == engine.StepDeal && st.To == seat {
			for _, p := range st.Positions {
				if copyErr = c.LearnCard(st.Deck, p, r.h.Deck(st.Deck)[p]); copyErr != nil {
					return
				}
			}
		}
	}
	err = r.run()
	if copyErr != nil {
		return nil, seat, fmt.Errorf("seat %d's copy: %w", seat, copyErr)
	}
	return c, seat, err
}
