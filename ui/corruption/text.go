package corruption

import (
	"fmt"
	"strings"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/ui"
)

// The terminal: one compact screen a decision. The board a line a place (the bodies' Swiss
// accounts and their contracts, with their cards), the scores and the hand, then the decision
// with its legal choices, the cards that may go to the same places on one line, and an
// example to type.

// Show draws the board as seat sees it, then the decision due with its legal choices and an
// example.
func (b Board) Show(g engine.Game, seat int, names []string) string {
	v, ok := view(g, seat)
	if !ok {
		return b.say("text.notstarted") + "\n"
	}
	d := b.buildDecision(v, names)
	return b.drawBoard(v, g.(*rules.Game).State(), names) + d.Prompt + "\n" + b.choicesText(d, true)
}

// Choices lists the move syntax and the legal choices of the decision due.
func (b Board) Choices(g engine.Game, seat int, names []string) string {
	moves := b.say("text.moves", "syntax", b.say("syntax")) + "\n"
	v, ok := view(g, seat)
	if !ok {
		return moves
	}
	return moves + b.choicesText(b.buildDecision(v, names), false)
}

// choicesText lists the legal choices in the typed syntax, with an example.
func (b Board) choicesText(d *Decision, example bool) string {
	var w strings.Builder
	ex := ""
	switch d.Kind {
	case "faceup":
		w.WriteString(b.say("text.faceup", "kw", b.say("kw.faceup")) + "\n")
		ex = b.say("kw.faceup") + " 1"
	case "place":
		// The cards that go to the same places, on one line.
		var order []string
		same := map[string][]string{}
		for _, c := range d.Cards {
			if len(c.Spots) == 0 {
				continue
			}
			k := strings.Join(c.Spots, " ")
			if same[k] == nil {
				order = append(order, k)
			}
			same[k] = append(same[k], c.Card)
			if ex == "" {
				ex = c.Card + " " + c.Spots[0]
			}
		}
		for _, k := range order {
			fmt.Fprintf(&w, "  %s → %s\n", strings.Join(same[k], " "), k)
		}
		if d.CanPeek {
			w.WriteString(b.say("text.peek", "kw", b.say("kw.peek"), "list", intsText(d.Peekable)) + "\n")
		}
	case "assign":
		ids := make([]string, len(d.Assign))
		for i, c := range d.Assign {
			ids[i] = c.ID
		}
		w.WriteString(b.say("text.assign", "kw", b.say("kw.assign"), "list", strings.Join(ids, " ")) + "\n")
		ex = b.say("kw.assign") + " " + ids[0]
	case "kill":
		w.WriteString(b.say("text.kill", "kw", b.say("kw.kill"), "list", intsText(d.Targets)) + "\n")
		ex = fmt.Sprintf("%s %d", b.say("kw.kill"), d.Targets[0])
	case "remove":
		w.WriteString(b.say("text.remove", "kw", b.say("kw.remove"), "pass", b.say("kw.pass"), "list", intsText(d.Targets)) + "\n")
		ex = b.say("kw.pass")
	}
	if ex != "" && example {
		w.WriteString(b.say("text.example", "move", ex) + "\n")
	}
	return w.String()
}

func intsText(is []int) string {
	ws := make([]string, len(is))
	for i, n := range is {
		ws[i] = fmt.Sprint(n)
	}
	return strings.Join(ws, " ")
}

// drawBoard draws the person's view as text: the round and its face-up rule, a line for each
// body's Swiss account and for each contract with the cards on it, the scores and the hand;
// an open seat's face-down cards as the node knows them (s, openCards).
func (b Board) drawBoard(v rules.View, s *rules.State, names []string) string {
	g := b.buildGame(v, names)
	b.openCards(g, s)
	var w strings.Builder
	w.WriteString(b.say("text.round", "n", g.Round, "of", rules.Rounds, "phase", b.say("phase."+g.Phase), "rule", g.FaceUpRule) + "\n")
	on := map[string][]cardState{}
	for _, c := range g.Cards {
		on[c.Spot] = append(on[c.Spot], c)
	}
	width := 12
	for _, body := range g.Bodies {
		for _, c := range body.Contracts {
			width = max(width, len(c.ID))
		}
	}
	for _, body := range g.Bodies {
		fmt.Fprintf(&w, "%s · %s (%s): %s\n", body.Name, b.say("text.swiss"), body.Swiss, b.cardsText(on[body.Swiss], v, names))
		for _, c := range body.Contracts {
			mark := ""
			if c.Deferred {
				mark += " " + b.say("text.deferred")
			}
			if c.Cancelled {
				mark += " " + b.say("text.cancelled")
			}
			name := ""
			if squash(fold(c.Name)) != c.ID {
				name = c.Name + " "
			}
			fmt.Fprintf(&w, "  %-*s %s%s%s: %s\n", width, c.ID, name, b.money(c.Value), mark, b.cardsText(on[c.ID], v, names))
		}
	}
	var scores []string
	for seat := 0; seat < v.Config().Players; seat++ {
		val, n := v.Score(seat)
		who := ui.SeatName(names, seat)
		if seat == v.Seat() {
			who = b.say("text.you", "name", who)
		}
		s := who + " " + b.money(val)
		if n > 0 {
			s += fmt.Sprintf(" (%d)", n)
		}
		scores = append(scores, s)
	}
	w.WriteString(b.say("text.scores", "list", strings.Join(scores, " · ")) + "\n")
	hand := make([]string, len(g.Hand))
	for i, c := range g.Hand {
		hand[i] = c.Card
	}
	w.WriteString(b.say("text.hand", "list", strings.Join(hand, " ")) + "\n")
	return w.String()
}

// cardsText is the cards on one place: "#3 bob ? · #7 you $4,000 (face down)".
func (b Board) cardsText(cs []cardState, v rules.View, names []string) string {
	ws := make([]string, len(cs))
	for i, c := range cs {
		what := "?"
		if c.Card != "" {
			what = c.Label
		}
		var marks []string
		switch {
		case c.Card != "" && !c.Revealed && c.Mine:
			marks = append(marks, b.say("mark.down"))
		case c.Card != "" && !c.Revealed && c.Peeked:
			marks = append(marks, b.say("mark.peeked"))
		case c.Card != "" && !c.Revealed && c.Known:
			marks = append(marks, b.say("mark.known"))
		}
		if c.Dead {
			marks = append(marks, b.say("mark.killed"))
		}
		if c.Removed {
			marks = append(marks, b.say("mark.removed"))
		}
		if c.Assigned != "" {
			marks = append(marks, "→ "+c.Assigned)
		}
		if len(marks) > 0 {
			what += " (" + strings.Join(marks, ", ") + ")"
		}
		ws[i] = fmt.Sprintf("#%d %s %s", c.Index, b.who(names, c.Seat, v.Seat()), what)
	}
	if len(ws) == 0 {
		return "—"
	}
	return strings.Join(ws, " · ")
}
