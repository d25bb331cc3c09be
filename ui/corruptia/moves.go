package corruptia

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/ui"
)

// moveSyntax is how a move is typed (in a terminal, or as the "text" of a move request).
const moveSyntax = `discard BILL, propose BILL ROW,COL W W W, amend BILL ROW,COL W W W (W: $INCOME@BILL ` +
	`for an official of that bill, employee for one of yours, employee@SEAT for one SEAT offered), nobill, offer, ` +
	`blackmail SEAT yes|no, pass, call, yes, no, absent, swap BILL TAKE`

// move is a move read from the page or the terminal, its seat not yet known: bills by id,
// officials by the bill they work on. Action resolves it against the person's view.
type move struct {
	kind    rules.MoveKind
	vote    rules.Vote // a vote, when not VoteNone (kind is then unused)
	bill    rules.Bill // discard, propose, amend: the bill; swap: the bill given up
	at      rules.Cell
	workers []worker
	target  int
	demand  rules.Vote
	take    rules.Bill
}

// worker is a worker as typed: an official of a bill of the program, or a senator's employee
// (seat -1: the mover's own).
type worker struct {
	employee bool
	income   int
	source   rules.Bill
	seat     int
}

// parseMove reads a typed move (see moveSyntax).
func parseMove(text string) (move, error) {
	var f []string
	for _, w := range strings.Fields(strings.ToLower(text)) {
		if w != "at" && w != "with" && w != "for" && w != "seat" {
			f = append(f, w)
		}
	}
	if len(f) == 0 {
		return move{}, errors.New("type a move")
	}
	args := f[1:]
	want := func(n int, usage string) error {
		if len(args) != n {
			return fmt.Errorf("%q: want %s", text, usage)
		}
		return nil
	}
	switch f[0] {
	case "pass", "nobill", "offer", "call":
		k := map[string]rules.MoveKind{"pass": rules.MovePass, "nobill": rules.MoveNoBill, "offer": rules.MoveOffer, "call": rules.MoveCall}[f[0]]
		return move{kind: k}, want(0, f[0]+" alone")
	case "yes", "no", "absent":
		v, _ := rules.ParseVote(f[0])
		return move{vote: v}, want(0, f[0]+" alone")
	case "vote":
		if err := want(1, "vote yes, vote no or vote absent"); err != nil {
			return move{}, err
		}
		v, err := rules.ParseVote(args[0])
		return move{vote: v}, err
	case "discard":
		if err := want(1, "discard and a bill of your hand, e.g. discard edu09"); err != nil {
			return move{}, err
		}
		b, err := rules.ParseBill(args[0])
		return move{kind: rules.MoveDiscard, bill: b}, err
	case "swap":
		if err := want(2, "swap, the bill you give up and the bill you take, e.g. swap cul11 env04"); err != nil {
			return move{}, err
		}
		give, err := rules.ParseBill(args[0])
		if err != nil {
			return move{}, err
		}
		take, err := rules.ParseBill(args[1])
		return move{kind: rules.MoveSwap, bill: give, take: take}, err
	case "blackmail":
		if err := want(2, "blackmail, a seat and the vote you demand, e.g. blackmail 2 no"); err != nil {
			return move{}, err
		}
		t, err := strconv.Atoi(args[0])
		if err != nil || t < 0 {
			return move{}, fmt.Errorf("blackmail: %q is not a seat number", args[0])
		}
		d, err := rules.ParseVote(args[1])
		if err != nil || d == rules.VoteAbsent {
			return move{}, fmt.Errorf("blackmail: demand yes or no, not %q", args[1])
		}
		return move{kind: rules.MoveBlackmail, target: t, demand: d}, nil
	case "propose", "amend":
		if err := want(5, f[0]+", a bill, a cell and three workers, e.g. "+f[0]+" edu09 1,1 $1@cul04 $2@def07 employee"); err != nil {
			return move{}, err
		}
		m := move{kind: rules.MovePropose}
		if f[0] == "amend" {
			m.kind = rules.MoveAmend
		}
		var err error
		if m.bill, err = rules.ParseBill(args[0]); err != nil {
			return m, err
		}
		if m.at, err = parseCell(args[1]); err != nil {
			return m, err
		}
		for _, a := range args[2:] {
			w, err := parseWorker(a)
			if err != nil {
				return m, err
			}
			m.workers = append(m.workers, w)
		}
		return m, nil
	}
	return move{}, fmt.Errorf("%q is not a move: want %s", text, moveSyntax)
}

