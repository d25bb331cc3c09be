package script

import (
	"errors"
	"fmt"

	"context"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/enginetest"
)

// Follow replays the script at a table of the kit (engine/enginetest: one copy of the game a
// seat, each told only what its seat may see) and returns seat's own copy where the script
// stops: its face-down cards known, the others' hidden until revealed, as seat's node would hold
// it. The events are the table's public ones, told to onEvent (when not nil). A seat below 0 is
// the seat the game then waits for (seat 0 once the game is over). It returns the seat too, and
// the illegal move's *ReplayError, if any.
func (sc *Script) Follow(seat int, onEvent func(engine.Event)) (*corruption.Game, int, error) {
	cfg := sc.Config
	if seat >= cfg.Players {
		return nil, 0, fmt.Errorf("there is no seat %d at a table of %d", seat, cfg.Players)
	}
	f := &follower{sc: sc}
	players := make([]engine.Player, cfg.Players)
	for i := range players {
		players[i] = f
	}
	opts := []enginetest.Option{enginetest.WithChance(f), enginetest.Watch(f.watch)}
	if onEvent != nil {
		opts = append(opts, enginetest.Events(onEvent))
	}
	res, err := enginetest.Play(corruption.Rules{}, corruption.EncodeConfig(cfg.Variant, cfg.LittleBlackBook), players, 0, opts...)
	var copies []engine.Game
	switch {
	case err == nil:
		copies, f.due = res.Seats, 0
	case errors.Is(err, errScriptEnd):
		copies = f.copies
	case f.bad != nil:
		return nil, 0, f.bad
	default:
		return nil, 0, err
	}
	if seat < 0 {
		seat = f.due
	}
	return copies[seat].(*corruption.Game), seat, nil
}

// errScriptEnd stops the table where the script ends.
var errScriptEnd = errors.New("the script ends here")

// follower is the script at the kit's table: every seat's player, and its chance.
type follower struct {
	sc     *Script
	k      int           // moves played
	due    int           // the seat due when the script ended
	copies []engine.Game // every seat's copy, once the script's last move is played
	bad    *ReplayError
}

// Decide plays the script's next move, which must be seat's; past its end, it stops the table.
func (f *follower) Decide(_ context.Context, g engine.Game, seat int) (engine.Action, error) {
	if f.k == len(f.sc.Moves) {
		f.due = seat
		return engine.Action{}, errScriptEnd
	}
	m := f.sc.Moves[f.k]
	f.k++
	if m.Seat != seat {
		f.bad = &ReplayError{Move: f.k, Err: fmt.Errorf("the game waits for seat %d, not seat %d", seat, m.Seat)}
		return engine.Action{}, f.bad
	}
	a, err := g.(*corruption.Game).Action(m)
	if err != nil {
		f.bad = &ReplayError{Move: f.k, Err: err}
		return engine.Action{}, f.bad
	}
	return a, nil
}

// watch keeps every seat's copy once the script's moves are all played.
func (f *follower) watch(t enginetest.Turn) error {
	if f.k == len(f.sc.Moves) {
		f.copies = f.copies[:0]
		for _, g := range t.Seats {
			f.copies = append(f.copies, g.Clone())
		}
	}
	return nil
}

// Order lays the contract deck in the script's order, top first.
func (f *follower) Order(deck int, cards []int) error {
	if len(f.sc.Config.Deck) != len(cards) {
		return fmt.Errorf("the script's deck has %d contracts, the table's %d", len(f.sc.Config.Deck), len(cards))
	}
	for i, c := range f.sc.Config.Deck {
		cards[i] = int(c)
	}
	return nil
}

// Int draws the script's first player.
func (f *follower) Int(n int) (int, error) { return f.sc.Config.First, nil }
