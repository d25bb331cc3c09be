package kingdoms

import (
	"math/bits"

	"corruption/engine"
)

// Scoring, as "Game End: Final Voting and Scoring" gives it.

// Score is a seat's final score and its parts.
type Score struct {
	Favors      int `json:"favors"`      // 1 per favor in its score pile
	Shareholder int `json:"shareholder"` // 1 per favor in an opponent's pile of its shareholder type(s)
	Pleasures   int `json:"pleasures"`   // each guilty pleasure: 1 per favor of its type in its own pile
	Total       int `json:"total"`
	Minions     int `json:"minions"` // the tie-breaker
}

// score is seat's score, with shares its shareholder types (the shown cards at the end). A
// favor of an opponent scores once even if both of a 2-player seat's cards match it.
func (g *Game) score(seat int, shares []FavorType) Score {
	var sc Score
	var own [NumFavorTypes]int
	for f := range NumFavors {
		if g.p.piles[seat]&(1<<f) != 0 {
			own[favors[f].Type]++
		}
	}
	sc.Favors = bits.OnesCount64(g.p.piles[seat])
	for o := range g.n {
		if o == seat {
			continue
		}
		for f := range NumFavors {
			if g.p.piles[o]&(1<<f) != 0 && containsType(shares, favors[f].Type) {
				sc.Shareholder++
			}
		}
	}
	for p := range NumPleasures {
		if g.p.owned[seat]&(1<<p) != 0 {
			sc.Pleasures += own[pleasures[p].Type]
		}
	}
	for _, k := range g.p.minions[seat] {
		sc.Minions += int(k)
	}
	sc.Total = sc.Favors + sc.Shareholder + sc.Pleasures
	return sc
}

func containsType(ts []FavorType, t FavorType) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// shownTypes is seat's shareholder types as shown at the end (none before).
func (g *Game) shownTypes(seat int) []FavorType {
	var ts []FavorType
	for _, c := range g.p.shown[seat] {
		if c >= 0 {
			ts = append(ts, shareholders[c])
		}
	}
	return ts
}

// Scores is every seat's final score, once the game is over (nil before).
func (g *Game) Scores() []Score {
	if !g.p.over {
		return nil
	}
	out := make([]Score, g.n)
	for s := range out {
		out[s] = g.score(s, g.shownTypes(s))
	}
	return out
}

// winners: the highest score wins; among tied players, the most minions; a tie on both is
// shared.
func winners(scores []Score) []int {
	var w []int
	for s, sc := range scores {
		if len(w) > 0 {
			best := scores[w[0]]
			if sc.Total < best.Total || sc.Total == best.Total && sc.Minions < best.Minions {
				continue
			}
			if sc.Total > best.Total || sc.Minions > best.Minions {
				w = w[:0]
			}
		}
		w = append(w, s)
	}
	return w
}

// finish ends the game with the scores.
func (g *Game) finish() {
	g.p.over = true
	scores := g.Scores()
	for s, sc := range scores {
		g.emit(Event{Kind: EventScore, Seat: s, Score: sc})
	}
	g.emit(Event{Kind: EventOver, Winners: winners(scores)})
}

// Outcome is the end of the game: every seat's score and the winners. It is zero before the
// end.
func (g *Game) Outcome() engine.Outcome {
	scores := g.Scores()
	if scores == nil {
		return engine.Outcome{}
	}
	o := engine.Outcome{Over: true, Scores: make([]int, g.n), Winners: winners(scores)}
	for s, sc := range scores {
		o.Scores[s] = sc.Total
	}
	return o
}
