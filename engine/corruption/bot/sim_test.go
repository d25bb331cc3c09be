package bot_test

import (
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
)

// TestHeuristicBeatsRandom: the heuristic bot must beat the random bot clearly, in every
// variant: two of each at a 4-player table, and one heuristic against four random bots.
func TestHeuristicBeatsRandom(t *testing.T) {
	for _, v := range []corruption.Variant{corruption.Standard, corruption.DownTheRiver, corruption.FreeStud, corruption.Closed} {
		res, err := bot.Simulate(bot.SimConfig{Games: 300, Players: 4, Variant: v, Bots: []string{"heuristic", "random"}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		h, r := res.ByBot["heuristic"], res.ByBot["random"]
		t.Logf("%s, 2 v 2: heuristic wins %.0f%%, mean $%.0f; random wins %.0f%%, mean $%.0f", v, 100*h.WinRate, h.MeanScore, 100*r.WinRate, r.MeanScore)
		if h.WinRate < 2*r.WinRate || h.MeanScore < 1.2*r.MeanScore {
			t.Errorf("%s: the heuristic bot does not clearly beat the random bot", v)
		}
		res, err = bot.Simulate(bot.SimConfig{Games: 200, Players: 5, Variant: v, Bots: []string{"heuristic", "random", "random", "random", "random"}, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		h = res.ByBot["heuristic"]
		t.Logf("%s, 1 v 4: heuristic wins %.0f%%", v, 100*h.WinRate)
		if h.WinRate < 0.8 {
			t.Errorf("%s: one heuristic bot against four random bots wins only %.0f%%", v, 100*h.WinRate)
		}
	}
}

// TestSimulateIsRepeatable: the same seed plays the same games.
func TestSimulateIsRepeatable(t *testing.T) {
	run := func() *bot.SimResult {
		res, err := bot.Simulate(bot.SimConfig{Games: 50, Players: 3, Variant: corruption.FreeStud, LBB: true, Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(), run()
	for k, ta := range a.ByBot {
		if tb := b.ByBot[k]; ta.Wins != tb.Wins || ta.MeanScore != tb.MeanScore {
			t.Fatalf("%s: %+v then %+v", k, ta, tb)
		}
	}
}

func TestSimulateRejectsBadConfig(t *testing.T) {
	if _, err := bot.Simulate(bot.SimConfig{Games: 0, Players: 4}); err == nil {
		t.Error("0 games accepted")
	}
	if _, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 4, Bots: []string{"nope"}}); err == nil {
		t.Error("unknown bot accepted")
	}
	if _, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 9}); err == nil {
		t.Error("9 players accepted")
	}
}
