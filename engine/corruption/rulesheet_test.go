package corruption_test

// The rule sheet's worked example (figures 3 and 4, seeds/corruption-rules-en.txt), as far as
// the sheet gives it, in script/testdata/rulesheet-figures-3-4.json.
//
// What the sheet says: Player 1's $8,000 is the first bribe on City Hall's Swiss account; it is
// worth $4,000 and Player 1 may assign it to the Monument or the Opera House, both under City
// Hall; the Opera House has a district attorney and is cancelled, so Player 1 assigns to the
// Monument. No hit man. Two reporters on the Airport: Player 3's, played first, removes Player
// 1's $10,000; then Player 4's removes Player 3's $10,000. The Monument goes to Player 1, the
// Stadium to Player 3, the Subway to Player 4, the University and the Airport to Player 2, the
// Opera House to no one; Player 2 leads round 2.
//
// What we filled in (the figures are not in the text):
//   - Players 1 to 4 are seats 0 to 3; the standard variant, round 1, Player 1 first.
//   - The deal: Monument and Opera House under City Hall (the sheet says so), Stadium and
//     Subway under the County Seat, University and Airport under the Capitol.
//   - Every card not named by the sheet, chosen so that the named outcomes follow:
//       Airport:    P1 $10,000 (#1, face up), P2 $8,000 (#2), P3 $10,000 (#3), P4 $6,000 (#4),
//                   P3's reporter (#7), P4's reporter (#12).
//       Opera:      P4's district attorney (#8), P2 $6,000, P1 $1,000, P3 $1,000.
//       Stadium:    P1 $2,000, P3 $8,000, P2 $1,000 + $4,000.
//       Subway:     P1 $4,000, P3 $6,000, P4 $10,000, P2 $2,000.
//       University: P2 $10,000, P1 $6,000, P3 $2,000, P4 $8,000.
//       City Hall's Swiss account: P1 $8,000 (#5), and later P4 $1,000 (#24), which P4
//                   assigns to the Opera House (wasted, since it is cancelled).
//   - After the removals the Airport has P2's $8,000 against P4's $6,000: Player 2 wins it.

import (
	"os"
	"reflect"
	"sort"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/script"
)

