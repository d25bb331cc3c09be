package kingdoms

import (
	"slices"
	"testing"
)

// One test per rule of the sheet's basic rules, in its order: each case names the rule it
// holds the engine to.

var basicMarket = []string{"freedom-1", "defense-1", "magic-1", "environment-1", "industry-1", "freedom-2", "defense-2",
	"magic-2", "environment-2", "industry-2", "freedom-3", "defense-3"}

func d3() deal { return deal{players: 3, favors: basicMarket} }

func TestBasicRules(t *testing.T) {
	for _, tc := range []struct {
		rule string
		run  func(t *testing.T)
	}{
		{"setup: as many favors in the market and guilty pleasures on display as players; the decks hold the rest", func(t *testing.T) {
			for n := 2; n <= 6; n++ {
				rules := Basic
				if n == 2 {
					rules = Advanced
				}
				tb := deal{players: n, rules: rules, first: n - 1}.start(t)
				v := tb.view(0)
				if len(v.Market) != n || slices.Contains(v.Market, -1) || len(v.Display) != n || slices.Contains(v.Display, -1) {
					t.Errorf("%d players: market %v, display %v", n, v.Market, v.Display)
				}
				if v.FavorDeck != 5*FavorsPerType(n)-n || v.PleasureDeck != NumPleasures-n {
					t.Errorf("%d players: %d favors and %d guilty pleasures in the decks", n, v.FavorDeck, v.PleasureDeck)
				}
				if len(v.Bills) != 2*KingdomBoards(n) || len(v.Monarchs) != KingdomBoards(n) {
					t.Errorf("%d players: %d bills, %d kingdoms", n, len(v.Bills), len(v.Monarchs))
				}
			}
		}},
		{"setup: starting minions 2, 2, 3, 3, 4, 4 in turn order, of the mat's types from the left", func(t *testing.T) {
			tb := deal{players: 6, first: 2}.start(t)
			v := tb.view(-1)
			for pos := range 6 {
				seat := (2 + pos) % 6
				var want [NumMinions]int
				for _, m := range corporations[v.Corporations[seat]].Mat[:[]int{2, 2, 3, 3, 4, 4}[pos]] {
					want[m]++
				}
				if got := v.Seats[seat].Minions; got != want {
					t.Errorf("seat %d (place %d): minions %v, want %v", seat, pos, got, want)
				}
			}
		}},
		{"two actions a turn, the same one twice allowed, then the next player clockwise", func(t *testing.T) {
			tb := d3().start(t)
			tb.expectNext(DecideAction, 0)
			tb.play(TakeMove(0, favOf(t, "freedom-1")), TakeMove(0, favOf(t, "defense-1")))
			tb.expectNext(DecideAction, 1)
			if d := tb.next(); d.Actions != 2 {
				t.Errorf("seat 1 has %d actions", d.Actions)
			}
		}},
		{"take a favor: one minion of each type shown, the favor discarded, the market refilled", func(t *testing.T) {
			tb := d3().start(t)
			tb.play(TakeMove(0, favOf(t, "freedom-1"))) // golem and goblin
			v := tb.view(0)
			if got := v.Seats[0].Minions; got != [NumMinions]int{2, 1, 1, 0} {
				t.Errorf("minions %v, want 2 golems, a goblin and a devil", got)
			}
			if !slices.Equal(v.FavorDiscard, ids(t, ParseFavor, "freedom-1")) || v.Market[0] != favOf(t, "environment-1") {
				t.Errorf("discard %v, market %v", v.FavorDiscard, v.Market)
			}
		}},
		{"take a favor: the supply may run out of a minion", func(t *testing.T) {
			tb := d3().start(t)
			tb.g().p.supply[Goblin] = 0
			tb.play(TakeMove(0, favOf(t, "freedom-1")))
			if got := tb.minions(0); got != [NumMinions]int{2, 0, 1, 0} {
				t.Errorf("minions %v, want a golem more and no goblin", got)
			}
		}},
		{"place a favor: under a bill of any kingdom, below those already there, with the player's marker", func(t *testing.T) {
			tb := d3().start(t)
			b := billOf(t, "mirewood-2")
			tb.play(PlaceMove(0, favOf(t, "magic-1"), b), PlaceMove(0, favOf(t, "defense-1"), b), PlaceMove(1, favOf(t, "freedom-1"), b))
			want := []BillFavor{{favOf(t, "magic-1"), 0}, {favOf(t, "defense-1"), 0}, {favOf(t, "freedom-1"), 1}}
			if got := tb.billFavors(b); !slices.Equal(got, want) {
				t.Errorf("bill %v, want %v", got, want)
			}
			tb.reject(PlaceMove(1, favOf(t, "industry-1"), billOf(t, "ashspire-1")), "not at this table")
		}},
		{"a favor added to a bill of four or more calls a vote at no action cost", func(t *testing.T) {
			tb := d3().start(t)
			b := billOf(t, "grimhold-1")
			for i, f := range basicMarket[:4] {
				tb.play(PlaceMove(i/2, favOf(t, f), b))
			}
			tb.saw(EventCall)
			tb.play(PlaceMove(2, favOf(t, basicMarket[4]), b))
			if !tb.saw(EventCall) {
				t.Fatal("no vote on the fifth favor")
			}
			// Nobody controls a voter: no secret vote; the 5 senators vote no, Grimhold's four
			// leaders and monarch yes (the bill has a favor of each of their types): tabled.
			if len(tb.billFavors(b)) != 5 {
				t.Errorf("a tie discarded the favors")
			}
			if d := tb.next(); d.Seat != 2 || d.Actions != 1 {
				t.Errorf("after the vote: %s, want seat 2 with one action left", d)
			}
		}},
		{"influence a leader: pay its two-minion cost, take control", func(t *testing.T) {
			tb := d3().start(t)
			tb.play(InfluenceMove(0, ldrOf(t, "chancellor"), 0, NoMinion)) // golem and devil
			v := tb.view(0)
			if v.Control[ldrOf(t, "chancellor")] != 0 || v.Seats[0].Minions != [NumMinions]int{} || v.Supply[Devil] != SupplyPerMinion {
				t.Errorf("control %d, minions %v, supply %v", v.Control[ldrOf(t, "chancellor")], v.Seats[0].Minions, v.Supply)
			}
			tb.reject(InfluenceMove(0, ldrOf(t, "whip"), 0, NoMinion), "it costs 1 goblin, 1 zombie and seat 0 has nothing")
		}},
		{"steal a leader: its cost plus one minion of any type; the opponent's marker is replaced", func(t *testing.T) {
			tb := d3().start(t)
			tb.play(InfluenceMove(0, ldrOf(t, "chancellor"), 0, NoMinion), TakeMove(0, favOf(t, "freedom-1")))
			tb.give(1, 1, 0, 1)
			l := ldrOf(t, "chancellor")
			tb.reject(InfluenceMove(1, l, 0, NoMinion), "costs one minion more")
			tb.reject(InfluenceMove(1, l, 0, Zombie), "it costs 1 golem, 1 devil, 1 zombie")
			tb.give(1, 1, 0, 1, 1)
			tb.play(InfluenceMove(1, l, 0, Zombie))
			if v := tb.view(1); v.Control[l] != 1 || v.Seats[1].Minions != [NumMinions]int{} {
				t.Errorf("after the steal: control %d, minions %v", v.Control[l], v.Seats[1].Minions)
			}
			tb.reject(InfluenceMove(1, l, 0, NoMinion), "controls it already")
		}},
		{"guilty pleasure discount: one of the leader's heart waives one minion, two waive both", func(t *testing.T) {
			tb := d3().start(t)
			l := ldrOf(t, "chancellor") // golem, devil; gold
			tb.give(0)
			tb.own(0, "gold/freedom")
			tb.reject(InfluenceMove(0, l, 3, NoMinion), "may waive 1 of the cost")
			tb.give(0, 1)
			tb.play(InfluenceMove(0, l, 2, NoMinion), TakeMove(0, favOf(t, "freedom-1"))) // pays the golem, waives the devil
			tb.own(1, "gold/magic", "gold/defense")
			tb.give(1, 0, 0, 0, 1)
			tb.play(InfluenceMove(1, l, 3, Zombie)) // a steal: both waived, one minion still paid
			if v := tb.view(1); v.Control[l] != 1 || v.Seats[1].Minions != [NumMinions]int{} {
				t.Errorf("control %d, minions %v", v.Control[l], v.Seats[1].Minions)
			}
		}},
		{"monarch: a player with more leaders in a kingdom than any other takes it, never on a tie", func(t *testing.T) {
			tb := d3().start(t)
			tb.give(0, 4, 2, 2, 2)
			tb.give(1, 4, 2, 2, 2)
			tb.play(InfluenceMove(0, ldrOf(t, "marshal"), 0, NoMinion))
			if tb.view(0).Monarchs[0] != 0 || !tb.saw(EventMonarch) {
				t.Fatalf("seat 0 has the only leader of Grimhold but not its monarch")
			}
			tb.play(TakeMove(0, favOf(t, "freedom-1")), InfluenceMove(1, ldrOf(t, "forgemaster"), 0, NoMinion))
			if tb.view(0).Monarchs[0] != 0 {
				t.Errorf("a tie moved the monarch")
			}
			tb.play(InfluenceMove(1, ldrOf(t, "runesmith"), 0, NoMinion))
			if tb.view(0).Monarchs[0] != 1 {
				t.Errorf("seat 1 leads Grimhold 2 to 1 but has not its monarch")
			}
		}},
		{"call a vote: only with a leader in the bill's kingdom, on a bill with favors", func(t *testing.T) {
			tb := d3().start(t)
			b := billOf(t, "grimhold-1")
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b))
			tb.reject(CallMove(0, b), "controls no leader in Grimhold")
			tb.own(0, "chancellor")
			tb.reject(CallMove(0, b), "controls no leader in Grimhold")
			tb.g().p.monarch[0] = 0
			tb.reject(CallMove(0, b), "controls no leader in Grimhold") // a monarch is no leader
			tb.own(0, "warden")
			tb.reject(CallMove(0, billOf(t, "grimhold-2")), "has no favors")
			tb.play(CallMove(0, b))
			tb.votes(0)
			if tb.next().Seat != 1 {
				t.Errorf("the call did not spend the second action")
			}
		}},
		{"votes: uncontrolled senators vote no; uncontrolled kingdom leaders and monarch yes on a favor of their type", func(t *testing.T) {
			tb := d3().start(t)
			g := tb.g()
			for _, tc := range []struct {
				favors  []string
				yes, no int
			}{
				{[]string{"environment-1"}, 0, 10},        // no one in Grimhold prefers environment
				{[]string{"defense-1"}, 2, 8},             // the marshal and the monarch
				{[]string{"magic-1", "industry-1"}, 2, 8}, // the runesmith and the forgemaster
				{[]string{"defense-1", "magic-1", "industry-1", "freedom-1"}, 5, 5},
			} {
				g.p.bills[0] = nil
				for _, f := range tc.favors {
					g.p.bills[0] = append(g.p.bills[0], onBill{favor: int8(favOf(t, f)), seat: 0})
				}
				g.p.vote = vote{bill: 0, votes: [MaxPlayers]int8{-1, -1, -1, -1, -1, -1}}
				if yes, no := g.tally(); yes != tc.yes || no != tc.no {
					t.Errorf("%v: %d to %d, want %d to %d", tc.favors, yes, no, tc.yes, tc.no)
				}
			}
		}},
		{"votes: controlled voters vote as their controller; the sheet's hint: 10 voters for 2-3 players, 15 for 4-6", func(t *testing.T) {
			if Voters(2) != 10 || Voters(3) != 10 || Voters(4) != 15 || Voters(6) != 15 {
				t.Errorf("voters %d %d %d %d", Voters(2), Voters(3), Voters(4), Voters(6))
			}
			for _, n := range []int{3, 4} {
				tb := deal{players: n, favors: basicMarket}.start(t)
				need := 6
				if n == 4 {
					need = 8
				}
				var mine []string
				for _, l := range g(tb).voters(0)[:need] {
					mine = append(mine, leaders[l].ID)
				}
				tb.own(1, mine...) // "six votes for a proposed Bill will always pass it" (eight from four players)
				g(tb).p.bills[0] = []onBill{{favor: int8(favOf(t, "environment-1")), seat: 0}}
				g(tb).p.vote = vote{bill: 0, votes: [MaxPlayers]int8{-1, 1, -1, -1, -1, -1}}
				if yes, no := g(tb).tally(); yes <= no {
					t.Errorf("%d players: %d controlled yes votes give %d to %d", n, need, yes, no)
				}
			}
		}},
		{"majority against: the bill fails and its favors are discarded", func(t *testing.T) {
			tb := deal{players: 3, favors: []string{"environment-1", "defense-1", "magic-1"}}.start(t)
			b := billOf(t, "grimhold-1")
			tb.own(0, "warden")
			tb.play(PlaceMove(0, favOf(t, "environment-1"), b), CallMove(0, b))
			tb.votes(0)
			if v := tb.view(0); len(v.Bills[b].Favors) != 0 || !slices.Contains(v.FavorDiscard, favOf(t, "environment-1")) {
				t.Errorf("bill %v, discard %v", v.Bills[b].Favors, v.FavorDiscard)
			}
		}},
		{"majority for: a guilty pleasure each, in marker order top to bottom; favors to score piles; the unclaimed under the deck; a new display", func(t *testing.T) {
			tb := deal{players: 3, favors: basicMarket, displays: []string{"gold/freedom", "feasts/magic", "revels/defense"}}.start(t)
			b := billOf(t, "grimhold-1")
			tb.own(1, "chancellor", "whip", "treasurer", "censor", "tribune", "marshal")
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), TakeMove(0, favOf(t, "freedom-1")))
			tb.play(PlaceMove(1, favOf(t, "magic-1"), b), PlaceMove(1, favOf(t, "environment-1"), b))
			tb.play(PlaceMove(2, favOf(t, "industry-1"), b), TakeMove(2, favOf(t, "freedom-2")))
			tb.play(TakeMove(0, favOf(t, "defense-2")), TakeMove(0, favOf(t, "magic-2")))
			tb.play(CallMove(1, b))
			tb.votes(0, 1)
			tb.expectNext(DecidePick, 0) // the top marker first
			tb.play(PickMove(0, gpOf(t, "revels/defense")))
			tb.expectNext(DecidePick, 1)
			tb.play(PickMove(1, gpOf(t, "gold/freedom")))
			tb.expectNext(DecidePick, 2)
			tb.play(PickMove(2, gpOf(t, "feasts/magic")))
			v := tb.view(0)
			if len(v.Seats[1].Pile) != 2 || len(v.Seats[0].Pile) != 1 || len(v.Seats[2].Pile) != 1 || len(v.Bills[b].Favors) != 0 {
				t.Errorf("piles %v %v %v, bill %v", v.Seats[0].Pile, v.Seats[1].Pile, v.Seats[2].Pile, v.Bills[b].Favors)
			}
			if slices.Contains(v.Display, -1) || v.PleasureDeck != NumPleasures-6 {
				t.Errorf("display %v, %d in the deck", v.Display, v.PleasureDeck)
			}
		}},
		{"unclaimed guilty pleasures go to the bottom of the deck", func(t *testing.T) {
			tb := deal{players: 3, favors: basicMarket, displays: []string{"gold/freedom", "feasts/magic", "revels/defense"}}.start(t)
			b := billOf(t, "grimhold-1")
			tb.own(1, "chancellor", "whip", "treasurer", "censor", "tribune", "marshal")
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), TakeMove(0, favOf(t, "freedom-1")), CallMove(1, b))
			tb.votes(0, 1)
			tb.play(PickMove(0, gpOf(t, "feasts/magic")))
			tb.next()
			deck := tb.l.decks[deckPleasures]
			if got := deck[len(deck)-2:]; !slices.Equal(got, ids(t, ParsePleasure, "gold/freedom", "revels/defense")) {
				t.Errorf("the deck ends with %v", got)
			}
		}},
		{"a player may take a guilty pleasure, or none (and then no bonus)", func(t *testing.T) {
			tb := deal{players: 3, rules: Config{Bonuses: true}, favors: append([]string{"industry-1"}, basicMarket...)}.start(t)
			passing(tb)
			b := billOf(t, "grimhold-1")
			tb.play(PlaceMove(0, favOf(t, "industry-1"), b), TakeMove(0, favOf(t, "freedom-1")), CallMove(1, b))
			tb.votes(1)
			none := PickMove(0, -1)
			none.Minion = Devil
			tb.reject(none, "a bill bonus without a guilty pleasure")
			tb.play(PickMove(0, -1))
			if v := tb.view(0); len(v.Seats[0].Pleasures) != 0 || len(v.Seats[0].Pile) != 1 || v.PleasureDeck != NumPleasures-6+3 {
				t.Errorf("pleasures %v, pile %v, %d in the deck", v.Seats[0].Pleasures, v.Seats[0].Pile, v.PleasureDeck)
			}
		}},
		{"tie: the bill is tabled, its favors stay", func(t *testing.T) {
			tb := d3().start(t)
			b := billOf(t, "grimhold-1")
			tb.own(0, "chancellor", "whip", "warden") // and so Grimhold's monarch
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), CallMove(0, b))
			tb.votes(0) // 5 yes (3 leaders, the monarch, the marshal), 5 no
			if len(tb.billFavors(b)) != 1 {
				t.Errorf("a tie resolved the bill")
			}
		}},
	} {
		t.Run(tc.rule, tc.run)
	}
}

func g(tb *table) *Game { return tb.g() }
