package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"corruption/engine/cmdkit"
)

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:      "simulate",
		Usage:     "play many games among bots, engine only, and compare the bots",
		ArgsUsage: " ",
		Description: "Plays N games among bots on this machine (no network, no crypto) and prints each\n" +
			"bot kind's and each seat's win rate and mean score, and games per second. Bot kinds are\n" +
			"dealt to seats in turn, and the seating rotates every game so every kind plays from\n" +
			"every seat. A win shared by k players counts 1/k. With --record DIR, each game is also\n" +
			"written to DIR as a scenario script, game-1.json (the game --show tells) to game-N.json,\n" +
			"that replay --script replays to the same end.\n\n" +
			"Examples:\n" +
			"  corruption simulate --games 1 --players 4 --show         # watch one game\n" +
			"  corruption simulate --games 10000 --players 5 --bots heuristic,random\n" +
			"  corruption simulate --game kingdoms --games 20 --players 3 --record games/\n" +
			"  corruption simulate --games 100 --bots strong,heuristic,heuristic,heuristic   # the searching bot",
		Flags: append([]cli.Flag{
			gameFlag(),
			&cli.IntFlag{Name: "games", Value: 1000, Usage: "how many games to play"},
			&cli.IntFlag{Name: "players", Value: 4, Usage: "players at the table, 3 to 7 for Corruption"},
			&cli.StringFlag{Name: "bots", Usage: "bot `KINDS`, comma-separated, dealt to seats in turn (" + defaultGame + ": " +
				strings.Join(games[defaultGame].Bots, ", ") + ")", DefaultText: strings.Join(games[defaultGame].Bots, ",")},
			&cli.IntFlag{Name: "think", Usage: "a strong bot's budget: `N` playouts a decision", DefaultText: "the game's default for simulate"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed for decks, first players and bots: the same seed plays the same games"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as one JSON object"},
			&cli.BoolFlag{Name: "show", Usage: "print the first game in full, readably"},
			&cli.StringFlag{Name: "record", Usage: "write each game to `DIR` as a scenario script (game-1.json ...), for replay --script"},
		}, settingsFlags("")...),
		Action: simulate,
	}
}

func simulate(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("simulate takes no arguments (got %q); see corruption simulate --help", c.Args().First())
	}
	g, rules, err := gameOf(c)
	if err != nil {
		return err
	}
	sim := simulation{Batch: cmdkit.Batch{Games: c.Int("games"), Players: c.Int("players"), Think: c.Int("think"), Seed: c.Uint64("seed")},
		json: c.Bool("json"), show: c.Bool("show"), record: c.String("record")}
	if sim.Games < 1 {
		return usageError("--games: %d, want at least 1", sim.Games)
	}
	if sim.Think < 0 {
		return usageError("--think: %d, want 0 (the default) or more playouts", sim.Think)
	}
	if sim.Config, err = readSettings(c, g, rules, sim.Players); err != nil {
		return err
	}
	if sim.Bots, err = readBotKinds(c.String("bots"), g); err != nil {
		return err
	}
	if c.IsSet("record") {
		if sim.record == "" {
			return usageError("--record: give the directory to write the games to")
		}
		if err := os.MkdirAll(sim.record, 0o755); err != nil {
			return cli.Exit(fmt.Sprintf("--record: %v", err), 1)
		}
	}
	if err := g.simulate(c.App.Writer, c.App.ErrWriter, sim); err != nil {
		return cli.Exit(err.Error(), 1)
	}
	if sim.record == "" {
		return nil
	}
	first, err := recordGames(g, sim)
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	if !sim.json {
		fmt.Fprintf(c.App.Writer, "%d %s recorded in %s (replay the first with: corruption replay --game %s --script %s)\n",
			sim.Games, pluralWord(sim.Games, "game", "games"), sim.record, g.ID, first)
	}
	return nil
}

// recordGames writes each game of the simulation to its directory as a scenario script,
// game-1.json to game-N.json (N's digits each: game-01.json for 10 games and more), and says
// where the first is.
func recordGames(g *game, sim simulation) (string, error) {
	width := len(strconv.Itoa(sim.Games))
	var first string
	for i := range sim.Games {
		data, err := g.Batches.Record(sim.Batch, i)
		if err != nil {
			return "", fmt.Errorf("--record: game %d: %v", i+1, err)
		}
		path := filepath.Join(sim.record, fmt.Sprintf("game-%0*d.json", width, i+1))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return "", fmt.Errorf("--record: %v", err)
		}
		if i == 0 {
			first = path
		}
	}
	return first, nil
}

// readBotKinds reads --bots: kinds of the game's bots, comma-separated (default: every kind).
func readBotKinds(list string, g *game) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return g.Bots, nil
	}
	var kinds []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if _, err := g.bot(k, 0, 0); err != nil {
			return nil, usageError("--bots: %v", err)
		}
		kinds = append(kinds, k)
	}
	return kinds, nil
}
