package bot

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"corruption/engine/kingdoms"
)

// TestTune searches the heuristic's weights by self-play, one weight at a time: a candidate
// replaces the best so far when it beats it at mixed tables of three, four and five players.
// It runs only when asked, and prints the weights it found (to copy into defaults):
// KINGDOMS_TUNE=400 go test -run TestTune -v ./engine/kingdoms/bot/
func TestTune(t *testing.T) {
	games := 0
	fmt.Sscan(os.Getenv("KINGDOMS_TUNE"), &games)
	if games == 0 {
		t.Skip("set KINGDOMS_TUNE to the number of games per table size")
	}
	best := defaults
	edge := func(cand params, seed uint64) float64 {
		variants["cand"], variants["base"] = cand, best
		d := 0.0
		for _, n := range []int{3, 4, 5} {
			res, err := Simulate(SimConfig{Games: games, Players: n, Rules: kingdoms.Advanced, Bots: []string{"cand", "base"}, Seed: seed + uint64(n)})
			if err != nil {
				t.Fatal(err)
			}
			d += res.ByBot["cand"].WinRate - res.ByBot["base"].WinRate
		}
		return d / 3
	}
	fields := []struct {
		name string
		get  func(*params) *float64
	}{
		{"influence", func(p *params) *float64 { return &p.influence }},
		{"place", func(p *params) *float64 { return &p.place }},
		{"rivalry", func(p *params) *float64 { return &p.rivalry }},
		{"minion", func(p *params) *float64 { return &p.minion }},
		{"coop", func(p *params) *float64 { return &p.coop }},
		{"future", func(p *params) *float64 { return &p.future }},
	}
	seed := uint64(100)
	for round := range 2 {
		for _, f := range fields {
			for _, factor := range []float64{0.5, 1.6} {
				cand := best
				v := f.get(&cand)
				if *v == 0 {
					*v = 0.3 * factor
				} else {
					*v *= factor
				}
				seed += 10
				if e := edge(cand, seed); e > 0.025 {
					t.Logf("round %d: %s %.3f -> %.3f wins by %.1f points", round, f.name, *f.get(&best), *v, 100*e)
					best = cand
				}
			}
		}
	}
	t.Logf("best: %+v", best)
}

// TestBalance prints the balance figures of docs/KINGDOMS.md: heuristic bots against each
// other, win rates by place in turn order and by corporation. It runs only when asked:
// KINGDOMS_BALANCE=2000 go test -run TestBalance -v ./engine/kingdoms/bot/
func TestBalance(t *testing.T) {
	games := 0
	fmt.Sscan(os.Getenv("KINGDOMS_BALANCE"), &games)
	if games == 0 {
		t.Skip("set KINGDOMS_BALANCE to the number of games per table size")
	}
	if s := os.Getenv("KINGDOMS_PARAMS"); s != "" { // trying weights: influence,place,rivalry,minion,coop,future
		p := &defaults
		if _, err := fmt.Sscanf(s, "%g,%g,%g,%g,%g,%g", &p.influence, &p.place, &p.rivalry, &p.minion, &p.coop, &p.future); err != nil {
			t.Fatal(err)
		}
	}
	for n := kingdoms.MinPlayers; n <= kingdoms.MaxPlayers; n++ {
		for _, rules := range []kingdoms.Config{kingdoms.Basic, kingdoms.Advanced} {
			if rules.Check(n) != nil {
				continue
			}
			res, err := Simulate(SimConfig{Games: games, Players: n, Rules: rules, Bots: []string{"heuristic"}, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			var pos, corps []string
			for i, p := range res.ByPosition {
				pos = append(pos, fmt.Sprintf("%d: %.1f%%", i+1, 100*p.WinRate))
			}
			ids := make([]string, 0, len(res.ByCorp))
			for id := range res.ByCorp {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			for _, id := range ids {
				corps = append(corps, fmt.Sprintf("%s %.1f%%", id, 100*res.ByCorp[id].WinRate))
			}
			t.Logf("%d players, %s (fair %.1f%%), mean score %.1f, %.1f rounds, %.0f games/s\n  by place: %s\n  by corporation: %s",
				n, rules, 100/float64(n), res.ByBot["heuristic"].MeanScore, res.MeanRounds, res.GamesPerSec,
				strings.Join(pos, ", "), strings.Join(corps, ", "))
		}
	}
}
