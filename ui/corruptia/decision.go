package corruptia

import (
	"fmt"
	"slices"

	rules "corruption/engine/corruptia"
)

// Decision is the person's decision due, with every legal choice, and a reason in words for
// each choice the person cannot make now: the fields the board adds to the shell's (its id and
// since when). Prompt is the "on your turn you may…" line.
type Decision struct {
	Kind   string `json:"kind"` // discard propose respond negotiate vote swap
	Prompt string `json:"prompt"`
	// Bills are the bills of the hand, each with the cells it may go to now (propose, amend;
	// discard and swap list the hand with no cells).
	Bills []billChoice `json:"bills,omitempty"`
	// Places are the free cells of the wall, in words; Sources are, by cell ("row,col"), the
	// officials that may move there: a proposal's workers; Employees are the employees the
	// person may put in any vacancy (its own and those offered).
	Places    []cellState                 `json:"places,omitempty"`
	Sources   map[string][]officialSource `json:"sources,omitempty"`
	Employees []employeeSource            `json:"employees,omitempty"`
	CanNoBill bool                        `json:"can_nobill,omitempty"`
	CanAmend  bool                        `json:"can_amend,omitempty"`
	AmendWhy  string                      `json:"amend_why,omitempty"` // why the person cannot amend
	AmendsLft int                         `json:"amends_left,omitempty"`
	CanCall   bool                        `json:"can_call,omitempty"`
	CanOffer  bool                        `json:"can_offer,omitempty"`
	OfferWhy  string                      `json:"offer_why,omitempty"` // why the person cannot offer
	Blackmail []blackmailChoice           `json:"blackmail,omitempty"` // the cards the person holds, each playable now or with its reason
	Votes     []voteChoice                `json:"votes,omitempty"`
	Demand    string                      `json:"demand,omitempty"` // a blackmail's demand on the person
	Take      []billRef                   `json:"take,omitempty"`   // swap: the pile
	CanPass   bool                        `json:"can_pass,omitempty"`
	Example   string                      `json:"example,omitempty"` // a legal move in the typed syntax
}

// billChoice is a bill of the hand and where it may be proposed: Cells, the keys of the cells
// where a proposal of it is possible; Why, for every other free cell, why not; Unplayable,
// when it fits nowhere, why.
type billChoice struct {
	billRef
	Slot       int               `json:"slot"`
	Cells      []string          `json:"cells"`
	Why        map[string]string `json:"why,omitempty"`
	Unplayable string            `json:"unplayable,omitempty"`
}

// officialSource is a bill's officials of one income that may move to a cell.
type officialSource struct {
	From   int    `json:"from"` // the bill's index in the program
	Bill   string `json:"bill"` // its title
	Income int    `json:"income"`
	Count  int    `json:"count"`
	Worker string `json:"worker"` // as typed: "$2@edu09"
	Text   string `json:"text"`   // in words
}

// employeeSource is a senator's employees the person may use.
type employeeSource struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Worker string `json:"worker"` // as typed: "employee" (the person's own) or "employee@2"
	Text   string `json:"text"`   // in words
}

// blackmailChoice is a blackmail card the person holds: playable now, or Why not.
type blackmailChoice struct {
	Target int    `json:"target"`
	Name   string `json:"name"`
	Title  string `json:"title"`
	Why    string `json:"why,omitempty"`
}

// voteChoice is a vote, with its words; Why, when the person may not cast it.
type voteChoice struct {
	Vote string `json:"vote"`
	Text string `json:"text"`
	Why  string `json:"why,omitempty"`
}

func cellKey(c rules.Cell) string { return fmt.Sprintf("%d,%d", c.Row, c.Col) }

