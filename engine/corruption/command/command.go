// Package command is what the command line knows of Corruption beyond its rules
// (engine/cmdkit): its table settings, --variant and --lbb; its heuristic, random and strong
// bots; bot.Simulate's batches, told with script.Narrator; the scenario scripts of
// docs/SCRIPTS.md, replayed and recorded; the narrator of a saved log; and a score in dollars.
package command

import (
	"fmt"

	"corruption/engine/cmdkit"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
)

// Game is Corruption on the command line.
var Game = &cmdkit.Game{ID: "corruption", Settings: settings, Encode: encode, Score: score,
	Bots: bot.Kinds, Bot: bot.ThinkingPlayer, Replay: script.Replay, Narrator: script.LogNarrator,
	Batches: cmdkit.Batches[bot.SimConfig, *bot.SimResult, *script.Script]{Decode: batch, Tell: script.Tell, Play: bot.Simulate, Recorded: script.Recorded}}

// settings are --variant and --lbb.
var settings = []cmdkit.Setting{
	{Name: "variant", Default: "standard", Usage: "standard, down-the-river, free-stud or closed"},
	{Name: "lbb", Default: false, Usage: "play with the little black book (two peeks each; not with closed)"},
}

// encode reads --variant and --lbb.
func encode(v cmdkit.Values) ([]byte, error) {
	variant, err := corruption.ParseVariant(v.String("variant"))
	if err != nil {
		return nil, fmt.Errorf("--variant: %v", err)
	}
	lbb := v.Bool("lbb")
	if lbb && variant == corruption.Closed {
		return nil, fmt.Errorf("--lbb: the little black book cannot be played with the closed variant")
	}
	return corruption.EncodeConfig(variant, lbb), nil
}

// batch is the batch as bot.Simulate plays it.
func batch(b cmdkit.Batch) (bot.SimConfig, error) {
	v, lbb, err := corruption.DecodeConfig(b.Config)
	return bot.SimConfig{Games: b.Games, Players: b.Players, Variant: v, LBB: lbb, Bots: b.Bots, Think: b.Think, Seed: b.Seed}, err
}

// score is a score in dollars: "$12,000".
func score(n int) string { return "$" + corruption.Money(n) }
