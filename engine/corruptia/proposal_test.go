package corruptia_test

// Rule tests: a bill proposal (the rule sheet's phase 2), on a program laid by hand.

import (
	"strings"
	"testing"

	"corruption/engine/corruptia"
)

// testProgram: the three starting bills (six $1 officials at (0,0), six $3 at (0,2), six $2
// at (0,4)), a bill with one $1 official at (-1,1), and one where only two of seat 0's
// employees work, at (1,3).
func testProgram(t *testing.T) corruptia.Program {
	return corruptia.Program{
		placed(t, "cul01", 0, 0, 6, 0, 0, 0, 0),
		placed(t, "def02", 0, 2, 0, 0, 6, 0, 0),
		placed(t, "eco03", 0, 4, 0, 6, 0, 0, 0),
		placed(t, "env01", -1, 1, 1, 0, 0, 0, 0),
		placed(t, "edu01", 1, 3, 0, 0, 0, 2, 0),
	}
}

func TestCanPlace(t *testing.T) {
	prog := testProgram(t)
	for _, c := range []struct {
		row, col int
		want     string // "" if it may go there
	}{
		{0, -2, ""},           // beside a starting bill
		{1, 1, ""},            // below two
		{-1, 3, ""},           // above two
		{0, 6, ""},            // beside the last
		{0, 1, "not a cell"},  // not interleaved like bricks
		{1, 0, "not a cell"},  //
		{0, 2, "is taken"},    // a starting bill's place
		{0, 8, "touches no"},  // two places off
		{3, 3, "touches no"},  // below, apart
		{-2, 4, "touches no"}, // touches only a corner of nothing
	} {
		err := prog.CanPlace(corruptia.Cell{Row: c.row, Col: c.col})
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("(%d,%d): %v, want %q", c.row, c.col, err, c.want)
		}
	}
}

func official(inc, from int) corruptia.Worker { return corruptia.Worker{Income: inc, From: from} }
func employee(seat int) corruptia.Worker      { return corruptia.Worker{Employee: true, From: seat} }

// TestCheckProposal: three workers fill the bill's vacancies: officials from bills touching
// the new one, each of a vacancy's income expectation and no more than the bill holds (an
// employee never moves again), or employees of the senator's reserve, or offered to it.
func TestCheckProposal(t *testing.T) {
	prog := testProgram(t)
	b := bill(t, "cul02") // budget $1, $1, $3
	if b.Budget() != [3]int{1, 1, 3} {
		t.Fatalf("cul02's budget is %v", b.Budget())
	}
	below := corruptia.Cell{Row: 1, Col: 1}    // touches cul01, def02 and edu01 (employees only)
	above := corruptia.Cell{Row: -1, Col: 3}   // touches def02, eco03 and env01
	farLeft := corruptia.Cell{Row: 0, Col: -2} // touches cul01 only
	for _, c := range []struct {
		name   string
		at     corruptia.Cell
		w      [3]corruptia.Worker
		own    int
		offers [corruptia.MaxPlayers]int
		want   string
	}{
		{"officials of the budget's incomes from touching bills", below, [3]corruptia.Worker{official(1, 0), official(1, 0), official(3, 1)}, 3, [5]int{}, ""},
		{"employees fill any vacancy", farLeft, [3]corruptia.Worker{official(1, 0), employee(0), employee(0)}, 2, [5]int{}, ""},
		{"from a bill that does not touch", farLeft, [3]corruptia.Worker{official(1, 0), official(1, 0), official(3, 1)}, 3, [5]int{}, "does not touch"},
		{"an income the budget has no vacancy for", above, [3]corruptia.Worker{official(1, 3), official(2, 2), official(3, 1)}, 3, [5]int{}, "no vacancy for a $2"},
		{"more of an income than its vacancies", below, [3]corruptia.Worker{official(1, 0), official(3, 1), official(3, 1)}, 3, [5]int{}, "1 vacancies for a $3 official, not 2"},
		{"more than the bill holds", above, [3]corruptia.Worker{official(1, 3), official(1, 3), official(3, 1)}, 3, [5]int{}, "has 1 officials of $1 free to move, not 2"},
		{"employees on a bill never move", below, [3]corruptia.Worker{official(1, 4), official(1, 0), official(3, 1)}, 3, [5]int{}, "0 officials of $1"},
		{"no bill of that index", below, [3]corruptia.Worker{official(1, 9), official(1, 0), official(3, 1)}, 3, [5]int{}, "no bill 9"},
		{"more employees than the reserve", below, [3]corruptia.Worker{official(1, 0), employee(0), employee(0)}, 1, [5]int{}, "1 employees in its reserve, not 2"},
		{"another senator's employee, not offered", below, [3]corruptia.Worker{official(1, 0), official(1, 0), employee(1)}, 3, [5]int{}, "offered 0 employees"},
		{"another senator's employee, offered", below, [3]corruptia.Worker{official(1, 0), official(1, 0), employee(1)}, 3, [5]int{1: 1}, ""},
		{"an employee of no seat", below, [3]corruptia.Worker{official(1, 0), official(1, 0), employee(3)}, 3, [5]int{}, "no seat 3"},
		{"a taken cell", corruptia.Cell{Row: 0, Col: 4}, [3]corruptia.Worker{employee(0), employee(0), employee(0)}, 3, [5]int{}, "is taken"},
		{"a cell apart", corruptia.Cell{Row: 4, Col: 0}, [3]corruptia.Worker{employee(0), employee(0), employee(0)}, 3, [5]int{}, "touches no bill"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := corruptia.Proposal{Bill: b, At: c.at, Workers: c.w}
			err := corruptia.CheckProposal(prog, p, 0, 3, c.own, c.offers)
			if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("%v, want %q", err, c.want)
			}
			if c.want != "" {
				return
			}
			found := false
			for _, q := range corruptia.Proposals(prog, b, 0, 0, 3, c.own, c.offers, nil) {
				found = found || q == p.Canonical()
			}
			if !found {
				t.Error("Proposals does not list it")
			}
		})
	}
}

// TestProposalsAreLegal: every proposal Proposals lists passes CheckProposal, and no two are
// the same.
func TestProposalsAreLegal(t *testing.T) {
	prog := testProgram(t)
	for b := corruptia.Bill(0); b < corruptia.NumBills; b += 7 {
		ps := corruptia.Proposals(prog, b, 0, 1, 3, 2, [corruptia.MaxPlayers]int{2: 1}, nil)
		if len(ps) == 0 {
			t.Fatalf("%s: no proposal", b)
		}
		seen := map[corruptia.Proposal]bool{}
		for _, p := range ps {
			if err := corruptia.CheckProposal(prog, p, 1, 3, 2, [corruptia.MaxPlayers]int{2: 1}); err != nil || seen[p] || p != p.Canonical() {
				t.Fatalf("%s: listed %+v: %v (seen %v)", b, p, err, seen[p])
			}
			seen[p] = true
		}
	}
}
