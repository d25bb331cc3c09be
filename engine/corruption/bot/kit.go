package bot

import (
	"errors"

	"corruption/engine"
	"corruption/engine/botkit"
	"corruption/engine/corruption"
)

// Player makes b an engine.Player, for a table of the kit (package engine): it gives b its
// seat's View of the node's copy of the game and encodes the move b chooses with
// corruption.Game.Action, which refuses an illegal move rather than sign it.
func Player(b Bot) engine.Player {
	return botkit.Player(b, "Corruption", func(g *corruption.Game, seat int) (engine.Action, error) {
		if g.State() == nil {
			return engine.Action{}, errors.New("the game has not started")
		}
		return g.Action(b.Decide(g.View(seat)))
	})
}

// NewPlayer is a bot of the named kind, seeded, as an engine.Player.
func NewPlayer(kind string, seed uint64) (engine.Player, error) { return kinds.Player(kind, seed, 0) }

// ThinkingPlayer is NewPlayer with a strong bot's budget: think playouts a decision (0:
// ThinkPerson).
func ThinkingPlayer(kind string, seed uint64, think int) (engine.Player, error) {
	return kinds.Player(kind, seed, think)
}
