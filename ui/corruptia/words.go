package corruptia

import (
	"strings"

	rules "corruption/engine/corruptia"
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

// describe tells an event in plain words, with the players' names ("you" for the person): each
// sentence with a subject has the person's form and another's (ev.KIND.you, ev.KIND).
func (s sp) describe(e rules.Event) string {
	key := "ev." + eventKind(e.Kind)
	switch e.Kind {
	case rules.EventFirst, rules.EventDiscarded, rules.EventNoBill, rules.EventPass, rules.EventCall:
		return s.sayAs(key, e.Seat)
	case rules.EventStartBill:
		return capital(s.say(key, "bill", s.bill(e.Bill), "place", s.place(e.Near), "money", s.money(e.Bill.Income())))
	case rules.EventNoFit:
		return capital(s.say(key, "bill", s.bill(e.Bill)))
	case rules.EventRestart, rules.EventEnd:
		return s.say(key)
	case rules.EventReturned:
		return s.say(key, "bills", s.bills(e.Bills))
	case rules.EventDealt:
		return s.sayAs(key, e.Seat, "n", e.Count)
	case rules.EventFaceUp:
		if e.Opening {
			key += ".opening"
		}
		return s.say(key, "bills", s.bills(e.Bills))
	case rules.EventRound:
		return s.sayAs(key, e.Seat, "round", e.Round)
	case rules.EventDie:
		switch {
		case e.Reroll:
			key += ".reroll"
		case e.Die == rules.Revolution:
			key += ".R"
		}
		return s.sayAs(key, e.Seat, "dept", s.dieWords(e.Die))
	case rules.EventProposed:
		if e.Amended {
			key = "ev.amended"
		}
		return s.sayAs(key, e.Seat, "bill", s.bill(e.Bill), "place", s.place(e.Near), "workers", s.workers(e))
	case rules.EventShown:
		return s.sayAs(key, e.Seat, "bill", s.bill(e.Bill))
	case rules.EventOffer:
		return s.sayAs(key, e.Seat, "n", e.Count)
	case rules.EventBlackmail:
		return s.sayAs(key, e.Seat, "card", s.blackmailTitled(e.Target, e.Title), "target", s.whom(e.Target), "vote", s.vote(e.Vote))
	case rules.EventVotes:
		ws := make([]string, len(e.Votes))
		for seat, v := range e.Votes {
			ws[seat] = s.say("ev.votes.one", "who", s.who(seat), "vote", s.vote(v))
		}
		return s.say(key, "votes", strings.Join(ws, ", "))
	case rules.EventToss:
		if e.Approved {
			key += ".yes"
		}
		return s.say(key)
	case rules.EventResolved:
		if e.Approved {
			return s.say(key+".yes", "bill", s.bill(e.Bill), "place", s.place(e.Near))
		}
		return s.say(key+".no", "bill", s.bill(e.Bill))
	case rules.EventApproval:
		return s.approval(e)
	case rules.EventSwap:
		return s.sayAs(key, e.Seat, "bill", s.bill(e.Bill), "take", s.bill(e.Take))
	case rules.EventHand:
		if e.Final {
			key += ".final"
		}
		return s.sayAs(key, e.Seat, "bills", s.bills(e.Bills))
	case rules.EventOver:
		ws := make([]string, len(e.Scores))
		for seat, sc := range e.Scores {
			ws[seat] = s.say("ev.over.score", "who", s.who(seat), "n", sc)
		}
		who := make([]string, len(e.Winners))
		for i, w := range e.Winners {
			who[i] = s.who(w)
		}
		win := "ev.over.wins"
		switch {
		case len(who) > 1:
			win = "ev.over.share"
		case len(who) == 1 && e.Winners[0] == s.me:
			win = "ev.over.wins.you"
		}
		return s.say(key, "scores", strings.Join(ws, ", "), "winners", capital(s.say(win, "who", s.joinAnd(who))))
	}
	return e.String()
}

func (s sp) workers(e rules.Event) string {
	ws := make([]string, len(e.Workers))
	for i, w := range e.Workers {
		if w.Employee {
			ws[i] = s.employee(w.From)
		} else {
			ws[i] = s.official(w.Income, e.Sources[i])
		}
	}
	return s.joinAnd(ws)
}

// approval says why a senator gained or lost approval tokens.
func (s sp) approval(e rules.Event) string {
	var why []string
	switch {
	case e.Gained && e.Vote == rules.VoteYes:
		why = append(why, s.say("why.yes", "dept", s.dieWords(e.Die)))
	case e.Gained:
		why = append(why, s.say("why.revolution"))
	}
	if e.Short {
		why = append(why, s.say("why.short"))
	}
	if e.Vote == rules.VoteAbsent {
		why = append(why, s.say("why.absent"))
	}
	if e.Ignored {
		why = append(why, s.say("why.ignored"))
	}
	args := []any{"tokens", s.tokens(e.Count), "why", strings.Join(why, ", "), "n", e.Approval}
	switch {
	case e.Count > 0:
		return s.sayAs("ev.approval.gain", e.Seat, args...)
	case e.Count < 0:
		return s.sayAs("ev.approval.lose", e.Seat, args...)
	}
	return s.sayAs("ev.approval.keep", e.Seat, args...)
}