// parseCell reads "row,col" (or "(row,col)").
func parseCell(s string) (rules.Cell, error) {
	r, c, ok := strings.Cut(strings.Trim(s, "()[]"), ",")
	row, err1 := strconv.Atoi(strings.TrimSpace(r))
	col, err2 := strconv.Atoi(strings.TrimSpace(c))
	if !ok || err1 != nil || err2 != nil {
		return rules.Cell{}, fmt.Errorf("%q is not a cell: want ROW,COL, e.g. 1,-1", s)
	}
	return rules.Cell{Row: row, Col: col}, nil
}

// parseWorker reads "$2@edu09", "employee" or "employee@3".
func parseWorker(s string) (worker, error) {
	if s == "employee" {
		return worker{employee: true, seat: -1}, nil
	}
	if seat, ok := strings.CutPrefix(s, "employee@"); ok {
		n, err := strconv.Atoi(seat)
		if err != nil || n < 0 {
			return worker{}, fmt.Errorf("%q: want employee@SEAT, e.g. employee@2", s)
		}
		return worker{employee: true, seat: n}, nil
	}
	inc, bill, ok := strings.Cut(strings.TrimPrefix(s, "$"), "@")
	n, err := strconv.Atoi(inc)
	if !ok || err != nil || n < 1 || n > rules.Incomes || !strings.HasPrefix(s, "$") {
		return worker{}, fmt.Errorf("%q is not a worker: want $INCOME@BILL (e.g. $2@edu09), employee or employee@SEAT", s)
	}
	b, err := rules.ParseBill(bill)
	if err != nil {
		return worker{}, err
	}
	return worker{income: n, source: b}, nil
}

// MoveRequest is a move as the page sends it (POST /api/move): either Text (typed syntax) or
// Kind with its fields.
type MoveRequest struct {
	ID      int      `json:"id,omitempty"` // the decision it answers (0: whatever is due)
	Text    string   `json:"text,omitempty"`
	Kind    string   `json:"kind,omitempty"` // discard propose amend nobill offer blackmail pass call vote swap
	Bill    string   `json:"bill,omitempty"`
	At      string   `json:"at,omitempty"`      // "row,col"
	Workers []string `json:"workers,omitempty"` // as typed
	Target  *int     `json:"target,omitempty"`
	Demand  string   `json:"demand,omitempty"`
	Vote    string   `json:"vote,omitempty"`
	Take    string   `json:"take,omitempty"`
}

// move reads the request as a move.
func (r MoveRequest) move() (move, error) {
	if r.Text != "" {
		return parseMove(r.Text)
	}
	switch r.Kind {
	case "":
		return move{}, errors.New("the move has no kind")
	case "vote":
		return parseMove("vote " + r.Vote)
	case "discard":
		return parseMove("discard " + r.Bill)
	case "swap":
		return parseMove("swap " + r.Bill + " " + r.Take)
	case "blackmail":
		if r.Target == nil {
			return move{}, errors.New("blackmail: say whom (target)")
		}
		return parseMove(fmt.Sprintf("blackmail %d %s", *r.Target, r.Demand))
	case "propose", "amend":
		if len(r.Workers) != rules.WorkersPerBill {
			return move{}, fmt.Errorf("%s: %d workers, want %d (one for each vacancy)", r.Kind, len(r.Workers), rules.WorkersPerBill)
		}
		return parseMove(strings.Join(append([]string{r.Kind, r.Bill, r.At}, r.Workers...), " "))
	case "nobill", "offer", "pass", "call":
		return parseMove(r.Kind)
	}
	return move{}, fmt.Errorf("unknown move kind %q (want discard, propose, amend, nobill, offer, blackmail, pass, call, vote or swap)", r.Kind)
}

// boardMove is a move read from the page or the terminal, for the shell.
type boardMove struct{ m move }

// Action checks the move against the decision the person's view waits for, resolves its bills
// and workers, and has the game encode it (the game tries it first: it never signs an illegal
// move).
func (bm boardMove) Action(g engine.Game, seat int) (engine.Action, error) {
	cg, ok := g.(*rules.Game)
	if !ok || cg == nil {
		return engine.Action{}, ui.ErrNotAsked
	}
	v := cg.View(seat)
	m := bm.m
	d := v.Next
	if d.Kind == rules.DecideVote {
		if m.vote == rules.VoteNone {
			return engine.Action{}, fmt.Errorf("it is time to vote (yes, no or absent), not to %s", m.kind)
		}
		if m.vote == rules.VoteAbsent && v.Approval[seat] == 0 {
			return engine.Action{}, errors.New("you cannot be absent: it needs a public approval token, and you have none")
		}
		return cg.VoteAction(seat, m.vote)
	}
	if d.Seat != seat || d.Kind == rules.DecideNothing || d.Kind == rules.DecideTable {
		return engine.Action{}, ui.ErrNotAsked
	}
	if m.vote != rules.VoteNone {
		return engine.Action{}, fmt.Errorf("there is no vote now: the game waits for your %s", d.Kind)
	}
	if !allowed(d.Kind, m.kind) {
		return engine.Action{}, fmt.Errorf("it is your turn to %s, not to %s", decisionWords[d.Kind], m.kind)
	}
	rm, err := resolve(v, m)
	if err != nil {
		return engine.Action{}, err
	}
	return cg.Action(seat, rm)
}

