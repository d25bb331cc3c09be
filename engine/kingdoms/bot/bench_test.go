package bot_test

import (
	"testing"

	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// BenchmarkLocalGame is one 4-player game with the advanced rules among random bots in memory,
// as Simulate plays them. Run: go test -run='^$' -bench=LocalGame ./engine/kingdoms/bot/
func BenchmarkLocalGame(b *testing.B) {
	for i := range b.N {
		bots := make([]bot.Bot, 4)
		for s := range bots {
			bots[s], _ = bot.New("random", uint64(s))
		}
		l, err := kingdoms.NewLocal(kingdoms.Advanced, 4, bot.GameSetup(kingdoms.Advanced, 4, 1, i), nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := bot.Play(l, bots, nil); err != nil {
			b.Fatal(err)
		}
	}
}
