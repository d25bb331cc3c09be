package corruptia

import (
	"fmt"
	"strings"

	rules "corruption/engine/corruptia"
	"corruption/ui"
)

// The board's words: static/lang/LANG.json, one file a language, read by the server, the
// terminal and the page alike. A bill is said by its title and department, a place of the wall
// by the bills it touches ("right of Folk Music Archive"), never by an id or a coordinate
// (the terminal's typed moves keep them, as handles to type).

// words are the board's strings in every language it speaks.
var words = ui.MustLoadWords(static, "static/lang")

// Localize is the board speaking lang (English when it speaks no such language).
func (Board) Localize(lang string) any {
	for _, l := range words.Speaks() {
		if l == lang {
			return Board{lang: lang}
		}
	}
	return Board{}
}

// In is the board speaking lang, as a Board.
func In(lang string) Board { return Board{}.Localize(lang).(Board) }

// say is the text of key in the board's language.
func (b Board) say(key string, args ...any) string { return words.Say(b.lang, key, args...) }

// sp says things to the person at seat me, with the players' names, in the board's language.
type sp struct {
	Board
	names []string
	me    int
}

func (b Board) to(names []string, me int) sp { return sp{b, names, me} }

// name is a seat's name as the shell shows it.
func (s sp) name(seat int) string { return ui.SeatName(s.names, seat) }

// who is "you" for the person, else the seat's name.
func (s sp) who(seat int) string {
	if seat == s.me {
		return s.say("you")
	}
	return s.name(seat)
}

// whom is the person after a preposition ("on you"; Spanish "sobre ti", not the subject's
// "tú"), else the seat's name.
func (s sp) whom(seat int) string {
	if seat == s.me {
		return s.say("you.object")
	}
	return s.name(seat)
}

// pick is key+".you" for the person's seat, else key: each sentence with a subject has both
// forms ("you propose", "ann proposes").
func (s sp) pick(key string, seat int) string {
	if seat == s.me && seat >= 0 {
		return key + ".you"
	}
	return key
}

// sayAs is the sentence of key with seat as its subject ("who"), in its form for the person
// or another, capitalised.
func (s sp) sayAs(key string, seat int, args ...any) string {
	return capital(s.say(s.pick(key, seat), append([]any{"who", s.name(seat)}, args...)...))
}

func (b Board) dept(d rules.Department) string { return b.say("dept." + d.String()) }

// title is a bill's title in the board's language.
func (b Board) title(x rules.Bill) string {
	if !x.Valid() {
		return b.say("bill.unknown")
	}
	return b.say("bill." + x.String())
}

// bill is a bill in a sentence: its title and department ("Folk Music Archive (culture)").
func (b Board) bill(x rules.Bill) string {
	if !x.Valid() {
		return b.say("bill.unknown")
	}
	return b.say("bill.words", "title", b.title(x), "dept", b.dept(x.Department()))
}

func (b Board) bills(xs []rules.Bill) string {
	ws := make([]string, len(xs))
	for i, x := range xs {
		ws[i] = b.bill(x)
	}
	return b.joinAnd(ws)
}

func (b Board) joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + b.say("and") + ws[len(ws)-1]
}

// money is an income: "$3".
func (b Board) money(n int) string { return b.say("money", "n", n) }

// budget is a bill's three vacancies in words: "$1, $1 and $3".
func (b Board) budget(x [3]int) string {
	return b.joinAnd([]string{b.money(x[0]), b.money(x[1]), b.money(x[2])})
}

func (b Board) vote(v rules.Vote) string { return b.say("vote." + v.String()) }

// dieWords is the people's die's face in words.
func (b Board) dieWords(d rules.Die) string {
	switch {
	case d == rules.DieNone:
		return b.say("die.none")
	case d == rules.Revolution:
		return b.say("die.R")
	}
	return b.dept(rules.Department(d))
}

func (b Board) party(seat int) string { return b.say(fmt.Sprintf("party.%d", seat)) }

// blackmail is the title of the card holder holds on target at a table of players (the
// engine's BlackmailTitle, in the board's language): target's party dealt its card k to its
// k-th opponent clockwise.
func (b Board) blackmail(holder, target, players int) string {
	k := ((holder-target)%players + players) % players
	return b.say(fmt.Sprintf("bm.%d.%d", target, k))
}

// blackmailTitled is the card of target's party whose English title is title, in the board's
// language (title itself when its party has no such card).
func (b Board) blackmailTitled(target int, title string) string {
	if target >= 0 && target < rules.MaxPlayers {
		for k, t := range rules.PartyOf(target).Blackmail {
			if t == title {
				return b.say(fmt.Sprintf("bm.%d.%d", target, k+1))
			}
		}
	}
	return title
}

// place says a cell of the wall by the bills that touch it (near, in the order of
// Cell.Neighbours: left, right, above left, above right, below left, below right): beside a
// bill, over or under two, or over or under half of one. Each says one cell only: the
// relation and the bill fix it.
func (b Board) place(near [6]rules.Bill) string {
	t := b.title
	switch {
	case near[0].Valid():
		return b.say("place.right", "bill", t(near[0]))
	case near[1].Valid():
		return b.say("place.left", "bill", t(near[1]))
	case near[4].Valid() && near[5].Valid():
		return b.say("place.above2", "a", t(near[4]), "b", t(near[5]))
	case near[2].Valid() && near[3].Valid():
		return b.say("place.below2", "a", t(near[2]), "b", t(near[3]))
	case near[5].Valid():
		return b.say("place.above.left", "bill", t(near[5]))
	case near[4].Valid():
		return b.say("place.above.right", "bill", t(near[4]))
	case near[3].Valid():
		return b.say("place.below.left", "bill", t(near[3]))
	case near[2].Valid():
		return b.say("place.below.right", "bill", t(near[2]))
	}
	return b.say("place.first")
}

// placeIn is cell c of program p in words.
func (b Board) placeIn(p rules.Program, c rules.Cell) string { return b.place(p.Near(c)) }

// official is an official in words: "an official earning $3 from Folk Music Archive".
func (b Board) official(income int, from rules.Bill) string {
	return b.say("worker.official", "money", b.money(income), "bill", b.title(from))
}

// employee is one of seat's employees in words: "your employee", "ann's employee".
func (s sp) employee(seat int) string {
	return s.say(s.pick("worker.employee", seat), "who", s.name(seat))
}

// tokens is n approval tokens in words.
func (b Board) tokens(n int) string {
	if n < 0 {
		n = -n
	}
	if n == 1 {
		return b.say("tokens.one")
	}
	return b.say("tokens.n", "n", n)
}

func capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
