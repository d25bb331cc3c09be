package corruption_test

// Face-up positions per variant and round (RULES.md, "Round structure" 2): standard 1..r;
// down the river r1 {3}, r2 {3,4}, r3 {2,3,4}, r4 {2,3,4,5}; free stud chosen by the round's
// first player before the first card; closed nothing (and no characters). Cards on Swiss
// accounts are always face down; their position still counts.

import (
	"slices"
	"testing"

	"corruption/engine/corruption"
)

func TestFaceUpPositions(t *testing.T) {
	cases := []struct {
		variant corruption.Variant
		choose  [4][]int // free stud: the first player's choice each round
		want    [4][]int // face-up positions, rounds 1 to 4
	}{
		{variant: corruption.Standard, want: [4][]int{{1}, {1, 2}, {1, 2, 3}, {1, 2, 3, 4}}},
		{variant: corruption.DownTheRiver, want: [4][]int{{3}, {3, 4}, {2, 3, 4}, {2, 3, 4, 5}}},
		{variant: corruption.Closed, want: [4][]int{{}, {}, {}, {}}},
		{variant: corruption.FreeStud, choose: [4][]int{{1, 2, 3, 4, 5, 6}, {}, {2, 5}, {6}},
			want: [4][]int{{1, 2, 3, 4, 5, 6}, {}, {2, 5}, {6}}},
		{variant: corruption.FreeStud, choose: [4][]int{{}, {1}, {3, 4, 6}, {1, 2, 3, 4, 5, 6}},
			want: [4][]int{{}, {1}, {3, 4, 6}, {1, 2, 3, 4, 5, 6}}},
	}
	for _, tc := range cases {
		for _, players := range []int{3, 4, 7} {
			t.Run(tc.variant.String(), func(t *testing.T) {
				playFaceUpGame(t, players, tc.variant, tc.choose, tc.want)
			})
		}
	}
}

