package bot_test

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"corruption/engine/corruptia/bot"
)

var simGames = flag.Int("games", 200, "games a table size in TestBalance and TestHeuristicBeatsRandom (60 in -short mode)")

// games is how many games a table size TestBalance and TestHeuristicBeatsRandom play: -games,
// or 60 in -short mode when -games is not given (the same seed, a smaller sample).
func games() int {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "games" })
	if testing.Short() && !set {
		return 60
	}
	return *simGames
}

// TestHeuristicBeatsRandom: with heuristic and random bots seated in turn (the seating
// rotating every game), the heuristic bots win far more often and score more, at every table
// size.
func TestHeuristicBeatsRandom(t *testing.T) {
	for n := 2; n <= 5; n++ {
		r, err := bot.Simulate(bot.SimConfig{Games: games(), Players: n, Bots: []string{"heuristic", "random"}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		h, rd := r.ByBot["heuristic"], r.ByBot["random"]
		t.Logf("%d players, %d games: heuristic wins %.1f%% of its seats (mean %.0f), random %.1f%% (mean %.0f)",
			n, r.Games, 100*h.WinRate, h.MeanScore, 100*rd.WinRate, rd.MeanScore)
		if h.WinRate < 3*rd.WinRate || h.MeanScore < rd.MeanScore+30 {
			t.Errorf("%d players: heuristic %+v, random %+v", n, h, rd)
		}
	}
}

// TestBalance: heuristic bots at every seat; the win rate of each place in the first round's
// order (place 0 holds the presidential token first). Figures for docs/CORRUPTIA.md:
// go test -run TestBalance -v ./engine/corruptia/bot/ -args -games=2000
func TestBalance(t *testing.T) {
	for n := 2; n <= 5; n++ {
		r, err := bot.Simulate(bot.SimConfig{Games: games(), Players: n, Bots: []string{"heuristic"}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var rates []string
		for place, tl := range r.ByPlace {
			rates = append(rates, fmt.Sprintf("%.1f%%", 100*tl.WinRate))
			if tl.WinRate < 0.4/float64(n) || tl.WinRate > 2.0/float64(n) {
				t.Errorf("%d players: place %d wins %.1f%% of games", n, place, 100*tl.WinRate)
			}
		}
		s := r.Stats
		t.Logf("%d players, %d games: by place %s; win score %.0f; a game: %.1f approved, %.1f rejected, %.1f tosses, %.2f no-bill turns, %.1f absent, %.1f swaps, %.1f blackmails (%.1f ignored), %.1f offers, %.1f amendments, %.3f restarts, %.2f tokens short",
			n, r.Games, strings.Join(rates, " "), s.WinScore, s.Approved, s.Rejected, s.Tosses, s.NoBill, s.Absent, s.Swaps, s.Blackmails, s.Ignored, s.Offers, s.Amendments, s.Restarts, s.Short)
	}
}

// TestSimulateRepeats: the same seed plays the same games.
func TestSimulateRepeats(t *testing.T) {
	sc := bot.SimConfig{Games: 20, Players: 3, Seed: 9}
	a, err := bot.Simulate(sc)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := bot.Simulate(sc)
	a.Seconds, a.GamesPerSec, b.Seconds, b.GamesPerSec = 0, 0, 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave two results")
	}
	if _, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 6}); err == nil {
		t.Error("6 players simulated")
	}
	if _, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 3, Bots: []string{"clever"}}); err == nil {
		t.Error("an unknown bot simulated")
	}
}
