package kingdoms

import (
	"fmt"
	"strings"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
)

// Show draws the board as seat sees it, then the decision due with its legal choices.
func (b Board) Show(g engine.Game, seat int, names []string) string {
	kg, v, ok := view(g, seat)
	t := b.teller(names, seat)
	if !ok {
		return t.say("term.notstarted") + "\n"
	}
	s := drawBoard(kg, v, t)
	if asked(v) {
		d := buildDecision(v, t)
		s += "\n" + d.Prompt + "\n" + choicesText(d, t)
	}
	return s
}

// Choices lists the move syntax and the legal choices of the decision due.
func (b Board) Choices(g engine.Game, seat int, names []string) string {
	t := b.teller(names, seat)
	s := t.say("term.moves") + " " + moveSyntax + "\n" + chaosSyntax(t)
	_, v, ok := view(g, seat)
	if !ok || !asked(v) {
		return s
	}
	return s + choicesText(buildDecision(v, t), t)
}

// chaosSyntax says what each chaos effect takes after the card's id.
func chaosSyntax(t teller) string {
	var ws []string
	for _, e := range []rules.Effect{rules.Indulge, rules.Coup, rules.Scandal, rules.Lobby, rules.Earmark, rules.Shred, rules.Embezzle, rules.Ballot} {
		ws = append(ws, e.String()+" "+effectSyntax[e])
	}
	return t.say("term.chaos.args", "list", strings.Join(ws, "; ")) + "\n"
}

// maxShown is how many moves of one kind (and one favor, leader or card) the terminal lists.
const maxShown = 6

