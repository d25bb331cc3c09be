package corruptia

import (
	"fmt"
	"strings"

	rules "corruption/engine/corruptia"
	"corruption/ui"
)

var eventKinds = [...]string{
	rules.EventFirst: "first", rules.EventStartBill: "startbill", rules.EventNoFit: "nofit", rules.EventRestart: "restart",
	rules.EventReturned: "returned", rules.EventDealt: "dealt", rules.EventDiscarded: "discarded", rules.EventFaceUp: "faceup",
	rules.EventRound: "round", rules.EventDie: "die", rules.EventProposed: "proposed", rules.EventShown: "shown",
	rules.EventNoBill: "nobill", rules.EventOffer: "offer", rules.EventBlackmail: "blackmail", rules.EventPass: "pass",
	rules.EventCall: "call", rules.EventVotes: "votes", rules.EventToss: "toss", rules.EventResolved: "resolved",
	rules.EventApproval: "approval", rules.EventSwap: "swap", rules.EventEnd: "end", rules.EventHand: "hand", rules.EventOver: "over",
}

func eventKind(k rules.EventKind) string {
	if int(k) < len(eventKinds) && eventKinds[k] != "" {
		return eventKinds[k]
	}
	return "event"
}

// teller tells events to the person at seat me.
type teller struct {
	names []string
	me    int
}

func (t teller) who(seat int) string {
	if seat == t.me {
		return "you"
	}
	return ui.SeatName(t.names, seat)
}

func (t teller) whose(seat int) string {
	if seat == t.me {
		return "your"
	}
	return ui.SeatName(t.names, seat) + "'s"
}

// verb is the subject and its verb: "you propose", "ann proposes".
func (t teller) verb(seat int, you, other string) string {
	if seat == t.me {
		return "you " + you
	}
	return ui.SeatName(t.names, seat) + " " + other
}

func bill(b rules.Bill) string {
	if !b.Valid() {
		return "a bill"
	}
	return fmt.Sprintf("%s (%s, %s)", b, b.Title(), b.Department())
}

func bills(bs []rules.Bill) string {
	ws := make([]string, len(bs))
	for i, b := range bs {
		ws[i] = b.String()
	}
	return joinAnd(ws)
}

func joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// describe tells an event in plain words, with the players' names ("you" for the person).
func describe(e rules.Event, names []string, me int) string {
	t := teller{names, me}
	switch e.Kind {
	case rules.EventFirst:
		return capital(t.verb(e.Seat, "hold", "holds") + " the presidential token first.")
	case rules.EventStartBill:
		return fmt.Sprintf("%s opens the government program at %s with six $%d officials.", bill(e.Bill), e.At, e.Bill.Income())
	case rules.EventNoFit:
		return fmt.Sprintf("%s does not fit the starting program (its department or its income is taken) and goes back into the deck.", bill(e.Bill))
	case rules.EventRestart:
		return "The deck ran out before three starting bills fit: the setup starts again."
	case rules.EventReturned:
		return fmt.Sprintf("The bills sent back (%s) are shuffled into the deck with the rest.", bills(e.Bills))
	case rules.EventDealt:
		return capital(fmt.Sprintf("%s dealt %d bills.", t.verb(e.Seat, "are", "is"), e.Count))
	case rules.EventDiscarded:
		return capital(t.verb(e.Seat, "discard", "discards") + " a bill face down.")
	case rules.EventFaceUp:
		if e.Opening {
			return fmt.Sprintf("The opening discards, shuffled so that nobody knows whose is whose, go face up: %s.", bills(e.Bills))
		}
		return fmt.Sprintf("Face up to the discard pile: %s.", bills(e.Bills))
	case rules.EventRound:
		return capital(fmt.Sprintf("round %d: %s the presidential token.", e.Round, t.verb(e.Seat, "hold", "holds")))
	case rules.EventDie:
		switch {
		case e.Reroll:
			return capital(t.whose(e.Seat) + " people's die shows R in round 1: it is rolled again.")
		case e.Die == rules.Revolution:
			return capital(t.whose(e.Seat) + " people's die shows R: revolution! A no earns an approval token this turn.")
		}
		return capital(fmt.Sprintf("%s people's die shows %s: a yes to a %s bill earns an approval token.", t.whose(e.Seat), e.Die, e.Die))
	case rules.EventProposed:
		verb := t.verb(e.Seat, "propose", "proposes")
		if e.Amended {
			verb = t.verb(e.Seat, "amend", "amends") + " the proposal to"
		}
		return capital(fmt.Sprintf("%s %s at %s with %s.", verb, bill(e.Bill), e.At, t.workers(e)))
	case rules.EventShown:
		return capital(fmt.Sprintf("%s %s: the bill proposed is in the hand.", t.verb(e.Seat, "show", "shows"), e.Bill))
	case rules.EventNoBill:
		return capital(t.verb(e.Seat, "have", "has") + " no bill to propose: the turn ends.")
	case rules.EventOffer:
		return capital(fmt.Sprintf("%s an employee for the proposal (%d offered).", t.verb(e.Seat, "offer", "offers"), e.Count))
	case rules.EventBlackmail:
		return capital(fmt.Sprintf("%s %q on %s: vote %s!", t.verb(e.Seat, "play", "plays"), e.Title, t.who(e.Target), e.Vote))
	case rules.EventPass:
		return capital(t.verb(e.Seat, "pass", "passes") + ".")
	case rules.EventCall:
		return capital(t.verb(e.Seat, "call", "calls") + " the vote.")
	case rules.EventVotes:
		ws := make([]string, len(e.Votes))
		for s, v := range e.Votes {
			ws[s] = fmt.Sprintf("%s %s", t.who(s), v)
		}
		return "The votes, revealed together: " + strings.Join(ws, ", ") + "."
	case rules.EventToss:
		return fmt.Sprintf("A tie: the presidential token is tossed, and %s.", map[bool]string{true: "approves", false: "rejects"}[e.Approved])
	case rules.EventResolved:
		if e.Approved {
			return fmt.Sprintf("Approved: %s joins the program at %s, and its workers take their places.", bill(e.Bill), e.At)
		}
		return fmt.Sprintf("Rejected: %s goes to the discard pile.", bill(e.Bill))
	case rules.EventApproval:
		return t.approval(e)
	case rules.EventSwap:
		return capital(fmt.Sprintf("%s up %s and %s %s from the discard pile.", t.verb(e.Seat, "give", "gives"), e.Bill, map[bool]string{true: "take", false: "takes"}[e.Seat == t.me], e.Take))
	case rules.EventEnd:
		return "The fifth round is over: the senators show their hands."
	case rules.EventHand:
		if e.Final {
			return capital(fmt.Sprintf("%s: %s.", t.verb(e.Seat, "show your hand", "shows its hand"), bills(e.Bills)))
		}
		return capital(fmt.Sprintf("%s to prove there is no bill to propose: %s.", t.verb(e.Seat, "show your hand", "shows its hand"), bills(e.Bills)))
	case rules.EventOver:
		ws := make([]string, len(e.Scores))
		for s, sc := range e.Scores {
			ws[s] = fmt.Sprintf("%s %d", t.who(s), sc)
		}
		who := make([]string, len(e.Winners))
		for i, w := range e.Winners {
			who[i] = t.who(w)
		}
		win := "wins"
		if len(who) > 1 {
			win = "share the win"
		} else if len(who) == 1 && e.Winners[0] == t.me {
			win = "win"
		}
		return capital(fmt.Sprintf("The game is over. Scores: %s. %s %s.", strings.Join(ws, ", "), capital(joinAnd(who)), win))
	}
	return e.String()
}

func (t teller) workers(e rules.Event) string {
	ws := make([]string, len(e.Workers))
	for i, w := range e.Workers {
		if w.Employee {
			ws[i] = t.whose(w.From) + " employee"
		} else {
			ws[i] = fmt.Sprintf("a $%d official from %s", w.Income, e.Sources[i])
		}
	}
	return joinAnd(ws)
}

func (t teller) approval(e rules.Event) string {
	var why []string
	switch {
	case e.Gained && e.Vote == rules.VoteYes:
		why = append(why, "a yes to the people's "+e.Die.String())
	case e.Gained:
		why = append(why, "a no in the revolution")
	}
	if e.Short {
		why = append(why, "but the box is out of tokens")
	}
	if e.Vote == rules.VoteAbsent {
		why = append(why, "absent")
	}
	if e.Ignored {
		why = append(why, "ignored a blackmail")
	}
	tokens := func(n int) string {
		if n < 0 {
			n = -n
		}
		if n == 1 {
			return "an approval token"
		}
		return fmt.Sprintf("%d approval tokens", n)
	}
	reason := strings.Join(why, ", ")
	switch {
	case e.Count > 0:
		return capital(fmt.Sprintf("%s %s (%s): %d now.", t.verb(e.Seat, "gain", "gains"), tokens(e.Count), reason, e.Approval))
	case e.Count < 0:
		return capital(fmt.Sprintf("%s %s (%s): %d now.", t.verb(e.Seat, "lose", "loses"), tokens(e.Count), reason, e.Approval))
	}
	return capital(fmt.Sprintf("%s %d approval tokens (%s).", t.verb(e.Seat, "keep", "keeps"), e.Approval, reason))
}
