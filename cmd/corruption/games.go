package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/engine/cmdkit"
	corruptiacmd "corruption/engine/corruptia/command"
	corruptioncmd "corruption/engine/corruption/command"
	kingdomscmd "corruption/engine/kingdoms/command"
	"corruption/ui"
	uigames "corruption/ui/games"
)

// A game is what the command line knows of one game of engine's registry, beyond its Rules:
// the game's own part (engine/cmdkit: its settings, bots, simulations, scripts, the narrator
// of its logs and the unit of its score), given by its package engine/NAME/command; and its
// page, its terminal and how its bots sit at a table, from ui/games, the one list of games
// that every front end reads. The next game plugs in with its line in ui/games and its line in
// games, below.
type game struct {
	*cmdkit.Game
	// board and text are the game's page and terminal, from ui/games; seatBot, when not nil,
	// is how a bot sits at a table of the game.
	board   ui.Board
	text    ui.TextBoard
	seatBot func(engine.Player) engine.Player
}

// simulation is a batch of engine-only games, as simulate's flags give it.
type simulation struct {
	cmdkit.Batch
	json, show bool
	record     string // the directory to write each game to as a script; "" for none
}

// games are the games this command plays, by id: each game of ui/games, with what the command
// line knows of it. TestGamesTable holds that none is missing.
var games = commandGames(corruptioncmd.Game, corruptiacmd.Game, kingdomscmd.Game)

// commandGames are the games of list that ui/games lists too, by id, with their boards.
func commandGames(list ...*cmdkit.Game) map[string]*game {
	m := map[string]*game{}
	for _, g := range list {
		if ug, ok := uigames.Lookup(g.ID); ok {
			m[g.ID] = &game{Game: g, board: ug.Board, text: ug.Text(), seatBot: ug.SeatBot}
		}
	}
	return m
}

// defaultGame is what --game is when not given.
const defaultGame = "corruption"

// playable lists the games both engine's registry and this command know.
func playable() []string {
	var ids []string
	for _, id := range engine.Games() {
		if _, ok := games[id]; ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// gameFlag is --game, of every command that plays, simulates or replays a game.
func gameFlag() cli.Flag {
	return &cli.StringFlag{Name: "game", Value: defaultGame, Usage: "the `GAME` to play: " + strings.Join(playable(), ", ")}
}

// gameOf is the game --game names, and its rules; an unknown one is a usage error.
func gameOf(c *cli.Context) (*game, engine.Rules, error) {
	id := c.String("game")
	if id == "" {
		id = defaultGame
	}
	ids := playable()
	if !slices.Contains(ids, id) {
		return nil, nil, usageError("unknown game %q: this build plays %s", id, joinOr(ids))
	}
	rules, err := engine.Lookup(id)
	if err != nil {
		return nil, nil, usageError("--game: %v", err)
	}
	return games[id], rules, nil
}

// joinOr is "a", "a or b", "a, b or c".
func joinOr(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

// botPlayer is a bot of game g as a player, the first kind, seeded.
func botPlayer(g *game, seed uint64) (engine.Player, error) {
	return levelPlayer(g, botChoice{}, seed)
}

// botChoice is the bot a person chose for the bots of this machine (--level, --think): a
// level, and a strong bot's budget. The zero value is the normal level at its default budget.
type botChoice struct {
	level string // easy, normal or hard ("": normal)
	think int    // the hard level's budget, in playouts a decision (0: the game's default)
}

// levels are the levels a person chooses from, easiest first, and the kind of bot each is in
// every game: easy (which a newcomer beats: each game's bot package says what it is), normal
// (the heuristic bot), hard (the strong bot, which searches).
var levels = []struct{ name, kind string }{{"easy", "easy"}, {"normal", "heuristic"}, {"hard", "strong"}}

// levelNames are the levels' names, easiest first (the lobby's choice).
func levelNames() []string {
	var out []string
	for _, l := range levels {
		out = append(out, l.name)
	}
	return out
}

// name is the choice's level by name ("normal" when none was given).
func (b botChoice) name() string {
	if b.level == "" {
		return "normal"
	}
	return b.level
}

// levelKind is the kind of bot of a level; an unknown level is an error that names the levels.
func levelKind(level string) (string, error) {
	if level == "" {
		level = "normal"
	}
	var names []string
	for _, l := range levels {
		if l.name == level {
			return l.kind, nil
		}
		names = append(names, l.name)
	}
	return "", fmt.Errorf("unknown level %q (want %s)", level, joinOr(names))
}

// levelFlags are --level and --think, of the commands that start bots for a person's table.
func levelFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "level", Value: "normal", Usage: "the bots' `LEVEL`: easy, normal or hard (hard searches: about a quarter of a second a move)"},
		&cli.IntFlag{Name: "think", Usage: "the hard bots' budget: `N` playouts a decision", DefaultText: "the game's default"},
	}
}

// readBotChoice reads --level and --think.
func readBotChoice(c *cli.Context) (botChoice, error) {
	b := botChoice{level: c.String("level"), think: c.Int("think")}
	if _, err := levelKind(b.level); err != nil {
		return b, usageError("--level: %v", err)
	}
	if b.think < 0 {
		return b, usageError("--think: %d, want 0 (the default) or more playouts", b.think)
	}
	return b, nil
}

// levelPlayer is a bot of game g at the level b chose, as a player, seeded.
func levelPlayer(g *game, b botChoice, seed uint64) (engine.Player, error) {
	kind, err := levelKind(b.level)
	if err != nil {
		return nil, err
	}
	p, err := g.bot(kind, seed, b.think)
	if err != nil {
		return nil, fmt.Errorf("%s bot: %w", g.ID, err)
	}
	return p, nil
}
