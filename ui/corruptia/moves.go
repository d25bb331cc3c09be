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

// parseMove reads a typed move (see moveSyntax), in English.
func parseMove(text string) (move, error) { return Board{}.parseMove(text) }

// parseMove reads a typed move (see moveSyntax): the moves' words are English in every
// language (they are typed), the errors in the board's.
func (b Board) parseMove(text string) (move, error) {
	var f []string
	for _, w := range strings.Fields(strings.ToLower(text)) {
		if w != "at" && w != "with" && w != "for" && w != "seat" {
			f = append(f, w)
		}
	}
	if len(f) == 0 {
		return move{}, errors.New(b.say("err.empty"))
	}
	args := f[1:]
	want := func(n int, usage string) error {
		if len(args) != n {
			return errors.New(b.say("err.want", "text", fmt.Sprintf("%q", text), "usage", usage))
		}
		return nil
	}
	switch f[0] {
	case "pass", "nobill", "offer", "call":
		k := map[string]rules.MoveKind{"pass": rules.MovePass, "nobill": rules.MoveNoBill, "offer": rules.MoveOffer, "call": rules.MoveCall}[f[0]]
		return move{kind: k}, want(0, b.say("usage.alone", "word", f[0]))
	case "yes", "no", "absent":
		v, _ := rules.ParseVote(f[0])
		return move{vote: v}, want(0, b.say("usage.alone", "word", f[0]))
	case "vote":
		if err := want(1, b.say("usage.vote")); err != nil {
			return move{}, err
		}
		v, err := rules.ParseVote(args[0])
		if err != nil {
			return move{}, errors.New(b.say("err.vote", "text", fmt.Sprintf("%q", args[0])))
		}
		return move{vote: v}, nil
	case "discard":
		if err := want(1, b.say("usage.discard")); err != nil {
			return move{}, err
		}
		x, err := b.parseBill(args[0])
		return move{kind: rules.MoveDiscard, bill: x}, err
	case "swap":
		if err := want(2, b.say("usage.swap")); err != nil {
			return move{}, err
		}
		give, err := b.parseBill(args[0])
		if err != nil {
			return move{}, err
		}
		take, err := b.parseBill(args[1])
		return move{kind: rules.MoveSwap, bill: give, take: take}, err
	case "blackmail":
		if err := want(2, b.say("usage.blackmail")); err != nil {
			return move{}, err
		}
		t, err := strconv.Atoi(args[0])
		if err != nil || t < 0 {
			return move{}, errors.New(b.say("err.seat", "text", fmt.Sprintf("%q", args[0])))
		}
		d, err := rules.ParseVote(args[1])
		if err != nil || d == rules.VoteAbsent {
			return move{}, errors.New(b.say("err.demand", "text", fmt.Sprintf("%q", args[1])))
		}
		return move{kind: rules.MoveBlackmail, target: t, demand: d}, nil
	case "propose", "amend":
		if err := want(5, b.say("usage.propose", "verb", f[0])); err != nil {
			return move{}, err
		}
		m := move{kind: rules.MovePropose}
		if f[0] == "amend" {
			m.kind = rules.MoveAmend
		}
		var err error
		if m.bill, err = b.parseBill(args[0]); err != nil {
			return m, err
		}
		if m.at, err = b.parseCell(args[1]); err != nil {
			return m, err
		}
		for _, a := range args[2:] {
			w, err := b.parseWorker(a)
			if err != nil {
				return m, err
			}
			m.workers = append(m.workers, w)
		}
		return m, nil
	}
	return move{}, errors.New(b.say("err.move", "text", fmt.Sprintf("%q", text), "syntax", moveSyntax))
}

// parseBill reads a bill's id.
func (b Board) parseBill(s string) (rules.Bill, error) {
	x, err := rules.ParseBill(s)
	if err != nil {
		return x, errors.New(b.say("err.bill", "text", fmt.Sprintf("%q", s)))
	}
	return x, nil
}

// parseCell reads "row,col" (or "(row,col)").
func (b Board) parseCell(s string) (rules.Cell, error) {
	r, c, ok := strings.Cut(strings.Trim(s, "()[]"), ",")
	row, err1 := strconv.Atoi(strings.TrimSpace(r))
	col, err2 := strconv.Atoi(strings.TrimSpace(c))
	if !ok || err1 != nil || err2 != nil {
		return rules.Cell{}, errors.New(b.say("err.cell", "text", fmt.Sprintf("%q", s)))
	}
	return rules.Cell{Row: row, Col: col}, nil
}

