package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"corruption/engine/kingdoms"
)

// TestStrongFigures prints the strong bot's figures of docs/PERFORMANCE.md and docs/KINGDOMS.md,
// at 4-player tables with the advanced rules: its win rate, seats rotated, against three
// heuristic bots at simulate's and a person's budget, against three random bots, the easy
// level's against three heuristic bots, and how the win rate grows with the budget (at the
// budgets STRONG_GROWTH lists, comma-separated). It runs only when asked:
// STRONG_FIGURES=400 go test -run TestStrongFigures -v -timeout 0 ./engine/kingdoms/bot/
func TestStrongFigures(t *testing.T) {
	games := figureGames(t, "STRONG_FIGURES")
	line := func(what string, bots []string, think int) {
		res, err := Simulate(SimConfig{Games: games, Players: 4, Rules: kingdoms.Advanced, Bots: bots, Think: think, Seed: 26})
		if err != nil {
			t.Fatal(err)
		}
		t.Log(rateLine(what, res.ByBot[bots[0]].WinRate, games) + fmt.Sprintf(" (%.0f s)", res.Seconds))
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

// TestStrongBalance prints the balance by place in turn order of docs/KINGDOMS.md with strong
// bots in every seat (budget STRONG_THINK, 20 by default), at 3 and 4 players with the basic
// rules, without and with the house rules "even". It runs only when asked:
// KINGDOMS_STRONG_BALANCE=400 go test -run TestStrongBalance -v -timeout 0 ./engine/kingdoms/bot/
func TestStrongBalance(t *testing.T) {
	games := figureGames(t, "KINGDOMS_STRONG_BALANCE")
	think := 20
	if s := os.Getenv("STRONG_THINK"); s != "" {
		think, _ = strconv.Atoi(s)
	}
	for _, n := range []int{3, 4} {
		for _, even := range []bool{false, true} {
			rules := kingdoms.Basic
			rules.Even = even
			res, err := Simulate(SimConfig{Games: games, Players: n, Rules: rules, Bots: []string{"strong"}, Think: think, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			var pos []string
			for i, p := range res.ByPosition {
				pos = append(pos, rateLine(fmt.Sprint(i+1), p.WinRate, games))
			}
			t.Logf("%d players, %s, strong bots (%d playouts), %d games (fair %.1f%%, %.0f s): %s",
				n, rules, think, games, 100/float64(n), res.Seconds, strings.Join(pos, "; "))
		}
	}
}

// figureGames is how many games a line of figures the environment variable env asks for, or
// skips the test.
func figureGames(t *testing.T, env string) int {
	t.Helper()
	s := os.Getenv(env)
	if s == "" {
		t.Skip("set " + env + " to the number of games a line")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a number of games", env, s)
	}
	return n
}

// rateLine is a win rate with its 95% interval (normal approximation).
func rateLine(what string, p float64, n int) string {
	return fmt.Sprintf("%s: %.1f%% ± %.1f", what, 100*p, 196*math.Sqrt(p*(1-p)/float64(n)))
}

// BenchmarkDecide is one decision of seat 0 at each level, over the decisions of a 4-player
// advanced game among heuristic bots (its time and memory per decision: -benchmem).
// Run: go test -run='^$' -bench=Decide -benchmem ./engine/kingdoms/bot/
func BenchmarkDecide(b *testing.B) {
	var positions []*kingdoms.Game
	l, _ := kingdoms.NewLocal(kingdoms.Advanced, 4, GameSetup(kingdoms.Advanced, 4, 3, 0), nil)
	bots := make([]Bot, 4)
	for i := range bots {
		bots[i] = &Heuristic{rng: rand.New(rand.NewPCG(1, uint64(i)))}
	}
	for {
		d, err := l.Next()
		if err != nil {
			b.Fatal(err)
		}
		if d.Kind == kingdoms.DecideNothing {
			break
		}
		if d.Seat == 0 && l.Game().View(0).Playing {
			positions = append(positions, l.Game().Clone().(*kingdoms.Game))
		}
		if err := play(l, bots[d.Seat], d.Seat, nil); err != nil {
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
