// Package command is what the command line knows of Corrupted Kingdoms beyond its rules
// (engine/cmdkit): its table settings, --rules and --house; its heuristic, random and strong
// bots; bot.Simulate's batches, told with script.Narrator; the scenario scripts of
// docs/KINGDOMS.md ("Scripts"), replayed and recorded; the narrator of a saved log; and a
// score in points.
package command

import (
	"fmt"

	"corruption/engine/cmdkit"
	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/engine/kingdoms/script"
)

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

// Game is Corrupted Kingdoms on the command line. Its bots answer the response rounds at
// once: a table's front end seats them behind the delay its board asks for (ui/games).
var Game = &cmdkit.Game{ID: "kingdoms", Settings: settings, Encode: encode, Score: cmdkit.Points,
	Bots: bot.Kinds, Bot: bot.ThinkingPlayer, Replay: script.Replay, Narrator: script.LogNarrator,
	Batches: cmdkit.Batches[bot.SimConfig, *bot.SimResult, *script.Script]{Decode: batch, Tell: script.Tell, Play: bot.Simulate, Recorded: script.Recorded}}

// settings are --rules and --house.
var settings = []cmdkit.Setting{
	{Name: "rules", Default: kingdoms.Advanced.String(), Usage: "Corrupted Kingdoms' `RULES`: " +
		"advanced (bill bonuses and chaos cards; the only rules at 2 players), basic, bonuses (basic with bill bonuses) or chaos (basic with chaos cards)"},
	{Name: "house", Default: "none", Usage: "Corrupted Kingdoms' house `RULES`, not the rule sheet's: " +
		"none (the sheet's rules alone) or even (fairer places in turn order: the round in which a deck runs out is played to its end, " +
		"and a passed bill's guilty pleasures are taken from the bottom marker up; docs/KINGDOMS.md, \"Balance\")"},
}

// batch is the batch as bot.Simulate plays it.
func batch(b cmdkit.Batch) (bot.SimConfig, error) {
	cfg, err := kingdoms.DecodeConfig(b.Config)
	return bot.SimConfig{Games: b.Games, Players: b.Players, Rules: cfg, Bots: b.Bots, Think: b.Think, Seed: b.Seed}, err
}