// parseWorker reads "$2@edu09", "employee" or "employee@3".
func (b Board) parseWorker(s string) (worker, error) {
	if s == "employee" {
		return worker{employee: true, seat: -1}, nil
	}
	if seat, ok := strings.CutPrefix(s, "employee@"); ok {
		n, err := strconv.Atoi(seat)
		if err != nil || n < 0 {
			return worker{}, errors.New(b.say("err.employee", "text", fmt.Sprintf("%q", s)))
		}
		return worker{employee: true, seat: n}, nil
	}
	inc, bill, ok := strings.Cut(strings.TrimPrefix(s, "$"), "@")
	n, err := strconv.Atoi(inc)
	if !ok || err != nil || n < 1 || n > rules.Incomes || !strings.HasPrefix(s, "$") {
		return worker{}, errors.New(b.say("err.worker", "text", fmt.Sprintf("%q", s)))
	}
	x, err := b.parseBill(bill)
	if err != nil {
		return worker{}, err
	}
	return worker{income: n, source: x}, nil
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

// readRequest reads r as a move.
func (b Board) readRequest(r MoveRequest) (move, error) {
	if r.Text != "" {
		return b.parseMove(r.Text)
	}
	switch r.Kind {
	case "":
		return move{}, errors.New(b.say("err.nokind"))
	case "vote":
		return b.parseMove("vote " + r.Vote)
	case "discard":
		return b.parseMove("discard " + r.Bill)
	case "swap":
		return b.parseMove("swap " + r.Bill + " " + r.Take)
	case "blackmail":
		if r.Target == nil {
			return move{}, errors.New(b.say("err.target"))
		}
		return b.parseMove(fmt.Sprintf("blackmail %d %s", *r.Target, r.Demand))
	case "propose", "amend":
		if len(r.Workers) != rules.WorkersPerBill {
			return move{}, errors.New(b.say("err.workers", "n", len(r.Workers)))
		}
		return b.parseMove(strings.Join(append([]string{r.Kind, r.Bill, r.At}, r.Workers...), " "))
	case "nobill", "offer", "pass", "call":
		return b.parseMove(r.Kind)
	}
	return move{}, errors.New(b.say("err.kind", "text", fmt.Sprintf("%q", r.Kind)))
}

// boardMove is a move read from the page or the terminal, for the shell, with the board that
// read it (its language).
type boardMove struct {
	m move
	b Board
}

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
	b := bm.b
	d := v.Next
	if d.Kind == rules.DecideVote {
		if m.vote == rules.VoteNone {
			return engine.Action{}, errors.New(b.say("err.vote.now", "move", m.kind))
		}
		if m.vote == rules.VoteAbsent && v.Approval[seat] == 0 {
			return engine.Action{}, errors.New(b.say("why.absent.notoken"))
		}
		return cg.VoteAction(seat, m.vote)
	}
	if d.Seat != seat || d.Kind == rules.DecideNothing || d.Kind == rules.DecideTable {
		return engine.Action{}, ui.ErrNotAsked
	}
	if m.vote != rules.VoteNone {
		return engine.Action{}, errors.New(b.say("err.novote", "what", b.say("turn."+d.Kind.String())))
	}
	if !allowed(d.Kind, m.kind) {
		return engine.Action{}, errors.New(b.say("err.turn", "what", b.say("turn."+d.Kind.String()), "move", m.kind))
	}
	rm, err := b.resolve(v, m)
	if err != nil {
		return engine.Action{}, err
	}
	return cg.Action(seat, rm)
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
func (b Board) resolve(v *rules.View, m move) (rules.Move, error) {
	out := rules.Move{Kind: m.kind, Target: m.target, Demand: m.demand, Take: m.take}
	hand := v.Hand()
	slot := func(x rules.Bill) (int, error) {
		if i := slices.Index(hand, x); i >= 0 {
			return i, nil
		}
		return 0, errors.New(b.say("err.nothold", "bill", x, "title", b.title(x), "hand", billWords(hand)))
	}
	var err error
	switch m.kind {
	case rules.MoveDiscard, rules.MoveSwap:
		out.Slot, err = slot(m.bill)
		if err == nil && m.kind == rules.MoveSwap && !slices.Contains(v.Pile, m.take) {
			err = errors.New(b.say("err.notpile", "bill", m.take, "title", b.title(m.take), "pile", billWords(v.Pile)))
		}
	case rules.MoveBlackmail:
		err = b.checkBlackmail(v, m)
	case rules.MovePropose, rules.MoveAmend:
		p := rules.Proposal{Bill: m.bill, At: m.at}
		if p.Slot, err = slot(m.bill); err != nil {
			return out, err
		}
		if len(m.workers) != rules.WorkersPerBill {
			return out, errors.New(b.say("err.workers", "n", len(m.workers)))
		}
		for i, w := range m.workers {
			if p.Workers[i], err = b.resolveWorker(v, w); err != nil {
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

func (b Board) resolveWorker(v *rules.View, w worker) (rules.Worker, error) {
	if w.employee {
		seat := w.seat
		if seat < 0 {
			seat = v.Seat
		}
		if seat >= v.Players {
			return rules.Worker{}, errors.New(b.say("err.noseat", "n", seat))
		}
		return rules.Worker{Employee: true, From: seat}, nil
	}
	i := v.Program.Index(w.source)
	if i < 0 {
		return rules.Worker{}, errors.New(b.say("err.notprogram", "bill", w.source, "title", b.title(w.source)))
	}
	return rules.Worker{Income: w.income, From: i}, nil
}

func (b Board) checkBlackmail(v *rules.View, m move) error {
	me, t := v.Seat, m.target
	switch {
	case t >= v.Players || t == me:
		return errors.New(b.say("err.blackmail.seat", "n", t))
	case !v.Holds[me][t]:
		return errors.New(b.say("err.blackmail.card", "n", t))
	case v.Approval[t] == 0:
		return errors.New(b.say("err.blackmail.notoken", "n", t))
	case v.Pressed[t] != rules.VoteNone:
		return errors.New(b.say("err.blackmail.pressed", "n", t))
	}
	return nil
}

func billWords(bs []rules.Bill) string {
	if len(bs) == 0 {
		return "-"
	}
	ws := make([]string, len(bs))
	for i, b := range bs {
		ws[i] = b.String()
	}
	return strings.Join(ws, " ")
}
