package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/ui"
	uigames "corruption/ui/games"
)

// A game is what the command line knows of one game of engine's registry, beyond its Rules:
// how its table settings are read from flags, its bots, its simulations, its scripts, how a
// saved log of it is told; its page and terminal come from ui/games, the one list of games
// that every front end reads. The next game plugs in with its line in ui/games and its entry
// here.
type game struct {
	id string
	// flags are the game's table settings flags, with usage words prefixed by prefix (play
	// says "with --table: "); settings reads them into the game's canonical configuration,
	// with a usage error that names the flag.
	flags    func(prefix string) []cli.Flag
	settings func(c *cli.Context) ([]byte, error)
	// bots are the kinds of bot simulate plays by default, the one a network table seats
	// first; bot makes one of any kind (levels' too), seeded, as a player: think is a strong
	// bot's budget in playouts a decision (0: its default for a person's table).
	bots []string
	bot  func(kind string, seed uint64, think int) (engine.Player, error)
	// simulate plays a batch of engine-only games among bots and prints the results.
	simulate func(w, errw io.Writer, sim simulation) error
	// replayScript replays a scenario script (data), telling the game to tell as it goes
	// when tell is not nil. It returns where the game stands, as replay --json prints it (the
	// illegal move that stopped it included), what the game waits for when the script stops
	// before the end ("" once it is over), and the illegal move's error; a script that is
	// malformed or that the game cannot set up gives no result (nil), only its error.
	replayScript func(data []byte, tell io.Writer) (result any, waits string, err error)
	// record plays game i of a simulation's batch again, as simulate played it, and writes it
	// as a scenario script.
	record func(sim simulation, i int) ([]byte, error)
	// narrator tells the events of a table of config and players as its log is replayed.
	narrator func(w io.Writer, config []byte, players int) func(engine.Event)
	// score is a score in the game's unit.
	score func(int) string
	// board and text are the game's page and terminal, from ui/games.
	board ui.Board
	text  ui.TextBoard
}

// simulation is a batch of engine-only games, as simulate's flags give it.
type simulation struct {
	games, players int
	config         []byte
	bots           []string // kinds, dealt to seats in turn
	think          int      // a strong bot's budget, in playouts a decision (0: simulate's default)
	seed           uint64
	json, show     bool
	record         string // the directory to write each game to as a script; "" for none
}

// games are the games this command plays, by id: each game of ui/games, with what the command
// line knows of it. TestEveryGameOnTheCommandLine holds that none is missing.
var games = commandGames(corruptionGame, corruptiaGame, kingdomsGame)

func commandGames(list ...*game) map[string]*game {
	m := map[string]*game{}
	for _, g := range list {
		if ug, ok := uigames.Lookup(g.id); ok {
			g.board, g.text = ug.Board, ug.Text()
			m[g.id] = g
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

// settingsFlags are the table settings flags of every game, once each.
func settingsFlags(prefix string) []cli.Flag {
	var out []cli.Flag
	seen := map[string]bool{}
	for _, id := range playable() {
		for _, f := range games[id].flags(prefix) {
			if name := f.Names()[0]; !seen[name] {
				seen[name] = true
				out = append(out, f)
			}
		}
	}
	return out
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

// readSettings is the game's configuration from its flags, checked for a table of players.
func readSettings(c *cli.Context, g *game, rules engine.Rules, players int) ([]byte, error) {
	if lo, hi := rules.Players(); players < lo || players > hi {
		return nil, usageError("--players: %d, want %d to %d", players, lo, hi)
	}
	config, err := g.settings(c)
	if err != nil {
		return nil, err
	}
	if err := rules.CheckConfig(config, players); err != nil {
		return nil, usageError("%s: %v", rules.Name(), err)
	}
	return config, nil
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
		return nil, fmt.Errorf("%s bot: %w", g.id, err)
	}
	return p, nil
}
