package corruption_test

// Rule tests for the next round's first player (RULES.md, "Round structure" 4) and the end of
// the game ("End"). Same conventions as rules_test.go. A seat "wins X" with a lone $1,000 bribe
// under X; everything else goes under firehouse, which one seat's district attorney cancels
// (or, without one, where every seat ties).

import (
	"testing"

	"corruption/engine/corruption"
)

const (
	sinkDA   = "da:firehouse 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse"
	sinkAll  = "1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse"
	sinkWin1 = "2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse"
	sinkWin2 = "4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse"
	sinkWin3 = "6000:firehouse 8000:firehouse 10000:firehouse"
)

func TestLeader(t *testing.T) {
	tied := func(first int) []string {
		return turns(first, "1000:police "+sinkWin1, sinkDA, "1000:postoffice "+sinkWin1)
	}
	tied4 := func(first int) []string {
		return turns(first, sinkDA, "1000:police "+sinkWin1, "1000:postoffice "+sinkWin1, sinkAll)
	}
	runCases(t, []ruleCase{{
		name: "the highest total value leads",
		g:    game{moves: turns(0, sinkDA, "1000:school "+sinkWin1, "1000:police "+sinkWin1)},
		want: outcome{round: 2, first: intp(2), next: "place 2", scores: []int{0, 100000, 200000}},
	}, {
		name: "value before number of contracts",
		g:    game{moves: turns(0, sinkDA, "1000:school 2000:monument 4000:library "+sinkWin3, "1000:police 2000:postoffice "+sinkWin2)},
		want: outcome{round: 2, first: intp(2), scores: []int{0, 350000, 400000}},
	}, {
		name: "tied on value: more contracts",
		g:    game{moves: turns(0, sinkDA, "1000:school 2000:monument "+sinkWin2, "1000:police "+sinkWin1)},
		want: outcome{round: 2, first: intp(1), scores: []int{0, 200000, 200000}},
	}, {
		name: "still tied: the previous first player, if tied",
		g:    game{moves: tied(0)},
		want: outcome{round: 2, first: intp(0), scores: []int{200000, 0, 200000}},
	}, {
		name: "still tied: the first tied player clockwise from the previous first player",
		g:    game{first: 1, moves: tied(1)},
		want: outcome{round: 2, first: intp(2)},
	}, {
		name: "still tied: the previous first player included",
		g:    game{first: 2, moves: tied(2)},
		want: outcome{round: 2, first: intp(2)},
	}, {
		name: "still tied: clockwise goes round the table (4 players, from seat 3)",
		g:    game{players: 4, first: 3, moves: tied4(3)},
		want: outcome{round: 2, first: intp(1), scores: []int{0, 200000, 200000, 0}},
	}, {
		name: "still tied: 4 players, from seat 2",
		g:    game{players: 4, first: 2, moves: tied4(2)},
		want: outcome{round: 2, first: intp(2)},
	}, {
		name: "nothing won: the previous first player again",
		g:    game{first: 1, moves: nullRound(1, 0, "firehouse")},
		want: outcome{round: 2, first: intp(1), next: "place 1"},
	}, {
		// Round 1: seat 2 wins police and postoffice ($400,000). Round 2: seat 1 wins hospital
		// ($300,000). The totals decide, not the last round: seat 2 leads round 3.
		name: "totals over the whole game, not the last round",
		g: game{moves: moves(
			turns(0, sinkDA, sinkAll, "1000:police 2000:postoffice "+sinkWin2),
			turns(2, sinkAll, "da:firehouse 1000:hospital 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse", sinkAll))},
		want: outcome{round: 3, first: intp(2), scores: []int{0, 300000, 400000}},
	}, {
		// Round 2: seat 1 wins hospital and sewer ($700,000) and overtakes seat 2.
		name: "the lead changes hands",
		g: game{moves: moves(
			turns(0, sinkDA, sinkAll, "1000:police 2000:postoffice "+sinkWin2),
			turns(2, sinkAll, "da:firehouse 1000:hospital 2000:sewer 4000:firehouse 6000:firehouse 8000:firehouse", sinkAll))},
		want: outcome{round: 3, first: intp(1), scores: []int{0, 700000, 400000}, won: []string{"", "hospital sewer", "police postoffice"}},
	}})
}

