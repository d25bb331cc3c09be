package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
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
			"  corruption simulate --games 10000 --players 5 --bots heuristic,random",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "games", Value: 1000, Usage: "how many games to play"},
			&cli.IntFlag{Name: "players", Value: 4, Usage: "players at the table, 3 to 7"},
			&cli.StringFlag{Name: "variant", Value: "standard", Usage: "standard, down-the-river, free-stud or closed"},
			&cli.BoolFlag{Name: "lbb", Usage: "play with the little black book (two peeks each; not with closed)"},
			&cli.StringFlag{Name: "bots", Value: "heuristic,random", Usage: "bot kinds, comma-separated, dealt to seats in turn (heuristic, random)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed for decks, first players and bots: the same seed plays the same games"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as one JSON object"},
			&cli.BoolFlag{Name: "show", Usage: "print the first game in full, readably"},
		},
		Action: simulate,
	}
}

func simulate(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("simulate takes no arguments (got %q); see corruption simulate --help", c.Args().First())
	}
	sc := bot.SimConfig{Games: c.Int("games"), Players: c.Int("players"), LBB: c.Bool("lbb"), Seed: c.Uint64("seed")}
	if sc.Games < 1 {
		return usageError("--games: %d, want at least 1", sc.Games)
	}
	if sc.Players < corruption.MinPlayers || sc.Players > corruption.MaxPlayers {
		return usageError("--players: %d, want %d to %d", sc.Players, corruption.MinPlayers, corruption.MaxPlayers)
	}
	v, err := corruption.ParseVariant(c.String("variant"))
	if err != nil {
		return usageError("--variant: %v", err)
	}
	sc.Variant = v
	if sc.LBB && v == corruption.Closed {
		return usageError("--lbb: the little black book cannot be played with the closed variant")
	}
	for _, k := range strings.Split(c.String("bots"), ",") {
		k = strings.TrimSpace(k)
		if _, err := bot.New(k, 0); err != nil {
			return usageError("--bots: %v", err)
		}
		sc.Bots = append(sc.Bots, k)
	}
	out := c.App.Writer
	if c.Bool("show") {
		showTo := out
		if c.Bool("json") {
			showTo = c.App.ErrWriter // keep stdout one JSON object
		}
		n := &script.Narrator{W: showTo}
		fmt.Fprintf(showTo, "Game 1 of %d: %d players, %s%s; seats: %s\n", sc.Games, sc.Players, v, lbbWords(sc.LBB), seating(sc.Bots, sc.Players))
		sc.Show = func(e corruption.Event) { n.Event(e) }
		sc.Attach = func(s *corruption.State) { n.State = s }
	}
	res, err := bot.Simulate(sc)
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	if c.Bool("json") {
		return json.NewEncoder(out).Encode(res)
	}
	printResult(out, res)
	return nil
}

func lbbWords(lbb bool) string {
	if lbb {
		return " with the little black book"
	}
	return ""
}

func seating(kinds []string, players int) string {
	s := make([]string, players)
	for i := range s {
		s[i] = fmt.Sprintf("%d=%s", i, kinds[i%len(kinds)])
	}
	return strings.Join(s, " ")
}

func printResult(w io.Writer, r *bot.SimResult) {
	games := "games"
	if r.Games == 1 {
		games = "game"
	}
	fmt.Fprintf(w, "\n%d %s, %d players, %s%s, seed %d\n", r.Games, games, r.Players, r.Variant, lbbWords(r.LBB), r.Seed)
	fmt.Fprintf(w, "%-10s %8s %9s %13s\n", "bot", "seats", "win rate", "mean score")
	kinds := make([]string, 0, len(r.ByBot))
	for k := range r.ByBot {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t := r.ByBot[k]
		fmt.Fprintf(w, "%-10s %8d %8.1f%% %13s\n", k, t.Games, 100*t.WinRate, "$"+corruption.Money(int(t.MeanScore+0.5)))
	}
	fmt.Fprintf(w, "%-10s %8s %9s %13s\n", "seat", "games", "win rate", "mean score")
	for seat, t := range r.BySeat {
		fmt.Fprintf(w, "%-10d %8d %8.1f%% %13s\n", seat, t.Games, 100*t.WinRate, "$"+corruption.Money(int(t.MeanScore+0.5)))
	}
	fmt.Fprintf(w, "%.0f games per second (%.2f s)\n", r.GamesPerSec, r.Seconds)
}
