package corruption_test

// Rule tests for phases I and II (RULES.md, "Round structure" 1 and 2): dealing, turn order,
// placement legality, face-up positions per variant, characters leaving the game.
//
// Unless a case says otherwise the games have 3 players, seat 0 first, the standard variant and
// the deck in the order of RULES.md's table, so round 1 deals school and monument under City
// Hall, library and firehouse under the County Seat, police and postoffice under the Capitol;
// round 2 courthouse, hospital | housing, opera | museum, sewer.

import (
	"fmt"
	"strings"
	"testing"

	"corruption/engine/corruption"
)

// scenarioA is a complete round 1: seat 0 wins school and police, seat 2 wins postoffice;
// monument (1,000 each for seats 0 and 1), library (10,000 each for seats 1 and 2, 2,000 for
// seat 0) and firehouse (no bribe) are deferred.
func scenarioA() []string {
	return turns(0,
		"10000:school 1000:monument 2000:library 4000:police 6000:police 8000:postoffice",
		"8000:school 1000:monument 10000:library 2000:police 4000:police 6000:postoffice",
		"6000:library 4000:library 8000:police 1000:postoffice 2000:postoffice 10000:postoffice")
}

// nullRound is a round of three players in which nobody wins anything: everyone puts all its
// bribes under sink, and seat da (if not -1) puts its district attorney there too, which cancels
// it (without one, the three seats tie at $31,000).
func nullRound(first, da int, sink string) []string {
	all := "1000:S 2000:S 4000:S 6000:S 8000:S 10000:S"
	hands := []string{all, all, all}
	if da >= 0 {
		hands[da] = "da:S 1000:S 2000:S 4000:S 6000:S 8000:S"
	}
	for i := range hands {
		hands[i] = strings.ReplaceAll(hands[i], "S", sink)
	}
	return turns(first, hands...)
}

type ruleCase struct {
	name  string
	g     game
	want  outcome
	extra func(t *testing.T, s *corruption.State, evs []corruption.Event)
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.g.players == 0 {
				tc.g.players = 3
			}
			before := snapshot{}
			if tc.want.err != "" {
				// The state returned with an error must be the one before the bad move.
				ok := tc.g
				ok.moves = ok.moves[:len(ok.moves)-1]
				s0, _, err := run(t, ok)
				if err != nil {
					t.Fatalf("the moves before the last must replay: %v", err)
				}
				before = snap(s0)
			}
			s, evs, err := run(t, tc.g)
			check(t, s, err, tc.want)
			if tc.want.err != "" {
				if tc.want.errHas != "" && !strings.Contains(err.Error(), tc.want.errHas) {
					t.Errorf("error %q does not mention %q", err, tc.want.errHas)
				}
				if d := before.same(snap(s)); d != "" {
					t.Errorf("the rejected move changed the state: %s", d)
				}
			}
			if tc.extra != nil {
				tc.extra(t, s, evs)
			}
		})
	}
}

func TestDealing(t *testing.T) {
	runCases(t, []ruleCase{{
		name: "the top six contracts, two under each body, in deck order",
		g:    game{deck: []string{"airport", "subway", "dam", "school", "monument", "opera"}},
		want: outcome{round: 1, next: "place 0", table: strp("airport subway dam school monument opera"), deferred: strp("")},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			bodies := map[string]corruption.Body{"airport": corruption.City, "subway": corruption.City, "dam": corruption.County,
				"school": corruption.County, "monument": corruption.Capitol, "opera": corruption.Capitol}
			for id, b := range bodies {
				if got := s.ContractBody(contract(t, id)); got != b {
					t.Errorf("%s is under %s, want %s", id, got, b)
				}
			}
			for _, ci := range corruption.DefaultDeck {
				c := contract(t, ci.ID)
				if _, dealt := bodies[ci.ID]; s.OnTable(c) != dealt {
					t.Errorf("%s on the table: %t, want %t", ci.ID, s.OnTable(c), dealt)
				}
			}
		},
	}, {
		name: "deferred contracts stay under their body, before the six new ones",
		g:    game{moves: scenarioA()},
		want: outcome{round: 2, first: intp(0), next: "place 0",
			table:    strp("monument courthouse hospital library firehouse housing opera museum sewer"),
			deferred: strp("monument library firehouse")},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			for id, b := range map[string]corruption.Body{"monument": corruption.City, "library": corruption.County,
				"firehouse": corruption.County, "courthouse": corruption.City, "sewer": corruption.Capitol} {
				if got := s.ContractBody(contract(t, id)); got != b {
					t.Errorf("%s is under %s, want %s", id, got, b)
				}
			}
		},
	}, {
		name: "deferred contracts remain open for bribes and characters",
		g:    game{moves: moves(scenarioA(), turns(0, "10000:monument", "da:library", "1000:firehouse"))},
		want: outcome{round: 2, next: "place 0"},
	}})
}

