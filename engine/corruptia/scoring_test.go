package corruptia_test

import (
	"testing"

	"corruption/engine/corruptia"
)

func bill(t testing.TB, id string) corruptia.Bill {
	t.Helper()
	b, err := corruptia.ParseBill(id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bills(t testing.TB, ids ...string) []corruptia.Bill {
	out := make([]corruptia.Bill, len(ids))
	for i, id := range ids {
		out[i] = bill(t, id)
	}
	return out
}

// placed is a bill at (row, col) with officials of $1, $2, $3 and employees of seats 0 and 1.
func placed(t testing.TB, id string, row, col, o1, o2, o3, e0, e1 int) corruptia.Placed {
	p := corruptia.Placed{Bill: bill(t, id), At: corruptia.Cell{Row: row, Col: col}}
	p.Officials[1], p.Officials[2], p.Officials[3] = o1, o2, o3
	p.Employees[0], p.Employees[1] = e0, e1
	return p
}

// sheetProgram is a government program that gives the rule sheet's example its department
// values: culture 2 touching bills x 3 workers = 6; defence 1 x 2 = 2; economy 1 x 1 = 1;
// education (2 touching x 7) + (1 x 3) = 17; environment 3 touching x 5 = 15. Its 21 workers
// are the 18 officials and the 3 employees the two senators used (seat 0 kept 1 of 3, seat 1
// kept 2).
func sheetProgram(t testing.TB) corruptia.Program {
	return corruptia.Program{
		placed(t, "cul01", 0, 0, 2, 0, 0, 0, 0),
		placed(t, "cul02", 0, 2, 0, 0, 1, 0, 0),
		placed(t, "def01", 1, 1, 0, 2, 0, 0, 0),
		placed(t, "eco01", 1, 3, 0, 0, 1, 0, 0),
		placed(t, "edu01", 0, 4, 2, 1, 0, 1, 0),
		placed(t, "edu02", -1, 5, 0, 1, 1, 1, 0),
		placed(t, "edu03", 2, 0, 1, 1, 0, 0, 1),
		placed(t, "env01", -1, 1, 1, 1, 0, 0, 0),
		placed(t, "env02", -1, 3, 0, 0, 2, 0, 0),
		placed(t, "env03", -2, 2, 0, 0, 1, 0, 0),
	}
}

// TestRuleSheetExample: the sheet's end of a 2-player game. Seat 0 (player 1) holds 2
// economy, 3 education and 3 environment bills, 3 approval tokens and 1 employee: 2 + 51 + 45
// + 15 + 5 = 118. Seat 1 holds 2 defence, 3 economy, 2 education and 1 environment bill, 5
// tokens and 2 employees: 4 + 3 + 34 + 15 + 25 + 10 = 91. Seat 0 wins.
func TestRuleSheetExample(t *testing.T) {
	prog := sheetProgram(t)
	workers, employees := 0, 0
	for _, p := range prog {
		workers += p.Workers()
		employees += p.Employees[0] + p.Employees[1]
	}
	if workers != corruptia.NumOfficials+3 || employees != 3 {
		t.Fatalf("the program holds %d workers (%d employees), want the 18 officials and 3 employees", workers, employees)
	}
	want := [corruptia.NumDepartments]int{6, 2, 1, 17, 15}
	if got := prog.Values(); got != want {
		t.Fatalf("department values %v, want the sheet's %v", got, want)
	}
	hands := [][]corruptia.Bill{
		bills(t, "eco02", "eco03", "edu04", "edu05", "edu06", "env04", "env05", "env06"),
		bills(t, "def02", "def03", "eco04", "eco05", "eco06", "edu07", "edu08", "env07"),
	}
	approval, reserve := []int{3, 5}, []int{1, 2}
	scores := make([]int, 2)
	for s := range scores {
		scores[s] = corruptia.Score(want, approval[s], reserve[s], hands[s])
	}
	if scores[0] != 118 || scores[1] != 91 {
		t.Fatalf("scores %v, want the sheet's [118 91]", scores)
	}
	if w := corruptia.Winners(scores, approval); len(w) != 1 || w[0] != 0 {
		t.Fatalf("winners %v, want [0]", w)
	}
	if got := independentValues(prog); got != want {
		t.Fatalf("the independent count gives %v", got)
	}
}

// independentValues counts department values another way: cells in a map, blocks grown by
// flood fill over the six neighbours of the brick wall.
func independentValues(prog corruptia.Program) [corruptia.NumDepartments]int {
	type cell struct{ r, c int }
	at := map[cell]int{}
	for i, p := range prog {
		at[cell{p.At.Row, p.At.Col}] = i
	}
	var v [corruptia.NumDepartments]int
	done := map[int]bool{}
	for i := range prog {
		if done[i] {
			continue
		}
		d := prog[i].Bill.Department()
		block, queue := 0, []int{i}
		done[i] = true
		workers := 0
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			block++
			workers += prog[j].Workers()
			r, c := prog[j].At.Row, prog[j].At.Col
			for _, nb := range []cell{{r, c - 2}, {r, c + 2}, {r - 1, c - 1}, {r - 1, c + 1}, {r + 1, c - 1}, {r + 1, c + 1}} {
				if k, ok := at[nb]; ok && !done[k] && prog[k].Bill.Department() == d {
					done[k] = true
					queue = append(queue, k)
				}
			}
		}
		v[d] += block * workers
	}
	return v
}

func TestWinners(t *testing.T) {
	for _, c := range []struct {
		name             string
		scores, approval []int
		want             []int
	}{
		{"the best score", []int{10, 30, 20}, []int{9, 0, 0}, []int{1}},
		{"a tie goes to more approval", []int{30, 30, 20}, []int{1, 2, 9}, []int{1}},
		{"then it is shared", []int{30, 12, 30}, []int{2, 5, 2}, []int{0, 2}},
		{"one senator", []int{0}, []int{0}, []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := corruptia.Winners(c.scores, c.approval); !equalInts(got, c.want) {
				t.Errorf("Winners(%v, %v) = %v, want %v", c.scores, c.approval, got, c.want)
			}
		})
	}
}

