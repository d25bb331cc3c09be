// Package games is the one list of the games this project plays, as every front end reads it
// (the laptop's command, the phone's seat, the page the laptop serves to phones): each game's
// page and terminal board, its rules (registered with engine by the board's import of its
// game) and its stand-in (registered by its bot package's import). A new game is its own
// packages (engine/NAME with bot/, script/ and command/, ui/NAME), one line here and one in
// cmd/corruption/games.go (docs/ARCHITECTURE.md, "Adding a game").
package games

import (
	"fmt"

	"corruption/engine"
	"corruption/ui"
	corruptiaboard "corruption/ui/corruptia"
	corruptionboard "corruption/ui/corruption"
	kingdomsboard "corruption/ui/kingdoms"

	// Each game's stand-in, for the seats whose players left (engine.RegisterStandIn).
	_ "corruption/engine/corruptia/bot"
	_ "corruption/engine/corruption/bot"
	_ "corruption/engine/kingdoms/bot"
)

// Game is one game as a front end shows it.
type Game struct {
	Board ui.Board            // the page's
	Text  func() ui.TextBoard // a terminal's, fresh (a board may keep what it last showed)
	// SeatBot, when not nil, is how a bot sits at a table of the game, as its board asks (a
	// bot of Corrupted Kingdoms answers the response rounds after a fixed delay, as a person's
	// page does); nil seats a bot as it is.
	SeatBot func(engine.Player) engine.Player
}

// ID is the game's id, as engine's registry knows it.
func (g Game) ID() string { return g.Board.Game() }

// all are the games, in the order a lobby lists them.
var all = []Game{
	{Board: corruptionboard.Board{}, Text: func() ui.TextBoard { return corruptionboard.Board{} }},
	// The terminal's answers to a chaos card leave AnswerDelay after the ask, as the page's;
	// a bot's leave BotAnswerDelay after it.
	{Board: kingdomsboard.Board{}, Text: func() ui.TextBoard { return &kingdomsboard.TextBoard{} }, SeatBot: kingdomsboard.SeatBot},
	{Board: corruptiaboard.Board{}, Text: func() ui.TextBoard { return corruptiaboard.Board{} }},
}

// All are the games, in the order a lobby lists them.
func All() []Game { return append([]Game(nil), all...) }

// Boards are every game's page board, in that order.
func Boards() []ui.Board {
	boards := make([]ui.Board, len(all))
	for i, g := range all {
		boards[i] = g.Board
	}
	return boards
}

// Lookup finds a game by its id.
func Lookup(id string) (Game, bool) {
	for _, g := range all {
		if g.ID() == id {
			return g, true
		}
	}
	return Game{}, false
}

// Check says whether every game is whole: its board's rules are in engine's registry and it
// has a stand-in (a table that plays on when a player leaves needs one).
func Check() error {
	for _, g := range all {
		if _, err := engine.Lookup(g.ID()); err != nil {
			return err
		}
		if engine.LookupStandIn(g.ID()) == nil {
			return fmt.Errorf("game %s has no stand-in registered", g.ID())
		}
	}
	return nil
}
