package kingdoms

import (
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

// describe tells an event in plain words, with the players' names ("you" for the person), in
// lang.
func describe(e rules.Event, names []string, me int, lang string) string {
	t := teller{names, me, lang}
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
		return t.you(e.Seat, "ev.corp", "who", t.who(e.Seat), "corp", corporations[e.Corp].Name, "minions", t.minionWords(e.Minions))
	case rules.EventFirst:
		return t.you(e.Seat, "ev.first", "who", t.who(e.Seat))
	case rules.EventMarket:
		return t.say("ev.market", "favor", t.favorWords(e.Favor))
	case rules.EventDisplay:
		return t.say("ev.display", "pleasure", t.pleasureName(e.Pleasure))
	case rules.EventDiscarded:
		return t.you(e.Seat, "ev.discarded", "who", t.who(e.Seat))
	}
	return ""
}

// turn tells the actions of a turn and the chaos cards.
func (t teller) turn(e rules.Event) string {
	who := t.who(e.Seat)
	switch e.Kind {
	case rules.EventTurn:
		return t.you(e.Seat, "ev.turn", "n", e.Round, "who", who)
	case rules.EventNoAction:
		return t.you(e.Seat, "ev.noaction", "who", who)
	case rules.EventTake:
		return t.you(e.Seat, "ev.take", "who", who, "favor", t.favorName(e.Favor), "minions", t.minionWords(e.Minions))
	case rules.EventPlace:
		return t.you(e.Seat, "ev.place", "who", who, "favor", t.favorWords(e.Favor), "bill", t.billName(e.Bill))
	case rules.EventInfluence:
		if e.Target >= 0 {
			return t.you(e.Seat, "ev.steal", "who", who, "minions", t.minionWords(e.Minions), "leader", t.leaderWords(e.Leader), "from", t.who(e.Target))
		}
		return t.you(e.Seat, "ev.influence", "who", who, "minions", t.minionWords(e.Minions), "leader", t.leaderWords(e.Leader))
	case rules.EventControl:
		return t.you(e.Seat, "ev.control", "who", who, "leader", t.leaderWords(e.Leader))
	case rules.EventStealFailed:
		return t.you(e.Seat, "ev.stealfailed", "who", who, "leader", t.leaderName(e.Leader), "from", t.who(e.Target))
	case rules.EventMonarch:
		return t.say("ev.monarch", "monarch", t.monarchName(e.Kingdom), "kingdom", realms[e.Kingdom].Name, "who", who)
	case rules.EventChaos:
		return t.you(e.Seat, "ev.chaos", "who", who, "card", chaosName(e.Card), "what", t.chaosWhat(e.Move))
	case rules.EventUnmarked:
		return t.you(e.Seat, "ev.unmarked", "who", who, "owner", t.who(e.Target), "leader", t.leaderWords(e.Leader))
	case rules.EventExchange:
		return t.you(e.Seat, "ev.exchange", "who", who, "favor", t.favorName(e.Favor), "bill", t.billName(e.Bill), "other", t.favorName(e.Other))
	case rules.EventGain:
		return t.you(e.Seat, "ev.gain", "who", who, "minions", t.minionWords(e.Minions))
	case rules.EventShredded:
		return t.you(e.Seat, "ev.shredded", "who", who, "owner", t.who(e.Target), "favor", t.favorName(e.Favor), "bill", t.billName(e.Bill))
	case rules.EventEmbezzled:
		return t.you(e.Seat, "ev.embezzled", "who", who, "minions", t.minionWords(e.Minions), "from", t.who(e.Target))
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
			by = t.say("call.auto")
		case -2:
			by = t.say("call.final")
		default:
			by = t.say("call.by", "who", t.who(e.Seat))
		}
		var ws []string
		for _, s := range e.Seats {
			ws = append(ws, t.who(s))
		}
		voting := t.say("vote.nobody")
		if len(ws) > 0 {
			voting = t.agree(e.Seats, "vote.secret", "who", t.joinAnd(ws))
		}
		return t.say("ev.call", "bill", t.billName(e.Bill), "by", by, "voting", voting)
	case rules.EventVotes:
		var ws []string
		for s, v := range e.Votes {
			if v >= 0 {
				ws = append(ws, t.who(s)+" "+t.yesNo(v == 1))
			}
		}
		return t.say("ev.votes", "bill", t.billName(e.Bill), "votes", t.joinAnd(ws))
	case rules.EventResult:
		key := "ev.result." + [...]string{"passes", "fails", "tabled"}[e.Result]
		if e.Veto {
			key += ".veto"
		}
		return t.say(key, "bill", t.billName(e.Bill), "yes", e.Yes, "no", e.No)
	case rules.EventBillDiscarded:
		return t.plural(e.Count, "ev.billdiscarded", "bill", t.billName(e.Bill))
	case rules.EventPleasure:
		if e.Pleasure < 0 {
			return t.you(e.Seat, "ev.nopleasure", "who", t.who(e.Seat))
		}
		return t.you(e.Seat, "ev.pleasure", "who", t.who(e.Seat), "pleasure", t.pleasureName(e.Pleasure))
	case rules.EventCycle:
		return t.you(e.Seat, "ev.cycle", "who", t.who(e.Seat), "pleasure", t.pleasureName(e.Pleasure))
	case rules.EventCollect:
		return t.you(e.Seat, "ev.collect", "who", t.who(e.Seat), "n", e.Count, "bill", t.billName(e.Bill))
	case rules.EventReturned:
		return t.plural(e.Count, "ev.returned")
	}
	return ""
}

// end tells the end of the game.
func (t teller) end(e rules.Event) string {
	switch e.Kind {
	case rules.EventEnding:
		if e.Round > 0 { // the house rules "even"
			return t.say("ev.ending.even", "why", t.endingWords(e.Reason), "n", e.Round)
		}
		return t.say("ev.ending", "why", t.endingWords(e.Reason))
	case rules.EventFinalVoting:
		return t.say("ev.final")
	case rules.EventShareholders:
		key := "ev.shareholders"
		if len(e.Types) == 1 {
			key += ".one"
		}
		return t.you(e.Seat, key, "who", t.who(e.Seat), "types", t.typesWords(e.Types))
	case rules.EventScore:
		sc := e.Score
		return t.you(e.Seat, "ev.score", "who", t.who(e.Seat), "total", sc.Total, "favors", sc.Favors, "shareholder", sc.Shareholder,
			"pleasures", sc.Pleasures, "minions", sc.Minions)
	case rules.EventOver:
		if len(e.Winners) == 1 {
			return t.you(e.Winners[0], "ev.wins", "who", t.who(e.Winners[0]))
		}
		var ws []string
		for _, w := range e.Winners {
			ws = append(ws, t.who(w))
		}
		return t.say("ev.share", "who", t.joinAnd(ws))
	}
	return e.String()
}
