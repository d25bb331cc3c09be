package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/corruptia/script"
)

// corruptiaGame is Corruptia's entry in games: --amendments, the heuristic and random bots,
// bot.Simulate, the scenario scripts (docs/CORRUPTIA.md, "Scripts") and script.Narrator for
// logs (its boards are ui/games').
var corruptiaGame = &game{
	id:           "corruptia",
	flags:        corruptiaFlags,
	bots:         bot.Kinds,
	bot:          bot.ThinkingPlayer,
	simulate:     corruptiaSimulate,
	replayScript: corruptiaScript,
	record:       corruptiaRecord,
	narrator:     corruptiaNarrator,
	score: func(n int) string {
		return fmt.Sprintf("%d %s", n, map[bool]string{true: "point", false: "points"}[n == 1])
	},
}

// settings reads the other games' flags (to refuse them), and games holds this entry: it is
// set here rather than in the entry, which would make their initialisation a loop.
func init() { corruptiaGame.settings = corruptiaSettings }

func corruptiaFlags(prefix string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "amendments", Value: rules.DefaultAmends, Usage: prefix + "Corruptia: how many times the active senator may amend its proposal in a turn (0 to 9)"},
	}
}

// corruptiaSettings reads --amendments, and refuses the settings flags of the other games.
func corruptiaSettings(c *cli.Context) ([]byte, error) {
	for id, g := range games {
		if id == corruptiaGame.id {
			continue
		}
		for _, f := range g.flags("") {
			if name := f.Names()[0]; name != "amendments" && c.IsSet(name) {
				return nil, usageError("--%s is a setting of %s, not of Corruptia (its setting is --amendments)", name, id)
			}
		}
	}
	config, err := rules.EncodeConfig(rules.Config{Amendments: c.Int("amendments")})
	if err != nil {
		return nil, usageError("--amendments: %d, want 0 to %d", c.Int("amendments"), rules.MaxAmendsConfig)
	}
	return config, nil
}

// corruptiaSimulate plays the batch with bot.Simulate and prints the results by bot kind, seat
// and place in the first round's order, and what happened in a mean game.
func corruptiaSimulate(out, errw io.Writer, sim simulation) error {
	cfg, err := rules.DecodeConfig(sim.config)
	if err != nil {
		return err
	}
	sc := bot.SimConfig{Games: sim.games, Players: sim.players, Config: &cfg, Bots: sim.bots, Think: sim.think, Seed: sim.seed}
	if sim.show {
		showTo := out
		if sim.json {
			showTo = errw // keep stdout one JSON object
		}
		fmt.Fprintf(showTo, "Game 1 of %d: %d senators, %s; seats: %s\n", sc.Games, sc.Players, rules.Rules{}.DescribeConfig(sim.config), seating(sc.Bots, sc.Players))
		sc.Show = (&script.Narrator{W: showTo}).Event
	}
	res, err := bot.Simulate(sc)
	if err != nil {
		return err
	}
	if sim.json {
		return json.NewEncoder(out).Encode(res)
	}
	printCorruptiaSim(out, res)
	return nil
}

func printCorruptiaSim(w io.Writer, r *bot.SimResult) {
	games := "games"
	if r.Games == 1 {
		games = "game"
	}
	fmt.Fprintf(w, "\n%d %s, %d senators, %s, seed %d (a win shared by k senators counts 1/k; fair is %.1f%%)\n",
		r.Games, games, r.Players, r.Config, r.Seed, 100/float64(r.Players))
	header := func(what string) { fmt.Fprintf(w, "%-12s %7s %9s %11s\n", what, "games", "win rate", "mean score") }
	row := func(name string, t bot.Tally) {
		fmt.Fprintf(w, "%-12s %7d %8.1f%% %11.1f\n", name, t.Games, 100*t.WinRate, t.MeanScore)
	}
	header("bot")
	kinds := make([]string, 0, len(r.ByBot))
	for k := range r.ByBot {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		row(k, r.ByBot[k])
	}
	header("seat")
	for seat, t := range r.BySeat {
		row(fmt.Sprint(seat), t)
	}
	header("place")
	for place, t := range r.ByPlace {
		row(fmt.Sprintf("%d%s", place, map[bool]string{true: " (token)"}[place == 0]), t)
	}
	s := r.Stats
	fmt.Fprintf(w, "A mean game: %.1f bills approved, %.1f rejected, %.1f ties tossed; %.1f absences, %.1f swaps; %.1f blackmails (%.1f ignored); "+
		"%.1f employees offered, %.1f amendments; %.2f turns with no bill; winning score %.0f\n",
		s.Approved, s.Rejected, s.Tosses, s.Absent, s.Swaps, s.Blackmails, s.Ignored, s.Offers, s.Amendments, s.NoBill, s.WinScore)
	fmt.Fprintf(w, "%.0f games per second (%.2f s)\n", r.GamesPerSec, r.Seconds)
}

// corruptiaScript replays a scenario script (docs/CORRUPTIA.md, "Scripts"), told round by
// round or summed up (script.Result).
func corruptiaScript(data []byte, tell io.Writer) (any, string, error) {
	sc, err := script.Parse(data)
	if err != nil {
		return nil, "", err
	}
	var onEvent func(engine.Event)
	if tell != nil {
		onEvent = (&script.Narrator{W: tell}).Event
	}
	res, err := sc.Run(onEvent)
	if res == nil {
		return nil, "", err
	}
	waits := ""
	if n := res.Next; n != nil {
		waits = "every senator's vote"
		if n.Seat >= 0 {
			waits = fmt.Sprintf("seat %d's %s", n.Seat, n.Decision)
		}
	}
	return res, waits, err
}

// corruptiaRecord plays game i of the batch again, as bot.Simulate played it (its bots and
// its draws), and writes it as a script.
func corruptiaRecord(sim simulation, i int) ([]byte, error) {
	cfg, err := rules.DecodeConfig(sim.config)
	if err != nil {
		return nil, err
	}
	bots, err := bot.SimConfig{Players: sim.players, Config: &cfg, Bots: sim.bots, Seed: sim.seed}.GameBots(i)
	if err != nil {
		return nil, err
	}
	sc, err := script.RecordFrom(sim.players, cfg, bots, rules.Seeded(sim.seed, uint64(i)))
	if err != nil {
		return nil, err
	}
	return sc.Marshal()
}

// corruptiaNarrator tells a saved table's game as script.Narrator tells a script's: round by
// round, each event in its words (the events say everything a narrator needs).
func corruptiaNarrator(w io.Writer, _ []byte, _ int) func(engine.Event) {
	return (&script.Narrator{W: w}).Event
}
