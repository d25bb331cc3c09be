package kingdoms

import (
	"fmt"
	"strings"

	rules "corruption/engine/kingdoms"
)

var eventKinds = map[rules.EventKind]string{
	rules.EventCorporation: "corporation", rules.EventFirst: "first", rules.EventMarket: "market",
	rules.EventDisplay: "display", rules.EventDiscarded: "discarded", rules.EventTurn: "turn",
	rules.EventTake: "take", rules.EventPlace: "place", rules.EventInfluence: "influence",
	rules.EventControl: "control", rules.EventStealFailed: "steal-failed", rules.EventMonarch: "monarch",
	rules.EventCall: "call", rules.EventVotes: "votes", rules.EventChaos: "chaos", rules.EventResult: "result",
	rules.EventBillDiscarded: "bill-discarded", rules.EventPleasure: "pleasure", rules.EventCycle: "cycle",
	rules.EventUnmarked: "unmarked", rules.EventExchange: "exchange", rules.EventGain: "gain",
	rules.EventCollect: "collect", rules.EventReturned: "returned", rules.EventShredded: "shredded",
	rules.EventEmbezzled: "embezzled", rules.EventEnding: "ending", rules.EventFinalVoting: "final",
	rules.EventShareholders: "shareholders", rules.EventScore: "score", rules.EventOver: "over",
	rules.EventNoAction: "no-action",
}

func eventKind(k rules.EventKind) string {
	if s, ok := eventKinds[k]; ok {
		return s
	}
	return "event"
}

// describe tells an event in plain words, with the players' names ("you" for the person).
func describe(e rules.Event, names []string, me int) string {
	t := teller{names, me}
	if s := t.setup(e); s != "" {
		return capital(s)
	}
	if s := t.turn(e); s != "" {
		return capital(s)
	}
	if s := t.vote(e); s != "" {
		return capital(s)
	}
	return capital(t.end(e))
}

// setup tells the setup and the decks' deals.
func (t teller) setup(e rules.Event) string {
	switch e.Kind {
	case rules.EventCorporation:
		return fmt.Sprintf("%s %s %s and %s %s.", t.who(e.Seat), t.verb(e.Seat, "are", "is"), corporations[e.Corp].Name,
			t.verb(e.Seat, "take", "takes"), minionWords(e.Minions))
	case rules.EventFirst:
		return fmt.Sprintf("%s %s the starting player.", t.who(e.Seat), t.verb(e.Seat, "are", "is"))
	case rules.EventMarket:
		return fmt.Sprintf("%s comes to the market.", favorWords(e.Favor))
	case rules.EventDisplay:
		return fmt.Sprintf("Guilty pleasure %s is on display.", pleasureName(e.Pleasure))
	case rules.EventDiscarded:
		return fmt.Sprintf("%s %s a chaos card face down.", t.who(e.Seat), t.verb(e.Seat, "discard", "discards"))
	}
	return ""
}

// turn tells the actions of a turn and the chaos cards.
func (t teller) turn(e rules.Event) string {
	who, v := t.who(e.Seat), func(you, other string) string { return t.verb(e.Seat, you, other) }
	switch e.Kind {
	case rules.EventTurn:
		return fmt.Sprintf("Round %d: %s turn.", e.Round, t.whose(e.Seat))
	case rules.EventNoAction:
		return fmt.Sprintf("%s %s no action left to take and %s the rest of %s turn.", who, v("have", "has"), v("lose", "loses"), v("your", "their"))
	case rules.EventTake:
		return fmt.Sprintf("%s %s %s for %s.", who, v("take", "takes"), favors[e.Favor].ID, minionWords(e.Minions))
	case rules.EventPlace:
		return fmt.Sprintf("%s %s %s on %s.", who, v("place", "places"), favorWords(e.Favor), rules.BillName(e.Bill))
	case rules.EventInfluence:
		s := fmt.Sprintf("%s %s %s to influence %s", who, v("pay", "pays"), minionWords(e.Minions), leaderWords(e.Leader))
		if e.Target >= 0 {
			s += fmt.Sprintf(", stealing it from %s", t.who(e.Target))
		}
		return s + "."
	case rules.EventControl:
		return fmt.Sprintf("%s %s %s.", who, v("control", "controls"), leaderWords(e.Leader))
	case rules.EventStealFailed:
		return fmt.Sprintf("%s steal of %s from %s fails.", t.whose(e.Seat), leaders[e.Leader].Name, t.who(e.Target))
	case rules.EventMonarch:
		return fmt.Sprintf("%s of %s is now allegiant to %s.", realms[e.Kingdom].Monarch, realms[e.Kingdom].Name, t.who(e.Seat))
	case rules.EventChaos:
		c := chaosCards[e.Card]
		return fmt.Sprintf("%s %s chaos card %s: %s", who, v("play", "plays"), c.Name, strings.TrimPrefix(chaosWords(e.Move, t), "Play "+c.Name+": ")) + "."
	case rules.EventUnmarked:
		return fmt.Sprintf("%s %s %s marker from %s.", who, v("remove", "removes"), t.whose(e.Target), leaderWords(e.Leader))
	case rules.EventExchange:
		return fmt.Sprintf("%s %s %s on %s for %s from the market.", who, v("exchange", "exchanges"), favors[e.Favor].ID, rules.BillName(e.Bill), favors[e.Other].ID)
	case rules.EventGain:
		return fmt.Sprintf("%s %s %s from the supply.", who, v("take", "takes"), minionWords(e.Minions))
	case rules.EventShredded:
		return fmt.Sprintf("%s %s %s %s from %s.", who, v("discard", "discards"), t.whose(e.Target), favors[e.Favor].ID, rules.BillName(e.Bill))
	case rules.EventEmbezzled:
		return fmt.Sprintf("%s %s %s from %s.", who, v("take", "takes"), minionWords(e.Minions), t.who(e.Target))
	}
	return ""
}

