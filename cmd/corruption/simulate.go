package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:      "simulate",
		Usage:     "play many games among bots, engine only, and compare the bots",
		ArgsUsage: " ",
		Description: "Plays N games among bots on this machine (no network, no crypto) and prints each\n" +
			"bot kind's and each seat's win rate and mean score, and games per second. Bot kinds are\n" +
			"dealt to seats in turn, and the seating rotates every game so every kind plays from\n" +
			"every seat. A win shared by k players counts 1/k.\n\n" +
			"Examples:\n" +
			"  corruption simulate --games 1 --players 4 --show         # watch one game\n" +
			"  corruption simulate --games 10000 --players 5 --bots heuristic,random\n" +
			"  corruption simulate --games 100 --bots strong,heuristic,heuristic,heuristic   # the searching bot",
		Flags: append([]cli.Flag{
			gameFlag(),
			&cli.IntFlag{Name: "games", Value: 1000, Usage: "how many games to play"},
			&cli.IntFlag{Name: "players", Value: 4, Usage: "players at the table, 3 to 7 for Corruption"},
			&cli.StringFlag{Name: "bots", Usage: "bot `KINDS`, comma-separated, dealt to seats in turn (" + defaultGame + ": " +
				strings.Join(games[defaultGame].bots, ", ") + ")", DefaultText: strings.Join(games[defaultGame].bots, ",")},
			&cli.IntFlag{Name: "think", Usage: "a strong bot's budget: `N` playouts a decision", DefaultText: "the game's default for simulate"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed for decks, first players and bots: the same seed plays the same games"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as one JSON object"},
			&cli.BoolFlag{Name: "show", Usage: "print the first game in full, readably"},
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
	sim := simulation{games: c.Int("games"), players: c.Int("players"), think: c.Int("think"), seed: c.Uint64("seed"), json: c.Bool("json"), show: c.Bool("show")}
	if sim.games < 1 {
		return usageError("--games: %d, want at least 1", sim.games)
	}
	if sim.think < 0 {
		return usageError("--think: %d, want 0 (the default) or more playouts", sim.think)
	}
	if sim.config, err = readSettings(c, g, rules, sim.players); err != nil {
		return err
	}
	if sim.bots, err = readBotKinds(c.String("bots"), g); err != nil {
		return err
	}
	if err := g.simulate(c.App.Writer, c.App.ErrWriter, sim); err != nil {
		return cli.Exit(err.Error(), 1)
	}
	return nil
}

// readBotKinds reads --bots: kinds of the game's bots, comma-separated (default: every kind).
func readBotKinds(list string, g *game) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return g.bots, nil
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
