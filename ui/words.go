package ui

import (
	"fmt"

	"corruption/engine/corruption"
)

var eventKinds = [...]string{
	corruption.EventDealt: "dealt", corruption.EventFaceUp: "faceup", corruption.EventPeeked: "peeked",
	corruption.EventPlaced: "placed", corruption.EventRevealed: "revealed", corruption.EventAssigned: "assigned",
	corruption.EventKilled: "killed", corruption.EventCancelled: "cancelled", corruption.EventRemoved: "removed",
	corruption.EventPassed: "passed", corruption.EventAwarded: "awarded", corruption.EventDeferred: "deferred",
	corruption.EventRoundOver: "round", corruption.EventGameOver: "over",
}

func eventKind(k corruption.EventKind) string {
	if int(k) < len(eventKinds) {
		return eventKinds[k]
	}
	return "event"
}

// describe tells an event in plain words, with the players' names ("you" for the person).
func describe(e corruption.Event, names []string, me int) string {
	who := func(seat int) string {
		if seat == me {
			return "you"
		}
		return seatName(names, seat)
	}
	whose := func(seat int) string {
		if seat == me {
			return "your"
		}
		return seatName(names, seat) + "'s"
	}
	// Capitalised sentences read better in a log.
	cap := func(s string) string {
		if s == "" || s[0] < 'a' || s[0] > 'z' {
			return s
		}
		return string(s[0]-'a'+'A') + s[1:]
	}
	verb := func(seat int, you, other string) string {
		if seat == me {
			return you
		}
		return other
	}
	switch e.Kind {
	case corruption.EventDealt:
		return fmt.Sprintf("%s ($%s) is dealt under %s.", e.Contract.Name(), corruption.Money(e.Contract.Value()), e.Body.Name())
	case corruption.EventFaceUp:
		ps := e.Positions.List()
		words := make([]string, len(ps))
		for i, p := range ps {
			words[i] = fmt.Sprint(p)
		}
		if len(ps) == 0 {
			return cap(fmt.Sprintf("%s %s that every card goes face down this round.", who(e.Seat), verb(e.Seat, "choose", "chooses")))
		}
		return cap(fmt.Sprintf("%s %s face-up positions %s this round.", who(e.Seat), verb(e.Seat, "choose", "chooses"), joinAnd(words)))
	case corruption.EventPeeked:
		return cap(fmt.Sprintf("%s %s at card %d with the little black book.", who(e.Seat), verb(e.Seat, "peek", "peeks"), e.Index))
	case corruption.EventPlaced:
		if e.Card == corruption.CardUnknown {
			return cap(fmt.Sprintf("%s %s a card face down %s (card %d).", who(e.Seat), verb(e.Seat, "place", "places"), spotPhrase(e.Spot), e.Index))
		}
		return cap(fmt.Sprintf("%s %s %s face up %s (card %d).", who(e.Seat), verb(e.Seat, "place", "places"), e.Card.Title(), spotPhrase(e.Spot), e.Index))
	case corruption.EventRevealed:
		return cap(fmt.Sprintf("Card %d (%s, %s) is %s.", e.Index, seatName(names, e.Seat), spotPhrase(e.Spot), e.Card.Title()))
	case corruption.EventAssigned:
		return cap(fmt.Sprintf("%s %s %s Swiss bribe (card %d) to %s.", who(e.Seat), verb(e.Seat, "assign", "assigns"), verb(e.Seat, "your", "their"), e.Index, e.Contract.Name()))
	case corruption.EventKilled:
		return cap(fmt.Sprintf("%s hit man (card %d) kills card %d under %s.", whose(e.Seat), e.Index, e.Target, e.Contract.Name()))
	case corruption.EventCancelled:
		return fmt.Sprintf("%s is cancelled by a district attorney and deferred.", e.Contract.Name())
	case corruption.EventRemoved:
		return cap(fmt.Sprintf("%s reporter (card %d) removes card %d from %s.", whose(e.Seat), e.Index, e.Target, e.Contract.Name()))
	case corruption.EventPassed:
		return cap(fmt.Sprintf("%s reporter (card %d) removes nothing.", whose(e.Seat), e.Index))
	case corruption.EventAwarded:
		return cap(fmt.Sprintf("%s goes to %s for $%s in bribes.", e.Contract.Name(), who(e.Seat), corruption.Money(e.Amount)))
	case corruption.EventDeferred:
		if e.Amount == 0 {
			return fmt.Sprintf("%s has no bribe and is deferred.", e.Contract.Name())
		}
		return fmt.Sprintf("%s is tied at $%s and deferred.", e.Contract.Name(), corruption.Money(e.Amount))
	case corruption.EventRoundOver:
		return cap(fmt.Sprintf("Round %d is over; %s %s round %d.", e.Round, who(e.Seat), verb(e.Seat, "lead", "leads"), e.Round+1))
	case corruption.EventGameOver:
		return "The game is over."
	}
	return e.String()
}

func spotPhrase(s corruption.Spot) string {
	if s.IsSwiss() {
		return "on the " + s.SwissBody().Name() + " Swiss account"
	}
	return "under " + s.Contract().Name()
}
