package corruption

import (
	"fmt"
	"strings"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/ui"
)

// Show draws the board as seat sees it, then the decision due with its legal choices and an
// example.
func (Board) Show(g engine.Game, seat int, names []string) string {
	v, ok := view(g, seat)
	if !ok {
		return "The game has not started.\n"
	}
	d := buildDecision(v, names)
	return drawBoard(v, names) + "\n" + d.Prompt + "\n" + choicesText(d)
}

// Choices lists the move syntax and the legal choices of the decision due.
func (Board) Choices(g engine.Game, seat int, names []string) string {
	v, ok := view(g, seat)
	if !ok {
		return "Moves: " + moveSyntax + "\n"
	}
	return "Moves: " + moveSyntax + "\n" + choicesText(buildDecision(v, names))
}

// choicesText lists the legal choices in the typed syntax, with an example.
func choicesText(d *Decision) string {
	var b strings.Builder
	example := ""
	switch d.Kind {
	case "faceup":
		b.WriteString("  type faceup and the positions, e.g. faceup 1 3 (or faceup none)\n")
		example = "faceup 1"
	case "place":
		for _, c := range d.Cards {
			if len(c.Spots) == 0 {
				continue
			}
			fmt.Fprintf(&b, "  %-8s on %s\n", c.Card, strings.Join(c.Spots, " "))
			if example == "" {
				example = c.Card + " " + c.Spots[0]
			}
		}
		if d.CanPeek {
			fmt.Fprintf(&b, "  peek at one of: %s\n", intsText(d.Peekable))
		}
	case "assign":
		ids := make([]string, len(d.Assign))
		for i, c := range d.Assign {
			ids[i] = c.ID
		}
		fmt.Fprintf(&b, "  assign to one of: %s\n", strings.Join(ids, " "))
		example = "assign " + ids[0]
	case "kill":
		fmt.Fprintf(&b, "  kill one of: %s\n", intsText(d.Targets))
		example = fmt.Sprintf("kill %d", d.Targets[0])
	case "remove":
		fmt.Fprintf(&b, "  remove one of: %s, or pass\n", intsText(d.Targets))
		example = "pass"
	}
	if example != "" {
		fmt.Fprintf(&b, "  for example: %s\n", example)
	}
	return b.String()
}

func intsText(is []int) string {
	ws := make([]string, len(is))
	for i, n := range is {
		ws[i] = fmt.Sprint(n)
	}
	return strings.Join(ws, " ")
}

// drawBoard draws the person's view as text: the round, every body with its Swiss account and
// contracts and the cards on them, the scores and the hand.
func drawBoard(v rules.View, names []string) string {
	g := buildGame(v, names)
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d of %d, %s. %s.\n", g.Round, rules.Rounds, g.Phase, g.FaceUpRule)
	on := map[string][]cardState{}
	for _, c := range g.Cards {
		on[c.Spot] = append(on[c.Spot], c)
	}
	for _, body := range g.Bodies {
		fmt.Fprintf(&b, "%s\n", body.Name)
		fmt.Fprintf(&b, "  %-24s %s\n", body.Swiss, cardsText(on[body.Swiss], names))
		for _, c := range body.Contracts {
			mark := ""
			if c.Deferred {
				mark = " deferred"
			}
			if c.Cancelled {
				mark += " cancelled"
			}
			fmt.Fprintf(&b, "  %-24s %s\n", fmt.Sprintf("%s $%s%s", c.ID, rules.Money(c.Value), mark), cardsText(on[c.ID], names))
		}
	}
	var scores []string
	for seat := 0; seat < v.Config().Players; seat++ {
		val, n := v.Score(seat)
		me := ""
		if seat == v.Seat() {
			me = " (you)"
		}
		scores = append(scores, fmt.Sprintf("%s%s $%s (%d)", ui.SeatName(names, seat), me, rules.Money(val), n))
	}
	fmt.Fprintf(&b, "Scores: %s\n", strings.Join(scores, ", "))
	hand := make([]string, len(g.Hand))
	for i, c := range g.Hand {
		hand[i] = c.Card
	}
	fmt.Fprintf(&b, "Your hand: %s\n", strings.Join(hand, " "))
	return b.String()
}

func cardsText(cs []cardState, names []string) string {
	ws := make([]string, len(cs))
	for i, c := range cs {
		what := c.Card
		switch {
		case what == "":
			what = "face down"
		case !c.Revealed && c.Mine:
			what += ", face down"
		case !c.Revealed && c.Peeked:
			what += ", peeked"
		}
		if c.Dead {
			what += ", killed"
		}
		if c.Removed {
			what += ", removed"
		}
		if c.Assigned != "" {
			what += " -> " + c.Assigned
		}
		ws[i] = fmt.Sprintf("#%d %s: %s", c.Index, ui.SeatName(names, c.Seat), what)
	}
	if len(ws) == 0 {
		return "-"
	}
	return strings.Join(ws, " | ")
}