// buildDecision lists the choices of the decision due in the person's view v (nil when none is
// the person's).
func (s sp) buildDecision(v *rules.View) *Decision {
	d := v.Next
	me := v.Seat
	if d.Kind == rules.DecideVote {
		return s.voteDecision(v)
	}
	if d.Seat != me || d.Kind == rules.DecideNothing || d.Kind == rules.DecideTable {
		return nil
	}
	out := &Decision{Kind: d.Kind.String()}
	switch d.Kind {
	case rules.DecideDiscard:
		out.Prompt = s.say("prompt.discard")
		out.Bills = s.handChoices(v)
		out.Example = "discard " + v.Hand()[0].String()
	case rules.DecidePropose:
		out.Prompt = s.say(dieKey("prompt.propose", v.Die), "dept", s.dieWords(v.Die))
		s.proposalChoices(v, out)
		out.CanNoBill = len(out.Bills) == 0 || allEmpty(out.Bills)
		if out.CanNoBill {
			out.Prompt = s.say("prompt.nobill")
			out.Example = "nobill"
		}
	case rules.DecideRespond:
		p := v.Proposal
		out.Prompt = s.say("prompt.respond", "who", s.name(v.Active), "bill", s.bill(p.Bill), "place", s.placeIn(v.Program, p.At))
		out.CanOffer = v.Offers[me] < v.Reserve[me]
		if !out.CanOffer {
			out.OfferWhy = s.say(map[bool]string{true: "why.offer.none", false: "why.offer.all"}[v.Reserve[me] == 0])
		}
		out.Blackmail = s.blackmailChoices(v)
		out.CanPass = true
		out.Example = "pass"
	case rules.DecideNegotiate:
		out.Prompt = s.say("prompt.negotiate", "n", v.AmendsLeft)
		out.AmendsLft = v.AmendsLeft
		if v.AmendsLeft > 0 {
			s.proposalChoices(v, out)
			out.CanAmend = !allEmpty(out.Bills)
			if !out.CanAmend {
				out.AmendWhy = s.say("why.amend.nowhere")
			}
		} else {
			out.Prompt = s.say("prompt.negotiate.none")
			out.AmendWhy = s.say("why.amend.none")
		}
		out.Blackmail = s.blackmailChoices(v)
		out.CanCall = true
		out.Example = "call"
	case rules.DecideSwap:
		out.Prompt = s.say("prompt.swap")
		out.Bills = s.handChoices(v)
		out.Take = s.refsOf(v.Pile)
		out.CanPass = true
		out.Example = "pass"
	}
	return out
}

// dieKey is key, or key.R when the die shows the revolution.
func dieKey(key string, d rules.Die) string {
	if d == rules.Revolution {
		return key + ".R"
	}
	return key
}

// noBill is true when the seat of view v holds no bill it may propose anywhere now: its
// proposal's one move is then to say so (nobill).
func noBill(v *rules.View) bool { return len(v.Proposals(nil)) == 0 }

func allEmpty(bs []billChoice) bool {
	for _, b := range bs {
		if len(b.Cells) > 0 {
			return false
		}
	}
	return true
}

// voteDecision is the person's vote, if it has not voted yet (the node asks once).
func (s sp) voteDecision(v *rules.View) *Decision {
	me := v.Seat
	if me < 0 || me >= v.Players || v.Proposal == nil {
		return nil
	}
	p := v.Proposal
	out := &Decision{Kind: "vote", Example: "yes"}
	for _, vt := range []rules.Vote{rules.VoteYes, rules.VoteNo, rules.VoteAbsent} {
		c := voteChoice{Vote: vt.String(), Text: s.say("choice.vote." + vt.String())}
		if vt == rules.VoteAbsent && v.Approval[me] == 0 {
			c.Why = s.say("why.absent.notoken")
		}
		out.Votes = append(out.Votes, c)
	}
	key := "prompt.vote"
	if v.Approval[me] == 0 {
		key += ".notoken"
	}
	// The person's own proposal is "your proposal" (prompt.vote.you), not "you's".
	out.Prompt = s.say(s.pick(key, v.Active), "who", s.name(v.Active), "bill", s.bill(p.Bill), "place", s.placeIn(v.Program, p.At))
	switch {
	case v.Die == rules.Revolution:
		out.Prompt += " " + s.say("prompt.vote.R")
	case v.Die != rules.DieNone && p.Bill.Department() == rules.Department(v.Die):
		out.Prompt += " " + s.say("prompt.vote.die", "dept", s.dieWords(v.Die))
	}
	if d := v.Pressed[me]; d != rules.VoteNone {
		out.Demand = d.String()
		out.Prompt += " " + s.say("prompt.vote.pressed", "who", s.name(v.PressedBy[me]), "vote", s.vote(d))
	}
	return out
}

func (s sp) handChoices(v *rules.View) []billChoice {
	var out []billChoice
	for slot, b := range v.Hand() {
		out = append(out, billChoice{billRef: s.refOf(b), Slot: slot, Cells: []string{}})
	}
	return out
}

