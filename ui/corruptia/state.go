package corruptia

import (
	"fmt"

	rules "corruption/engine/corruptia"
	"corruption/ui"
)

// gameState is the game as the person's view shows it: the State's "game".
type gameState struct {
	Round    int            `json:"round"`
	Rounds   int            `json:"rounds"`
	First    int            `json:"first"`  // the presidential token (-1 before the draw)
	Active   int            `json:"active"` // whose turn it is (-1 outside turns)
	Die      string         `json:"die"`    // the people's die this turn: a department, "R", or ""
	Next     nextState      `json:"next"`
	Values   []deptValue    `json:"values"`
	Program  []billState    `json:"program"`
	Frontier [][2]int       `json:"frontier"` // the free cells that touch the program
	Proposal *proposalState `json:"proposal"` // the proposal under negotiation (null: none)
	LastVote *voteState     `json:"last_vote"`
	Hand     []billRef      `json:"hand"`
	Opening  *billRef       `json:"opening"` // the person's opening discard, face down in the pile
	Pile     []billRef      `json:"pile"`
	DeckLeft int            `json:"deck_left"`
	Holds    []blackmailRef `json:"holds"`  // the blackmail cards the person holds
	Supply   int            `json:"supply"` // approval tokens left in the box
}

// nextState is the decision due, whoever's it is.
type nextState struct {
	Kind string `json:"kind"` // table discard propose respond negotiate vote swap nothing
	Seat int    `json:"seat"`
	Text string `json:"text"`
}

// billRef is a bill as the page prints it.
type billRef struct {
	Bill   string `json:"bill"`
	Title  string `json:"title"`
	Dept   string `json:"dept"`
	Budget [3]int `json:"budget"` // its vacancies' incomes
	Income int    `json:"income"` // its officials' income, if it opens the program
}

func refOf(b rules.Bill) billRef {
	if !b.Valid() {
		return billRef{Bill: "unknown"}
	}
	return billRef{Bill: b.String(), Title: b.Title(), Dept: b.Department().String(), Budget: b.Budget(), Income: b.Income()}
}

func refsOf(bs []rules.Bill) []billRef {
	out := make([]billRef, len(bs))
	for i, b := range bs {
		out[i] = refOf(b)
	}
	return out
}

// deptValue is what a department is worth, and how many of its bills the person holds.
type deptValue struct {
	Dept  string `json:"dept"`
	Value int    `json:"value"`
	Mine  int    `json:"mine"`
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
	Source   string `json:"source"` // an official's bill id, an employee's senator's name
	Text     string `json:"text"`   // "$2 official from edu09", "ann's employee"
}

// pressState is a blackmail card played this turn.
type pressState struct {
	Seat   int    `json:"seat"` // the senator pressed
	By     int    `json:"by"`
	Demand string `json:"demand"`
	Title  string `json:"title"`
}

// voteState is the last vote, revealed together.
type voteState struct {
	billRef
	Votes []string `json:"votes"` // by seat
}

// blackmailRef is a blackmail card: on whom, and its title.
type blackmailRef struct {
	Target int    `json:"target"`
	Title  string `json:"title"`
}

// buildGame describes the game from v (and nothing else but the players' names).
func buildGame(v *rules.View, names []string) *gameState {
	g := &gameState{Round: v.Round, Rounds: rules.Rounds, First: v.First, Active: v.Active, Next: nextOf(v, names),
		Program: []billState{}, Frontier: [][2]int{}, Hand: refsOf(v.Hand()), Pile: refsOf(v.Pile), DeckLeft: v.DeckLeft,
		Holds: []blackmailRef{}, Supply: rules.TokenSupply}
	if v.Die != rules.DieNone {
		g.Die = v.Die.String()
	}
	for _, a := range v.Approval {
		g.Supply -= a
	}
	for d := range rules.NumDepartments {
		dv := deptValue{Dept: rules.Department(d).String(), Value: v.Values[d]}
		for _, b := range v.Hand() {
			if b.Valid() && b.Department() == rules.Department(d) {
				dv.Mine++
			}
		}
		g.Values = append(g.Values, dv)
	}
	for i, p := range v.Program {
		bs := billState{billRef: refOf(p.Bill), Index: i, At: [2]int{p.At.Row, p.At.Col}, Employees: p.Employees[:v.Players], Workers: p.Workers()}
		copy(bs.Officials[:], p.Officials[1:])
		g.Program = append(g.Program, bs)
	}
	for _, c := range v.Program.Frontier() {
		g.Frontier = append(g.Frontier, [2]int{c.Row, c.Col})
	}
	if p := v.Proposal; p != nil {
		g.Proposal = proposalOf(v, *p, names)
		for _, w := range p.Workers {
			if !w.Employee && w.From >= 0 && w.From < len(g.Program) {
				g.Program[w.From].Interview[w.Income-1]++
			}
		}
	}
	if v.LastBill != rules.Unknown && voted(v.Votes) {
		lv := &voteState{billRef: refOf(v.LastBill)}
		for _, vt := range v.Votes {
			lv.Votes = append(lv.Votes, vt.String())
		}
		g.LastVote = lv
	}
	if v.Opening.Valid() && v.Round <= 1 {
		o := refOf(v.Opening)
		g.Opening = &o
	}
	if v.Seat >= 0 && v.Seat < v.Players {
		for t, holds := range v.Holds[v.Seat] {
			if holds {
				g.Holds = append(g.Holds, blackmailRef{Target: t, Title: rules.BlackmailTitle(v.Seat, t, v.Players)})
			}
		}
	}
	return g
}