// playFaceUpGame plays a whole game with fixed choices, some bribes on Swiss accounts at every
// position, and checks every placement's face-up status against the rule.
func playFaceUpGame(t *testing.T, players int, v corruption.Variant, choose, want [4][]int) {
	var placed []corruption.Event
	s, err := corruption.New(corruption.Config{Players: players, Variant: v, Deck: shuffled(rngFor(uint64(players), uint64(v))), First: 1},
		corruption.WithEvents(func(e corruption.Event) {
			if e.Kind == corruption.EventPlaced {
				placed = append(placed, e)
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	if v == corruption.Closed {
		for seat := 0; seat < players; seat++ {
			if da, rep, hm := s.CharactersLeft(seat); da+rep+hm != 0 {
				t.Fatalf("closed: seat %d holds characters", seat)
			}
			for _, c := range s.Hand(seat) {
				if c.IsCharacter() {
					t.Fatalf("closed: seat %d holds %s", seat, c)
				}
			}
		}
	}
	for moves := 0; !s.Over(); moves++ {
		if moves > 1000 {
			t.Fatal("the game does not end")
		}
		d := s.Next()
		r := s.Round()
		var m corruption.Move
		switch d.Kind {
		case corruption.DecideFaceUp:
			ps, err := corruption.PositionsOf(choose[r-1]...)
			if err != nil {
				t.Fatal(err)
			}
			m = corruption.Move{Kind: corruption.MoveFaceUp, Seat: d.Seat, Positions: ps}
		case corruption.DecidePlace:
			pos := s.Placed(d.Seat) + 1
			swiss := (d.Seat+pos+r)%4 == 0
			hand := s.Hand(d.Seat)
			table := s.Table()
			m = corruption.Move{Kind: corruption.MovePlace, Seat: d.Seat}
			if swiss {
				m.Card, m.Spot = hand[0], corruption.SwissSpot(corruption.Body((d.Seat+pos)%3))
			} else {
				m.Card, m.Spot = hand[(d.Seat+pos)%len(hand)], corruption.ContractSpot(table[(d.Seat*7+pos)%len(table)])
			}
			wantUp := slices.Contains(want[r-1], pos) && !swiss
			if got := s.NextFaceUp(d.Seat); got != slices.Contains(want[r-1], pos) {
				t.Errorf("round %d, seat %d, position %d: NextFaceUp %t", r, d.Seat, pos, got)
			}
			n := len(placed)
			if err := s.Apply(m); err != nil {
				t.Fatalf("round %d: %s: %v", r, m, err)
			}
			if len(placed) != n+1 {
				t.Fatalf("no placement event")
			}
			e := placed[n]
			if (e.Card != corruption.CardUnknown) != wantUp {
				t.Errorf("%s round %d, seat %d, position %d (swiss %t): shown %t, want %t", v, r, d.Seat, pos, swiss, e.Card != corruption.CardUnknown, wantUp)
			}
			if s.Phase() == corruption.PhaseCorruption {
				p, _ := s.PlayAt(e.Index)
				if p.FaceUp != wantUp || p.Revealed != wantUp || p.Pos != pos {
					t.Errorf("%s round %d, seat %d: play %+v, want position %d face up %t", v, r, d.Seat, p, pos, wantUp)
				}
				for seat := 0; seat < players; seat++ {
					vp, _ := s.View(seat).Play(e.Index)
					if sees := vp.Card != corruption.CardUnknown; sees != (wantUp || seat == d.Seat) {
						t.Errorf("round %d: seat %d sees seat %d's card at position %d: %t", r, seat, d.Seat, pos, sees)
					}
				}
				if got := s.FaceUp().List(); !slices.Equal(got, want[r-1]) {
					t.Errorf("round %d: FaceUp %v, want %v", r, got, want[r-1])
				}
			}
			continue
		case corruption.DecideAssign:
			m = corruption.Move{Kind: corruption.MoveAssign, Seat: d.Seat, Contract: s.AssignOptions()[0]}
		case corruption.DecideKill:
			m = corruption.Move{Kind: corruption.MoveKill, Seat: d.Seat, Index: s.KillTargets()[0]}
		case corruption.DecideRemove:
			m = corruption.Move{Kind: corruption.MovePass, Seat: d.Seat}
		default:
			t.Fatalf("unexpected decision %v", d)
		}
		if err := s.Apply(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	if len(placed) != 4*6*players {
		t.Errorf("%d placements in the game, want %d", len(placed), 4*6*players)
	}
}

func TestFreeStud(t *testing.T) {
	// 17 of round 1's 18 cards; seat 1's second card goes on a Swiss account.
	hands := turns(0,
		"1000:school 2000:school 4000:school 6000:school 8000:school 10000:school",
		"1000:monument 2000:swiss:city 4000:monument 6000:monument 8000:monument 10000:monument",
		"1000:police 2000:police 4000:police 6000:police 8000:police 10000:police")[:17]
	faceUp := func(ps ...int) func(*testing.T, *corruption.State, []corruption.Event) {
		return func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if got := s.FaceUp().List(); !slices.Equal(got, ps) {
				t.Errorf("FaceUp %v, want %v", got, ps)
			}
			for i := 1; i <= 17; i++ {
				p, _ := s.PlayAt(i)
				pos := (i-1)/3 + 1
				want := slices.Contains(ps, pos) && !p.Spot.IsSwiss()
				if p.Pos != pos || p.FaceUp != want {
					t.Errorf("card %d (seat %d, position %d, %s): face up %t, want %t", i, p.Seat, p.Pos, p.Spot, p.FaceUp, want)
				}
			}
		}
	}
	runCases(t, []ruleCase{{
		name: "the first player chooses before the first card",
		g:    game{variant: "free-stud"},
		want: outcome{next: "faceup 0"},
	}, {
		name:  "positions 2 and 5, for every player",
		g:     game{variant: "free-stud", moves: moves(`{"seat": 0, "faceup": [2, 5]}`, hands)},
		want:  outcome{next: "place 2"},
		extra: faceUp(2, 5),
	}, {
		name:  "no position at all",
		g:     game{variant: "free-stud", moves: moves(`{"seat": 0, "faceup": []}`, hands)},
		want:  outcome{next: "place 2"},
		extra: faceUp(),
	}, {
		name:  "every position (Swiss accounts still face down)",
		g:     game{variant: "free-stud", moves: moves(`{"seat": 0, "faceup": [1, 2, 3, 4, 5, 6]}`, hands)},
		want:  outcome{next: "place 2"},
		extra: faceUp(1, 2, 3, 4, 5, 6),
	}, {
		name: "no card before the choice",
		g:    game{variant: "free-stud", moves: hands[:1]},
		want: outcome{err: "move 1: seat 0 cannot place a card", next: "faceup 0"},
	}, {
		name: "only the first player chooses",
		g:    game{variant: "free-stud", first: 1, moves: []string{`{"seat": 0, "faceup": [1]}`}},
		want: outcome{err: "move 1: seat 0 cannot choose", next: "faceup 1"},
	}, {
		name: "no second choice once cards are placed",
		g:    game{variant: "free-stud", moves: moves(`{"seat": 0, "faceup": [1]}`, hands[:1], `{"seat": 0, "faceup": [2]}`)},
		want: outcome{err: "move 3: seat 0 cannot choose", next: "place 1"},
	}, {
		// Round 1 as in TestLeader: seat 2 leads round 2 and chooses its face-up positions.
		name: "each round, that round's first player chooses",
		g: game{variant: "free-stud", moves: moves(`{"seat": 0, "faceup": [1]}`,
			turns(0, sinkDA, "1000:school "+sinkWin1, "1000:police "+sinkWin1),
			`{"seat": 2, "faceup": [2]}`, `{"seat": 2, "card": "1000", "on": "monument"}`)},
		want: outcome{round: 2, next: "place 0"},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if p, _ := s.PlayAt(1); p.FaceUp {
				t.Errorf("round 2, position 1: face up, but seat 2 chose {2}")
			}
			if got := s.FaceUp().List(); !slices.Equal(got, []int{2}) {
				t.Errorf("FaceUp %v, want [2]", got)
			}
		},
	}, {
		name: "round 2's choice is not round 1's",
		g: game{variant: "free-stud", moves: moves(`{"seat": 0, "faceup": [1]}`,
			turns(0, sinkDA, "1000:school "+sinkWin1, "1000:police "+sinkWin1))},
		want: outcome{round: 2, next: "faceup 2"},
	}})
}