// proposalChoices lists the bills of the hand with the cells each may go to (and why not, at
// every other free cell), and the workers each cell may take.
func (s sp) proposalChoices(v *rules.View, out *Decision) {
	legal := v.Proposals(nil)
	cells := map[int][]string{}
	for _, p := range legal {
		k := cellKey(p.At)
		if !slices.Contains(cells[p.Slot], k) {
			cells[p.Slot] = append(cells[p.Slot], k)
		}
	}
	me := v.Seat
	emps := v.Reserve[me]
	if n := v.Reserve[me]; n > 0 {
		out.Employees = append(out.Employees, employeeSource{Seat: me, Name: s.say("you"), Count: n, Worker: "employee",
			Text: capital(s.say("source.employee.you", "n", n))})
	}
	if v.Proposal != nil {
		for seat, n := range v.Offers {
			if seat != me && n > 0 {
				emps += n
				out.Employees = append(out.Employees, employeeSource{Seat: seat, Name: s.name(seat), Count: n, Worker: fmt.Sprintf("employee@%d", seat),
					Text: capital(s.say("source.employee", "who", s.name(seat), "n", n))})
			}
		}
	}
	frontier := v.Program.Frontier()
	for _, b := range s.handChoices(v) {
		b.Cells = append(b.Cells, cells[b.Slot]...)
		bill := v.Hand()[b.Slot]
		b.Why = map[string]string{}
		for _, c := range frontier {
			if k := cellKey(c); !slices.Contains(b.Cells, k) {
				b.Why[k] = s.whyNot(v.Program, bill, c, emps)
			}
		}
		if len(b.Cells) == 0 {
			b.Unplayable = s.say("why.bill.nowhere", "budget", s.budget(bill.Budget()), "n", emps)
		}
		out.Bills = append(out.Bills, b)
	}
	out.Sources = map[string][]officialSource{}
	for _, c := range frontier {
		srcs := []officialSource{}
		for i, p := range v.Program {
			if !p.At.Touches(c) {
				continue
			}
			for inc := 1; inc <= rules.Incomes; inc++ {
				if n := p.Officials[inc]; n > 0 {
					srcs = append(srcs, officialSource{From: i, Bill: s.title(p.Bill), Income: inc, Count: n, Worker: fmt.Sprintf("$%d@%s", inc, p.Bill),
						Text: capital(s.say("source.official", "money", s.money(inc), "bill", s.title(p.Bill), "n", n))})
				}
			}
		}
		out.Sources[cellKey(c)] = srcs
		out.Places = append(out.Places, cellState{At: [2]int{c.Row, c.Col}, Key: cellKey(c), Place: s.placeIn(v.Program, c)})
	}
	if len(legal) > 0 {
		out.Example = proposalText(v, legal[0])
	}
}

// whyNot says why bill b cannot be proposed at free cell c of prog with emps employees at
// hand: the vacancies that neither the officials of the bills touching c nor the employees
// can fill (employees fill any vacancy; officials only those of their income).
func (s sp) whyNot(prog rules.Program, b rules.Bill, c rules.Cell, emps int) string {
	var need, have [rules.Incomes + 1]int
	for _, inc := range b.Budget() {
		need[inc]++
	}
	for _, p := range prog {
		if p.At.Touches(c) {
			for inc := 1; inc <= rules.Incomes; inc++ {
				have[inc] += p.Officials[inc]
			}
		}
	}
	var short []string
	missing := 0
	for inc := 1; inc <= rules.Incomes; inc++ {
		if k := need[inc] - min(need[inc], have[inc]); k > 0 {
			missing += k
			short = append(short, s.say(map[bool]string{true: "why.cell.short.one", false: "why.cell.short.n"}[have[inc] == 1],
				"money", s.money(inc), "need", need[inc], "have", have[inc]))
		}
	}
	return s.say(map[bool]string{true: "why.cell.one", false: "why.cell.n"}[emps == 1], "short", s.joinAnd(short), "missing", missing, "n", emps)
}

// proposalText is a proposal in the typed syntax.
func proposalText(v *rules.View, p rules.Proposal) string {
	verb := "propose"
	if v.Next.Kind == rules.DecideNegotiate {
		verb = "amend"
	}
	s := fmt.Sprintf("%s %s %s", verb, p.Bill, cellKey(p.At))
	for _, w := range p.Workers {
		s += " " + workerText(v, w)
	}
	return s
}

func workerText(v *rules.View, w rules.Worker) string {
	switch {
	case w.Employee && w.From == v.Seat:
		return "employee"
	case w.Employee:
		return fmt.Sprintf("employee@%d", w.From)
	}
	return fmt.Sprintf("$%d@%s", w.Income, v.Program[w.From].Bill)
}

// blackmailChoices are the cards the person holds, each playable now (on a senator with
// approval, not pressed yet this turn) or with why not.
func (s sp) blackmailChoices(v *rules.View) []blackmailChoice {
	var out []blackmailChoice
	me := v.Seat
	for t := range v.Players {
		if t == me || !v.Holds[me][t] {
			continue
		}
		c := blackmailChoice{Target: t, Name: s.name(t), Title: s.blackmail(me, t, v.Players)}
		switch {
		case v.Approval[t] == 0:
			c.Why = s.say("why.blackmail.notoken", "who", s.name(t))
		case v.Pressed[t] != rules.VoteNone:
			c.Why = s.say("why.blackmail.pressed", "who", s.name(t))
		}
		out = append(out, c)
	}
	return out
}