var decisionWords = map[rules.DecisionKind]string{
	rules.DecideDiscard:   "discard a bill",
	rules.DecidePropose:   "propose a bill (or say you have none: nobill)",
	rules.DecideRespond:   "offer an employee, blackmail or pass",
	rules.DecideNegotiate: "amend, blackmail or call the vote",
	rules.DecideSwap:      "swap a bill with the discard pile, or pass",
}

// allowed says whether a move of kind k answers a decision of kind d.
func allowed(d rules.DecisionKind, k rules.MoveKind) bool {
	ok := map[rules.DecisionKind][]rules.MoveKind{
		rules.DecideDiscard:   {rules.MoveDiscard},
		rules.DecidePropose:   {rules.MovePropose, rules.MoveNoBill},
		rules.DecideRespond:   {rules.MoveOffer, rules.MoveBlackmail, rules.MovePass},
		rules.DecideNegotiate: {rules.MoveAmend, rules.MoveBlackmail, rules.MoveCall},
		rules.DecideSwap:      {rules.MoveSwap, rules.MovePass},
	}
	return slices.Contains(ok[d], k)
}

// resolve makes the game's move of m: the slot of its bill in the person's hand, the index of
// each official's bill in the program, the seat of each employee; a proposal is checked as the
// game will check it, with the reason in words.
func resolve(v *rules.View, m move) (rules.Move, error) {
	out := rules.Move{Kind: m.kind, Target: m.target, Demand: m.demand, Take: m.take}
	hand := v.Hand()
	slot := func(b rules.Bill) (int, error) {
		if i := slices.Index(hand, b); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("you do not hold %s (your hand: %s)", b, billWords(hand))
	}
	var err error
	switch m.kind {
	case rules.MoveDiscard, rules.MoveSwap:
		out.Slot, err = slot(m.bill)
		if err == nil && m.kind == rules.MoveSwap && !slices.Contains(v.Pile, m.take) {
			err = fmt.Errorf("%s is not in the discard pile (it holds %s)", m.take, billWords(v.Pile))
		}
	case rules.MoveBlackmail:
		err = checkBlackmail(v, m)
	case rules.MovePropose, rules.MoveAmend:
		p := rules.Proposal{Bill: m.bill, At: m.at}
		if p.Slot, err = slot(m.bill); err != nil {
			return out, err
		}
		if len(m.workers) != rules.WorkersPerBill {
			return out, fmt.Errorf("a proposal has %d workers, one for each vacancy", rules.WorkersPerBill)
		}
		for i, w := range m.workers {
			if p.Workers[i], err = resolveWorker(v, w); err != nil {
				return out, err
			}
		}
		if err := v.CheckProposal(p); err != nil {
			return out, err
		}
		out.Proposal = p.Canonical()
	}
	return out, err
}

func resolveWorker(v *rules.View, w worker) (rules.Worker, error) {
	if w.employee {
		seat := w.seat
		if seat < 0 {
			seat = v.Seat
		}
		if seat >= v.Players {
			return rules.Worker{}, fmt.Errorf("there is no seat %d", seat)
		}
		return rules.Worker{Employee: true, From: seat}, nil
	}
	i := v.Program.Index(w.source)
	if i < 0 {
		return rules.Worker{}, fmt.Errorf("%s is not in the program: officials come from the bills of the program", w.source)
	}
	return rules.Worker{Income: w.income, From: i}, nil
}

func checkBlackmail(v *rules.View, m move) error {
	me, t := v.Seat, m.target
	switch {
	case t >= v.Players || t == me:
		return fmt.Errorf("you cannot blackmail seat %d", t)
	case !v.Holds[me][t]:
		return fmt.Errorf("you hold no blackmail card on seat %d any more", t)
	case v.Approval[t] == 0:
		return fmt.Errorf("seat %d has no public approval: blackmail cannot touch it", t)
	case v.Pressed[t] != rules.VoteNone:
		return fmt.Errorf("seat %d was blackmailed this turn already", t)
	}
	return nil
}

func billWords(bs []rules.Bill) string {
	if len(bs) == 0 {
		return "none"
	}
	ws := make([]string, len(bs))
	for i, b := range bs {
		ws[i] = b.String()
	}
	return strings.Join(ws, " ")
}
