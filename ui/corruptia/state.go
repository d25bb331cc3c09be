package corruptia

import (
	rules "corruption/engine/corruptia"
)

// gameState is the game as the person's view shows it: the State's "game".
type gameState struct {
	Round    int            `json:"round"`
	Rounds   int            `json:"rounds"`
	First    int            `json:"first"`  // the presidential token (-1 before the draw)
	Active   int            `json:"active"` // whose turn it is (-1 outside turns)
	Die      string         `json:"die"`    // the people's die this turn: a department, "R", or ""
	DieText  string         `json:"die_text"`
	Next     nextState      `json:"next"`
	Values   []deptValue    `json:"values"`
	Program  []billState    `json:"program"`
	Frontier []cellState    `json:"frontier"` // the free cells that touch the program
	Proposal *proposalState `json:"proposal"` // the proposal under negotiation (null: none)
	LastVote *voteState     `json:"last_vote"`
	Hand     []billRef      `json:"hand"`
	Opening  *billRef       `json:"opening"` // the person's opening discard, face down in the pile
	Pile     []billRef      `json:"pile"`
	DeckLeft int            `json:"deck_left"`
	Holds    []blackmailRef `json:"holds"`  // the blackmail cards the person holds
	Supply   int            `json:"supply"` // approval tokens left in the box
}

// nextState is the decision due, whoever's it is. NoBill is true when it is the person's
// proposal and the person holds no bill it may propose anywhere (the decision's can_nobill): Text
// then says so, never "propose a bill".
type nextState struct {
	Kind   string `json:"kind"` // table discard propose respond negotiate vote swap nothing
	Seat   int    `json:"seat"`
	Text   string `json:"text"`
	NoBill bool   `json:"nobill,omitempty"`
}

// billRef is a bill as the page prints it: its id (a key for the page, never shown), its title
// and department in the page's language, its budget and its own income.
type billRef struct {
	Bill     string `json:"bill"`
	Title    string `json:"title"`
	Dept     string `json:"dept"`      // the department's id: culture, defence, economy, education, environment
	DeptName string `json:"dept_name"` // in words
	Budget   [3]int `json:"budget"`    // its vacancies' incomes
	Income   int    `json:"income"`    // its officials' income, if it opens the program
}

func (b Board) refOf(x rules.Bill) billRef {
	if !x.Valid() {
		return billRef{Bill: "unknown", Title: b.say("bill.unknown")}
	}
	return billRef{Bill: x.String(), Title: b.title(x), Dept: x.Department().String(), DeptName: b.dept(x.Department()), Budget: x.Budget(), Income: x.Income()}
}

func (b Board) refsOf(xs []rules.Bill) []billRef {
	out := make([]billRef, len(xs))
	for i, x := range xs {
		out[i] = b.refOf(x)
	}
	return out
}

// deptValue is what a department is worth, and how many of its bills the person holds.
type deptValue struct {
	Dept  string `json:"dept"`
	Name  string `json:"name"`
	Value int    `json:"value"`
	Mine  int    `json:"mine"`
	// Blocks are its blocks of touching bills, each as bills × workers: how Value is made.
	Blocks [][2]int `json:"blocks"`
}

// cellState is a free cell of the wall: its key ("row,col", never shown) and where it is, in
// words.
type cellState struct {
	At    [2]int `json:"at"`
	Key   string `json:"key"`
	Place string `json:"place"`
}

// billState is a bill of the program, with its workers and its interview zone.
type billState struct {
	billRef
	Index     int    `json:"index"`
	At        [2]int `json:"at"`
	Officials [3]int `json:"officials"` // by income: $1, $2, $3
	Employees []int  `json:"employees"` // by seat
	Workers   int    `json:"workers"`
	// Interview is how many of its officials, by income, the proposal under negotiation would
	// take away (they wait in the interview zone until the vote).
	Interview [3]int `json:"interview"`
}

