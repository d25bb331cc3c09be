package corruption

import (
	"strconv"
	"strings"

	rules "corruption/engine/corruption"
	"corruption/ui"
)

// The game's things by name, in the board's language.

// money is an amount of dollars as the language writes it: "$4,000", "$4.000", "4 000 $".
func (b Board) money(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + b.money(-n)
	}
	sep := b.say("money.sep")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + sep + s[i:]
	}
	return b.say("money", "n", s)
}

// contractName is a contract's name ("Hydro-Electric Dam", "Presa hidroeléctrica").
func (b Board) contractName(c rules.Contract) string { return b.say("contract." + c.String()) }

// bodyName is a government body's name ("City Hall", "Alcaldía", "Municipalité").
func (b Board) bodyName(body rules.Body) string { return b.say("body." + body.String()) }

// swissName is a body's Swiss account ("the City Hall Swiss account").
func (b Board) swissName(body rules.Body) string {
	return b.say("swiss.name", "body", b.bodyName(body))
}

// spotName is a place by its name: a contract's, or a body's Swiss account.
func (b Board) spotName(s rules.Spot) string {
	if s.IsSwiss() {
		return b.swissName(s.SwissBody())
	}
	return b.contractName(s.Contract())
}

// spotPhrase is where a card lies: "under Airport", "on the City Hall Swiss account".
func (b Board) spotPhrase(s rules.Spot) string {
	if s.IsSwiss() {
		return b.say("spot.on", "place", b.swissName(s.SwissBody()))
	}
	return b.say("spot.under", "place", b.contractName(s.Contract()))
}

// cardLabel is a card as the page prints it: "$4,000", "Reporter", "face down".
func (b Board) cardLabel(c rules.Card) string {
	switch {
	case c == rules.CardUnknown:
		return b.say("label.unknown")
	case c.IsBribe():
		return b.money(c.Value())
	}
	return b.say("label." + c.String())
}

// cardWords is a card in words: "$4,000 bribe", "district attorney".
func (b Board) cardWords(c rules.Card) string {
	switch {
	case c == rules.CardUnknown:
		return b.say("words.unknown")
	case c.IsBribe():
		return b.say("words.bribe", "money", b.money(c.Value()))
	}
	return b.say("words." + c.String())
}

// cardTitle is a card with its article: "a district attorney", "an $8,000 bribe".
func (b Board) cardTitle(c rules.Card) string {
	if c.IsBribe() {
		key := "title.bribe"
		if c == rules.Bribe8000 { // "an $8,000 bribe": English reads the eight
			key = "title.bribe.8000"
		}
		return b.say(key, "money", b.money(c.Value()))
	}
	if c == rules.CardUnknown {
		return b.say("title.unknown")
	}
	return b.say("title." + c.String())
}

// variantName is a variant in words ("Free stud", "Stud libre").
func (b Board) variantName(v rules.Variant) string { return b.say("variant." + v.String()) }

// who is a seat's name for the person at me: "you" for the person.
func (b Board) who(names []string, seat, me int) string {
	if seat == me {
		return b.say("you")
	}
	return ui.SeatName(names, seat)
}

// joinAnd is "a", "a and b", "a, b and c" in the board's language.
func (b Board) joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + b.say("and") + ws[len(ws)-1]
}

// capital capitalises a sentence's first letter (a name may start it).
func capital(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}
