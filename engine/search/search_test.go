package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

// coins is a one-decision game: seat 0 names a coin 0..9; the coin's bias (hidden, redrawn by
// each sample around its true value) is the chance it wins. Seat 1 then plays a policy move
// that changes nothing. The prior lists the coins in order, so the best coin (7) comes late.
type coins struct {
	bias   [10]float64
	picked int
	moved  bool
}

func sampleCoins(r *rand.Rand) Game[int] {
	g := &coins{picked: -1}
	for i := range g.bias {
		g.bias[i] = 0.3 + 0.02*r.Float64()
	}
	g.bias[7] = 0.7
	return g
}

func (g *coins) Over() bool { return g.picked >= 0 && g.moved }
func (g *coins) Mover() int {
	if g.picked < 0 {
		return 0
	}
	return 1
}
func (g *coins) Moves(buf []int) []int {
	if g.picked >= 0 {
		return append(buf, 0)
	}
	for i := range 10 {
		buf = append(buf, i)
	}
	return buf
}
func (g *coins) Play(m int) {
	if g.picked < 0 {
		g.picked = m
	} else {
		g.moved = true
	}
}
func (g *coins) Policy(*rand.Rand) int { return 0 }
func (g *coins) Rollout(r *rand.Rand, rewards []float64) {
	if g.picked >= 0 && !g.moved {
		g.Play(0)
	}
	if r.Float64() < g.bias[g.picked] {
		rewards[0] = 1
	} else {
		rewards[1] = 1
	}
}

// TestRunFindsTheBestMove: with enough playouts the search opens every move and keeps the best,
// which the prior ranks eighth; with one playout it keeps the prior's first; the same seed
// gives the same search.
func TestRunFindsTheBestMove(t *testing.T) {
	cfg := Defaults
	cfg.Playouts, cfg.Seed = 2000, 1
	m, st := Run(0, sampleCoins, cfg)
	if m != 7 {
		t.Fatalf("chose coin %d after %+v, want 7", m, st)
	}
	if st.Playouts != 2000 || st.Moves != 10 || st.Nodes != 11 {
		t.Errorf("stats %+v, want 2000 playouts, 10 moves, 11 nodes", st)
	}
	if m2, st2 := Run(0, sampleCoins, cfg); m2 != m || st2 != st {
		t.Errorf("the same seed gave %d %+v, then %d %+v", m, st, m2, st2)
	}
	cfg.Playouts = 0
	if m, _ := Run(0, sampleCoins, cfg); m != 0 {
		t.Errorf("no budget: chose %d, want the prior's first, 0", m)
	}
}

// TestSoftmax: shares add up to one and follow the scores; a temperature of 0 is the win,
// shared on a tie.
func TestSoftmax(t *testing.T) {
	out := make([]float64, 3)
	Softmax([]float64{10, 10, 4}, 0, out)
	if out[0] != 0.5 || out[1] != 0.5 || out[2] != 0 {
		t.Errorf("temperature 0: %v", out)
	}
	Softmax([]float64{10, 8, 4}, 3, out)
	if s := out[0] + out[1] + out[2]; math.Abs(s-1) > 1e-12 || !(out[0] > out[1] && out[1] > out[2]) {
		t.Errorf("temperature 3: %v", out)
	}
}
