package corruptia

import (
	"fmt"
	"slices"

	rules "corruption/engine/corruptia"
	"corruption/ui"
)

// Decision is the person's decision due, with every legal choice: the fields the board adds to
// the shell's (its id and since when).
type Decision struct {
	Kind   string `json:"kind"` // discard propose respond negotiate vote swap
	Prompt string `json:"prompt"`
	// Bills are the bills of the hand, each with the cells it may go to now (propose, amend;
	// discard and swap list the hand with no cells).
	Bills []billChoice `json:"bills,omitempty"`
	// Sources are, by cell ("row,col"), the officials that may move there: a proposal's
	// workers; Employees are the employees the person may put in any vacancy (its own and
	// those offered).
	Sources   map[string][]officialSource `json:"sources,omitempty"`
	Employees []employeeSource            `json:"employees,omitempty"`
	CanNoBill bool                        `json:"can_nobill,omitempty"`
	CanAmend  bool                        `json:"can_amend,omitempty"`
	AmendsLft int                         `json:"amends_left,omitempty"`
	CanCall   bool                        `json:"can_call,omitempty"`
	CanOffer  bool                        `json:"can_offer,omitempty"`
	Blackmail []blackmailChoice           `json:"blackmail,omitempty"` // the cards the person may play now
	Votes     []string                    `json:"votes,omitempty"`
	Demand    string                      `json:"demand,omitempty"` // a blackmail's demand on the person
	Take      []billRef                   `json:"take,omitempty"`   // swap: the pile
	CanPass   bool                        `json:"can_pass,omitempty"`
	Example   string                      `json:"example,omitempty"` // a legal move in the typed syntax
}

// billChoice is a bill of the hand and where it may be proposed.
type billChoice struct {
	billRef
	Slot  int      `json:"slot"`
	Cells []string `json:"cells"`
}

// officialSource is a bill's officials of one income that may move to a cell.
type officialSource struct {
	From   int    `json:"from"` // the bill's index in the program
	Bill   string `json:"bill"`
	Income int    `json:"income"`
	Count  int    `json:"count"`
	Worker string `json:"worker"` // as typed: "$2@edu09"
}

// employeeSource is a senator's employees the person may use.
type employeeSource struct {
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Worker string `json:"worker"` // as typed: "employee" (the person's own) or "employee@2"
}

// blackmailChoice is a blackmail card the person may play now.
type blackmailChoice struct {
	Target int    `json:"target"`
	Name   string `json:"name"`
	Title  string `json:"title"`
}

func cellKey(c rules.Cell) string { return fmt.Sprintf("%d,%d", c.Row, c.Col) }

// buildDecision lists the choices of the decision due in the person's view v (nil when none is
// the person's).
func buildDecision(v *rules.View, names []string) *Decision {
	d := v.Next
	me := v.Seat
	if d.Kind == rules.DecideVote {
		return voteDecision(v, names)
	}
	if d.Seat != me || d.Kind == rules.DecideNothing || d.Kind == rules.DecideTable {
		return nil
	}
	out := &Decision{Kind: d.Kind.String()}
	switch d.Kind {
	case rules.DecideDiscard:
		out.Prompt = "Discard one of your four bills, face down. The discards are shuffled together and laid face up: nobody learns whose each is."
		out.Bills = handChoices(v)
		out.Example = "discard " + v.Hand()[0].String()
	case rules.DecidePropose:
		out.Prompt = fmt.Sprintf("Your turn (the people's die shows %s): propose a bill of your hand, where it touches the program, with three workers for its vacancies: officials of the right income from bills it touches, or your employees.", dieWords(v.Die))
		proposalChoices(v, names, out)
		out.CanNoBill = len(out.Bills) == 0 || allEmpty(out.Bills)
		if out.CanNoBill {
			out.Prompt = "You have no bill you may propose: say so (your hand is shown to prove it), and your turn ends."
			out.Example = "nobill"
		}
	case rules.DecideRespond:
		p := v.Proposal
		out.Prompt = fmt.Sprintf("%s proposes %s at %s. Offer one of your employees for it, play a blackmail card, or pass.",
			ui.SeatName(names, v.Active), p.Bill, p.At)
		out.CanOffer = v.Offers[me] < v.Reserve[me]
		out.Blackmail = blackmailChoices(v, names)
		out.CanPass = true
		out.Example = "pass"
	case rules.DecideNegotiate:
		out.Prompt = "The others have answered. Amend your proposal (any bill of your hand, any place, offered employees among the workers), play a blackmail card, or call the vote."
		out.AmendsLft = v.AmendsLeft
		if v.AmendsLeft > 0 {
			proposalChoices(v, names, out)
			out.CanAmend = !allEmpty(out.Bills)
		} else {
			out.Prompt = "The others have answered, and you have made every amendment you may: play a blackmail card, or call the vote."
		}
		out.Blackmail = blackmailChoices(v, names)
		out.CanCall = true
		out.Example = "call"
	case rules.DecideSwap:
		out.Prompt = "You were absent: you may give up a bill of your hand (it is shown to all) for any bill of the discard pile, or pass."
		out.Bills = handChoices(v)
		out.Take = refsOf(v.Pile)
		out.CanPass = true
		out.Example = "pass"
	}
	return out
}