func TestDealMoves(t *testing.T) {
	// A game started without a deck waits for MoveDeal; it deals in the order given.
	cfg := corruption.Config{Players: 3}
	s, err := corruption.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Next(); d.Kind != corruption.DecideDeal || d.Seat != -1 {
		t.Fatalf("Next %v, want a deal", d)
	}
	deal := func(ids ...string) corruption.Move {
		m := corruption.Move{Kind: corruption.MoveDeal}
		for i, id := range ids {
			m.Deal[i] = contract(t, id)
		}
		return m
	}
	mustReject := func(m corruption.Move, why string) {
		t.Helper()
		before := snap(s)
		err := s.Apply(m)
		me, ok := err.(*corruption.MoveError)
		if !ok {
			t.Fatalf("%s: error %v, want a *MoveError", why, err)
		}
		if me.Seat != -1 {
			t.Errorf("%s: error names seat %d, want -1 (a deal is no seat's move)", why, me.Seat)
		}
		if d := before.same(snap(s)); d != "" {
			t.Errorf("%s: %s", why, d)
		}
	}
	mustReject(deal("dam", "dam", "school", "monument", "opera", "airport"), "a contract dealt twice")
	mustReject(corruption.Move{Kind: corruption.MoveDeal, Deal: [6]corruption.Contract{0, 1, 2, 3, 4, 24}}, "not a contract")
	if err := s.Apply(deal("dam", "airport", "school", "monument", "opera", "subway")); err != nil {
		t.Fatal(err)
	}
	if got := ids(s.Table()); got != "dam airport school monument opera subway" {
		t.Errorf("table %s", got)
	}
	if s.ContractBody(contract(t, "monument")) != corruption.County || s.ContractBody(contract(t, "subway")) != corruption.Capitol {
		t.Errorf("monument under %s, subway under %s", s.ContractBody(contract(t, "monument")), s.ContractBody(contract(t, "subway")))
	}
	mustReject(deal("library", "firehouse", "police", "postoffice", "courthouse", "hospital"), "a deal during corruption")
	// Play the round out: everybody ties on dam, nothing is won.
	sc := mustParse(t, game{moves: nullRound(0, -1, "dam")})
	for _, m := range sc.Moves {
		if err := s.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	if d := s.Next(); d.Kind != corruption.DecideDeal || s.Round() != 2 {
		t.Fatalf("round %d, Next %v, want round 2 waiting for a deal", s.Round(), d)
	}
	mustReject(deal("library", "firehouse", "police", "dam", "courthouse", "hospital"), "a contract already dealt")
}

func TestTurnOrder(t *testing.T) {
	// Clockwise from the first player, one card each per turn, 6N turns.
	for n := corruption.MinPlayers; n <= corruption.MaxPlayers; n++ {
		for _, first := range []int{0, n - 1, n / 2} {
			hands := make([]string, n)
			for i := range hands {
				hands[i] = "1000:school 2000:school 4000:school 6000:school 8000:school 10000:school"
			}
			all := turns(first, hands...)
			if len(all) != 6*n {
				t.Fatalf("%d moves", len(all))
			}
			for k := 0; k <= 6*n; k++ {
				s, _, err := run(t, game{players: n, first: first, moves: all[:k]})
				if err != nil {
					t.Fatalf("%d players, first %d, move %d: %v", n, first, k, err)
				}
				want := fmt.Sprintf("place %d", (first+k)%n)
				if k == 6*n {
					// Everybody tied on school: round 2, led by the same first player.
					want = fmt.Sprintf("place %d", first)
					if s.Round() != 2 {
						t.Errorf("%d players: round %d after %d placements, want 2", n, s.Round(), k)
					}
				} else if s.Round() != 1 || s.NumPlays() != k {
					t.Errorf("%d players: round %d with %d plays after %d placements", n, s.Round(), s.NumPlays(), k)
				}
				if got := decision(s.Next()); got != want {
					t.Errorf("%d players, first %d, after %d placements: next %q, want %q", n, first, k, got, want)
				}
			}
		}
	}
	runCases(t, []ruleCase{{
		name: "out of turn",
		g:    game{players: 4, first: 2, moves: []string{`{"seat": 2, "card": "1000", "on": "school"}`, `{"seat": 0, "card": "1000", "on": "school"}`}},
		want: outcome{err: "move 2: seat 0 cannot place a card", errHas: "seat 3"},
	}, {
		name: "the first player starts",
		g:    game{first: 1, moves: []string{`{"seat": 0, "card": "1000", "on": "school"}`}},
		want: outcome{err: "move 1: seat 0 cannot place a card", errHas: "seat 1"},
	}, {
		name: "a seat not at the table",
		g:    game{moves: []string{`{"seat": 3, "card": "1000", "on": "school"}`}},
		want: outcome{err: "move 1: seat 3 "},
	}, {
		name: "a negative seat",
		g:    game{moves: []string{`{"seat": -1, "card": "1000", "on": "school"}`}},
		want: outcome{err: "move 1: seat -1 "},
	}})
}

func TestPlacement(t *testing.T) {
	runCases(t, []ruleCase{{
		name: "a district attorney on a Swiss account",
		g:    game{moves: turns(0, "1000:school", "2000:school", "da:swiss:city")},
		want: outcome{err: "move 3: seat 2 cannot place a district attorney on swiss:city"},
	}, {
		name: "a reporter on a Swiss account",
		g:    game{moves: turns(0, "reporter:swiss:county", "", "")},
		want: outcome{err: "move 1: seat 0 cannot place a reporter on swiss:county"},
	}, {
		name: "a hit man on a Swiss account",
		g:    game{moves: turns(0, "hitman:swiss:capitol", "", "")},
		want: outcome{err: "move 1: seat 0 cannot place a hit man on swiss:capitol"},
	}, {
		name: "a bribe twice in a round",
		g:    game{moves: turns(0, "1000:school 1000:monument", "1000:school", "1000:school")},
		want: outcome{err: "move 4: seat 0 ", errHas: "1,000"},
	}, {
		name: "a bribe twice in a round, once on a Swiss account",
		g:    game{moves: turns(0, "4000:swiss:city 4000:school", "1000:school", "1000:school")},
		want: outcome{err: "move 4: seat 0 ", errHas: "4,000"},
	}, {
		name: "bribes come back the next round",
		g:    game{moves: moves(scenarioA(), turns(0, "10000:monument", "10000:monument", "10000:library"))},
		want: outcome{round: 2, next: "place 0"},
	}, {
		name: "a second district attorney in one round",
		g:    game{moves: turns(0, "da:school da:monument", "1000:school", "1000:school")},
		want: outcome{err: "move 4: seat 0 ", errHas: "district attorney"},
	}, {
		name: "a third reporter in one round",
		g:    game{moves: turns(0, "reporter:school reporter:monument reporter:library", "1000:firehouse 2000:firehouse", "1000:police 2000:police")},
		want: outcome{err: "move 7: seat 0 ", errHas: "reporter"},
	}, {
		name: "a second hit man in one round",
		g:    game{moves: turns(0, "hitman:school hitman:monument", "1000:firehouse", "1000:police")},
		want: outcome{err: "move 4: seat 0 ", errHas: "hit man"},
	}, {
		name: "a district attorney played in round 1 has left the game",
		g:    game{moves: moves(nullRound(0, 0, "firehouse"), turns(0, "da:monument", "", ""))},
		want: outcome{err: "move 19: seat 0 ", errHas: "district attorney"},
	}, {
		name: "a hit man played in round 1 has left the game",
		g: game{moves: moves(
			turns(0, "hitman:library 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse",
				"da:firehouse 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse",
				"1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse"),
			turns(0, "hitman:courthouse", "", ""))},
		want: outcome{err: "move 19: seat 0 ", errHas: "hit man"},
	}, {
		name: "the second reporter in round 2, no third in round 3",
		g: game{moves: moves(
			turns(0, "reporter:library 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse",
				"da:firehouse 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse",
				"1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse"),
			turns(0, "reporter:courthouse 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse",
				"1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse",
				"da:firehouse 1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse"),
			turns(0, "reporter:streetcar", "", ""))},
		want: outcome{err: "move 37: seat 0 ", errHas: "reporter"},
		extra: func(t *testing.T, s *corruption.State, _ []corruption.Event) {
			if da, rep, hm := s.CharactersLeft(0); da != 1 || rep != 0 || hm != 1 {
				t.Errorf("seat 0 has %d DA, %d reporters, %d hit men left, want 1 0 1", da, rep, hm)
			}
			if da, rep, hm := s.CharactersLeft(2); da != 0 || rep != 2 || hm != 1 {
				t.Errorf("seat 2 has %d DA, %d reporters, %d hit men left, want 0 2 1", da, rep, hm)
			}
		},
	}, {
		name: "a contract not yet dealt",
		g:    game{moves: turns(0, "1000:dam", "", "")},
		want: outcome{err: "move 1: seat 0 cannot place", errHas: "dam"},
	}, {
		name: "a contract already won",
		g:    game{moves: moves(scenarioA(), turns(0, "1000:school", "", ""))},
		want: outcome{err: "move 19: seat 0 cannot place", errHas: "school"},
	}, {
		name: "a character in the closed variant",
		g:    game{variant: "closed", moves: turns(0, "1000:school", "reporter:school", "")},
		want: outcome{err: "move 2: seat 1 cannot", errHas: "reporter"},
	}, {
		name: "a Swiss bribe in the closed variant",
		g:    game{variant: "closed", moves: turns(0, "1000:swiss:city", "", "")},
		want: outcome{round: 1, next: "place 1"},
	}, {
		name: "an assignment during corruption",
		g:    game{moves: []string{`{"seat": 0, "assign": "school"}`}},
		want: outcome{err: "move 1: seat 0 cannot"},
	}, {
		name: "a kill during corruption",
		g:    game{moves: []string{`{"seat": 0, "kill": 1}`}},
		want: outcome{err: "move 1: seat 0 cannot"},
	}, {
		name: "a removal during corruption",
		g:    game{moves: moves(turns(0, "1000:school", "", ""), `{"seat": 1, "remove": 1}`)},
		want: outcome{err: "move 2: seat 1 cannot"},
	}, {
		name: "a pass during corruption",
		g:    game{moves: []string{`{"seat": 0, "pass": true}`}},
		want: outcome{err: "move 1: seat 0 cannot"},
	}, {
		name: "a face-up choice outside free stud",
		g:    game{moves: []string{`{"seat": 0, "faceup": [1, 2]}`}},
		want: outcome{err: "move 1: seat 0 cannot"},
	}})
}

func TestCharactersLeaveTheGame(t *testing.T) {
	// Seat 0 plays its district attorney (cancelling firehouse), a reporter (nothing to remove)
	// and its hit man (no target under monument). All three leave the game; bribes come back.
	r1 := turns(0,
		"da:firehouse reporter:library hitman:monument 1000:firehouse 2000:firehouse 4000:firehouse",
		"1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse",
		"1000:firehouse 2000:firehouse 4000:firehouse 6000:firehouse 8000:firehouse 10000:firehouse")
	s, evs := mustRun(t, game{moves: r1})
	if got := eventsOf(evs, corruption.EventCancelled); len(got) != 1 || got[0] != "cancelled firehouse" {
		t.Errorf("events %v, want firehouse cancelled", got)
	}
	if da, rep, hm := s.CharactersLeft(0); da != 0 || rep != 1 || hm != 0 {
		t.Errorf("seat 0 has %d DA, %d reporters, %d hit men left, want 0 1 0", da, rep, hm)
	}
	if da, rep, hm := s.CharactersLeft(1); da != 1 || rep != 2 || hm != 1 {
		t.Errorf("seat 1 has %d DA, %d reporters, %d hit men left, want 1 2 1", da, rep, hm)
	}
	hand := s.Hand(0)
	want := []corruption.Card{corruption.Bribe1000, corruption.Bribe2000, corruption.Bribe4000, corruption.Bribe6000, corruption.Bribe8000, corruption.Bribe10000, corruption.Reporter}
	if len(hand) != len(want) {
		t.Fatalf("seat 0 holds %v, want %v", hand, want)
	}
	for i := range want {
		if hand[i] != want[i] {
			t.Fatalf("seat 0 holds %v, want %v", hand, want)
		}
	}
}
