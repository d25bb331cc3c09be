package corruptia

import "fmt"

// The government program: bills laid like the bricks of a wall, and what it is worth.
//
// A cell is (Row, Col), Col counted in half cards: a bill at (r, c) spans columns c to c+2 of
// row r, and Row+Col is even, so that each row sits half a card off the rows above and below
// it. A bill touches six cells: (r, c±2) beside it, (r±1, c±1) above and below it. The three
// starting bills lie side by side at (0,0), (0,2), (0,4).

// Cell is a place in the brick wall.
type Cell struct{ Row, Col int }

// StartCells are the cells of the three starting bills, in the order they are revealed.
var StartCells = [3]Cell{{0, 0}, {0, 2}, {0, 4}}

// cellLimit bounds coordinates to what a move's signed bytes carry; a program of at most 28
// bills never reaches it.
const cellLimit = 127

// Valid reports whether c is a cell of the wall: Row+Col even, both within ±127.
func (c Cell) Valid() bool {
	return (c.Row+c.Col)&1 == 0 && c.Row >= -cellLimit && c.Row <= cellLimit && c.Col >= -cellLimit && c.Col <= cellLimit
}

// Neighbours are the six cells that touch c: beside it, then above, then below.
func (c Cell) Neighbours() [6]Cell {
	return [6]Cell{{c.Row, c.Col - 2}, {c.Row, c.Col + 2}, {c.Row - 1, c.Col - 1}, {c.Row - 1, c.Col + 1},
		{c.Row + 1, c.Col - 1}, {c.Row + 1, c.Col + 1}}
}

// Touches reports whether cards at c and d share a side (or half of one).
func (c Cell) Touches(d Cell) bool {
	dr, dc := d.Row-c.Row, d.Col-c.Col
	return (dr == 0 && (dc == 2 || dc == -2)) || ((dr == 1 || dr == -1) && (dc == 1 || dc == -1))
}

func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c.Row, c.Col) }

// Near are the bills of p at the six cells that touch c, in the order of c.Neighbours() (beside
// it, then above, then below), Unknown where there is none: what a front end says a place by.
func (p Program) Near(c Cell) [6]Bill {
	var out [6]Bill
	for i, n := range c.Neighbours() {
		out[i] = Unknown
		if k := p.At(n); k >= 0 {
			out[i] = p[k].Bill
		}
	}
	return out
}

// Placed is a bill of the government program with the people working on it.
type Placed struct {
	Bill      Bill
	At        Cell
	Officials [Incomes + 1]int // public officials, by income expectation (index 0 unused)
	Employees [MaxPlayers]int  // well-connected employees, by the senator they belong to
}

// Workers is how many officials and employees work on the bill.
func (p *Placed) Workers() int {
	n := 0
	for _, k := range p.Officials {
		n += k
	}
	for _, k := range p.Employees {
		n += k
	}
	return n
}

// Program is the government program: the bills approved so far, in order (the starting
// bills first). A bill's index in it never changes.
type Program []Placed

// At is the index of the bill at cell c, or -1.
func (p Program) At(c Cell) int {
	for i := range p {
		if p[i].At == c {
			return i
		}
	}
	return -1
}

// Index is the index of bill b in the program, or -1.
func (p Program) Index(b Bill) int {
	for i := range p {
		if p[i].Bill == b {
			return i
		}
	}
	return -1
}

// CanPlace says why a new bill may not go at c, or nil: c must be a cell of the wall, free,
// and touch a bill of the program.
func (p Program) CanPlace(c Cell) error {
	if !c.Valid() {
		return fmt.Errorf("%s is not a cell of the brick wall (row plus column must be even)", c)
	}
	if i := p.At(c); i >= 0 {
		return fmt.Errorf("%s is taken by %s", c, p[i].Bill)
	}
	for i := range p {
		if p[i].At.Touches(c) {
			return nil
		}
	}
	return fmt.Errorf("%s touches no bill of the program", c)
}

// Frontier lists the free cells that touch the program, in the order the program's bills and
// their neighbours come.
func (p Program) Frontier() []Cell {
	var out []Cell
	for i := range p {
		for _, c := range p[i].At.Neighbours() {
			if p.At(c) < 0 && !containsCell(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

func containsCell(cs []Cell, c Cell) bool {
	for _, d := range cs {
		if d == c {
			return true
		}
	}
	return false
}

// Values is what each department is worth: for each block of touching bills of the
// department, the block's bills times the officials and employees on them, summed over blocks.
func (p Program) Values() [NumDepartments]int {
	var v [NumDepartments]int
	var seenA [64]bool // a game's program holds at most 3 + 25 bills
	var stackA [64]int
	seen, stack := seenA[:], stackA[:]
	if len(p) > len(seen) {
		seen, stack = make([]bool, len(p)), make([]int, len(p))
	}
	for i := range p {
		if seen[i] {
			continue
		}
		d := p[i].Bill.Department()
		cards, workers := 0, 0
		top := 0
		stack[top], seen[i] = i, true
		top++
		for top > 0 {
			top--
			j := stack[top]
			cards++
			workers += p[j].Workers()
			for k := range p {
				if !seen[k] && p[k].Bill.Department() == d && p[j].At.Touches(p[k].At) {
					seen[k] = true
					stack[top] = k
					top++
				}
			}
		}
		v[d] += cards * workers
	}
	return v
}

// Property is what a hand of bills is worth at the department values v: each bill scores its
// department's value. Unknown bills count nothing.
func Property(v [NumDepartments]int, hand []Bill) int {
	n := 0
	for _, b := range hand {
		if b.Valid() {
			n += v[b.Department()]
		}
	}
	return n
}

// Points per approval token and per employee left in the reserve.
const (
	PointsPerToken    = 5
	PointsPerEmployee = 5
)

// Score is a senator's score: 5 per approval token, 5 per employee in its reserve, and its
// hand's property at the department values v.
func Score(v [NumDepartments]int, approval, reserve int, hand []Bill) int {
	return PointsPerToken*approval + PointsPerEmployee*reserve + Property(v, hand)
}

// Winners are the seats with the best score, ties broken by more approval tokens, then
// shared.
func Winners(scores, approval []int) []int {
	var w []int
	for s := range scores {
		switch {
		case len(w) == 0:
			w = []int{s}
		case scores[s] > scores[w[0]] || (scores[s] == scores[w[0]] && approval[s] > approval[w[0]]):
			w = []int{s}
		case scores[s] == scores[w[0]] && approval[s] == approval[w[0]]:
			w = append(w, s)
		}
	}
	return w
}
