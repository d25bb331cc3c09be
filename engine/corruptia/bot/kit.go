package bot

import (
	"corruption/engine"
	"corruption/engine/botkit"
	"corruption/engine/corruptia"
)

// Player makes b an engine.Player, for a table of the kit: it gives b its seat's View of the
// node's copy of the game, and turns b's move or vote into an engine.Action with
// corruptia.Game.Action or VoteAction, which refuse an illegal move rather than sign it.
func Player(b Bot) engine.Player {
	return botkit.Player(b, "Corruptia", func(g *corruptia.Game, seat int) (engine.Action, error) {
		if g.Due().Kind == engine.StepChoose {
			return g.VoteAction(seat, b.Vote(g.View(seat)))
		}
		return g.Action(seat, b.Decide(g.View(seat)))
	})
}

// NewPlayer is a bot of the named kind, seeded, as an engine.Player.
func NewPlayer(kind string, seed uint64) (engine.Player, error) { return kinds.Player(kind, seed, 0) }

// ThinkingPlayer is NewPlayer with a strong bot's budget: think playouts a decision (0:
// ThinkPerson).
func ThinkingPlayer(kind string, seed uint64, think int) (engine.Player, error) {
	return kinds.Player(kind, seed, think)
}
