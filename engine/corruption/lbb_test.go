package corruption_test

// The little black book (RULES.md, "Little Black Book"): two peeks per player for the whole
// game, on one's own turn before placing, at a face-down card under a contract (not on a Swiss
// account, not one's own); one per turn; not with the closed variant. Only the peeking player
// learns the card; everyone learns that the peek happened and on which card.
//
// The games are down the river (round 1 shows only each player's third card), 3 players, seat 0
// first: cards #1 to #6 are face down, #7 to #9 face up.

import (
	"fmt"
	"strings"
	"testing"

	"corruption/engine/corruption"
)

func pl(seat int, card, on string) string {
	return fmt.Sprintf(`{"seat": %d, "card": %q, "on": %q}`, seat, card, on)
}

func pk(seat, i int) string { return fmt.Sprintf(`{"seat": %d, "peek": %d}`, seat, i) }

func TestLittleBlackBook(t *testing.T) {
	lbb := func(ms ...string) game { return game{variant: "down-the-river", lbb: true, moves: ms} }
	p0, p1, p2 := pl(0, "1000", "school"), pl(1, "1000", "monument"), pl(2, "1000", "police")
	p0b, p1b, p2b := pl(0, "2000", "school"), pl(1, "2000", "monument"), pl(2, "2000", "police")
	p0c, p1c, p2c := pl(0, "4000", "school"), pl(1, "4000", "monument"), pl(2, "4000", "police")
	p0d := pl(0, "6000", "school")
	canPeek := func(want bool) func(*testing.T, *corruption.State, []corruption.Event) {
		return func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if got := s.Next().CanPeek; got != want {
				t.Errorf("Next().CanPeek %t, want %t", got, want)
			}
		}
	}
	runCases(t, []ruleCase{{
		name: "a peek at another player's face-down card, on its turn, before placing",
		g:    lbb(p0, pk(1, 1)),
		want: outcome{next: "place 1"},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if p, _ := s.View(1).Play(1); p.Card != corruption.Bribe1000 {
				t.Errorf("the peeking seat sees %v, want the $1,000 bribe", p.Card)
			}
			if p, _ := s.View(2).Play(1); p.Card != corruption.CardUnknown {
				t.Errorf("seat 2 sees %v, want nothing", p.Card)
			}
			if p, _ := s.View(0).Play(1); p.Card != corruption.Bribe1000 {
				t.Errorf("the owner sees %v", p.Card)
			}
			for seat := 0; seat < 3; seat++ {
				if p, _ := s.View(seat).Play(1); p.PeekedBy != 1<<1 {
					t.Errorf("seat %d's view: PeekedBy %b, want seat 1 (the peek is public)", seat, p.PeekedBy)
				}
			}
			if s.PeeksLeft(1) != 1 || s.PeeksLeft(0) != 2 || s.PeeksLeft(2) != 2 {
				t.Errorf("peeks left %d %d %d, want 2 1 2", s.PeeksLeft(0), s.PeeksLeft(1), s.PeeksLeft(2))
			}
			if s.Next().CanPeek {
				t.Errorf("seat 1 may peek again this turn")
			}
		},
	}, {
		name:  "nothing to peek at before the first card",
		g:     lbb(),
		want:  outcome{next: "place 0"},
		extra: canPeek(false),
	}, {
		name:  "a face-down card to peek at",
		g:     lbb(p0),
		want:  outcome{next: "place 1"},
		extra: canPeek(true),
	}, {
		name:  "no peeks without the little black book",
		g:     game{variant: "down-the-river", moves: []string{p0}},
		want:  outcome{next: "place 1"},
		extra: canPeek(false),
	}, {
		name: "no peek without the little black book",
		g:    game{variant: "down-the-river", moves: []string{p0, pk(1, 1)}},
		want: outcome{err: "move 2: seat 1 cannot peek", next: "place 1"},
	}, {
		name: "one peek per turn",
		g:    lbb(p0, p1, pk(2, 1), pk(2, 2)),
		want: outcome{err: "move 4: seat 2 cannot peek", next: "place 2"},
	}, {
		name: "only on its own turn",
		g:    lbb(p0, pk(2, 1)),
		want: outcome{err: "move 2: seat 2 cannot peek", next: "place 1"},
	}, {
		name: "not its own card",
		g:    lbb(p0, p1, p2, pk(0, 1)),
		want: outcome{err: "move 4: seat 0 cannot peek at card 1", next: "place 0"},
	}, {
		name: "not a card on a Swiss account",
		g:    lbb(p0, p1, p2, pl(0, "2000", "swiss:city"), pk(1, 4)),
		want: outcome{err: "move 5: seat 1 cannot peek at card 4", next: "place 1"},
	}, {
		name: "not a face-up card",
		g:    lbb(p0, p1, p2, p0b, p1b, p2b, p0c, pk(1, 7)),
		want: outcome{err: "move 8: seat 1 cannot peek at card 7", next: "place 1"},
	}, {
		name: "not a card not yet placed",
		g:    lbb(p0, pk(1, 2)),
		want: outcome{err: "move 2: seat 1 cannot peek", next: "place 1"},
	}, {
		name: "not card 0",
		g:    lbb(p0, pk(1, 0)),
		want: outcome{err: "move 2: seat 1 cannot peek", next: "place 1"},
	}, {
		name: "two peeks per game",
		g:    lbb(p0, pk(1, 1), p1, p2, p0b, pk(1, 4), p1b, p2b, p0c, p1c, p2c, p0d, pk(1, 10)),
		want: outcome{err: "move 13: seat 1 cannot peek", next: "place 1"},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if s.PeeksLeft(1) != 0 || s.Next().CanPeek {
				t.Errorf("seat 1 has %d peeks left, CanPeek %t", s.PeeksLeft(1), s.Next().CanPeek)
			}
		},
	}, {
		name: "two seats peek at the same card",
		g: game{players: 4, variant: "down-the-river", lbb: true,
			moves: []string{p0, pk(1, 1), p1, pk(2, 1), p2},
		},
		want: outcome{next: "place 3"},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			for seat, want := range []corruption.Card{corruption.Bribe1000, corruption.Bribe1000, corruption.Bribe1000, corruption.CardUnknown} {
				if p, _ := s.View(seat).Play(1); p.Card != want || p.PeekedBy != 0b110 {
					t.Errorf("seat %d sees %v (PeekedBy %b), want %v (PeekedBy 110)", seat, p.Card, p.PeekedBy, want)
				}
			}
		},
	}})

	// Round 1: seat 1 spends both peeks; everyone bids alone (seat 0 on school, seat 1 on
	// monument, seat 2 on police), so seat 2 leads round 2.
	var r1 []string
	for k, m := range turns(0,
		"1000:school 2000:school 4000:school 6000:school 8000:school 10000:school",
		"1000:monument 2000:monument 4000:monument 6000:monument 8000:monument 10000:monument",
		"1000:police 2000:police 4000:police 6000:police 8000:police 10000:police") {
		if k == 1 || k == 4 { // seat 1's first two turns: peek at seat 0's cards #1 and #4
			r1 = append(r1, pk(1, k))
		}
		r1 = append(r1, m)
	}
	runCases(t, []ruleCase{{
		name: "peeks are for the whole game, not each round",
		g:    lbb(append(r1, pl(2, "1000", "courthouse"), pl(0, "2000", "courthouse"), pk(1, 1))...),
		want: outcome{err: "move 23: seat 1 cannot peek", round: 2, first: intp(2), next: "place 1"},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if s.PeeksLeft(1) != 0 || s.PeeksLeft(0) != 2 || s.PeeksLeft(2) != 2 {
				t.Errorf("peeks left %d %d %d, want 2 0 2", s.PeeksLeft(0), s.PeeksLeft(1), s.PeeksLeft(2))
			}
		},
	}, {
		name: "not during awarding",
		g: lbb(moves(turns(0,
			"1000:school 2000:swiss:city 4000:school 6000:school 8000:school 10000:school",
			"1000:monument 2000:monument 4000:monument 6000:monument 8000:monument 10000:monument",
			"1000:police 2000:police 4000:police 6000:police 8000:police 10000:police"), pk(0, 2))...),
		want: outcome{err: "move 19: seat 0 cannot peek", next: "assign 0 #4"},
	}})
}

func TestLittleBlackBookNotWithClosed(t *testing.T) {
	_, err := corruption.New(corruption.Config{Players: 3, Variant: corruption.Closed, LittleBlackBook: true})
	if err == nil || !strings.Contains(err.Error(), "little black book") {
		t.Errorf("closed with the little black book: %v, want an error about the little black book", err)
	}
	g := game{variant: "closed", lbb: true}
	if _, err := parseOnly(g.JSON()); err == nil {
		t.Errorf("a closed script with the little black book parses")
	}
	for _, v := range []corruption.Variant{corruption.Standard, corruption.DownTheRiver, corruption.FreeStud} {
		if _, err := corruption.New(corruption.Config{Players: 3, Variant: v, LittleBlackBook: true}); err != nil {
			t.Errorf("%s with the little black book: %v", v, err)
		}
	}
}

func TestPeekIsPublic(t *testing.T) {
	p0 := pl(0, "1000", "school")
	before, _ := mustRun(t, game{variant: "down-the-river", lbb: true, moves: []string{p0}})
	after, _ := mustRun(t, game{variant: "down-the-river", lbb: true, moves: []string{p0, pk(1, 1)}})
	if before.Digest() == after.Digest() {
		t.Errorf("a peek does not change the public state's digest")
	}
}
