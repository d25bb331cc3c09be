package kingdoms

import (
	"fmt"
	"strings"
	"unicode/utf8"

	rules "corruption/engine/kingdoms"
	"corruption/ui"
)

// Components in words, in the person's language: every word the board says is in
// static/lang/LANG.json (the page's script reads the same files), told by a teller. The
// kingdoms' names, the corporations' and the chaos cards' are proper nouns: they stay as they
// are in every language.

// boardWords are the board's words in every language it speaks.
var boardWords = ui.MustLoadWords(static, "static/lang")

// teller tells things to the person at seat me, by name ("you" for the person), in lang.
type teller struct {
	names []string
	me    int
	lang  string
}

// say is the text of key in the teller's language, with its arguments (pairs: name, value).
func (t teller) say(key string, args ...any) string { return boardWords.Say(t.lang, key, args...) }

// you is key's form for the person (key+".you") when seat is the person's, else key's.
func (t teller) you(seat int, key string, args ...any) string {
	if seat == t.me {
		return t.say(key+".you", args...)
	}
	return t.say(key, args...)
}

func (t teller) minion(m rules.Minion) string   { return t.say("minion." + m.String()) }
func (t teller) ftype(f rules.FavorType) string { return t.say("type." + f.String()) }
func (t teller) heart(h rules.Heart) string     { return t.say("heart." + h.String()) }

// typeName and heartName are a type's and a heart's names as the page sends them ("magic").
func (t teller) typeName(s string) string  { return t.say("type." + s) }
func (t teller) heartName(s string) string { return t.say("heart." + s) }

// a is one minion: "a golem".
func (t teller) a(m rules.Minion) string { return t.say("minion.a." + m.String()) }

// costWords is a two-minion cost: "a golem and a devil", "2 golems".
func (t teller) costWords(c [2]rules.Minion) string {
	if c[0] == c[1] {
		return t.say("minion.n."+c[0].String(), "n", 2)
	}
	return t.joinAnd([]string{t.a(c[0]), t.a(c[1])})
}

// minionWords is counts of minions: "2 golems and a devil" ("no minion" for none).
func (t teller) minionWords(counts [rules.NumMinions]int) string {
	var ws []string
	for m, k := range counts {
		switch {
		case k == 1:
			ws = append(ws, t.a(rules.Minion(m)))
		case k > 1:
			ws = append(ws, t.say("minion.n."+rules.Minion(m).String(), "n", k))
		}
	}
	if len(ws) == 0 {
		return t.say("minion.none")
	}
	return t.joinAnd(ws)
}

func (t teller) joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " " + t.say("and") + " " + ws[len(ws)-1]
}

func (t teller) typesWords(ts []rules.FavorType) string {
	ws := make([]string, len(ts))
	for i, f := range ts {
		ws[i] = t.ftype(f)
	}
	return t.joinAnd(ws)
}

// chaosName is a chaos card's name (a proper noun, the same in every language).
func chaosName(c int) string { return chaosCards[c].Name }

// handWords is the chaos cards of v's hand: "Compound Interest, Margin Call (discarded)".
func (t teller) handWords(v rules.View) string {
	var ws []string
	for _, h := range v.Hand {
		w := t.say("chaos.unknown")
		if h.Card >= 0 {
			w = chaosName(h.Card)
		}
		switch {
		case h.Discarded:
			w += " (" + t.say("chaos.discarded") + ")"
		case h.Played:
			w += " (" + t.say("chaos.played") + ")"
		}
		ws = append(ws, w)
	}
	if len(ws) == 0 {
		return t.say("none")
	}
	return strings.Join(ws, ", ")
}

// favorName is a favor in words: its type and number, "magic-4" ("magia-4").
func (t teller) favorName(f int) string {
	if f < 0 || f >= len(favors) {
		return t.say("favor.none")
	}
	return t.favorID(favors[f].ID)
}

// favorID is a favor's id in words ("magic-4" in English, "magia-4" in Spanish).
func (t teller) favorID(id string) string {
	typ, n, ok := strings.Cut(id, "-")
	if !ok {
		return id
	}
	return t.typeName(typ) + "-" + n
}

