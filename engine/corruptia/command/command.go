// Package command is what the command line knows of Corruptia beyond its rules
// (engine/cmdkit): its table setting, --amendments; its heuristic, random and strong bots;
// bot.Simulate's batches, told with script.Narrator; the scenario scripts of
// docs/CORRUPTIA.md ("Scripts"), replayed and recorded; the narrator of a saved log; and a
// score in points.
package command

import (
	"corruption/engine/cmdkit"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/corruptia/script"
)

// encode reads --amendments.
func encode(v cmdkit.Values) ([]byte, error) {
	return corruptia.EncodeConfig(corruptia.Config{Amendments: v.Int("amendments")})
}

// Game is Corruptia on the command line.
var Game = &cmdkit.Game{ID: "corruptia", Settings: settings, Encode: encode, Score: cmdkit.Points,
	Bots: bot.Kinds, Bot: bot.ThinkingPlayer, Replay: script.Replay, Narrator: script.LogNarrator,
	Batches: cmdkit.Batches[bot.SimConfig, *bot.SimResult, *script.Script]{Decode: batch, Tell: script.Tell, Play: bot.Simulate, Recorded: script.Recorded}}

// settings are --amendments, its bounds checked by cmdkit.Game.Config.
var settings = []cmdkit.Setting{
	{Name: "amendments", Default: corruptia.DefaultAmends, Min: 0, Max: corruptia.MaxAmendsConfig,
		Usage: "Corruptia: how many times the active senator may amend its proposal in a turn (0 to 9)"},
}

// batch is the batch as bot.Simulate plays it.
func batch(b cmdkit.Batch) (bot.SimConfig, error) {
	cfg, err := corruptia.DecodeConfig(b.Config)
	return bot.SimConfig{Games: b.Games, Players: b.Players, Config: &cfg, Bots: b.Bots, Think: b.Think, Seed: b.Seed}, err
}
