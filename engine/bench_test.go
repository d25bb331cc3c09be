package engine_test

import (
	"testing"

	"corruption/engine"
	"corruption/engine/bot"
)

// BenchmarkGame plays one full 5-player standard game with random bots, engine only.
// Run: go test -run='^$' -bench=BenchmarkGame -benchmem -cpu=1 ./engine/
func BenchmarkGame(b *testing.B) {
	benchGame(b, "random", engine.Standard)
}

// BenchmarkGameHeuristic is the same with heuristic bots.
func BenchmarkGameHeuristic(b *testing.B) {
	benchGame(b, "heuristic", engine.Standard)
}

func benchGame(b *testing.B, kind string, v engine.Variant) {
	const players = 5
	cfgs := make([]engine.Config, 64)
	for i := range cfgs {
		cfgs[i] = bot.GameConfig(players, v, false, 7, i)
	}
	bots := make([]bot.Bot, players)
	for i := range bots {
		bots[i], _ = bot.New(kind, uint64(i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := engine.New(cfgs[i%len(cfgs)])
		if err != nil {
			b.Fatal(err)
		}
		if err := bot.Play(s, bots, nil); err != nil {
			b.Fatal(err)
		}
	}
}
