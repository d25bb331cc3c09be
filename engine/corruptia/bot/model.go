package bot

import (
	"corruption/engine/corruptia"
)

const nd = corruptia.NumDepartments

// model is what the heuristic bot makes of its view: each senator's bills by department (its
// own exactly; another's shown bills exactly and its hidden ones spread over the departments
// in proportion to the bills nobody has seen), and how a proposal would change the
// departments' values.
type model struct {
	v       *corruptia.View
	hold    [corruptia.MaxPlayers][nd]float64
	workers [64]int   // workers on each bill of the program
	byDept  [nd][]int // the program's bills by department
}

func newModel(v *corruptia.View) *model {
	m := &model{v: v}
	var unseen [nd]float64
	for d := range unseen {
		unseen[d] = corruptia.BillsPerDept
	}
	see := func(b corruptia.Bill) {
		if b.Valid() {
			unseen[b.Department()]--
		}
	}
	for i, p := range v.Program {
		see(p.Bill)
		m.workers[i] = p.Workers()
		d := p.Bill.Department()
		m.byDept[d] = append(m.byDept[d], i)
	}
	for _, b := range v.Pile {
		see(b)
	}
	see(v.Opening)
	for _, hand := range v.Hands {
		for _, b := range hand {
			see(b)
		}
	}
	total := 0.0
	for _, u := range unseen {
		total += max(u, 0)
	}
	for s, hand := range v.Hands {
		for _, b := range hand {
			if b.Valid() {
				m.hold[s][b.Department()]++
				continue
			}
			for d, u := range unseen {
				if total > 0 {
					m.hold[s][d] += max(u, 0) / total
				}
			}
		}
	}
	return m
}

// delta is how proposal p, approved, changes each department's value.
func (m *model) delta(p corruptia.Proposal) [nd]int {
	var dv [nd]int
	w := m.workers
	var affected uint8 = 1 << p.Bill.Department()
	for _, wk := range p.Workers {
		if !wk.Employee {
			w[wk.From]--
			affected |= 1 << m.v.Program[wk.From].Bill.Department()
		}
	}
	for d := range nd {
		if affected&(1<<d) != 0 {
			dv[d] = m.value(corruptia.Department(d), &w, p) - m.v.Values[d]
		}
	}
	return dv
}

// value is department d's value with workers w on the program's bills and p's bill added.
func (m *model) value(d corruptia.Department, w *[64]int, p corruptia.Proposal) int {
	prog := m.v.Program
	nodes := m.byDept[d]
	var cells [32]corruptia.Cell
	var work [32]int
	k := 0
	for _, i := range nodes {
		cells[k], work[k] = prog[i].At, w[i]
		k++
	}
	if p.Bill.Department() == d {
		cells[k], work[k] = p.At, corruptia.WorkersPerBill
		k++
	}
	var seen [32]bool
	var stack [32]int
	total := 0
	for i := range k {
		if seen[i] {
			continue
		}
		cards, workers, top := 0, 0, 1
		stack[0], seen[i] = i, true
		for top > 0 {
			top--
			j := stack[top]
			cards++
			workers += work[j]
			for o := range k {
				if !seen[o] && cells[j].Touches(cells[o]) {
					seen[o] = true
					stack[top] = o
					top++
				}
			}
		}
		total += cards * workers
	}
	return total
}

// gain is what p, approved, is worth to seat: its bills times the change in their
// departments' values, less 5 for each of its employees the bill takes. skip is a bill to
// leave out of its hand (the bill proposed, for the proposer), or Unknown.
func (m *model) gain(seat int, p corruptia.Proposal, dv [nd]int, skip corruptia.Bill) float64 {
	g := 0.0
	for d := range nd {
		h := m.hold[seat][d]
		if skip.Valid() && skip.Department() == corruptia.Department(d) {
			h--
		}
		g += h * float64(dv[d])
	}
	for _, w := range p.Workers {
		if w.Employee && w.From == seat {
			g -= corruptia.PointsPerEmployee
		}
	}
	return g
}

// tokens is what voting vote is worth to seat in approval tokens, in points: +5 for a yes to
// the people's department or a no in a revolution, -5 for ignoring a blackmail, -5 for being
// absent, never more than it holds.
func (m *model) tokens(seat int, bill corruptia.Bill, vote corruptia.Vote) float64 {
	v := m.v
	gain := 0
	if (vote == corruptia.VoteYes && v.Die == corruptia.Die(bill.Department())) || (vote == corruptia.VoteNo && v.Die == corruptia.Revolution) {
		gain = 1
	}
	loss := 0
	if v.Pressed[seat] != corruptia.VoteNone && v.Pressed[seat] != vote {
		loss++
	}
	if vote == corruptia.VoteAbsent {
		loss++
	}
	return corruptia.PointsPerToken * float64(max(gain-loss, -v.Approval[seat]))
}

// predict is the vote the bot expects of seat on p: the better of yes and no for it, counting
// its tokens and half its gain (its vote decides the bill about half the time).
func (m *model) predict(seat int, p corruptia.Proposal, dv [nd]int) corruptia.Vote {
	skip := corruptia.Unknown
	if seat == m.v.Active {
		skip = p.Bill
	}
	g := m.gain(seat, p, dv, skip) / 2
	if g+m.tokens(seat, p.Bill, corruptia.VoteYes) >= -g+m.tokens(seat, p.Bill, corruptia.VoteNo) {
		return corruptia.VoteYes
	}
	return corruptia.VoteNo
}

// margin is the predicted yes votes less no votes of every senator but seat.
func (m *model) margin(seat int, p corruptia.Proposal, dv [nd]int) int {
	k := 0
	for s := range m.v.Players {
		if s == seat {
			continue
		}
		if m.predict(s, p, dv) == corruptia.VoteYes {
			k++
		} else {
			k--
		}
	}
	return k
}

// approval is the chance the bot gives a bill with a margin of yes over no votes.
func approval(margin int) float64 { return min(1, max(0, 0.5+0.2*float64(margin))) }