func TestScore(t *testing.T) {
	v := [corruptia.NumDepartments]int{6, 2, 1, 17, 15}
	for _, c := range []struct {
		name              string
		approval, reserve int
		hand              []string
		want              int
	}{
		{"5 a token", 4, 0, nil, 20},
		{"5 an employee in the reserve", 0, 3, nil, 15},
		{"each bill its department's value", 0, 0, []string{"cul01", "edu01", "edu02"}, 6 + 17 + 17},
		{"an unseen bill counts nothing", 0, 0, []string{"unknown"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var hand []corruptia.Bill
			for _, id := range c.hand {
				b := corruptia.Unknown
				if id != "unknown" {
					b = bill(t, id)
				}
				hand = append(hand, b)
			}
			if got := corruptia.Score(v, c.approval, c.reserve, hand); got != c.want {
				t.Errorf("score %d, want %d", got, c.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNear: a cell's neighbours in the sheet's program, in the order of Cell.Neighbours, and
// Unknown where no bill lies.
func TestNear(t *testing.T) {
	prog := sheetProgram(t)
	u := corruptia.Unknown
	for _, tc := range []struct {
		at   corruptia.Cell
		want [6]corruptia.Bill
	}{
		{corruptia.Cell{Row: 0, Col: 6}, [6]corruptia.Bill{bill(t, "edu01"), u, bill(t, "edu02"), u, u, u}},
		{corruptia.Cell{Row: 1, Col: 5}, [6]corruptia.Bill{bill(t, "eco01"), u, bill(t, "edu01"), u, u, u}},
		{corruptia.Cell{Row: -2, Col: 4}, [6]corruptia.Bill{bill(t, "env03"), u, u, u, bill(t, "env02"), bill(t, "edu02")}},
		{corruptia.Cell{Row: 5, Col: 5}, [6]corruptia.Bill{u, u, u, u, u, u}},
	} {
		if got := prog.Near(tc.at); got != tc.want {
			t.Errorf("Near(%v) = %v, want %v", tc.at, got, tc.want)
		}
	}
}
