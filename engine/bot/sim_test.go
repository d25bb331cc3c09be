package bot_test

import (
	"testing"

	"corruption/engine"
	"corruption/engine/bot"
)

func TestHeuristicBeatsRandom(t *testing.T) {
	for _, v := range []engine.Variant{engine.Standard, engine.Closed} {
		res, err := bot.Simulate(bot.SimConfig{Games: 400, Players: 4, Variant: v, Bots: []string{"heuristic", "random"}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		h, r := res.ByBot["heuristic"], res.ByBot["random"]
		t.Logf("%s: heuristic win %.2f mean %.0f; random win %.2f mean %.0f", v, h.WinRate, h.MeanScore, r.WinRate, r.MeanScore)
	}
}
