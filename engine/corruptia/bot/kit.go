package bot

import (
	"context"
	"fmt"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// Player makes b an engine.Player, for a table of the kit: it gives b its seat's View of the
// node's copy of the game, and turns b's move or vote into an engine.Action with
// corruptia.Game.Action or VoteAction, which refuse an illegal move rather than sign it.
func Player(b Bot) engine.Player {
	if s, ok := b.(*Strong); ok {
		s.cfg.Deadline = TimeCap
	}
	return player{b}
}

type player struct{ b Bot }

func (p player) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if err := ctx.Err(); err != nil {
		return engine.Action{}, err
	}
	cg, ok := g.(*corruptia.Game)
	if !ok {
		return engine.Action{}, fmt.Errorf("%s bot: the game is a %T, not Corruptia", p.b.Name(), g)
	}
	var a engine.Action
	var err error
	if cg.Due().Kind == engine.StepChoose {
		a, err = cg.VoteAction(seat, p.b.Vote(cg.View(seat)))
	} else {
		a, err = cg.Action(seat, p.b.Decide(cg.View(seat)))
	}
	if err != nil {
		return engine.Action{}, fmt.Errorf("%s bot at seat %d: %w", p.b.Name(), seat, err)
	}
	return a, nil
}

// NewPlayer is a bot of the named kind, seeded, as an engine.Player.
func NewPlayer(kind string, seed uint64) (engine.Player, error) {
	b, err := New(kind, seed)
	if err != nil {
		return nil, err
	}
	return Player(b), nil
}
