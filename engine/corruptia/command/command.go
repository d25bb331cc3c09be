// Package command is what the command line knows of Corruptia beyond its rules
// (engine/cmdkit): its table setting, --amendments; its heuristic, random and strong bots;
// bot.Simulate's batches, told with script.Narrator; the scenario scripts of
// docs/CORRUPTIA.md ("Scripts"), replayed and recorded; the narrator of a saved log; and a
// score in points.
package command

import (
	"fmt"
	"io"

	"corruption/engine/cmdkit"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/corruptia/script"
)

// Game is Corruptia on the command line.
var Game = &cmdkit.Game{
	ID: "corruptia",
	Settings: []cmdkit.Setting{
		{Name: "amendments", Default: corruptia.DefaultAmends, Min: 0, Max: corruptia.MaxAmendsConfig,
			Usage: "Corruptia: how many times the active senator may amend its proposal in a turn (0 to 9)"},
	},
	Encode:   encode,
	Bots:     bot.Kinds,
	Bot:      bot.ThinkingPlayer,
	Simulate: simulate,
	Replay:   script.Replay,
	Record:   record,
	Narrator: script.LogNarrator,
	Score:    func(n int) string { return fmt.Sprintf("%d %s", n, cmdkit.Plural(n, "point", "points")) },
}

// encode reads --amendments (its bounds checked by cmdkit.Game.Config).
func encode(v cmdkit.Values) ([]byte, error) {
	config, err := corruptia.EncodeConfig(corruptia.Config{Amendments: v.Int("amendments")})
	if err != nil {
		return nil, fmt.Errorf("--amendments: %v", err)
	}
	return config, nil
}

// simulate plays the batch with bot.Simulate, the first game told to show by script.Narrator.
func simulate(b cmdkit.Batch, show io.Writer) (cmdkit.Report, error) {
	cfg, err := corruptia.DecodeConfig(b.Config)
	if err != nil {
		return nil, err
	}
	sc := bot.SimConfig{Games: b.Games, Players: b.Players, Config: &cfg, Bots: b.Bots, Think: b.Think, Seed: b.Seed}
	if show != nil {
		fmt.Fprintf(show, "Game 1 of %d: %d senators, %s; seats: %s\n", sc.Games, sc.Players, corruptia.Rules{}.DescribeConfig(b.Config), cmdkit.Seating(sc.Bots, sc.Players))
		sc.Show = (&script.Narrator{W: show}).Event
	}
	res, err := bot.Simulate(sc)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// record plays game i of the batch again, as bot.Simulate played it (its bots and its
// draws), and writes it as a script.
func record(b cmdkit.Batch, i int) ([]byte, error) {
	cfg, err := corruptia.DecodeConfig(b.Config)
	if err != nil {
		return nil, err
	}
	bots, err := bot.SimConfig{Players: b.Players, Config: &cfg, Bots: b.Bots, Seed: b.Seed}.GameBots(i)
	if err != nil {
		return nil, err
	}
	sc, err := script.RecordFrom(b.Players, cfg, bots, corruptia.Seeded(b.Seed, uint64(i)))
	if err != nil {
		return nil, err
	}
	return sc.Marshal()
}
