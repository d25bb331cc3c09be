package corruption

import (
	"fmt"

	rules "corruption/engine/corruption"
	"corruption/ui"
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

// describe tells an event in plain words, with the players' names ("you" for the person).
func describe(e rules.Event, names []string, me int) string {
	t := teller{names, me}
	switch e.Kind {
	case rules.EventDealt, rules.EventFaceUp, rules.EventPeeked, rules.EventPlaced, rules.EventRevealed:
		return t.play(e)
	}
	return t.award(e)
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

func (t teller) verb(seat int, you, other string) string {
	if seat == t.me {
		return you
	}
	return other
}

// capital capitalises a sentence: it reads better in a log.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// play tells the events of the corruption phase and the reveal.
func (t teller) play(e rules.Event) string {
	switch e.Kind {
	case rules.EventDealt:
		return fmt.Sprintf("%s ($%s) is dealt under %s.", e.Contract.Name(), rules.Money(e.Contract.Value()), e.Body.Name())
	case rules.EventFaceUp:
		ps := e.Positions.List()
		words := make([]string, len(ps))
		for i, p := range ps {
			words[i] = fmt.Sprint(p)
		}
		if len(ps) == 0 {
			return capital(fmt.Sprintf("%s %s that every card goes face down this round.", t.who(e.Seat), t.verb(e.Seat, "choose", "chooses")))
		}
		return capital(fmt.Sprintf("%s %s face-up positions %s this round.", t.who(e.Seat), t.verb(e.Seat, "choose", "chooses"), joinAnd(words)))
	case rules.EventPeeked:
		return capital(fmt.Sprintf("%s %s at card %d with the little black book.", t.who(e.Seat), t.verb(e.Seat, "peek", "peeks"), e.Index))
	case rules.EventPlaced:
		if e.Card == rules.CardUnknown {
			return capital(fmt.Sprintf("%s %s a card face down %s (card %d).", t.who(e.Seat), t.verb(e.Seat, "place", "places"), spotPhrase(e.Spot), e.Index))
		}
		return capital(fmt.Sprintf("%s %s %s face up %s (card %d).", t.who(e.Seat), t.verb(e.Seat, "place", "places"), e.Card.Title(), spotPhrase(e.Spot), e.Index))
	case rules.EventRevealed:
		return capital(fmt.Sprintf("Card %d (%s, %s) is %s.", e.Index, ui.SeatName(t.names, e.Seat), spotPhrase(e.Spot), e.Card.Title()))
	}
	return e.String()
}

// award tells the events of the awarding phase and the ends of rounds.
func (t teller) award(e rules.Event) string {
	switch e.Kind {
	case rules.EventAssigned:
		return capital(fmt.Sprintf("%s %s %s Swiss bribe (card %d) to %s.", t.who(e.Seat), t.verb(e.Seat, "assign", "assigns"), t.verb(e.Seat, "your", "their"), e.Index, e.Contract.Name()))
	case rules.EventKilled:
		return capital(fmt.Sprintf("%s hit man (card %d) kills card %d under %s.", t.whose(e.Seat), e.Index, e.Target, e.Contract.Name()))
	case rules.EventCancelled:
		return fmt.Sprintf("%s is cancelled by a district attorney and deferred.", e.Contract.Name())
	case rules.EventRemoved:
		return capital(fmt.Sprintf("%s reporter (card %d) removes card %d from %s.", t.whose(e.Seat), e.Index, e.Target, e.Contract.Name()))
	case rules.EventPassed:
		return capital(fmt.Sprintf("%s reporter (card %d) removes nothing.", t.whose(e.Seat), e.Index))
	case rules.EventAwarded:
		return capital(fmt.Sprintf("%s goes to %s for $%s in bribes.", e.Contract.Name(), t.who(e.Seat), rules.Money(e.Amount)))
	case rules.EventDeferred:
		if e.Amount == 0 {
			return fmt.Sprintf("%s has no bribe and is deferred.", e.Contract.Name())
		}
		return fmt.Sprintf("%s is tied at $%s and deferred.", e.Contract.Name(), rules.Money(e.Amount))
	case rules.EventRoundOver:
		return capital(fmt.Sprintf("Round %d is over; %s %s round %d.", e.Round, t.who(e.Seat), t.verb(e.Seat, "lead", "leads"), e.Round+1))
	case rules.EventGameOver:
		return "The game is over."
	}
	return e.String()
}

func spotPhrase(s rules.Spot) string {
	if s.IsSwiss() {
		return "on the " + s.SwissBody().Name() + " Swiss account"
	}
	return "under " + s.Contract().Name()
}
