package bot

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms"
)

// TestTune searches the heuristic's weights by self-play, one weight at a time: a candidate
// replaces the best so far when it beats it at mixed tables of three, four and five players.
// It runs only when asked, and prints the weights it found (to copy into defaults):
// KINGDOMS_TUNE=400 go test -run TestTune -v ./engine/kingdoms/bot/
//
// With KINGDOMS_TUNE_RULES=basic it searches basicWeights instead, at basic tables of three to
// six players with and without the house rules "even", with more steps a weight (a candidate
// wins when it beats the best by 1.5 points on average over the eight tables), and a
// candidate must also keep bills passing: among its own kind it must score at least 90% of what
// the best so far scores (a bot that votes down every bill it has no favor on beats the others
// head to head, and among such bots no bill passes and games are won on the minion tie-break):
// KINGDOMS_TUNE=500 KINGDOMS_TUNE_RULES=basic go test -run TestTune -v ./engine/kingdoms/bot/
func TestTune(t *testing.T) {
	games := asked(t, "KINGDOMS_TUNE")
	type table struct {
		n     int
		rules kingdoms.Config
	}
	best, factors, margin := defaults, []float64{0.5, 1.6}, 0.025
	tables := []table{{3, kingdoms.Advanced}, {4, kingdoms.Advanced}, {5, kingdoms.Advanced}}
	basic := os.Getenv("KINGDOMS_TUNE_RULES") == "basic"
	if basic {
		best, factors, margin, tables = basicWeights, []float64{0.5, 0.7, 1.4, 2}, 0.015, nil
		for _, even := range []bool{false, true} {
			for n := 3; n <= kingdoms.MaxPlayers; n++ {
				tables = append(tables, table{n, kingdoms.Config{Even: even}})
			}
		}
	}
	edge := func(cand params, seed uint64) float64 {
		variants["cand"], variants["base"] = cand, best
		d := 0.0
		for _, tb := range tables {
			res, err := Simulate(SimConfig{Games: games, Players: tb.n, Rules: tb.rules, Bots: []string{"cand", "base"}, Seed: seed + uint64(tb.n)})
			if err != nil {
				t.Fatal(err)
			}
			d += res.ByBot["cand"].WinRate - res.ByBot["base"].WinRate
		}
		return d / float64(len(tables))
	}
	// score is what p's bots score among themselves, on average over the tables.
	score := func(p params) float64 {
		variants["self"] = p
		s := 0.0
		for _, tb := range tables {
			res, err := Simulate(SimConfig{Games: games / 4, Players: tb.n, Rules: tb.rules, Bots: []string{"self"}, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			s += res.ByBot["self"].MeanScore
		}
		return s / float64(len(tables))
	}
	bestScore := 0.0
	if basic {
		bestScore = score(best)
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
			for _, factor := range factors {
				cand := best
				v := f.get(&cand)
				if *v == 0 {
					*v = 0.3 * factor
				} else {
					*v *= factor
				}
				seed += 10
				e := edge(cand, seed)
				if e <= margin {
					continue
				}
				if basic {
					s := score(cand)
					if s < 0.9*bestScore {
						t.Logf("round %d: %s %.3f -> %.3f wins by %.1f points but scores %.1f, not %.1f", round, f.name, *f.get(&best), *v, 100*e, s, bestScore)
						continue
					}
					bestScore = s
				}
				t.Logf("round %d: %s %.3f -> %.3f wins by %.1f points", round, f.name, *f.get(&best), *v, 100*e)
				best = cand
			}
		}
	}
	t.Logf("best: %+v", best)
}

// asked is the number of games a table size that the figure-printing test t is asked for in the
// environment variable env, with the weights to try set (tryWeights); t is skipped when env is
// not set.
func asked(t *testing.T, env string) int {
	t.Helper()
	games := 0
	fmt.Sscan(os.Getenv(env), &games)
	if games == 0 {
		t.Skip("set " + env + " to the number of games per table size")
	}
	tryWeights(t)
	return games
}

// tryWeights sets weights to try for the test, from influence,place,rivalry,minion,coop,future:
// KINGDOMS_PARAMS the advanced rules' (defaults), KINGDOMS_BASIC_PARAMS the basic rules'
// (basicWeights), which TestTune starts from and TestBalance plays with.
func tryWeights(t *testing.T) {
	for env, p := range map[string]*params{"KINGDOMS_PARAMS": &defaults, "KINGDOMS_BASIC_PARAMS": &basicWeights} {
		if s := os.Getenv(env); s != "" {
			saved := *p
			t.Cleanup(func() { *p = saved })
			if _, err := fmt.Sscanf(s, "%g,%g,%g,%g,%g,%g", &p.influence, &p.place, &p.rivalry, &p.minion, &p.coop, &p.future); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestBalance prints the balance figures of docs/KINGDOMS.md: heuristic bots against each
// other, win rates by place in turn order and by corporation, with the sheet's rules and then
// with the house rules "even". It runs only when asked:
// KINGDOMS_BALANCE=2000 go test -run TestBalance -v ./engine/kingdoms/bot/
func TestBalance(t *testing.T) {
	games := asked(t, "KINGDOMS_BALANCE")
	for _, even := range []bool{false, true} {
		for n := kingdoms.MinPlayers; n <= kingdoms.MaxPlayers; n++ {
			balance(t, games, n, even)
		}
	}
}

// balance prints the lines of a table size, basic and advanced, and how far the place furthest
// from its fair share is from it.
func balance(t *testing.T, games, n int, even bool) {
	t.Helper()
	for _, rules := range []kingdoms.Config{kingdoms.Basic, kingdoms.Advanced} {
		rules.Even = even
		if rules.Check(n) != nil {
			continue
		}
		res, err := Simulate(SimConfig{Games: games, Players: n, Rules: rules, Bots: []string{"heuristic"}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		fair := 100 / float64(n)
		var pos, corps []string
		worst := 0.0
		for i, p := range res.ByPosition {
			pos = append(pos, fmt.Sprintf("%d: %.1f%%", i+1, 100*p.WinRate))
			worst = math.Max(worst, math.Abs(100*p.WinRate-fair))
		}
		ids := make([]string, 0, len(res.ByCorp))
		for id := range res.ByCorp {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			corps = append(corps, fmt.Sprintf("%s %.1f%%", id, 100*res.ByCorp[id].WinRate))
		}
		t.Logf("%d players, %s (fair %.1f%%), mean score %.1f, %.1f rounds, %.0f games/s\n  by place: %s (furthest %.1f points from fair)\n  by corporation: %s",
			n, rules, fair, res.ByBot["heuristic"].MeanScore, res.MeanRounds, res.GamesPerSec,
			strings.Join(pos, ", "), worst, strings.Join(corps, ", "))
	}
}

// TestBasicWeightsBeatAdvanced: at basic tables of three to six players, with and without the
// house rules "even", the heuristic bot (its basic weights there) beats a heuristic bot with the
// advanced weights, seated in turn.
func TestBasicWeightsBeatAdvanced(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 60
	}
	variants["advanced"] = defaults
	edge := 0.0
	for _, even := range []bool{false, true} {
		for n := 3; n <= kingdoms.MaxPlayers; n++ {
			rules := kingdoms.Config{Even: even}
			res, err := Simulate(SimConfig{Games: games, Players: n, Rules: rules, Bots: []string{"heuristic", "advanced"}, Seed: 7 + uint64(n)})
			if err != nil {
				t.Fatal(err)
			}
			b, a := res.ByBot["heuristic"], res.ByBot["advanced"]
			t.Logf("%d players, %s: basic weights win %.1f%% (mean score %.1f), advanced weights %.1f%% (%.1f)", n, rules, 100*b.WinRate, b.MeanScore, 100*a.WinRate, a.MeanScore)
			edge += (b.WinRate - a.WinRate) / 8
		}
	}
	if edge < 0.04 {
		t.Errorf("the basic weights beat the advanced ones at basic tables by %.1f points on average, want 4 or more", 100*edge)
	}
}

// TestPlaces prints, by place in turn order, what heuristic bots do and gain at each table size
// (docs/KINGDOMS.md, "Where the basic places come from"): wins, favors placed and scored,
// passed bills joined, first picks of guilty pleasures and their points, automatic votes
// set off (the favor added to a bill of four), votes called, leaders influenced. It runs
// only when asked:
// KINGDOMS_PLACES=2000 go test -run TestPlaces -v ./engine/kingdoms/bot/
func TestPlaces(t *testing.T) {
	games := asked(t, "KINGDOMS_PLACES")
	for _, rules := range []kingdoms.Config{{Even: true}, {}, {Bonuses: true, Chaos: true, Even: true}} {
		for n := 3; n <= kingdoms.MaxPlayers; n++ {
			places(t, games, n, rules)
		}
	}
}

// TestPlacesTally plays a few games through TestPlaces' tally, whose figures docs/KINGDOMS.md
// quotes, and checks what must hold of them.
func TestPlacesTally(t *testing.T) {
	for n := 3; n <= kingdoms.MaxPlayers; n += 3 {
		places(t, 10, n, kingdoms.Config{Even: true})
	}
}

// placeTally is what the seats at one place in turn order did, summed over a batch.
type placeTally struct {
	wins, placed, scored, joined, firstPicks, pleasure, triggered, called, influenced float64
}

func places(t *testing.T, games, n int, rules kingdoms.Config) {
	t.Helper()
	tally := make([]placeTally, n)
	for g := range games {
		first, lastPlacer, firstPick := 0, -1, false
		pos := func(seat int) int { return (seat - first + n) % n }
		onEvent := func(ev engine.Event) {
			switch e := ev.Data.(kingdoms.Event); e.Kind {
			case kingdoms.EventFirst:
				first = e.Seat
			case kingdoms.EventPlace:
				tally[pos(e.Seat)].placed++
				lastPlacer = e.Seat
			case kingdoms.EventInfluence:
				tally[pos(e.Seat)].influenced++
			case kingdoms.EventCall:
				switch {
				case e.Seat >= 0:
					tally[pos(e.Seat)].called++
				case e.Seat == -1 && lastPlacer >= 0: // called automatically by the favor just placed
					tally[pos(lastPlacer)].triggered++
				}
			case kingdoms.EventResult:
				firstPick = e.Result == kingdoms.Passed
			case kingdoms.EventPleasure:
				if firstPick && e.Pleasure >= 0 {
					tally[pos(e.Seat)].firstPicks++
				}
				firstPick = false
			case kingdoms.EventCollect:
				tally[pos(e.Seat)].joined++
			}
		}
		l, err := kingdoms.NewLocal(rules, n, GameSetup(rules, n, 1, g), onEvent)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]Bot, n)
		for seat := range bots {
			bots[seat], _ = New("heuristic", 1^uint64(g)<<8^uint64(seat))
		}
		if err := Play(l, bots, nil); err != nil {
			t.Fatal(err)
		}
		v, out := l.Game().View(-1), l.Game().Outcome()
		for seat, sc := range v.Scores {
			tally[pos(seat)].scored += float64(sc.Favors)
			tally[pos(seat)].pleasure += float64(sc.Pleasures)
		}
		for _, w := range out.Winners {
			tally[pos(w)].wins += 1 / float64(len(out.Winners))
		}
	}
	wins := 0.0
	for p, x := range tally {
		wins += x.wins
		if x.firstPicks > x.joined || x.joined > x.placed {
			t.Errorf("%d players, %s, place %d: %.0f first picks, %.0f passed bills joined, %.0f favors placed", n, rules, p+1, x.firstPicks, x.joined, x.placed)
		}
	}
	if math.Abs(wins-float64(games)) > 1e-6 {
		t.Errorf("%d players, %s: %.3f wins in %d games", n, rules, wins, games)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d players, %s, %d games; a game, by place in turn order:\n", n, rules, games)
	fmt.Fprintf(&b, "  place   wins  placed  scored  bills  first picks  pleasure pts  auto votes  called  leaders\n")
	for p, x := range tally {
		d := float64(games)
		fmt.Fprintf(&b, "  %5d  %4.1f%%  %6.2f  %6.2f  %5.2f  %11.2f  %12.2f  %10.2f  %6.2f  %7.2f\n",
			p+1, 100*x.wins/d, x.placed/d, x.scored/d, x.joined/d, x.firstPicks/d, x.pleasure/d, x.triggered/d, x.called/d, x.influenced/d)
	}
	t.Log(b.String())
}