// choicesText lists the legal choices in the typed syntax, grouped by kind and by what they
// name, with an example.
func choicesText(d *Decision, t teller) string {
	var b strings.Builder
	type group struct {
		key   string
		texts []string
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, c := range d.Choices {
		key := c.Group + " " + c.Favor + c.Leader + c.Card
		if c.Group == "pick" {
			key = c.Group + " " + c.Pleasure
		}
		gr := byKey[key]
		if gr == nil {
			gr = &group{key: key}
			byKey[key] = gr
			groups = append(groups, gr)
		}
		gr.texts = append(gr.texts, c.Text)
	}
	for _, gr := range groups {
		shown := gr.texts
		more := ""
		if len(shown) > maxShown {
			more = " | ... (" + t.say("term.more", "n", len(shown)-maxShown) + ")"
			shown = shown[:maxShown]
		}
		fmt.Fprintf(&b, "  %s%s\n", strings.Join(shown, " | "), more)
	}
	if len(d.Choices) > 0 {
		fmt.Fprintf(&b, "  %s\n", t.say("term.example", "move", d.Choices[0].Text))
	}
	return b.String()
}

// drawBoard draws the person's view as text, told by t, with an open seat's secret cards as
// the person's node kg knows them (openCards).
func drawBoard(kg *rules.Game, v rules.View, t teller) string {
	g := buildGame(v, t)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", t.say("term.title", "rules", g.RulesText, "due", g.Next.Text))
	if g.Ending != "" {
		fmt.Fprintf(&b, "%s\n", t.say("term.ending", "why", g.Ending))
	}
	ctl := func(c int) string {
		if c < 0 {
			return "-"
		}
		return t.who(c)
	}
	leader := func(l leaderState) string {
		s := fmt.Sprintf("%s [%s %s; %s", l.ID, t.say("minion."+l.Cost[0]), t.say("minion."+l.Cost[1]), t.heartName(l.Heart))
		if l.Prefers != "" {
			s += "; " + t.say("term.likes", "type", t.typeName(l.Prefers))
		}
		return s + "]: " + ctl(l.Controller)
	}
	for _, s := range g.Senates {
		var ls []string
		for _, l := range s.Leaders {
			ls = append(ls, leader(l))
		}
		fmt.Fprintf(&b, "%s: %s\n", capital(s.Name), strings.Join(ls, ", "))
	}
	for _, k := range g.Kingdoms {
		fmt.Fprintf(&b, "%s, %s (%s): %s\n", k.Name, k.Monarch, t.say("term.likes", "type", t.typeName(k.Prefers)), ctl(k.Allegiant))
		var ls []string
		for _, l := range k.Leaders {
			ls = append(ls, leader(l))
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(ls, ", "))
		for _, bill := range k.Bills {
			var fs []string
			for _, f := range bill.Favors {
				owner := t.say("term.whose", "who", t.who(f.Seat))
				if f.Seat == v.Seat {
					owner = t.say("term.yours")
				}
				fs = append(fs, f.Favor+" ("+owner+")")
			}
			what := t.say("empty")
			if len(fs) > 0 {
				what = strings.Join(fs, ", ")
			}
			mark := ""
			if bill.Voting {
				mark = " (" + t.say("term.voting") + ")"
			}
			fmt.Fprintf(&b, "  %s%s: %s\n", bill.ID, mark, what)
		}
	}
	var market []string
	for _, f := range g.Market {
		if f != nil {
			market = append(market, fmt.Sprintf("%s (%s %s)", f.ID, t.say("minion."+f.Minions[0]), t.say("minion."+f.Minions[1])))
		}
	}
	fmt.Fprintf(&b, "%s\n", t.say("term.market", "market", orNone(market, t), "deck", g.FavorDeck, "discarded", g.FavorDiscard))
	var display []string
	for _, p := range g.Display {
		if p != nil {
			display = append(display, p.ID)
		}
	}
	fmt.Fprintf(&b, "%s\n", t.say("term.display", "display", orNone(display, t), "deck", g.PleasureDeck))
	fmt.Fprintf(&b, "%s\n", t.say("term.supply", "minions", t.minionWords([rules.NumMinions]int{g.Supply.Golem, g.Supply.Goblin, g.Supply.Devil, g.Supply.Zombie})))
	if g.Vote != nil {
		fmt.Fprintf(&b, "%s.\n", g.Vote.Text)
	}
	b.WriteString(t.say("term.players") + "\n")
	for s := range v.Players {
		fs := seatFields(v, true, s, t)
		name := t.say("seat", "n", s)
		if s < len(t.names) && t.names[s] != "" {
			name = t.names[s]
		}
		if s == v.Seat {
			name += " (" + t.say("you") + ")"
		}
		var ps []string
		for _, p := range fs.Pleasures {
			ps = append(ps, p.ID)
		}
		fmt.Fprintf(&b, "  %s, %s: %s", name, fs.CorpName, t.say("term.seat", "minions", t.minionWords(v.Seats[s].Minions),
			"pleasures", orNone(ps, t), "pile", fs.Pile, "leaders", orNone(fs.Leaders, t), "score", fs.Score))
		if v.Config.Chaos {
			fmt.Fprintf(&b, "; %s", t.say("term.chaosleft", "n", fs.ChaosLeft))
		}
		b.WriteString("\n")
		if k := openCards(kg, v.Seat, s, t); k != nil {
			fmt.Fprintf(&b, "    %s\n", knownWords(k, t))
		}
	}
	if len(v.Shareholders) > 0 {
		b.WriteString(t.say("term.shareholders", "types", t.typesWords(v.Shareholders)))
	}
	if len(v.Hand) > 0 {
		b.WriteString(" " + t.say("term.hand", "cards", t.handWords(v)))
	}
	b.WriteString("\n")
	return b.String()
}

func orNone(ws []string, t teller) string {
	if len(ws) == 0 {
		return t.say("none")
	}
	return strings.Join(ws, ", ")
}

// knownWords is an open seat's secret cards in words: "Secret cards (known: its player left):
// shareholder magic; chaos cards Compound Interest, Margin Call (discarded)".
func knownWords(k *knownState, t teller) string {
	var ws []string
	if len(k.Shareholders) > 0 {
		var ts []string
		for _, s := range k.Shareholders {
			ts = append(ts, t.typeName(s))
		}
		ws = append(ws, t.plural(len(k.Shareholders), "known.shareholders", "types", t.joinAnd(ts)))
	}
	if len(k.Hand) > 0 {
		var cs []string
		for _, c := range k.Hand {
			w := c.Name
			switch {
			case c.Discarded:
				w += " (" + t.say("chaos.discarded") + ")"
			case c.Played:
				w += " (" + t.say("chaos.played") + ")"
			}
			cs = append(cs, w)
		}
		ws = append(ws, t.say("known.chaos", "cards", strings.Join(cs, ", ")))
	}
	return t.say("known.secret", "mark", t.say("mark.known"), "cards", strings.Join(ws, "; "))
}

// knownMark marks, in English, the secret cards of a seat whose player left (mark.known).
const knownMark = "known: its player left"
