package kingdoms

import (
	"strings"
	"testing"

	"corruption/engine"
)

// The chaos cards: setup, when they may be played, and each effect of the vocabulary.

// chaosDeal is a 3-player game with chaos cards only: seat 0 DracoBank, seat 1 General
// Eclectic, seat 2 Brickler and Club, each holding the two cards named (its third, discarded
// face down at setup, is its corporation's last card).
func chaosDeal(hands ...[]string) deal {
	last := []string{"executive-retreat", "power-grid", "corner-office"}
	d := deal{players: 3, rules: Config{Chaos: true}, favors: basicMarket}
	for s, h := range hands {
		d.hands = append(d.hands, append(h, last[s]))
	}
	return d
}

// chaos is seat's move playing card c; set its arguments with args.
func chaosMove(t testing.TB, tb *table, seat int, c string, args func(*Move)) Move {
	t.Helper()
	id := cardOf(t, c)
	pos := -1
	for _, h := range tb.view(seat).Hand {
		if h.Card == id {
			pos = h.Pos
		}
	}
	m := ChaosMove(seat, id, pos)
	if args != nil {
		args(&m)
	}
	return m
}

func TestChaosCards(t *testing.T) {
	std := [][]string{{"compound-interest", "margin-call"}, {"overtime-surge", "power-play"}, {"hostile-takeover", "cement-shoes"}}
	for _, tc := range []struct {
		rule string
		run  func(t *testing.T)
	}{
		{"setup: each player draws three of its corporation's cards (four for two players) and discards one face down", func(t *testing.T) {
			for _, n := range []int{2, 3} {
				tb := deal{players: n, rules: Advanced}.start(t)
				v := tb.view(0)
				if len(v.Hand) != ChaosDrawn(n) || !v.Hand[ChaosDrawn(n)-1].Discarded || v.Seats[1].ChaosLeft != ChaosDrawn(n)-1 {
					t.Errorf("%d players: hand %+v, seat 1 may play %d", n, v.Hand, v.Seats[1].ChaosLeft)
				}
				for _, h := range v.Hand {
					if h.Card < 0 || chaosCards[h.Card].Corp != v.Corporations[0] {
						t.Errorf("%d players: seat 0 holds %+v", n, h)
					}
				}
			}
		}},
		{"recruit, not an action: take the card's two minions", func(t *testing.T) {
			tb := chaosDeal(std...).start(t)
			tb.play(chaosMove(t, tb, 0, "compound-interest", nil)) // a devil and a golem
			if d := tb.next(); d.Actions != 2 || tb.minions(0) != [NumMinions]int{2, 0, 2, 0} {
				t.Errorf("%s, minions %v", d, tb.minions(0))
			}
		}},
		{"hustle: one more action this turn", func(t *testing.T) {
			tb := chaosDeal(std...).start(t)
			m := tb.view(0).Market
			tb.play(TakeMove(0, m[0]), TakeMove(0, m[1]), chaosMove(t, tb, 1, "overtime-surge", nil))
			if d := tb.next(); d.Seat != 1 || d.Actions != 3 {
				t.Errorf("%s", d)
			}
		}},
		{"embezzle: up to two minions of one type from an opponent", func(t *testing.T) {
			tb := chaosDeal(std...).start(t)
			tb.give(2, 3, 0, 0, 1)
			tb.play(chaosMove(t, tb, 0, "margin-call", func(m *Move) { m.Target, m.Minion = 2, Golem }))
			if tb.minions(0)[Golem] != 3 || tb.minions(2)[Golem] != 1 {
				t.Errorf("minions %v and %v", tb.minions(0), tb.minions(2))
			}
		}},
		{"scandal: an opponent's marker removed; coup: a leader of the card's heart, paying nothing", func(t *testing.T) {
			d := chaosDeal(std...)
			d.corps = []string{"dracobank", "gretchen", "brickler"}
			d.hands[1] = []string{"gossip-column", "goblin-rush", "spa-day"}
			tb := d.start(t)
			tb.play(InfluenceMove(0, ldrOf(t, "chancellor"), 0, NoMinion), TakeMove(0, tb.view(0).Market[0]))
			tb.play(chaosMove(t, tb, 1, "gossip-column", func(m *Move) { m.Leader = ldrOf(t, "chancellor") }))
			if c := tb.view(0).Control[ldrOf(t, "chancellor")]; c != -1 {
				t.Fatalf("the chancellor is seat %d's after a scandal", c)
			}
			tb.play(TakeMove(1, tb.view(1).Market[0]))
			tb.play(TakeMove(1, tb.view(1).Market[0]))
			tb.reject(chaosMove(t, tb, 2, "hostile-takeover", func(m *Move) { m.Leader = ldrOf(t, "chancellor") }), "heart is gold, not feasts")
			tb.play(chaosMove(t, tb, 2, "hostile-takeover", func(m *Move) { m.Leader = ldrOf(t, "whip") }))
			if c := tb.view(0).Control[ldrOf(t, "whip")]; c != 2 || tb.minions(2) != [NumMinions]int{1, 1, 0, 1} {
				t.Errorf("the whip is seat %d's after a coup, its minions %v", c, tb.minions(2))
			}
		}},
		{"guard: the victim of a steal may answer it; the thief's minions are spent", func(t *testing.T) {
			tb := chaosDeal(std[0], []string{"surge-protector", "power-play"}, std[2]).start(t)
			l := ldrOf(t, "chancellor")
			m := tb.view(0).Market
			tb.play(TakeMove(0, m[0]), TakeMove(0, m[1]))
			tb.give(1, 1, 0, 1)
			tb.play(InfluenceMove(1, l, 0, NoMinion), TakeMove(1, tb.view(1).Market[0]))
			tb.give(2, 1, 0, 1, 1)
			tb.play(InfluenceMove(2, l, 0, Zombie))
			tb.expectNext(DecideSteal, 1)
			tb.play(chaosMove(t, tb, 1, "surge-protector", nil))
			if v := tb.view(2); v.Control[l] != 1 || v.Seats[2].Minions != [NumMinions]int{} || v.Next.Actions != 1 {
				t.Errorf("control %d, thief's minions %v, %s", v.Control[l], v.Seats[2].Minions, v.Next)
			}
		}},
		{"earmark: a favor placed at no action cost; shred: an opponent's favor discarded from a bill", func(t *testing.T) {
			tb := chaosDeal([]string{"rider-clause", "margin-call"}, std[1], std[2]).start(t)
			b := billOf(t, "grimhold-1")
			m := tb.view(0).Market
			tb.play(PlaceMove(0, m[0], b))
			f := tb.view(0).Market[2]
			tb.play(chaosMove(t, tb, 0, "rider-clause", func(m *Move) { m.Favor, m.Bill = f, b }))
			if got := tb.billFavors(b); len(got) != 2 || got[1] != (BillFavor{f, 0}) || tb.next().Actions != 1 {
				t.Fatalf("bill %v after an earmark, %s", got, tb.next())
			}
			tb.play(TakeMove(0, tb.view(0).Market[0]))
			tb.play(TakeMove(1, tb.view(1).Market[0]))
			tb.play(TakeMove(1, tb.view(1).Market[0]))
			tb.reject(chaosMove(t, tb, 2, "cement-shoes", func(m *Move) { m.Favor = favOf(t, "magic-9") }), "not an opponent's favor")
			tb.play(chaosMove(t, tb, 2, "cement-shoes", func(m *Move) { m.Favor = f }))
			if got := tb.billFavors(b); len(got) != 1 {
				t.Errorf("bill %v after a shred", got)
			}
		}},
		{"lobby: a vote on any bill; ballot: votes added after the reveal; veto: tabled", func(t *testing.T) {
			d := chaosDeal([]string{"loophole", "injunction"}, []string{"recount", "overtime-surge"}, []string{"filibuster", "cement-shoes"})
			d.corps = []string{"turk", "eclectic", "brickler"}
			d.hands[0] = append(d.hands[0][:2], "fine-print")
			tb := d.start(t)
			b := billOf(t, "grimhold-1")
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), chaosMove(t, tb, 0, "loophole", func(m *Move) { m.Bill = b }))
			// Nobody controls a voter: 2 yes (the marshal, the monarch), 8 no. The answers go
			// round from the player whose turn it is.
			tb.expectNext(DecideAnswer, 0)
			tb.play(PassMove(0))
			tb.expectNext(DecideAnswer, 1)
			tb.play(chaosMove(t, tb, 1, "recount", func(m *Move) { m.Yes = true })) // 4 to 8
			tb.expectNext(DecideAnswer, 2)
			tb.play(chaosMove(t, tb, 2, "filibuster", nil))
			if r := tb.result(); r != Tabled {
				t.Errorf("the bill %s", r)
			}
			if d := tb.next(); d.Seat != 0 || d.Actions != 1 {
				t.Errorf("after the vote: %s", d)
			}
		}},
		{"a player is asked to answer only if it may hold a card that could answer", func(t *testing.T) {
			tb := chaosDeal(std...).start(t) // no seat holds a vote card, but seat 1 and 2 may, as far as the others know
			b := billOf(t, "grimhold-1")
			tb.own(0, "warden")
			tb.play(chaosMove(t, tb, 0, "compound-interest", nil), chaosMove(t, tb, 0, "margin-call", func(m *Move) { m.Target, m.Minion = 1, Golem }))
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), CallMove(0, b))
			tb.votes()
			tb.expectNext(DecideAnswer, 1) // seat 0 has played its two cards: not asked
			tb.play(PassMove(1))
			tb.expectNext(DecideAnswer, 2)
		}},
		{"when: a card plays only at its moment, once, not from the discarded position, at most two", func(t *testing.T) {
			tb := chaosDeal([]string{"compound-interest", "rider-clause"}, std[1], std[2]).start(t)
			tb.reject(chaosMove(t, tb, 1, "overtime-surge", nil), "cannot move")
			tb.own(0, "warden")
			tb.play(PlaceMove(0, favOf(t, "defense-1"), billOf(t, "grimhold-1")), CallMove(0, billOf(t, "grimhold-1")))
			tb.votes(0)
			tb.expectNext(DecideAnswer, 0) // the answers go round from the player whose turn it is
			tb.play(PassMove(0))
			tb.expectNext(DecideAnswer, 1)
			tb.reject(chaosMove(t, tb, 1, "overtime-surge", nil), "it is played on your turn, before an action")
			tb.passes()
			m := chaosMove(t, tb, 1, "overtime-surge", nil)
			tb.play(m)
			tb.reject(m, "it was played already")
			tb.play(TakeMove(1, tb.view(1).Market[0]))
			tb.play(TakeMove(1, tb.view(1).Market[0]))
			tb.play(TakeMove(1, tb.view(1).Market[0]))
			tb.play(TakeMove(2, tb.view(2).Market[0]))
			tb.play(TakeMove(2, tb.view(2).Market[0]))
			b2 := billOf(t, "grimhold-2")
			f := tb.view(0).Market[0]
			tb.play(chaosMove(t, tb, 0, "compound-interest", nil), chaosMove(t, tb, 0, "rider-clause", func(m *Move) { m.Favor, m.Bill = f, b2 }))
			lost := ChaosMove(0, cardOf(t, "executive-retreat"), 2)
			lost.Pleasure = tb.view(0).Display[0]
			tb.reject(lost, "it discarded the card at position 2")
			enc, _ := EncodeMove(lost)
			if err := tb.g().Apply(engine.Input{Kind: engine.InMove, Seat: 0, Move: enc}); err == nil || !strings.Contains(err.Error(), "played all its 2 chaos cards") {
				t.Errorf("a third card: %v", err)
			}
		}},
	} {
		t.Run(tc.rule, tc.run)
	}
}
