package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"corruption/engine/corruption"
)

// TestStrongFigures prints the strong bot's figures of docs/PERFORMANCE.md and docs/RULES.md:
// its win rate, seats rotated, against three heuristic bots at simulate's and a person's
// budget (STRONG_PERSON games, if set, as a person's budget costs more), against three random
// bots, the easy level's against three heuristic bots, and how the win rate grows with the budget
// (at the budgets STRONG_GROWTH lists, comma-separated). It runs only when asked:
// STRONG_FIGURES=400 go test -run TestStrongFigures -v -timeout 0 ./engine/corruption/bot/
func TestStrongFigures(t *testing.T) {
	games := figureGames(t)
	line := func(what string, bots []string, think int) {
		res, err := Simulate(SimConfig{Games: games, Players: 4, Variant: corruption.Standard, Bots: bots, Think: think, Seed: 26})
		if err != nil {
			t.Fatal(err)
		}
		t.Log(rateLine(what, res.ByBot[bots[0]].WinRate, games, res.Seconds))
	}
	h3 := []string{"strong", "heuristic", "heuristic", "heuristic"}
	line(fmt.Sprintf("strong (%d) v 3 heuristic", ThinkSimulate), h3, ThinkSimulate)
	line(fmt.Sprintf("strong (%d) v 3 random", ThinkSimulate), []string{"strong", "random", "random", "random"}, ThinkSimulate)
	line("easy v 3 heuristic", []string{"easy", "heuristic", "heuristic", "heuristic"}, 0)
	if n := os.Getenv("STRONG_PERSON"); n != "" {
		games, _ = strconv.Atoi(n) // a person's budget costs more: fewer games, if asked
	}
	line(fmt.Sprintf("strong (%d) v 3 heuristic", ThinkPerson), h3, ThinkPerson)
	for _, f := range strings.FieldsFunc(os.Getenv("STRONG_GROWTH"), func(r rune) bool { return r == ',' }) {
		if think, err := strconv.Atoi(f); err == nil && think > 0 {
			line(fmt.Sprintf("strong (%d) v 3 heuristic", think), h3, think)
		}
	}
}

// figureGames is how many games a line of figures the environment asks for (STRONG_FIGURES),
// or skips the test.
func figureGames(t *testing.T) int {
	t.Helper()
	s := os.Getenv("STRONG_FIGURES")
	if s == "" {
		t.Skip("set STRONG_FIGURES to the number of games a line")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("STRONG_FIGURES=%q: want a number of games", s)
	}
	return n
}

// rateLine is a win rate with its 95% interval (normal approximation).
func rateLine(what string, p float64, n int, secs float64) string {
	ci := 1.96 * math.Sqrt(p*(1-p)/float64(n))
	return fmt.Sprintf("%s: %.1f%% ± %.1f (%d games, %.0f s)", what, 100*p, 100*ci, n, secs)
}

// BenchmarkDecide is one decision of seat 0 at each level, over the decisions of a game among
// heuristic bots (its time and memory per decision: -benchmem).
// Run: go test -run='^$' -bench=Decide -benchmem ./engine/corruption/bot/
func BenchmarkDecide(b *testing.B) {
	var positions []*corruption.State
	s, _ := corruption.New(GameConfig(4, corruption.Standard, false, 3, 0))
	bots := make([]Bot, 4)
	for i := range bots {
		bots[i] = NewHeuristic(rand.New(rand.NewPCG(1, uint64(i))))
	}
	for !s.Over() {
		d := s.Next()
		if d.Seat == 0 {
			positions = append(positions, s.Clone())
		}
		if err := s.Apply(bots[d.Seat].Decide(s.View(d.Seat))); err != nil {
			b.Fatal(err)
		}
	}
	for _, lv := range []struct {
		name  string
		think int
	}{{"easy", 0}, {"heuristic", 0}, {"strong", ThinkSimulate}, {"strong", ThinkPerson}} {
		b.Run(fmt.Sprintf("%s-%d", lv.name, lv.think), func(b *testing.B) {
			bt, _ := kinds.New(lv.name, 1, lv.think)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				bt.Decide(positions[i%len(positions)].View(0))
			}
		})
	}
}