func TestEndOfGame(t *testing.T) {
	// Rounds 2 to 4 after a round 1 that decided everything: nobody wins anything (the two DAs
	// not yet played cancel firehouse in rounds 2 and 3; in round 4 everyone ties there).
	rest := func(first, da2, da3 int) []string {
		return moves(nullRound(first, da2, "firehouse"), nullRound(first, da3, "firehouse"), nullRound(first, -1, "firehouse"))
	}
	endCheck := func(t *testing.T, s *corruption.State, _ []corruption.Event) {
		// Every contract is won by one seat or left on the table, deferred; all were dealt.
		total, won := 0, 0
		for _, ci := range corruption.DefaultDeck {
			c := contract(t, ci.ID)
			w := s.Winner(c)
			switch {
			case w >= 0 && s.OnTable(c):
				t.Errorf("%s is won by seat %d and on the table", ci.ID, w)
			case w >= 0:
				won += ci.Value
			case !s.Deferred(c):
				t.Errorf("%s is neither won nor deferred on the table", ci.ID)
			}
			total += ci.Value
		}
		scores := 0
		for seat := 0; seat < s.Config().Players; seat++ {
			v, _ := s.Score(seat)
			scores += v
		}
		if scores != won || total != 12000000 {
			t.Errorf("scores add up to %d, won contracts to %d, the deck to %d", scores, won, total)
		}
		if d := s.Next(); d.Kind != corruption.DecideNothing {
			t.Errorf("Next %v after the end", d)
		}
		if s.Round() != 4 {
			t.Errorf("round %d after the end, want 4", s.Round())
		}
	}
	e1 := moves(turns(0, "1000:school "+sinkWin1, sinkDA, "1000:police 2000:postoffice "+sinkWin2), rest(2, 0, 2))
	runCases(t, []ruleCase{{
		name:  "after round 4, the highest total value wins",
		g:     game{moves: e1},
		want:  outcome{over: true, winners: []int{2}, scores: []int{100000, 0, 400000}, won: []string{"school", "", "police postoffice"}},
		extra: endCheck,
	}, {
		name: "no move after the end",
		g:    game{moves: moves(e1, `{"seat": 2, "card": "1000", "on": "firehouse"}`)},
		want: outcome{err: "move 73: the game is over", over: true, winners: []int{2}},
	}, {
		name:  "value before number of contracts",
		g:     game{moves: moves(turns(0, sinkDA, "1000:school 2000:monument 4000:library "+sinkWin3, "1000:police 2000:postoffice "+sinkWin2), rest(2, 1, 2))},
		want:  outcome{over: true, winners: []int{2}, scores: []int{0, 350000, 400000}},
		extra: endCheck,
	}, {
		name:  "tied on value: more contracts",
		g:     game{moves: moves(turns(0, "1000:police "+sinkWin1, "1000:school 2000:monument "+sinkWin2, sinkDA), rest(1, 0, 1))},
		want:  outcome{over: true, winners: []int{1}, scores: []int{200000, 200000, 0}},
		extra: endCheck,
	}, {
		name:  "still tied: a shared win",
		g:     game{moves: moves(turns(0, "1000:school "+sinkWin1, "1000:monument "+sinkWin1, sinkDA), rest(0, 0, 1))},
		want:  outcome{over: true, winners: []int{0, 1}, scores: []int{100000, 100000, 0}},
		extra: endCheck,
	}, {
		// RULES.md does not single this case out; by its words ("still tied: a shared win") the
		// three seats, all at $0 with no contract, share the win.
		name:  "nothing won by anyone: everybody ties",
		g:     game{moves: moves(nullRound(0, 0, "firehouse"), rest(0, 1, 2))},
		want:  outcome{over: true, winners: []int{0, 1, 2}, scores: []int{0, 0, 0}},
		extra: endCheck,
	}, {
		name: "the game is not over before round 4 ends",
		g:    game{moves: e1[:71]},
		want: outcome{round: 4, next: "place 1", winners: nil},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if w := s.Winners(); len(w) != 0 {
				t.Errorf("winners %v before the end", w)
			}
		},
	}})
}