// proposalState is the proposal under negotiation.
type proposalState struct {
	billRef
	Seat       int           `json:"seat"`
	At         [2]int        `json:"at"`
	Place      string        `json:"place"`
	Workers    []workerState `json:"workers"`
	AmendsLeft int           `json:"amends_left"`
	Offers     []int         `json:"offers"` // employees offered, by seat
	Pressed    []pressState  `json:"pressed"`
}

// workerState is one of the three people a proposal puts in a bill's vacancies.
type workerState struct {
	Employee bool   `json:"employee"`
	Income   int    `json:"income,omitempty"`
	From     int    `json:"from"`   // an official's bill index, an employee's seat
	Source   string `json:"source"` // an official's bill title, an employee's senator's name
	Text     string `json:"text"`   // "an official earning $2 from Public Library Network", "ann's employee"
}

// pressState is a blackmail card played this turn.
type pressState struct {
	Seat   int    `json:"seat"` // the senator pressed
	By     int    `json:"by"`
	Demand string `json:"demand"`
	Title  string `json:"title"`
	Text   string `json:"text"` // in words
}

// voteState is the last vote, revealed together.
type voteState struct {
	billRef
	Votes     []string `json:"votes"`      // by seat: yes, no, absent
	VoteNames []string `json:"vote_names"` // in words
}

// blackmailRef is a blackmail card: on whom, and its title.
type blackmailRef struct {
	Target int    `json:"target"`
	Title  string `json:"title"`
}

// buildGame describes the game from v (and nothing else but the players' names), in the
// board's language.
func (s sp) buildGame(v *rules.View) *gameState {
	g := &gameState{Round: v.Round, Rounds: rules.Rounds, First: v.First, Active: v.Active, Next: s.nextOf(v),
		Program: []billState{}, Frontier: []cellState{}, Hand: s.refsOf(v.Hand()), Pile: s.refsOf(v.Pile), DeckLeft: v.DeckLeft,
		Holds: []blackmailRef{}, Supply: rules.TokenSupply, DieText: s.dieWords(v.Die)}
	if v.Die != rules.DieNone {
		g.Die = v.Die.String()
	}
	for _, a := range v.Approval {
		g.Supply -= a
	}
	blocks := deptBlocks(v.Program)
	for d := range rules.NumDepartments {
		dv := deptValue{Dept: rules.Department(d).String(), Name: s.dept(rules.Department(d)), Value: v.Values[d], Blocks: blocks[d]}
		for _, b := range v.Hand() {
			if b.Valid() && b.Department() == rules.Department(d) {
				dv.Mine++
			}
		}
		g.Values = append(g.Values, dv)
	}
	for i, p := range v.Program {
		bs := billState{billRef: s.refOf(p.Bill), Index: i, At: [2]int{p.At.Row, p.At.Col}, Employees: p.Employees[:v.Players], Workers: p.Workers()}
		copy(bs.Officials[:], p.Officials[1:])
		g.Program = append(g.Program, bs)
	}
	for _, c := range v.Program.Frontier() {
		g.Frontier = append(g.Frontier, cellState{At: [2]int{c.Row, c.Col}, Key: cellKey(c), Place: s.placeIn(v.Program, c)})
	}
	if p := v.Proposal; p != nil {
		g.Proposal = s.proposalOf(v, *p)
		for _, w := range p.Workers {
			if !w.Employee && w.From >= 0 && w.From < len(g.Program) {
				g.Program[w.From].Interview[w.Income-1]++
			}
		}
	}
	if v.LastBill != rules.Unknown && voted(v.Votes) {
		lv := &voteState{billRef: s.refOf(v.LastBill)}
		for _, vt := range v.Votes {
			lv.Votes = append(lv.Votes, vt.String())
			lv.VoteNames = append(lv.VoteNames, s.vote(vt))
		}
		g.LastVote = lv
	}
	if v.Opening.Valid() && v.Round <= 1 {
		o := s.refOf(v.Opening)
		g.Opening = &o
	}
	if v.Seat >= 0 && v.Seat < v.Players {
		for t, holds := range v.Holds[v.Seat] {
			if holds {
				g.Holds = append(g.Holds, blackmailRef{Target: t, Title: s.blackmail(v.Seat, t, v.Players)})
			}
		}
	}
	return g
}

