package bot_test

import (
	"testing"

	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// TestHeuristicBeatsRandom: at every table size, the heuristic bot wins clearly more than its
// share against random bots, and scores more.
func TestHeuristicBeatsRandom(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	for n := kingdoms.MinPlayers; n <= kingdoms.MaxPlayers; n++ {
		rules := kingdoms.Advanced
		res, err := bot.Simulate(bot.SimConfig{Games: games, Players: n, Rules: rules, Bots: []string{"heuristic", "random"}, Seed: uint64(n)})
		if err != nil {
			t.Fatal(err)
		}
		h, r := res.ByBot["heuristic"], res.ByBot["random"]
		t.Logf("%d players: heuristic wins %.0f%% (mean score %.1f), random %.0f%% (%.1f)", n, 100*h.WinRate, h.MeanScore, 100*r.WinRate, r.MeanScore)
		if h.WinRate < 2*r.WinRate || h.WinRate < 1.5/float64(n) || h.MeanScore < 1.3*r.MeanScore {
			t.Errorf("%d players: the heuristic bot does not clearly beat the random bot", n)
		}
	}
}

// TestSimulateIsRepeatable: the same seed plays the same games.
func TestSimulateIsRepeatable(t *testing.T) {
	run := func() *bot.SimResult {
		res, err := bot.Simulate(bot.SimConfig{Games: 40, Players: 4, Rules: kingdoms.Advanced, Seed: 42})
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
	for _, sc := range []bot.SimConfig{
		{Games: 0, Players: 4},
		{Games: 1, Players: 4, Bots: []string{"nope"}},
		{Games: 1, Players: 7},
		{Games: 1, Players: 2, Rules: kingdoms.Basic},
	} {
		if _, err := bot.Simulate(sc); err == nil {
			t.Errorf("%+v accepted", sc)
		}
	}
}
