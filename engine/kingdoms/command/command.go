// Package command is what the command line knows of Corrupted Kingdoms beyond its rules
// (engine/cmdkit): its table settings, --rules and --house; its heuristic, random and strong
// bots; bot.Simulate's batches, told with script.Narrator; the scenario scripts of
// docs/KINGDOMS.md ("Scripts"), replayed and recorded; the narrator of a saved log; and a
// score in points.
package command

import (
	"fmt"
	"io"

	"corruption/engine"
	"corruption/engine/cmdkit"
	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/engine/kingdoms/script"
)

// Game is Corrupted Kingdoms on the command line. Its bots answer the response rounds at
// once: a table's front end seats them behind the delay its board asks for (ui/games).
var Game = &cmdkit.Game{
	ID: "kingdoms",
	Settings: []cmdkit.Setting{
		{Name: "rules", Default: kingdoms.Advanced.String(), Usage: "Corrupted Kingdoms' `RULES`: " +
			"advanced (bill bonuses and chaos cards; the only rules at 2 players), basic, bonuses (basic with bill bonuses) or chaos (basic with chaos cards)"},
		{Name: "house", Default: "none", Usage: "Corrupted Kingdoms' house `RULES`, not the rule sheet's: " +
			"none (the sheet's rules alone) or even (fairer places in turn order: the round in which a deck runs out is played to its end, " +
			"and a passed bill's guilty pleasures are taken from the bottom marker up; docs/KINGDOMS.md, \"Balance\")"},
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

// encode reads --rules and --house.
func encode(v cmdkit.Values) ([]byte, error) {
	cfg, err := kingdoms.ParseConfig(v.String("rules"))
	if err != nil {
		return nil, fmt.Errorf("--rules: %v", err)
	}
	if v.IsSet("house") {
		even := cfg.Even
		if cfg, err = cfg.WithHouse(v.String("house")); err != nil {
			return nil, fmt.Errorf("--house: %v", err)
		}
		if even && !cfg.Even {
			return nil, fmt.Errorf("--house none: --rules %s asks for the house rules %s", v.String("rules"), kingdoms.HouseEven)
		}
	}
	return kingdoms.EncodeConfig(cfg), nil
}

// simulate plays the batch with bot.Simulate, the first game told to show by script.Narrator.
func simulate(b cmdkit.Batch, show io.Writer) (cmdkit.Report, error) {
	cfg, err := kingdoms.DecodeConfig(b.Config)
	if err != nil {
		return nil, err
	}
	sc := bot.SimConfig{Games: b.Games, Players: b.Players, Rules: cfg, Bots: b.Bots, Think: b.Think, Seed: b.Seed}
	if show != nil {
		n := script.Narrator{W: show}
		fmt.Fprintf(show, "Game 1 of %d: %d players, %s; seats: %s\n", sc.Games, sc.Players, cfg.Words(), cmdkit.Seating(sc.Bots, sc.Players))
		sc.Show = func(e kingdoms.Event) { n.Event(engine.Event{Text: e.String(), Data: e}) }
	}
	res, err := bot.Simulate(sc)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// record plays game i of the batch again, as bot.Simulate played it, and writes it as a
// script, its whole setup spelt out.
func record(b cmdkit.Batch, i int) ([]byte, error) {
	cfg, err := kingdoms.DecodeConfig(b.Config)
	if err != nil {
		return nil, err
	}
	bots, err := bot.SimConfig{Players: b.Players, Rules: cfg, Bots: b.Bots, Seed: b.Seed}.GameBots(i)
	if err != nil {
		return nil, err
	}
	sc := &script.Script{Players: b.Players, Rules: cfg, Seed: b.Seed, Setup: bot.GameSetup(cfg, b.Players, b.Seed, i)}
	l, err := kingdoms.NewLocal(cfg, b.Players, sc.Setup, nil)
	if err != nil {
		return nil, err
	}
	if err := bot.Play(l, bots, func(m kingdoms.Move) { sc.Moves = append(sc.Moves, m) }); err != nil {
		return nil, err
	}
	return sc.Marshal()
}
