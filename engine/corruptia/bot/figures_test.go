package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// TestStrongFigures prints the strong bot's figures of docs/PERFORMANCE.md and docs/CORRUPTIA.md:
// its win rate, seats rotated, against three heuristic bots at simulate's and a person's
// budget (STRONG_PERSON games, if set, as a person's budget costs more), against three random
// bots, the easy level's against three heuristic bots, and how the win rate grows with the budget
// (at the budgets STRONG_GROWTH lists, comma-separated). It runs only when asked:
// STRONG_FIGURES=400 go test -run TestStrongFigures -v -timeout 0 ./engine/corruptia/bot/
func TestStrongFigures(t *testing.T) {
	s := os.Getenv("STRONG_FIGURES")
	if s == "" {
		t.Skip("set STRONG_FIGURES to the number of games a line")
	}
	games, err := strconv.Atoi(s)
	if err != nil || games < 1 {
		t.Fatalf("STRONG_FIGURES=%q: want a number of games", s)
	}
	line := func(what string, bots []string, think int) {
		res, err := Simulate(SimConfig{Games: games, Players: 4, Bots: bots, Think: think, Seed: 26})
		if err != nil {
			t.Fatal(err)
		}
		p := res.ByBot[bots[0]].WinRate
		t.Logf("%s: %.1f%% ± %.1f (%d games, %.0f s)", what, 100*p, 196*math.Sqrt(p*(1-p)/float64(games)), games, res.Seconds)
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

// BenchmarkDecide is one decision (or vote) of seat 0 at each level, over those of a 4-player
// game among heuristic bots (its time and memory per decision: -benchmem).
// Run: go test -run='^$' -bench=Decide -benchmem ./engine/corruptia/bot/
func BenchmarkDecide(b *testing.B) {
	var positions []*corruptia.Game
	game, _ := corruptia.NewGame(corruptia.DefaultConfig(), 4, nil)
	h, c := corruptia.NewHost(game), corruptia.Seeded(3, 0)
	bots := make([]Bot, 4)
	for i := range bots {
		bots[i] = &Heuristic{rng: rand.New(rand.NewPCG(1, uint64(i)))}
	}
	for {
		if err := h.Run(c); err != nil {
			b.Fatal(err)
		}
		st := game.Due()
		if st.Kind == engine.StepOver {
			break
		}
		if (st.Kind == engine.StepChoose || st.Seat == 0) && game.View(0).Round > 0 {
			positions = append(positions, game.Clone().(*corruptia.Game))
		}
		var err error
		if st.Kind == engine.StepChoose {
			votes := make([]corruptia.Vote, 4)
			for s := range votes {
				votes[s] = bots[s].Vote(game.View(s))
			}
			err = h.Votes(votes)
		} else {
			err = h.Move(st.Seat, bots[st.Seat].Decide(game.View(st.Seat)))
		}
		if err != nil {
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
				g := positions[i%len(positions)]
				if g.Due().Kind == engine.StepChoose {
					bt.Vote(g.View(0))
				} else {
					bt.Decide(g.View(0))
				}
			}
		})
	}
}
