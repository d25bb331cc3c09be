package kingdoms

import (
	"fmt"
	"strings"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
)

// Show draws the board as seat sees it, then the decision due with its legal choices.
func (Board) Show(g engine.Game, seat int, names []string) string {
	kg, v, ok := view(g, seat)
	if !ok {
		return "The game has not started.\n"
	}
	s := drawBoard(kg, v, names)
	if asked(v) {
		d := buildDecision(v, names)
		s += "\n" + d.Prompt + "\n" + choicesText(d)
	}
	return s
}

// Choices lists the move syntax and the legal choices of the decision due.
func (Board) Choices(g engine.Game, seat int, names []string) string {
	s := "Moves: " + moveSyntax + "\n" + chaosSyntax()
	_, v, ok := view(g, seat)
	if !ok || !asked(v) {
		return s
	}
	return s + choicesText(buildDecision(v, names))
}

// chaosSyntax says what each chaos effect takes after the card's id.
func chaosSyntax() string {
	var ws []string
	for _, e := range []rules.Effect{rules.Indulge, rules.Coup, rules.Scandal, rules.Lobby, rules.Earmark, rules.Shred, rules.Embezzle, rules.Ballot} {
		ws = append(ws, e.String()+" "+effectSyntax[e])
	}
	return "A chaos card's arguments, by its effect: " + strings.Join(ws, "; ") + "; the others none.\n"
}

// maxShown is how many moves of one kind (and one favor, leader or card) the terminal lists.
const maxShown = 6

// choicesText lists the legal choices in the typed syntax, grouped by kind and by what they
// name, with an example.
func choicesText(d *Decision) string {
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
			more = fmt.Sprintf(" | ... (%d more)", len(shown)-maxShown)
			shown = shown[:maxShown]
		}
		fmt.Fprintf(&b, "  %s%s\n", strings.Join(shown, " | "), more)
	}
	if len(d.Choices) > 0 {
		fmt.Fprintf(&b, "  for example: %s\n", d.Choices[0].Text)
	}
	return b.String()
}

// drawBoard draws the person's view as text, with an open seat's secret cards as the person's
// node kg knows them (openCards).
func drawBoard(kg *rules.Game, v rules.View, names []string) string {
	g := buildGame(v, names)
	t := teller{names, v.Seat}
	var b strings.Builder
	fmt.Fprintf(&b, "Corrupted Kingdoms, %s. %s.\n", g.RulesText, g.Next.Text)
	if g.Ending != "" {
		fmt.Fprintf(&b, "The game is ending: %s.\n", g.Ending)
	}
	ctl := func(c int) string {
		if c < 0 {
			return "-"
		}
		return t.who(c)
	}
	leader := func(l leaderState) string {
		s := fmt.Sprintf("%s [%s %s; %s", l.ID, l.Cost[0], l.Cost[1], l.Heart)
		if l.Prefers != "" {
			s += "; likes " + l.Prefers
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
		fmt.Fprintf(&b, "%s, %s (likes %s): %s\n", k.Name, k.Monarch, k.Prefers, ctl(k.Allegiant))
		var ls []string
		for _, l := range k.Leaders {
			ls = append(ls, leader(l))
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(ls, ", "))
		for _, bill := range k.Bills {
			var fs []string
			for _, f := range bill.Favors {
				owner := t.who(f.Seat) + "'s"
				if f.Seat == v.Seat {
					owner = "yours"
				}
				fs = append(fs, f.Favor+" ("+owner+")")
			}
			what := "empty"
			if len(fs) > 0 {
				what = strings.Join(fs, ", ")
			}
			mark := ""
			if bill.Voting {
				mark = " (voting)"
			}
			fmt.Fprintf(&b, "  %s%s: %s\n", bill.ID, mark, what)
		}
	}
	var market []string
	for _, f := range g.Market {
		if f != nil {
			market = append(market, fmt.Sprintf("%s (%s %s)", f.ID, f.Minions[0], f.Minions[1]))
		}
	}
	fmt.Fprintf(&b, "Market: %s; favor deck %d, discarded %d\n", orNone(market), g.FavorDeck, g.FavorDiscard)
	var display []string
	for _, p := range g.Display {
		if p != nil {
			display = append(display, p.ID)
		}
	}
	fmt.Fprintf(&b, "Guilty pleasures on display: %s; deck %d\n", orNone(display), g.PleasureDeck)
	fmt.Fprintf(&b, "Supply: %d golems, %d goblins, %d devils, %d zombies\n", g.Supply.Golem, g.Supply.Goblin, g.Supply.Devil, g.Supply.Zombie)
	if g.Vote != nil {
		fmt.Fprintf(&b, "%s.\n", g.Vote.Text)
	}
	b.WriteString("Players:\n")
	for s := range v.Players {
		fs := seatFields(v, true, s)
		name := fmt.Sprintf("seat %d", s)
		if s < len(names) && names[s] != "" {
			name = names[s]
		}
		if s == v.Seat {
			name += " (you)"
		}
		var ps []string
		for _, p := range fs.Pleasures {
			ps = append(ps, p.ID)
		}
		fmt.Fprintf(&b, "  %s, %s: %s; pleasures %s; pile %d; leaders %s; score %d", name, fs.CorpName,
			minionWords(v.Seats[s].Minions), orNone(ps), fs.Pile, orNone(fs.Leaders), fs.Score)
		if v.Config.Chaos {
			fmt.Fprintf(&b, "; chaos cards left %d", fs.ChaosLeft)
		}
		b.WriteString("\n")
		if k := openCards(kg, v.Seat, s); k != nil {
			fmt.Fprintf(&b, "    %s\n", knownWords(k))
		}
	}
	if len(v.Shareholders) > 0 {
		fmt.Fprintf(&b, "Your shareholder %s: %s.", plural(len(v.Shareholders), "card", "cards"), typesWords(v.Shareholders))
	}
	if len(v.Hand) > 0 {
		fmt.Fprintf(&b, " Your chaos cards: %s.", handWords(v))
	}
	b.WriteString("\n")
	return b.String()
}

func orNone(ws []string) string {
	if len(ws) == 0 {
		return "none"
	}
	return strings.Join(ws, ", ")
}

// knownWords is an open seat's secret cards in words: "Secret cards (known: its player left):
// shareholder magic; chaos cards Compound Interest, Margin Call (discarded)".
func knownWords(k *knownState) string {
	var ws []string
	if len(k.Shareholders) > 0 {
		ws = append(ws, plural(len(k.Shareholders), "shareholder ", "shareholders ")+joinAnd(k.Shareholders))
	}
	if len(k.Hand) > 0 {
		var cs []string
		for _, c := range k.Hand {
			w := c.Name
			switch {
			case c.Discarded:
				w += " (discarded)"
			case c.Played:
				w += " (played)"
			}
			cs = append(cs, w)
		}
		ws = append(ws, "chaos cards "+strings.Join(cs, ", "))
	}
	return "Secret cards (" + knownMark + "): " + strings.Join(ws, "; ")
}

// knownMark marks the secret cards of a seat whose player left, which every node knows.
const knownMark = "known: its player left"
