package bot

import (
	"math/rand/v2"

	"corruption/engine"
)

// Heuristic plays like a sensible person. (Filled in below.)
type Heuristic struct {
	rng *rand.Rand
}

// NewHeuristic makes a heuristic bot drawing from rng.
func NewHeuristic(rng *rand.Rand) *Heuristic { return &Heuristic{rng: rng} }

func (b *Heuristic) Name() string { return "heuristic" }

func (b *Heuristic) Decide(v engine.View) engine.Move {
	return (&Random{rng: b.rng}).Decide(v)
}