// deptBlocks are, by department, its blocks of touching bills in prog, each as its bills and
// its workers (a department's value is the sum of their products; Program.Values).
func deptBlocks(prog rules.Program) [rules.NumDepartments][][2]int {
	var out [rules.NumDepartments][][2]int
	seen := make([]bool, len(prog))
	for i := range prog {
		if seen[i] {
			continue
		}
		d := prog[i].Bill.Department()
		bills, workers := 0, 0
		stack := []int{i}
		seen[i] = true
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			bills++
			workers += prog[k].Workers()
			for j := range prog {
				if !seen[j] && prog[j].Bill.Department() == d && prog[j].At.Touches(prog[k].At) {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		out[d] = append(out[d], [2]int{bills, workers})
	}
	for d := range out {
		if out[d] == nil {
			out[d] = [][2]int{}
		}
	}
	return out
}

func voted(vs []rules.Vote) bool {
	for _, v := range vs {
		if v != rules.VoteNone {
			return true
		}
	}
	return false
}

func (s sp) proposalOf(v *rules.View, p rules.Proposal) *proposalState {
	ps := &proposalState{billRef: s.refOf(p.Bill), Seat: v.Active, At: [2]int{p.At.Row, p.At.Col}, Place: s.placeIn(v.Program, p.At),
		AmendsLeft: v.AmendsLeft, Offers: v.Offers, Pressed: []pressState{}}
	for _, w := range p.Workers {
		ps.Workers = append(ps.Workers, s.workerOf(v, w))
	}
	for seat, d := range v.Pressed {
		if d != rules.VoteNone {
			title := s.blackmail(v.PressedBy[seat], seat, v.Players)
			ps.Pressed = append(ps.Pressed, pressState{Seat: seat, By: v.PressedBy[seat], Demand: d.String(), Title: title,
				Text: s.sayAs("negot.pressed", v.PressedBy[seat], "card", title, "target", s.whom(seat), "vote", s.vote(d))})
		}
	}
	return ps
}

func (s sp) workerOf(v *rules.View, w rules.Worker) workerState {
	if w.Employee {
		return workerState{Employee: true, From: w.From, Source: s.name(w.From), Text: s.employee(w.From)}
	}
	src := rules.Unknown
	if w.From >= 0 && w.From < len(v.Program) {
		src = v.Program[w.From].Bill
	}
	return workerState{Income: w.Income, From: w.From, Source: s.title(src), Text: s.official(w.Income, src)}
}

// nextOf says in words what the game waits for.
func (s sp) nextOf(v *rules.View) nextState {
	d := v.Next
	n := nextState{Kind: d.Kind.String(), Seat: d.Seat}
	switch d.Kind {
	case rules.DecideNothing, rules.DecideTable, rules.DecideVote:
		n.Text = s.say("next." + d.Kind.String())
	case rules.DecidePropose:
		key := "next.propose"
		if d.Seat == v.Seat && noBill(v) {
			key, n.NoBill = "next.nobill", true
		}
		n.Text = s.sayAs(key, d.Seat)
	case rules.DecideDiscard, rules.DecideRespond, rules.DecideNegotiate, rules.DecideSwap:
		n.Text = s.sayAs("next."+d.Kind.String(), d.Seat)
	default:
		n.Text = d.String()
	}
	return n
}

// seatState is a seat's fields of the board's (the shell adds its name, whether it is due and
// whether it won).
type seatState struct {
	Party    string `json:"party"`
	Score    int    `json:"score"`
	Approval int    `json:"approval"`
	Reserve  int    `json:"reserve"` // employees in the reserve
	Bills    int    `json:"bills"`   // bills in hand
	Offered  int    `json:"offered"` // employees offered this turn
	Pressed  string `json:"pressed"` // a blackmail's demand on it this turn ("" none)
	Vote     string `json:"vote"`    // its vote in the last vote ("" none)
	HoldsOn  []int  `json:"holds_on"`
	Active   bool   `json:"active"`
	First    bool   `json:"first"`
	// Points is how the score is made, in the rule sheet's terms.
	Points *pointsState `json:"points,omitempty"`
	// Known is another senator's hand as the person's node knows it, when it knows bills of it
	// that were never shown: an open seat's (its player left, openHand); nil for every other
	// seat.
	Known []billRef `json:"known,omitempty"`
}

// pointsState is a score broken down as the rule sheet counts it: 5 a public approval token, 5
// a well-connected employee in the reserve, and the private property: each bill in hand worth
// its department's value. Unseen is the bills of the hand the person cannot see (they count
// nothing until shown).
type pointsState struct {
	Approval  int          `json:"approval"`  // points from the tokens
	Employees int          `json:"employees"` // points from the reserve
	Property  int          `json:"property"`
	Hand      []handPoints `json:"hand"` // by department, those held
	Unseen    int          `json:"unseen"`
}

// handPoints is what a hand's bills of one department score: N × the department's value.
type handPoints struct {
	Dept   string `json:"dept"`
	Name   string `json:"name"`
	N      int    `json:"n"`
	Value  int    `json:"value"`
	Points int    `json:"points"`
}

// openHand is seat's hand as the person's node (cg, the person's view v) knows it, when the node
// knows bills of it that the person's view does not show: the hand of an open seat, whose
// player left and whose secret every node rebuilt (protocol/depart.go); the node's game learnt
// its bills as if they were its own, so seat's own view of the node's game shows them. Nil for
// the person's seat and for any seat whose hidden bills the node does not know (every seat but
// an open one).
func (b Board) openHand(cg *rules.Game, v *rules.View, seat int) []billRef {
	if cg == nil || v == nil || seat == v.Seat || seat < 0 || seat >= v.Players {
		return nil
	}
	hand, seen := cg.View(seat).Hands[seat], v.Hands[seat]
	for i, x := range hand {
		if x != rules.Unknown && (i >= len(seen) || seen[i] == rules.Unknown) {
			return b.refsOf(hand)
		}
	}
	return nil
}

// seatFields describes seat from the person's view (zero before the game starts).
func (b Board) seatFields(v *rules.View, seat int) seatState {
	s := seatState{Party: b.party(seat), HoldsOn: []int{}}
	if v == nil {
		return s
	}
	s.Score, s.Approval, s.Reserve, s.Bills = v.Scores[seat], v.Approval[seat], v.Reserve[seat], len(v.Hands[seat])
	s.Offered = v.Offers[seat]
	if d := v.Pressed[seat]; d != rules.VoteNone && v.Proposal != nil {
		s.Pressed = d.String()
	}
	if vt := v.Votes[seat]; vt != rules.VoteNone {
		s.Vote = vt.String()
	}
	for t, h := range v.Holds[seat] {
		if h {
			s.HoldsOn = append(s.HoldsOn, t)
		}
	}
	s.Active, s.First = seat == v.Active, seat == v.First
	s.Points = b.points(v, seat)
	return s
}

// points breaks seat's score down as the person's view counts it.
func (b Board) points(v *rules.View, seat int) *pointsState {
	p := &pointsState{Approval: rules.PointsPerToken * v.Approval[seat], Employees: rules.PointsPerEmployee * v.Reserve[seat], Hand: []handPoints{}}
	var n [rules.NumDepartments]int
	for _, x := range v.Hands[seat] {
		if x.Valid() {
			n[x.Department()]++
		} else {
			p.Unseen++
		}
	}
	for d, k := range n {
		if k > 0 {
			hp := handPoints{Dept: rules.Department(d).String(), Name: b.dept(rules.Department(d)), N: k, Value: v.Values[d], Points: k * v.Values[d]}
			p.Hand = append(p.Hand, hp)
			p.Property += hp.Points
		}
	}
	return p
}
