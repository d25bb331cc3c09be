package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/ui"
)

// A game is what the command line knows of one game of engine's registry, beyond its Rules:
// how its table settings are read from flags, its bots, its simulations, its scripts, how a
// saved log of it is told, and its page and terminal. The next game plugs in with one entry in
// games (and the import that registers its Rules).
type game struct {
	id string
	// flags are the game's table settings flags, with usage words prefixed by prefix (play
	// says "with --table: "); settings reads them into the game's canonical configuration,
	// with a usage error that names the flag.
	flags    func(prefix string) []cli.Flag
	settings func(c *cli.Context) ([]byte, error)
	// bots are the kinds of bot, the one a network table seats first; bot makes one, seeded,
	// as a player.
	bots []string
	bot  func(kind string, seed uint64) (engine.Player, error)
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
	// board and text are the game's page and terminal.
	board ui.Board
	text  ui.TextBoard
}

// simulation is a batch of engine-only games, as simulate's flags give it.
type simulation struct {
	games, players int
	config         []byte
	bots           []string // kinds, dealt to seats in turn
	seed           uint64
	json, show     bool
	record         string // the directory to write each game to as a script; "" for none
}

// games are the games this command plays, by id.
var games = map[string]*game{
	corruptionGame.id: corruptionGame,
	corruptiaGame.id:  corruptiaGame,
	kingdomsGame.id:   kingdomsGame,
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
	p, err := g.bot(g.bots[0], seed)
	if err != nil {
		return nil, fmt.Errorf("%s bot: %w", g.id, err)
	}
	return p, nil
}
