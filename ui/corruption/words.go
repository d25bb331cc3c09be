package corruption

import (
	"fmt"

	rules "corruption/engine/corruption"
)

var eventKinds = [...]string{
	rules.EventDealt: "dealt", rules.EventFaceUp: "faceup", rules.EventPeeked: "peeked",
	rules.EventPlaced: "placed", rules.EventRevealed: "revealed", rules.EventAssigned: "assigned",
	rules.EventKilled: "killed", rules.EventCancelled: "cancelled", rules.EventRemoved: "removed",
	rules.EventPassed: "passed", rules.EventAwarded: "awarded", rules.EventDeferred: "deferred",
	rules.EventRoundOver: "round", rules.EventGameOver: "over",
}

func eventKind(k rules.EventKind) string {
	if int(k) < len(eventKinds) {
		return eventKinds[k]
	}
	return "event"
}

// eventData is an event for the page's script, which draws a round again from its events as
// it went (the awarding, step by step): what the event's words say, no more. Card is empty for
// a card placed face down.
type eventData struct {
	Seat     int    `json:"seat"`
	Index    int    `json:"index,omitempty"`
	Target   int    `json:"target,omitempty"`
	Card     string `json:"card,omitempty"`
	Spot     string `json:"spot,omitempty"`
	Contract string `json:"contract,omitempty"`
	Value    int    `json:"value,omitempty"` // the contract's
	Body     string `json:"body,omitempty"`
	Amount   int    `json:"amount,omitempty"`
	Faceup   []int  `json:"faceup,omitempty"`
}

// data is e for the page's script.
func data(e rules.Event) eventData {
	d := eventData{Seat: e.Seat, Index: e.Index, Target: e.Target, Amount: e.Amount}
	switch e.Kind {
	case rules.EventDealt:
		d.Contract, d.Value, d.Body = e.Contract.String(), e.Contract.Value(), e.Body.String()
	case rules.EventFaceUp:
		d.Faceup = e.Positions.List()
	case rules.EventPlaced, rules.EventRevealed:
		d.Spot = e.Spot.String()
		if e.Card != rules.CardUnknown {
			d.Card = e.Card.String()
		}
	case rules.EventAssigned, rules.EventKilled, rules.EventCancelled, rules.EventRemoved, rules.EventAwarded, rules.EventDeferred:
		d.Contract = e.Contract.String()
	}
	return d
}

// personal are the events told in the person's own form when the person's seat did them.
var personal = map[rules.EventKind]bool{rules.EventFaceUp: true, rules.EventPeeked: true, rules.EventPlaced: true,
	rules.EventAssigned: true, rules.EventKilled: true, rules.EventRemoved: true, rules.EventPassed: true,
	rules.EventAwarded: true, rules.EventRoundOver: true}

// describe tells an event in plain words, in English, with the players' names ("you" for the
// person).
func describe(e rules.Event, names []string, me int) string { return Board{}.describe(e, names, me) }

// describe tells an event in plain words, with the players' names ("you" for the person at
// me). Each sentence has two forms, the person's and another's ("you place", "bob places").
func (b Board) describe(e rules.Event, names []string, me int) string {
	key := "ev." + eventKind(e.Kind)
	you := e.Seat == me && e.Seat >= 0 && personal[e.Kind]
	args := []any{"who", b.who(names, e.Seat, me), "index", e.Index, "target", e.Target}
	switch e.Kind {
	case rules.EventDealt:
		args = append(args, "contract", b.contractName(e.Contract), "value", b.money(e.Contract.Value()), "body", b.bodyName(e.Body))
	case rules.EventFaceUp:
		ps := e.Positions.List()
		if len(ps) == 0 {
			key += ".none"
		}
		words := make([]string, len(ps))
		for i, p := range ps {
			words[i] = fmt.Sprint(p)
		}
		args = append(args, "positions", b.joinAnd(words))
	case rules.EventPlaced:
		if e.Card == rules.CardUnknown {
			key += ".down"
		} else {
			key += ".up"
		}
		args = append(args, "card", b.cardTitle(e.Card), "place", b.spotPhrase(e.Spot))
	case rules.EventRevealed:
		args = append(args, "owner", b.who(names, e.Seat, -1), "place", b.spotPhrase(e.Spot), "card", b.cardTitle(e.Card))
	case rules.EventAssigned, rules.EventKilled, rules.EventRemoved, rules.EventCancelled:
		args = append(args, "contract", b.contractName(e.Contract))
	case rules.EventAwarded:
		args = append(args, "contract", b.contractName(e.Contract), "amount", b.money(e.Amount))
	case rules.EventDeferred:
		if e.Amount == 0 {
			key += ".empty"
		}
		args = append(args, "contract", b.contractName(e.Contract), "amount", b.money(e.Amount))
	case rules.EventRoundOver:
		args = append(args, "round", e.Round, "next", e.Round+1)
	}
	if you {
		key += ".you"
	}
	return capital(b.say(key, args...))
}
