package corruptia_test

import (
	"testing"

	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/enginetest"
)

// BenchmarkKitGame is one full 4-player game with random bots through enginetest's table
// (five copies of the game: one per seat and an observer), to compare with Corruption's:
//
//	go test -run='^$' -bench=. ./engine/corruptia/
//	go test -run='^$' -bench=KitGame ./engine/corruption/
func BenchmarkKitGame(b *testing.B) {
	cfg := defaultConfig()
	for i := range b.N {
		if _, err := enginetest.Play(corruptia.Rules{}, cfg, players(4, uint64(i), "random"), uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHostGame is the same game on one full-information copy, as bot.Simulate plays it.
func BenchmarkHostGame(b *testing.B) {
	benchHost(b, "random")
}

// BenchmarkHostGameHeuristic is a 4-player game among heuristic bots on one copy.
func BenchmarkHostGameHeuristic(b *testing.B) {
	benchHost(b, "heuristic")
}

func benchHost(b *testing.B, kind string) {
	for i := range b.N {
		g, err := corruptia.NewGame(corruptia.DefaultConfig(), 4, nil)
		if err != nil {
			b.Fatal(err)
		}
		bots := make([]bot.Bot, 4)
		for s := range bots {
			bots[s], _ = bot.New(kind, uint64(i)<<3|uint64(s))
		}
		if err := bot.Play(corruptia.NewHost(g), corruptia.Seeded(uint64(i), 0), bots); err != nil {
			b.Fatal(err)
		}
	}
}
