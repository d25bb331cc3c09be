package kingdoms

import (
	"fmt"
	"strings"

	rules "corruption/engine/kingdoms"
)

// Components in words.

func a(w string) string { return "a " + w }

// costWords is a two-minion cost: "a golem and a devil", "two golems".
func costWords(c [2]rules.Minion) string {
	if c[0] == c[1] {
		return "two " + c[0].String() + "s"
	}
	return a(c[0].String()) + " and " + a(c[1].String())
}

// minionWords is counts of minions: "2 golems and a devil" ("no minion" for none).
func minionWords(counts [rules.NumMinions]int) string {
	var ws []string
	for m, k := range counts {
		switch {
		case k == 1:
			ws = append(ws, a(rules.Minion(m).String()))
		case k > 1:
			ws = append(ws, fmt.Sprintf("%d %ss", k, rules.Minion(m)))
		}
	}
	if len(ws) == 0 {
		return "no minion"
	}
	return joinAnd(ws)
}

func joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

func typesWords(ts []rules.FavorType) string {
	ws := make([]string, len(ts))
	for i, t := range ts {
		ws[i] = t.String()
	}
	return joinAnd(ws)
}

// handWords is the chaos cards of v's hand: "Compound Interest, Margin Call (discarded)".
func handWords(v rules.View) string {
	var ws []string
	for _, h := range v.Hand {
		w := "an unknown card"
		if h.Card >= 0 {
			w = chaosCards[h.Card].Name
		}
		switch {
		case h.Discarded:
			w += " (discarded)"
		case h.Played:
			w += " (played)"
		}
		ws = append(ws, w)
	}
	if len(ws) == 0 {
		return "none"
	}
	return strings.Join(ws, ", ")
}

// favorWords is a favor with its minions: "magic-4 (golem, zombie)".
func favorWords(f int) string {
	if f < 0 || f >= len(favors) {
		return "no favor"
	}
	return fmt.Sprintf("%s (%s, %s)", favors[f].ID, favors[f].Minions[0], favors[f].Minions[1])
}

func pleasureName(p int) string {
	if p < 0 || p >= len(pleasures) {
		return "no guilty pleasure"
	}
	return pleasures[p].ID
}

// leaderWords is a leader with its kingdom or senate: "the Whip (High Senate)".
func leaderWords(l int) string {
	ld := leaders[l]
	if ld.Senate >= 0 {
		return ld.Name + " (" + senates[ld.Senate].Name + ")"
	}
	return ld.Name + " of " + realms[ld.Kingdom].Name
}

// bonusWords says what a bill of type t gives when it passes, with bill bonuses.
func bonusWords(t rules.FavorType) string {
	switch t {
	case rules.Defense:
		return "each backer may remove an opponent's marker from a leader of its guilty pleasure's heart"
	case rules.Magic:
		return "each backer may exchange one of its favors on another bill for one of the market"
	case rules.Environment:
		return "each backer may first put a displayed guilty pleasure under the deck and draw another"
	case rules.Freedom:
		return "it passes on a tie"
	case rules.Industry:
		return "each backer takes a minion of its choice from the supply"
	}
	return ""
}

// effectWhen says when a chaos card of effect e is played.
func effectWhen(e rules.Effect) string {
	switch e.Timing() {
	case rules.OnVote:
		return "when the votes are revealed"
	case rules.OnSteal:
		return "when a leader of yours is stolen"
	}
	return "on your turn, before an action"
}

// teller tells things to the person at seat me, by name ("you" for the person).
type teller struct {
	names []string
	me    int
}

func (t teller) who(seat int) string {
	if seat == t.me {
		return "you"
	}
	if seat >= 0 && seat < len(t.names) && t.names[seat] != "" {
		return t.names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

func (t teller) whose(seat int) string {
	if seat == t.me {
		return "your"
	}
	return t.who(seat) + "'s"
}

// verb is you's or the other's form of a verb.
func (t teller) verb(seat int, you, other string) string {
	if seat == t.me {
		return you
	}
	return other
}

// agree is the verb for seats as a subject: singular for one seat that is not the person.
func (t teller) agree(seats []int, one, many string) string {
	if len(seats) == 1 && seats[0] != t.me {
		return one
	}
	return many
}

// capital capitalises a sentence.
func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
