package corruptia

import "fmt"

// What a proposal must be (phase 2 of a turn, and every amendment): a free cell of the wall
// that touches the program, and three workers for the bill's three vacancies: public
// officials from bills that touch the cell, each with the income expectation of a vacancy, or
// well-connected employees (from the active senator's reserve, or offered by another senator
// this turn), who fill any vacancy.

// CheckProposal says what is wrong with p as seat's proposal at a table of n, with own
// employees in its reserve and offers[s] employees offered by each other senator s, or nil.
// The bill is taken as p says; whether seat holds it is the caller's to check.
func CheckProposal(prog Program, p Proposal, seat, n, own int, offers [MaxPlayers]int) error {
	if !p.Bill.Valid() {
		return fmt.Errorf("%s is not a bill", p.Bill)
	}
	if err := prog.CanPlace(p.At); err != nil {
		return fmt.Errorf("%s cannot go at %s: %w", p.Bill, p.At, err)
	}
	var budget [Incomes + 1]int
	for _, inc := range p.Bill.Budget() {
		budget[inc]++
	}
	var byIncome [Incomes + 1]int
	var employees [MaxPlayers]int
	for i, w := range p.Workers {
		if w.Employee {
			if w.From < 0 || w.From >= n {
				return fmt.Errorf("worker %d: there is no seat %d", i+1, w.From)
			}
			employees[w.From]++
			continue
		}
		if w.From < 0 || w.From >= len(prog) {
			return fmt.Errorf("worker %d: there is no bill %d in the program (it holds %d)", i+1, w.From, len(prog))
		}
		src := &prog[w.From]
		if !src.At.Touches(p.At) {
			return fmt.Errorf("worker %d: %s at %s does not touch %s: its officials cannot move there", i+1, src.Bill, src.At, p.At)
		}
		if w.Income < 1 || w.Income > Incomes || budget[w.Income] == 0 {
			return fmt.Errorf("worker %d: %s's budget %s has no vacancy for a $%d official", i+1, p.Bill, budgetWords(p.Bill), w.Income)
		}
		if byIncome[w.Income]++; byIncome[w.Income] > budget[w.Income] {
			return fmt.Errorf("%s's budget %s has %d vacancies for a $%d official, not %d", p.Bill, budgetWords(p.Bill), budget[w.Income], w.Income, byIncome[w.Income])
		}
		taken := 0
		for _, v := range p.Workers {
			if !v.Employee && v.From == w.From && v.Income == w.Income {
				taken++
			}
		}
		if taken > src.Officials[w.Income] {
			return fmt.Errorf("%s has %d officials of $%d free to move, not %d", src.Bill, src.Officials[w.Income], w.Income, taken)
		}
	}
	for s, k := range employees {
		switch {
		case k == 0:
		case s == seat && k > own:
			return fmt.Errorf("seat %d has %d employees in its reserve, not %d", seat, own, k)
		case s != seat && k > offers[s]:
			return fmt.Errorf("seat %d has offered %d employees for this proposal, not %d", s, offers[s], k)
		}
	}
	return nil
}

func budgetWords(b Bill) string {
	bg := b.Budget()
	return fmt.Sprintf("($%d, $%d, $%d)", bg[0], bg[1], bg[2])
}

// source is where a worker may come from for a cell: officials of one income on one bill, or
// employees of one senator, with how many.
type source struct {
	w   Worker
	cap int
}

// Proposals lists every legal proposal of bill b from slot of seat's hand, with own employees
// in its reserve and offers by the others, in a fixed order: by cell (Program.Frontier), then
// workers in canonical order. It appends to out.
func Proposals(prog Program, b Bill, slot, seat, n, own int, offers [MaxPlayers]int, out []Proposal) []Proposal {
	proposals(prog, b, slot, seat, n, own, offers, func(p Proposal) bool {
		out = append(out, p)
		return true
	})
	return out
}

// proposals calls yield with each legal proposal until it returns false.
func proposals(prog Program, b Bill, slot, seat, n, own int, offers [MaxPlayers]int, yield func(Proposal) bool) bool {
	var budget [Incomes + 1]int
	for _, inc := range b.Budget() {
		budget[inc]++
	}
	var srcs []source
	for _, c := range prog.Frontier() {
		srcs = srcs[:0]
		for i := range prog {
			if !prog[i].At.Touches(c) {
				continue
			}
			for inc := 1; inc <= Incomes; inc++ {
				if k := min(prog[i].Officials[inc], budget[inc]); k > 0 {
					srcs = append(srcs, source{Worker{Income: inc, From: i}, k})
				}
			}
		}
		for s := range n {
			k := offers[s]
			if s == seat {
				k = own
			}
			if k = min(k, WorkersPerBill); k > 0 {
				srcs = append(srcs, source{Worker{Employee: true, From: s}, k})
			}
		}
		p := Proposal{Slot: slot, Bill: b, At: c}
		var used [Incomes + 1]int
		if !fill(&p, 0, 0, srcs, budget, &used, yield) {
			return false
		}
	}
	return true
}

// fill puts workers k.. of p from srcs[from:], each source no more than its cap, officials no
// more than their income's vacancies.
func fill(p *Proposal, k, from int, srcs []source, budget [Incomes + 1]int, used *[Incomes + 1]int, yield func(Proposal) bool) bool {
	if k == WorkersPerBill {
		return yield(*p)
	}
	for i := from; i < len(srcs); i++ {
		s := &srcs[i]
		inc := s.w.Income
		if s.cap == 0 || (!s.w.Employee && used[inc] == budget[inc]) {
			continue
		}
		s.cap--
		if !s.w.Employee {
			used[inc]++
		}
		p.Workers[k] = s.w
		ok := fill(p, k+1, i, srcs, budget, used, yield)
		s.cap++
		if !s.w.Employee {
			used[inc]--
		}
		if !ok {
			return false
		}
	}
	return true
}

// anyProposal finds a proposal seat could make from hand (every bill known) with its own
// employees, if there is one.
func (g *Game) anyProposal(seat int, hand []handCard) (Proposal, bool) {
	var found Proposal
	ok := false
	for slot, h := range hand {
		if !h.Bill.Valid() {
			continue
		}
		proposals(g.program, h.Bill, slot, seat, g.n, g.reserve[seat], [MaxPlayers]int{}, func(p Proposal) bool {
			found, ok = p, true
			return false
		})
		if ok {
			break
		}
	}
	return found, ok
}
