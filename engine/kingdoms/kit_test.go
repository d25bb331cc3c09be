package kingdoms_test

import (
	"fmt"
	"slices"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// kitPlayers is one bot per seat, heuristic and random in turn, seeded from g.
func kitPlayers(kinds []string, n int, g uint64) []engine.Player {
	ps := make([]engine.Player, n)
	for s := range ps {
		b, _ := bot.New(kinds[s%len(kinds)], g<<8|uint64(s))
		ps[s] = bot.Player(b)
	}
	return ps
}

// configs are the rules a table of n may play (with the house rules "even": basic and advanced).
func configs(n int) []kingdoms.Config {
	var out []kingdoms.Config
	for _, c := range []kingdoms.Config{kingdoms.Basic, {Bonuses: true}, {Chaos: true}, kingdoms.Advanced, {Even: true}, {Bonuses: true, Chaos: true, Even: true}} {
		if c.Check(n) == nil {
			out = append(out, c)
		}
	}
	return out
}

// TestKitGames plays games through the kit at every size with every option, every seat's node
// knowing only what it may, and after every input checks that no view shows a seat what it
// may not see, that minions, favors and guilty pleasures are all accounted for, and at the end
// that the scores are what the final state says.
func TestKitGames(t *testing.T) {
	games := uint64(6)
	if testing.Short() {
		games = 2
	}
	for n := kingdoms.MinPlayers; n <= kingdoms.MaxPlayers; n++ {
		for _, c := range configs(n) {
			t.Run(fmt.Sprintf("%d players, %s", n, c), func(t *testing.T) {
				t.Parallel()
				plays := 0
				for g := range games {
					watch := func(tn enginetest.Turn) error {
						if tn.Input.Kind == engine.InShown && tn.Step.Deck > 7 {
							plays++
						}
						return checkTurn(tn, n)
					}
					res, err := enginetest.Play(kingdoms.Rules{}, kingdoms.EncodeConfig(c), kitPlayers([]string{"heuristic", "random"}, n, g), g,
						enginetest.Watch(watch))
					if err != nil {
						t.Fatalf("game %d: %v", g, err)
					}
					if err := checkScores(res.Observer.(*kingdoms.Game), res.Outcome); err != nil {
						t.Fatalf("game %d: %v", g, err)
					}
				}
				if c.Chaos && plays == 0 {
					t.Errorf("%d games and no chaos card played", games)
				}
			})
		}
	}
}

// checkTurn holds every copy to what it may know, and the observer's state to the counts.
func checkTurn(tn enginetest.Turn, n int) error {
	obs := tn.Observer.(*kingdoms.Game)
	for seat, eg := range tn.Seats {
		g := eg.(*kingdoms.Game)
		for o := -1; o < n; o++ {
			v := g.View(o)
			if o != seat {
				// What another seat's node shows of seat o is what the observer, who was told
				// nothing, shows: public information alone.
				pub := obs.View(o)
				if !slices.Equal(v.Hand, pub.Hand) || len(v.Shareholders) > 0 {
					return fmt.Errorf("seat %d's node shows seat %d's hand %+v and shares %v", seat, o, v.Hand, v.Shareholders)
				}
				for _, h := range pub.Hand {
					if h.Card >= 0 && !h.Played {
						return fmt.Errorf("the observer knows seat %d's unplayed chaos card %+v", o, h)
					}
				}
			}
			if v.Vote != nil && !v.Vote.Revealed && slices.ContainsFunc(v.Vote.Votes, func(x int) bool { return x >= 0 }) {
				return fmt.Errorf("seat %d's node shows votes before they are revealed", seat)
			}
		}
		if v := g.View(seat); v.Playing && len(v.Shareholders) != kingdoms.ShareholderCards(n) {
			return fmt.Errorf("seat %d's node does not know its shareholder cards", seat)
		}
	}
	for _, h := range obs.View(-1).Hand {
		return fmt.Errorf("the observer sees a hand: %+v", h)
	}
	return conserved(obs.View(-1), n)
}

// conserved checks that every minion, favor and guilty pleasure is somewhere, once.
func conserved(v kingdoms.View, n int) error {
	if !v.Playing {
		return nil
	}
	minions := 0
	for _, k := range v.Supply {
		minions += k
	}
	favors := v.FavorDeck + 5*(10-kingdoms.FavorsPerType(n)) // in the deck, set aside
	pleasures := v.PleasureDeck
	seen := map[int]bool{}
	count := func(f int) {
		if f >= 0 {
			favors++
			seen[f] = true
		}
	}
	for _, f := range v.FavorDiscard {
		count(f)
	}
	for _, sv := range v.Seats {
		for _, k := range sv.Minions {
			minions += k
		}
		for _, f := range sv.Pile {
			count(f)
		}
		pleasures += len(sv.Pleasures)
	}
	for _, f := range v.Market {
		count(f)
	}
	for _, b := range v.Bills {
		for _, f := range b.Favors {
			count(f.Favor)
		}
	}
	for _, p := range v.Display {
		if p >= 0 {
			pleasures++
		}
	}
	visible := favors - v.FavorDeck - 5*(10-kingdoms.FavorsPerType(n))
	switch {
	case minions != 4*kingdoms.SupplyPerMinion:
		return fmt.Errorf("%d minions in the game, want %d", minions, 4*kingdoms.SupplyPerMinion)
	case favors != kingdoms.NumFavors || len(seen) != visible:
		return fmt.Errorf("%d favors in the game (%d seen, %d distinct), want %d", favors, visible, len(seen), kingdoms.NumFavors)
	case pleasures != kingdoms.NumPleasures:
		return fmt.Errorf("%d guilty pleasures in the game, want %d", pleasures, kingdoms.NumPleasures)
	}
	return nil
}

// checkScores recomputes every seat's score from the final public state, independently of the
// engine's scoring, and checks the outcome against it.
func checkScores(g *kingdoms.Game, out engine.Outcome) error {
	v := g.View(-1)
	all, ps := kingdoms.Favors(), kingdoms.Pleasures()
	typeOf := func(f int) kingdoms.FavorType { return all[f].Type }
	best, bestMinions := -1, -1
	var winners []int
	for s, sv := range v.Seats {
		score := len(sv.Pile)
		for o, ov := range v.Seats {
			for _, f := range ov.Pile {
				if o != s && slices.Contains(sv.Shareholders, typeOf(f)) {
					score++
				}
			}
		}
		for _, p := range sv.Pleasures {
			for _, f := range sv.Pile {
				if typeOf(f) == ps[p].Type {
					score++
				}
			}
		}
		if out.Scores[s] != score {
			return fmt.Errorf("seat %d scores %d, but its pile, pleasures and shares make %d", s, out.Scores[s], score)
		}
		minions := 0
		for _, k := range sv.Minions {
			minions += k
		}
		switch {
		case score > best || score == best && minions > bestMinions:
			best, bestMinions, winners = score, minions, []int{s}
		case score == best && minions == bestMinions:
			winners = append(winners, s)
		}
	}
	if !slices.Equal(winners, out.Winners) {
		return fmt.Errorf("winners %v, want %v", out.Winners, winners)
	}
	return nil
}

// BenchmarkGame is one 4-player game with the advanced rules and random bots through
// enginetest's table (five copies of the game). Compare with Corruption's in the same run:
// go test -run='^$' -bench='^BenchmarkGame$|^BenchmarkKitGame$' ./engine/kingdoms/ ./engine/corruption/
// It reports the inputs of a game and, among them, the answers asked for (response rounds).
func BenchmarkGame(b *testing.B) {
	inputs, answers := 0, 0
	count := enginetest.Watch(func(tn enginetest.Turn) error {
		if tn.Step.Respond {
			answers++
		}
		return nil
	})
	for i := range b.N {
		res, err := enginetest.Play(kingdoms.Rules{}, kingdoms.EncodeConfig(kingdoms.Advanced), kitPlayers([]string{"random"}, 4, uint64(i)), uint64(i), count)
		if err != nil {
			b.Fatal(err)
		}
		inputs += res.Inputs
	}
	b.ReportMetric(float64(inputs)/float64(b.N), "inputs/game")
	b.ReportMetric(float64(answers)/float64(b.N), "answers/game")
}
