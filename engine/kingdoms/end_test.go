package kingdoms

import (
	"slices"
	"testing"
)

// The end of the game and its scoring, as "Game End: Final Voting and Scoring" gives them.

func TestEndAndScoring(t *testing.T) {
	for _, tc := range []struct {
		rule string
		run  func(t *testing.T)
	}{
		{"drawing the last favor ends the game at once: final voting on every bill with favors, left to right", func(t *testing.T) {
			tb := d3().start(t)
			tb.play(PlaceMove(0, favOf(t, "defense-1"), billOf(t, "mirewood-1")), PlaceMove(0, favOf(t, "magic-1"), billOf(t, "grimhold-2")))
			tb.play(PlaceMove(1, favOf(t, "freedom-1"), billOf(t, "grimhold-1")))
			tb.g().p.favorLen = tb.g().p.favorNext + 2 // the refill due, then the last
			tb.events = nil
			tb.play(TakeMove(1, favOf(t, "environment-1")))
			if d := tb.next(); d.Kind != DecideNothing {
				t.Fatalf("the game goes on: %s", d)
			}
			var calls []int
			for _, e := range tb.events {
				if e.Kind == EventCall && e.Seat == callFinal {
					calls = append(calls, e.Bill)
				}
				if e.Kind == EventEnding && e.Reason != EndFavors || e.Kind == EventTurn {
					t.Errorf("event %s", e)
				}
			}
			if !slices.Equal(calls, []int{0, 1, 2}) {
				t.Errorf("final votes on bills %v, want 0, 1, 2", calls)
			}
			if o := tb.g().Outcome(); !o.Over || len(o.Scores) != 3 {
				t.Errorf("outcome %+v", o)
			}
		}},
		{"drawing the last guilty pleasure ends the game once the bill is resolved", func(t *testing.T) {
			tb := d3().start(t)
			b := billOf(t, "grimhold-1")
			tb.own(1, "chancellor", "whip", "treasurer", "censor", "tribune", "marshal")
			p := &tb.g().p
			p.gpLen = p.gpNext + 1
			tb.l.decks[deckPleasures] = tb.l.decks[deckPleasures][:p.gpLen]
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), PlaceMove(0, favOf(t, "magic-1"), billOf(t, "grimhold-2")), CallMove(1, b))
			tb.votes(0, 1)
			tb.play(PickMove(0, tb.view(0).Display[0]))
			if d := tb.next(); d.Kind != DecideVote {
				t.Fatalf("after the last guilty pleasure is drawn: %s, want the final vote on grimhold-2", d)
			}
			tb.votes()
			if d := tb.next(); d.Kind != DecideNothing || tb.g().p.ending != EndPleasures {
				t.Errorf("%s, ending %d", d, tb.g().p.ending)
			}
		}},
		{"a table ends the game after MaxRounds rounds", func(t *testing.T) {
			tb := d3().start(t)
			tb.g().p.round = MaxRounds
			for s := range 3 {
				f := tb.view(s).Market
				tb.play(TakeMove(s, f[0]), TakeMove(s, f[1]))
			}
			if d := tb.next(); d.Kind != DecideNothing || tb.g().p.ending != EndRounds {
				t.Errorf("%s, ending %d", d, tb.g().p.ending)
			}
		}},
		{"scoring: 1 per own favor; 1 per opponent's favor of the shareholder type; each guilty pleasure 1 per own favor of its type", func(t *testing.T) {
			tb := deal{players: 2, rules: Advanced}.start(t)
			p := &tb.g().p
			for _, f := range []string{"magic-1", "magic-2", "defense-1"} {
				p.piles[0] |= 1 << favOf(t, f)
			}
			for _, f := range []string{"freedom-1", "magic-3", "industry-1"} {
				p.piles[1] |= 1 << favOf(t, f)
			}
			p.owned[0] = 1<<gpOf(t, "gold/magic") | 1<<gpOf(t, "feasts/magic") | 1<<gpOf(t, "revels/industry")
			// Seat 0 holds magic and freedom shares (2 players: two cards); magic-3 counts once.
			sc := tb.g().score(0, []FavorType{Magic, Freedom})
			if want := (Score{Favors: 3, Shareholder: 2, Pleasures: 4, Total: 9, Minions: 2}); sc != want {
				t.Errorf("score %+v, want %+v", sc, want)
			}
			if sc := tb.g().score(0, []FavorType{Magic, Magic}); sc.Shareholder != 1 {
				t.Errorf("two magic shares score %d for one magic favor", sc.Shareholder)
			}
		}},
		{"ties: the most minions among the tied players wins; a tie on both is shared", func(t *testing.T) {
			for _, tc := range []struct {
				scores []Score
				want   []int
			}{
				{[]Score{{Total: 5, Minions: 1}, {Total: 7}, {Total: 6, Minions: 9}}, []int{1}},
				{[]Score{{Total: 7, Minions: 1}, {Total: 7, Minions: 3}, {Total: 6, Minions: 9}}, []int{1}},
				{[]Score{{Total: 7, Minions: 3}, {Total: 7, Minions: 3}, {Total: 7, Minions: 2}}, []int{0, 1}},
			} {
				if got := winners(tc.scores); !slices.Equal(got, tc.want) {
					t.Errorf("%+v: winners %v, want %v", tc.scores, got, tc.want)
				}
			}
		}},
	} {
		t.Run(tc.rule, tc.run)
	}
}