// favorWords is a favor with its minions: "magic-4 (golem, zombie)".
func (t teller) favorWords(f int) string {
	if f < 0 || f >= len(favors) {
		return t.say("favor.none")
	}
	return fmt.Sprintf("%s (%s, %s)", t.favorName(f), t.minion(favors[f].Minions[0]), t.minion(favors[f].Minions[1]))
}

// pleasureName is a guilty pleasure in words: its heart and its type, "gold-magic".
func (t teller) pleasureName(p int) string {
	if p < 0 || p >= len(pleasures) {
		return t.say("pleasure.none")
	}
	return t.pleasureID(pleasures[p].ID)
}

// pleasureID is a guilty pleasure's id in words ("gold/magic", "oro/magia").
func (t teller) pleasureID(id string) string {
	heart, typ, ok := strings.Cut(id, "/")
	if !ok {
		return id
	}
	return t.heartName(heart) + "/" + t.typeName(typ)
}

// leaderName is a leader's title: "the Chancellor" ("el Canciller").
func (t teller) leaderName(l int) string { return t.say("leader." + leaders[l].ID) }

// leaderWords is a leader with its kingdom or senate: "the Whip (the High Senate)".
func (t teller) leaderWords(l int) string {
	ld := leaders[l]
	if ld.Senate >= 0 {
		return t.say("leader.in.senate", "leader", t.leaderName(l), "senate", t.senateName(ld.Senate))
	}
	return t.say("leader.of", "leader", t.leaderName(l), "kingdom", realms[ld.Kingdom].Name)
}

func (t teller) senateName(s int) string  { return t.say("senate." + senates[s].ID) }
func (t teller) monarchName(k int) string { return t.say("monarch." + realms[k].ID) }

// billName is a bill in words: "Grimhold's left bill".
func (t teller) billName(b int) string {
	if b < 0 || b >= rules.NumBills {
		return rules.BillID(b)
	}
	return t.say([2]string{"bill.left", "bill.right"}[b%2], "kingdom", realms[b/2].Name)
}

// rulesWords is a table's rules in words.
func (t teller) rulesWords(c rules.Config) string {
	key := "rules.chaos"
	switch c.Sheet() {
	case rules.Basic:
		key = "rules.basic"
	case rules.Advanced:
		key = "rules.advanced"
	case rules.Config{Bonuses: true}:
		key = "rules.bonuses"
	}
	w := t.say(key)
	if c.Even {
		w += t.say("rules.even")
	}
	return w
}

// bonusWords says what a bill of type f gives when it passes, with bill bonuses.
func (t teller) bonusWords(f rules.FavorType) string { return t.say("bonus." + f.String()) }

// effectWhen says when a chaos card of effect e is played.
func (t teller) effectWhen(e rules.Effect) string {
	switch e.Timing() {
	case rules.OnVote:
		return t.say("when.vote")
	case rules.OnSteal:
		return t.say("when.steal")
	}
	return t.say("when.turn")
}

// chaosText is a chaos card's text, made from its effect.
func (t teller) chaosText(c rules.ChaosCard) string {
	return t.say("effect."+c.Effect.String(), "a", t.minion(c.Minions[0]), "b", t.minion(c.Minions[1]), "heart", t.heart(c.Heart), "n", c.Votes)
}

func (t teller) who(seat int) string {
	if seat == t.me {
		return t.say("you")
	}
	if seat >= 0 && seat < len(t.names) && t.names[seat] != "" {
		return t.names[seat]
	}
	return t.say("seat", "n", seat)
}

// agree is key's form for seats as a subject: key+".one" for one seat that is not the person,
// key (plural) for any other.
func (t teller) agree(seats []int, key string, args ...any) string {
	if len(seats) == 1 && seats[0] != t.me {
		return t.say(key+".one", args...)
	}
	return t.say(key, args...)
}

// plural is key+".one" for n = 1, else key, with n among the arguments.
func (t teller) plural(n int, key string, args ...any) string {
	args = append(args, "n", n)
	if n == 1 {
		return t.say(key+".one", args...)
	}
	return t.say(key, args...)
}

// capital capitalises a sentence (its first letter, of any alphabet).
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || r == '\u2068' { // empty, or a name isolated: leave it as it is
		return s
	}
	return strings.ToUpper(string(r)) + s[n:]
}