func voted(vs []rules.Vote) bool {
	for _, v := range vs {
		if v != rules.VoteNone {
			return true
		}
	}
	return false
}

func proposalOf(v *rules.View, p rules.Proposal, names []string) *proposalState {
	ps := &proposalState{billRef: refOf(p.Bill), Seat: v.Active, At: [2]int{p.At.Row, p.At.Col}, AmendsLeft: v.AmendsLeft,
		Offers: v.Offers, Pressed: []pressState{}}
	for _, w := range p.Workers {
		ps.Workers = append(ps.Workers, workerOf(v, w, names))
	}
	for s, d := range v.Pressed {
		if d != rules.VoteNone {
			ps.Pressed = append(ps.Pressed, pressState{Seat: s, By: v.PressedBy[s], Demand: d.String(),
				Title: rules.BlackmailTitle(v.PressedBy[s], s, v.Players)})
		}
	}
	return ps
}

func workerOf(v *rules.View, w rules.Worker, names []string) workerState {
	if w.Employee {
		return workerState{Employee: true, From: w.From, Source: ui.SeatName(names, w.From), Text: ui.SeatName(names, w.From) + "'s employee"}
	}
	src := "?"
	if w.From >= 0 && w.From < len(v.Program) {
		src = v.Program[w.From].Bill.String()
	}
	return workerState{Income: w.Income, From: w.From, Source: src, Text: fmt.Sprintf("$%d official from %s", w.Income, src)}
}

// nextOf says in words what the game waits for.
func nextOf(v *rules.View, names []string) nextState {
	d := v.Next
	n := nextState{Kind: d.Kind.String(), Seat: d.Seat}
	who, you := ui.SeatName(names, d.Seat), d.Seat == v.Seat
	verb := func(mine, theirs string) string {
		if you {
			return "you " + mine
		}
		return who + " " + theirs
	}
	switch d.Kind {
	case rules.DecideNothing:
		n.Text = "The game is over"
	case rules.DecideTable:
		n.Text = "The table deals, shuffles or draws"
	case rules.DecideDiscard:
		n.Text = "Opening discards: " + verb("discard", "discards") + " a bill face down"
	case rules.DecidePropose:
		n.Text = capital(verb("propose", "proposes")) + " a bill"
	case rules.DecideRespond:
		n.Text = "Negotiation: " + verb("offer an employee, blackmail or pass", "offers an employee, blackmails or passes")
	case rules.DecideNegotiate:
		n.Text = "Negotiation: " + verb("amend, blackmail or call the vote", "amends, blackmails or calls the vote")
	case rules.DecideVote:
		n.Text = "Every senator votes, in secret; the votes are revealed together"
	case rules.DecideSwap:
		n.Text = capital(verb("were absent: swap", "was absent: swaps")) + " a bill with the discard pile, or passes"
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
	// Known is another senator's hand as the person's node knows it, when it knows bills of it
	// that were never shown: an open seat's (its player left, openHand); nil for every other
	// seat.
	Known []billRef `json:"known,omitempty"`
}

// openHand is seat's hand as the person's node (cg, the person's view v) knows it, when the node
// knows bills of it that the person's view does not show: the hand of an open seat, whose
// player left and whose secret every node rebuilt (protocol/depart.go); the node's game learnt
// its bills as if they were its own, so seat's own view of the node's game shows them. Nil for
// the person's seat and for any seat whose hidden bills the node does not know (every seat but
// an open one).
func openHand(cg *rules.Game, v *rules.View, seat int) []billRef {
	if cg == nil || v == nil || seat == v.Seat || seat < 0 || seat >= v.Players {
		return nil
	}
	hand, seen := cg.View(seat).Hands[seat], v.Hands[seat]
	for i, b := range hand {
		if b != rules.Unknown && (i >= len(seen) || seen[i] == rules.Unknown) {
			return refsOf(hand)
		}
	}
	return nil
}

// seatFields describes seat from the person's view (zero before the game starts).
func seatFields(v *rules.View, seat int) seatState {
	s := seatState{Party: rules.PartyOf(seat).Name, HoldsOn: []int{}}
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
	return s
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
