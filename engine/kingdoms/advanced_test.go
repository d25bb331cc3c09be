package kingdoms

import (
	"slices"
	"testing"
)

// One test per rule of the sheet's advanced rules: bill bonuses, then chaos cards.

// passing has seat 1 control five senators and the marshal (and so Grimhold's monarch): enough
// to pass any bill of Grimhold at three players.
func passing(tb *table) { tb.own(1, "chancellor", "whip", "treasurer", "censor", "tribune", "marshal") }

func TestBillBonuses(t *testing.T) {
	bonuses := Config{Bonuses: true}
	for _, tc := range []struct {
		rule string
		run  func(t *testing.T)
	}{
		{"freedom: a bill whose first favor is freedom passes on a tie; the first favor gives the type", func(t *testing.T) {
			for _, tc := range []struct {
				rules  Config
				favors []string
				passes bool
			}{
				{Basic, []string{"freedom-1"}, false},
				{bonuses, []string{"freedom-1"}, true},
				{bonuses, []string{"environment-1", "freedom-1"}, false}, // an environment bill
			} {
				tb := deal{players: 3, rules: tc.rules, favors: append(tc.favors, basicMarket...)}.start(t)
				b := billOf(t, "grimhold-1")
				tb.own(0, "chancellor", "whip", "treasurer", "warden") // and so the monarch
				for _, f := range tc.favors {
					tb.play(PlaceMove(0, favOf(t, f), b))
				}
				if len(tc.favors) == 2 {
					for _, s := range []int{1, 1, 2, 2} {
						tb.play(TakeMove(s, tb.view(s).Market[0]))
					}
				}
				tb.play(CallMove(0, b))
				tb.events = nil
				tb.votes(0) // 5 to 5: three senators, the warden and the monarch for
				if passed := tb.result() == Passed; passed != tc.passes {
					t.Errorf("%s, %v: passed %t, want %t", tc.rules, tc.favors, passed, tc.passes)
				}
			}
		}},
		{"defense: with its guilty pleasure, a player may remove an opponent's marker from a leader of that heart", func(t *testing.T) {
			tb := deal{players: 3, rules: bonuses, favors: basicMarket, displays: []string{"gold/defense", "feasts/magic", "revels/freedom"}}.start(t)
			passing(tb)
			tb.own(2, "ferryman", "hexwife") // gold, potions
			b := billOf(t, "grimhold-1")
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), TakeMove(0, favOf(t, "freedom-1")), CallMove(1, b))
			tb.votes(1)
			pick := PickMove(0, gpOf(t, "gold/defense"))
			pick.Leader = ldrOf(t, "hexwife")
			tb.reject(pick, "its heart is potions, not gold")
			pick.Leader = ldrOf(t, "ferryman")
			tb.play(pick)
			if v := tb.view(0); v.Control[ldrOf(t, "ferryman")] != -1 {
				t.Errorf("the ferryman is still seat %d's", v.Control[ldrOf(t, "ferryman")])
			}
		}},
		{"magic: with its guilty pleasure, a player may exchange its favor on another bill for a favor of the market", func(t *testing.T) {
			tb := deal{players: 3, rules: bonuses, favors: basicMarket}.start(t)
			passing(tb)
			b, other := billOf(t, "grimhold-1"), billOf(t, "mirewood-1")
			tb.play(PlaceMove(0, favOf(t, "magic-1"), b), PlaceMove(0, favOf(t, "defense-1"), other), CallMove(1, b))
			tb.votes(1)
			market := tb.view(0).Market
			pick := PickMove(0, tb.view(0).Display[0])
			pick.Favor, pick.Other = favOf(t, "defense-1"), market[2]
			tb.play(pick)
			v := tb.view(0)
			if got := v.Bills[other].Favors; !slices.Equal(got, []BillFavor{{market[2], 0}}) || v.Market[2] != favOf(t, "defense-1") {
				t.Errorf("bill %v, market %v", got, v.Market)
			}
		}},
		{"environment: before taking its guilty pleasure, a player may put one under the deck and draw one in its place", func(t *testing.T) {
			tb := deal{players: 3, rules: bonuses, favors: append([]string{"environment-1"}, basicMarket...)}.start(t)
			passing(tb)
			b := billOf(t, "grimhold-1")
			tb.play(PlaceMove(0, favOf(t, "environment-1"), b), TakeMove(0, favOf(t, "freedom-1")), CallMove(1, b))
			tb.votes(1)
			old := tb.view(0).Display[1]
			tb.play(CycleMove(0, old))
			v := tb.view(0)
			deck := tb.l.decks[deckPleasures]
			if v.Display[1] == old || v.Display[1] < 0 || deck[len(deck)-1] != old {
				t.Errorf("display %v, deck's bottom %d, cycled %d", v.Display, deck[len(deck)-1], old)
			}
			tb.reject(CycleMove(0, v.Display[0]), "only once")
			tb.play(PickMove(0, v.Display[1]))
		}},
		{"industry: with its guilty pleasure, a player may take a minion of its choice from the supply", func(t *testing.T) {
			tb := deal{players: 3, rules: bonuses, favors: append([]string{"industry-1"}, basicMarket...)}.start(t)
			passing(tb)
			b := billOf(t, "grimhold-1")
			tb.play(PlaceMove(0, favOf(t, "industry-1"), b), TakeMove(0, favOf(t, "freedom-1")), CallMove(1, b))
			tb.votes(1)
			before := tb.minions(0)
			pick := PickMove(0, tb.view(0).Display[0])
			pick.Minion = Zombie
			tb.play(pick)
			if got := tb.minions(0); got[Zombie] != before[Zombie]+1 {
				t.Errorf("minions %v, before %v", got, before)
			}
		}},
		{"no bonus with the basic rules", func(t *testing.T) {
			tb := deal{players: 3, favors: append([]string{"industry-1"}, basicMarket...)}.start(t)
			passing(tb)
			b := billOf(t, "grimhold-1")
			tb.play(PlaceMove(0, favOf(t, "industry-1"), b), TakeMove(0, favOf(t, "freedom-1")), CallMove(1, b))
			tb.votes(1)
			pick := PickMove(0, tb.view(0).Display[0])
			pick.Minion = Zombie
			tb.reject(pick, "only after an industry bill passes")
		}},
	} {
		t.Run(tc.rule, tc.run)
	}
}