func loadExample(t *testing.T) *script.Script {
	t.Helper()
	data, err := os.ReadFile("script/testdata/rulesheet-figures-3-4.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func runPrefix(t *testing.T, sc *script.Script, k int, extra ...corruption.Move) (*corruption.State, []corruption.Event) {
	t.Helper()
	var evs []corruption.Event
	pre := script.Script{Config: sc.Config, Moves: append(append([]corruption.Move(nil), sc.Moves[:k]...), extra...)}
	s, err := pre.Run(corruption.WithEvents(func(e corruption.Event) { evs = append(evs, e) }))
	if err != nil {
		t.Fatal(err)
	}
	return s, evs
}

func TestRuleSheetExample(t *testing.T) {
	sc := loadExample(t)
	if len(sc.Moves) != 28 {
		t.Fatalf("%d moves, want 24 placements and 4 decisions", len(sc.Moves))
	}

	s, _ := runPrefix(t, sc, 0)
	if got := ids(s.Table()); got != "monument opera stadium subway university airport" {
		t.Errorf("table %s", got)
	}
	if s.ContractBody(contract(t, "monument")) != corruption.City || s.ContractBody(contract(t, "opera")) != corruption.City {
		t.Errorf("the Monument and the Opera House are not under City Hall")
	}

	// Step 1: Player 1's $8,000 (#5) is the first Swiss bribe; Monument or Opera House.
	s, _ = runPrefix(t, sc, 24)
	if got := decision(s.Next()); got != "assign 0 #5" {
		t.Fatalf("after the placements: next %q, want Player 1 to assign card 5", got)
	}
	if got := ids(s.AssignOptions()); got != "monument opera" {
		t.Errorf("Player 1 may assign to [%s], want [monument opera]", got)
	}
	if p, _ := s.PlayAt(5); p.Card != corruption.Bribe8000 || p.Spot != corruption.SwissSpot(corruption.City) {
		t.Errorf("card 5 is %+v", p)
	}
	s, _ = runPrefix(t, sc, 25)
	if got := decision(s.Next()); got != "assign 3 #24" {
		t.Errorf("then %q, want Player 4 to assign card 24", got)
	}

	// Step 4: Player 3's reporter (#7) first, then Player 4's (#12).
	s, _ = runPrefix(t, sc, 26)
	if got := decision(s.Next()); got != "remove 2 #7" {
		t.Fatalf("after the assignments: next %q, want Player 3's reporter (card 7)", got)
	}
	if got := s.RemoveOptions(); !reflect.DeepEqual(got, []int{1, 2, 3, 4}) {
		t.Errorf("Player 3 may remove %v, want the four Airport bribes", got)
	}
	if !s.Cancelled(contract(t, "opera")) {
		t.Errorf("the Opera House is not cancelled by step 4")
	}
	s, _ = runPrefix(t, sc, 27)
	if got := decision(s.Next()); got != "remove 3 #12" {
		t.Fatalf("then %q, want Player 4's reporter (card 12)", got)
	}
	if got := s.RemoveOptions(); !reflect.DeepEqual(got, []int{2, 3, 4}) {
		t.Errorf("Player 4 may remove %v, want the three Airport bribes left", got)
	}

	s, evs := runPrefix(t, sc, 28)
	check(t, s, nil, outcome{round: 2, first: intp(1), next: "place 1",
		scores:   []int{100000, 500000 + 1100000, 600000, 900000},
		won:      []string{"monument", "university airport", "stadium", "subway"},
		deferred: strp("opera")})
	wantEvents([]string{"assigned 0 #5 monument", "assigned 3 #24 opera", "cancelled opera",
		"removed 2 #7 #1", "removed 3 #12 #3"}, steps...)(t, s, evs)
	got := eventsOf(evs, corruption.EventAwarded, corruption.EventDeferred) // the cancelled Opera House is neither
	sort.Strings(got)
	want := []string{"awarded airport 1", "awarded monument 0", "awarded stadium 2", "awarded subway 3",
		"awarded university 1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("awards %q, want %q", got, want)
	}
	for _, e := range evs {
		if e.Kind == corruption.EventAwarded && e.Contract == contract(t, "monument") && e.Amount != 4000 {
			t.Errorf("the Monument went for $%d, want $4,000 (half of $8,000)", e.Amount)
		}
		if e.Kind == corruption.EventAwarded && e.Contract == contract(t, "airport") && e.Amount != 8000 {
			t.Errorf("the Airport went for $%d, want Player 2's $8,000", e.Amount)
		}
	}
}

// The sheet's remark on step 1: the Monument is Player 1's best choice, because the Opera
// House will be cancelled. Assigning to the Opera House instead wastes the bribe.
func TestRuleSheetExampleOtherChoices(t *testing.T) {
	sc := loadExample(t)
	cases := []struct {
		name  string
		moves []corruption.Move // replacing the four decisions
		want  outcome
	}{{
		name: "Player 1 assigns to the Opera House: the Monument has no bribe",
		moves: []corruption.Move{
			{Kind: corruption.MoveAssign, Seat: 0, Contract: contract(t, "opera")},
			{Kind: corruption.MoveAssign, Seat: 3, Contract: contract(t, "opera")},
			{Kind: corruption.MoveRemove, Seat: 2, Index: 1},
			{Kind: corruption.MoveRemove, Seat: 3, Index: 3},
		},
		want: outcome{round: 2, first: intp(1), scores: []int{0, 1600000, 600000, 900000}, deferred: strp("monument opera")},
	}, {
		name: "Player 4 passes: Player 3's $10,000 takes the Airport",
		moves: []corruption.Move{
			{Kind: corruption.MoveAssign, Seat: 0, Contract: contract(t, "monument")},
			{Kind: corruption.MoveAssign, Seat: 3, Contract: contract(t, "opera")},
			{Kind: corruption.MoveRemove, Seat: 2, Index: 1},
			{Kind: corruption.MovePass, Seat: 3},
		},
		// Player 3: Stadium + Airport = $1,700,000 leads.
		want: outcome{round: 2, first: intp(2), scores: []int{100000, 500000, 1700000, 900000},
			won: []string{"monument", "university", "stadium airport", "subway"}},
	}, {
		name: "Player 4's $1,000 Swiss bribe on the Monument ties nothing: $500 against $4,000",
		moves: []corruption.Move{
			{Kind: corruption.MoveAssign, Seat: 0, Contract: contract(t, "monument")},
			{Kind: corruption.MoveAssign, Seat: 3, Contract: contract(t, "monument")},
			{Kind: corruption.MoveRemove, Seat: 2, Index: 1},
			{Kind: corruption.MoveRemove, Seat: 3, Index: 3},
		},
		want: outcome{round: 2, first: intp(1), won: []string{"monument", "university airport", "stadium", "subway"}},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := runPrefix(t, sc, 24, tc.moves...)
			check(t, s, nil, tc.want)
		})
	}
}
