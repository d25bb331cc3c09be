package engine_test

import (
	"math/rand/v2"
	"testing"

	"corruption/engine"
	"corruption/engine/bot"
)

func TestSmoke(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := 3 + int(seed%5)
		deck := make([]engine.Contract, engine.NumContracts)
		for i, j := range rng.Perm(engine.NumContracts) {
			deck[i] = engine.Contract(j)
		}
		cfg := engine.Config{Players: n, Variant: engine.Variant(seed % 4), LittleBlackBook: seed%4 != 3 && seed%2 == 0, Deck: deck, First: int(seed) % n}
		s, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]bot.Bot, n)
		for i := range bots {
			bots[i] = bot.NewRandom(rand.New(rand.NewPCG(seed, uint64(i))))
		}
		if err := bot.Play(s, bots, nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}
