package bot

import (
	"context"
	"fmt"

	"corruption/engine"
	"corruption/engine/corruption"
)

// Player makes b an engine.Player, for a table of the kit (package engine): it gives b its
// seat's View of the node's copy of the game and encodes the move b chooses with
// corruption.Game.Action, which refuses an illegal move rather than sign it.
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
	cg, ok := g.(*corruption.Game)
	if !ok {
		return engine.Action{}, fmt.Errorf("%s bot: the game is a %T, not Corruption", p.b.Name(), g)
	}
	if cg.State() == nil {
		return engine.Action{}, fmt.Errorf("%s bot: the game has not started", p.b.Name())
	}
	a, err := cg.Action(p.b.Decide(cg.View(seat)))
	if err != nil {
		return engine.Action{}, fmt.Errorf("%s bot at seat %d: %w", p.b.Name(), seat, err)
	}
	return a, nil
}
