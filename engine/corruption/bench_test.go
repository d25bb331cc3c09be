package corruption_test

import (
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
)

// BenchmarkGame plays one full 5-player standard game with random bots, engine only.
// Run: go test -run='^$' -bench=BenchmarkGame -benchmem -cpu=1 ./engine/corruption/
func BenchmarkGame(b *testing.B) {
	benchGame(b, "random", corruption.Standard)
}

// BenchmarkGameHeuristic is the same with heuristic bots.
func BenchmarkGameHeuristic(b *testing.B) {
	benchGame(b, "heuristic", corruption.Standard)
}

func benchGame(b *testing.B, kind string, v corruption.Variant) {
	const players = 5
	cfgs := make([]corruption.Config, 64)
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
		s, err := corruption.New(cfgs[i%len(cfgs)])
		if err != nil {
			b.Fatal(err)
		}
		if err := bot.Play(s, bots, nil); err != nil {
			b.Fatal(err)
		}
	}
}