func allEmpty(bs []billChoice) bool {
	for _, b := range bs {
		if len(b.Cells) > 0 {
			return false
		}
	}
	return true
}

func dieWords(d rules.Die) string {
	if d == rules.Revolution {
		return "R, the revolution"
	}
	return d.String()
}

// voteDecision is the person's vote, if it has not voted yet (the node asks once).
func voteDecision(v *rules.View, names []string) *Decision {
	me := v.Seat
	if me < 0 || me >= v.Players || v.Proposal == nil {
		return nil
	}
	p := v.Proposal
	out := &Decision{Kind: "vote", Votes: []string{"yes", "no"}, Example: "yes"}
	out.Prompt = fmt.Sprintf("Vote on %s's proposal, %s (%s) at %s: yes, no", ui.SeatName(names, v.Active), p.Bill, p.Bill.Department(), p.At)
	if v.Approval[me] > 0 {
		out.Votes = append(out.Votes, "absent")
		out.Prompt += " or absent (it costs an approval token, and then you may swap a bill with the discard pile)"
	}
	out.Prompt += ". The votes are revealed together."
	if d := v.Pressed[me]; d != rules.VoteNone {
		out.Demand = d.String()
		out.Prompt += fmt.Sprintf(" %s blackmails you to vote %s: voting otherwise costs an approval token.", ui.SeatName(names, v.PressedBy[me]), d)
	}
	return out
}

func handChoices(v *rules.View) []billChoice {
	var out []billChoice
	for slot, b := range v.Hand() {
		out = append(out, billChoice{billRef: refOf(b), Slot: slot, Cells: []string{}})
	}
	return out
}

// proposalChoices lists the bills of the hand with the cells each may go to, and the workers
// each cell may take.
func proposalChoices(v *rules.View, names []string, out *Decision) {
	legal := v.Proposals(nil)
	cells := map[int][]string{}
	for _, p := range legal {
		k := cellKey(p.At)
		if !slices.Contains(cells[p.Slot], k) {
			cells[p.Slot] = append(cells[p.Slot], k)
		}
	}
	for _, b := range handChoices(v) {
		b.Cells = append(b.Cells, cells[b.Slot]...)
		out.Bills = append(out.Bills, b)
	}
	out.Sources = map[string][]officialSource{}
	for _, c := range v.Program.Frontier() {
		var srcs []officialSource
		for i, p := range v.Program {
			if !p.At.Touches(c) {
				continue
			}
			for inc := 1; inc <= rules.Incomes; inc++ {
				if n := p.Officials[inc]; n > 0 {
					srcs = append(srcs, officialSource{From: i, Bill: p.Bill.String(), Income: inc, Count: n, Worker: fmt.Sprintf("$%d@%s", inc, p.Bill)})
				}
			}
		}
		out.Sources[cellKey(c)] = srcs
	}
	me := v.Seat
	if n := v.Reserve[me]; n > 0 {
		out.Employees = append(out.Employees, employeeSource{Seat: me, Name: "yours", Count: n, Worker: "employee"})
	}
	if v.Proposal != nil {
		for s, n := range v.Offers {
			if s != me && n > 0 {
				out.Employees = append(out.Employees, employeeSource{Seat: s, Name: ui.SeatName(names, s), Count: n, Worker: fmt.Sprintf("employee@%d", s)})
			}
		}
	}
	if len(legal) > 0 {
		out.Example = proposalText(v, legal[0])
	}
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

// blackmailChoices are the cards the person may play now: on a senator with approval, not
// pressed yet this turn, with the card it holds on it.
func blackmailChoices(v *rules.View, names []string) []blackmailChoice {
	var out []blackmailChoice
	me := v.Seat
	for t := range v.Players {
		if t != me && v.Holds[me][t] && v.Approval[t] > 0 && v.Pressed[t] == rules.VoteNone {
			out = append(out, blackmailChoice{Target: t, Name: ui.SeatName(names, t), Title: rules.BlackmailTitle(me, t, v.Players)})
		}
	}
	return out
}