// vote tells the votes and what comes of them.
func (t teller) vote(e rules.Event) string {
	switch e.Kind {
	case rules.EventCall:
		var by string
		switch e.Seat {
		case -1:
			by = "automatically (a favor added to a bill of four)"
		case -2:
			by = "in final voting"
		default:
			by = "by " + t.who(e.Seat)
		}
		var ws []string
		for _, s := range e.Seats {
			ws = append(ws, t.who(s))
		}
		voting := "no player controls a voter"
		if len(ws) > 0 {
			voting = joinAnd(ws) + " " + t.agree(e.Seats, "votes", "vote") + " in secret"
		}
		return fmt.Sprintf("A vote on %s is called %s; %s.", rules.BillName(e.Bill), by, voting)
	case rules.EventVotes:
		var ws []string
		for s, v := range e.Votes {
			if v >= 0 {
				ws = append(ws, t.who(s)+" "+yesNo(v == 1))
			}
		}
		return fmt.Sprintf("The votes on %s, revealed together: %s.", rules.BillName(e.Bill), joinAnd(ws))
	case rules.EventResult:
		s := fmt.Sprintf("%s %s, %d to %d", rules.BillName(e.Bill), e.Result, e.Yes, e.No)
		if e.Veto {
			s += " (vetoed)"
		}
		return s + "."
	case rules.EventBillDiscarded:
		return fmt.Sprintf("The %d %s of %s %s discarded.", e.Count, plural(e.Count, "favor", "favors"), rules.BillName(e.Bill), plural(e.Count, "is", "are"))
	case rules.EventPleasure:
		if e.Pleasure < 0 {
			return fmt.Sprintf("%s %s no guilty pleasure.", t.who(e.Seat), t.verb(e.Seat, "take", "takes"))
		}
		return fmt.Sprintf("%s %s guilty pleasure %s.", t.who(e.Seat), t.verb(e.Seat, "take", "takes"), pleasureName(e.Pleasure))
	case rules.EventCycle:
		return fmt.Sprintf("%s %s %s under the guilty pleasure deck.", t.who(e.Seat), t.verb(e.Seat, "put", "puts"), pleasureName(e.Pleasure))
	case rules.EventCollect:
		return fmt.Sprintf("%s %s %d %s of %s to %s score pile.", t.who(e.Seat), t.verb(e.Seat, "take", "takes"), e.Count,
			plural(e.Count, "favor", "favors"), rules.BillName(e.Bill), t.verb(e.Seat, "your", "their"))
	case rules.EventReturned:
		return fmt.Sprintf("%d unclaimed guilty %s under the deck.", e.Count, plural(e.Count, "pleasure goes", "pleasures go"))
	}
	return ""
}

// end tells the end of the game.
func (t teller) end(e rules.Event) string {
	switch e.Kind {
	case rules.EventEnding:
		if e.Round > 0 { // the house rules "even"
			return fmt.Sprintf("The game is ending: %s. Round %d is played to its end, then final voting.", endingWords(e.Reason), e.Round)
		}
		return "The game ends: " + endingWords(e.Reason) + "."
	case rules.EventFinalVoting:
		return "Final voting on every bill with favors, left to right."
	case rules.EventShareholders:
		return fmt.Sprintf("%s %s %s shareholder %s: %s.", t.who(e.Seat), t.verb(e.Seat, "show", "shows"), t.verb(e.Seat, "your", "their"),
			plural(len(e.Types), "card", "cards"), typesWords(e.Types))
	case rules.EventScore:
		sc := e.Score
		return fmt.Sprintf("%s %s %d: %d for favors, %d as a shareholder, %d for guilty pleasures (%d %s).", t.who(e.Seat),
			t.verb(e.Seat, "score", "scores"), sc.Total, sc.Favors, sc.Shareholder, sc.Pleasures, sc.Minions, plural(sc.Minions, "minion", "minions"))
	case rules.EventOver:
		if len(e.Winners) == 1 {
			return fmt.Sprintf("%s %s.", t.who(e.Winners[0]), t.verb(e.Winners[0], "win", "wins"))
		}
		var ws []string
		for _, w := range e.Winners {
			ws = append(ws, t.who(w))
		}
		return joinAnd(ws) + " share the win."
	}
	return e.String()
}
