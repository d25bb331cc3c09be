package corruption_test

import (
	"math/rand/v2"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
)

func TestSmoke(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := 3 + int(seed%5)
		deck := make([]corruption.Contract, corruption.NumContracts)
		for i, j := range rng.Perm(corruption.NumContracts) {
			deck[i] = corruption.Contract(j)
		}
		cfg := corruption.Config{Players: n, Variant: corruption.Variant(seed % 4), LittleBlackBook: seed%4 != 3 && seed%2 == 0, Deck: deck, First: int(seed) % n}
		s, err := corruption.New(cfg)
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
