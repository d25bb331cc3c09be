package corruptia

import (
	"fmt"
	"slices"
	"strings"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/ui"
)

// Show draws the game as seat sees it, then the decision due with its legal choices and an
// example.
func (Board) Show(g engine.Game, seat int, names []string) string {
	v, ok := view(g, seat)
	if !ok {
		return "The game has not started.\n"
	}
	out := drawTable(g.(*rules.Game), v, names)
	if d := buildDecision(v, names); d != nil {
		out += "\n" + d.Prompt + "\n" + choicesText(d)
	}
	return out
}

// Choices lists the move syntax and the legal choices of the decision due.
func (Board) Choices(g engine.Game, seat int, names []string) string {
	out := "Moves: " + moveSyntax + "\n"
	if v, ok := view(g, seat); ok {
		if d := buildDecision(v, names); d != nil {
			out += choicesText(d)
		}
	}
	return out
}

// choicesText lists the legal choices in the typed syntax, with an example.
func choicesText(d *Decision) string {
	var b strings.Builder
	switch d.Kind {
	case "discard":
		fmt.Fprintf(&b, "  discard one of: %s\n", choiceBills(d.Bills))
	case "propose", "negotiate":
		if d.CanAmend || d.Kind == "propose" {
			proposalChoicesText(&b, d)
		}
		if d.CanNoBill {
			b.WriteString("  nobill: you have no bill you may propose\n")
		}
	case "swap":
		fmt.Fprintf(&b, "  swap one of your bills (%s) for one of the pile (%s), or pass\n", choiceBills(d.Bills), refList(d.Take))
	case "vote":
		fmt.Fprintf(&b, "  vote: %s\n", strings.Join(d.Votes, ", "))
	}
	if d.CanOffer {
		b.WriteString("  offer: offer one of your employees for this proposal\n")
	}
	for _, c := range d.Blackmail {
		fmt.Fprintf(&b, "  blackmail %d yes|no: play %q on %s\n", c.Target, c.Title, c.Name)
	}
	if d.CanCall {
		fmt.Fprintf(&b, "  call: put the proposal to the vote (%d amendments left)\n", d.AmendsLft)
	}
	if d.CanPass {
		b.WriteString("  pass\n")
	}
	if d.Example != "" {
		fmt.Fprintf(&b, "  for example: %s\n", d.Example)
	}
	return b.String()
}

func proposalChoicesText(b *strings.Builder, d *Decision) {
	verb := "propose"
	if d.Kind == "negotiate" {
		verb = "amend"
	}
	var cells []string
	for _, c := range d.Bills {
		if len(c.Cells) == 0 {
			continue
		}
		fmt.Fprintf(b, "  %s %s (%s, %s, budget %s) at %s\n", verb, c.Bill, c.Title, c.Dept, budgetText(c.Budget), strings.Join(c.Cells, " "))
		for _, k := range c.Cells {
			if !slices.Contains(cells, k) {
				cells = append(cells, k)
			}
		}
	}
	slices.Sort(cells)
	b.WriteString("  workers: the officials that may move to each cell")
	for _, e := range d.Employees {
		fmt.Fprintf(b, "; %s (%d, %s)", e.Worker, e.Count, e.Name)
	}
	b.WriteString("\n")
	for _, k := range cells {
		var ws []string
		for _, s := range d.Sources[k] {
			ws = append(ws, fmt.Sprintf("%s ×%d", s.Worker, s.Count))
		}
		if len(ws) == 0 {
			ws = []string{"none"}
		}
		fmt.Fprintf(b, "    %-7s %s\n", k+":", strings.Join(ws, ", "))
	}
}

func choiceBills(bs []billChoice) string {
	ws := make([]string, len(bs))
	for i, c := range bs {
		ws[i] = c.Bill
	}
	return strings.Join(ws, " ")
}

func refList(bs []billRef) string {
	if len(bs) == 0 {
		return "none"
	}
	ws := make([]string, len(bs))
	for i, c := range bs {
		ws[i] = c.Bill
	}
	return strings.Join(ws, " ")
}

func budgetText(b [3]int) string { return fmt.Sprintf("$%d $%d $%d", b[0], b[1], b[2]) }

// drawTable draws the person's view as text: the round and die, the brick wall, the values,
// the senators (with an open seat's hand as the person's node cg knows it, openHand), the
// proposal, the last vote, the pile and the hand.
func drawTable(cg *rules.Game, v *rules.View, names []string) string {
	g := buildGame(v, names)
	var b strings.Builder
	if g.Round == 0 {
		fmt.Fprintf(&b, "Before round 1. Presidential token: %s.", ui.SeatName(names, g.First))
	} else {
		fmt.Fprintf(&b, "Round %d of %d. Presidential token: %s.", g.Round, g.Rounds, ui.SeatName(names, g.First))
	}
	if g.Active >= 0 {
		fmt.Fprintf(&b, " %s turn; the people's die: %s.", capital(teller{names, v.Seat}.whose(g.Active)), orNone(g.Die))
	}
	fmt.Fprintf(&b, " %s.\n", g.Next.Text)
	b.WriteString(drawWall(g))
	var vals []string
	for _, d := range g.Values {
		vals = append(vals, fmt.Sprintf("%s %d", d.Dept, d.Value))
	}
	fmt.Fprintf(&b, "Departments: %s\n", strings.Join(vals, ", "))
	b.WriteString("Senators:\n")
	for s := range v.Players {
		f := seatFields(v, s)
		me := ""
		if s == v.Seat {
			me = " (you)"
		}
		var marks []string
		if f.First {
			marks = append(marks, "presidential token")
		}
		if f.Offered > 0 {
			marks = append(marks, fmt.Sprintf("offered %d", f.Offered))
		}
		if f.Pressed != "" {
			marks = append(marks, fmt.Sprintf("blackmailed to vote %s by %s", f.Pressed, ui.SeatName(names, v.PressedBy[s])))
		}
		if f.Vote != "" {
			marks = append(marks, "last vote: "+f.Vote)
		}
		fmt.Fprintf(&b, "  %d %-12s %3d points  %2d approval  %d employees  %d bills  %s\n", s, ui.SeatName(names, s)+me, f.Score,
			f.Approval, f.Reserve, f.Bills, strings.Join(marks, ", "))
		if k := openHand(cg, v, s); k != nil {
			fmt.Fprintf(&b, "    %s hand (%s): %s\n", teller{names, v.Seat}.whose(s), knownMark, refList(k))
		}
	}
	if p := g.Proposal; p != nil {
		ws := make([]string, len(p.Workers))
		for i, w := range p.Workers {
			ws[i] = w.Text
		}
		fmt.Fprintf(&b, "Proposal: %s proposes %s (%s, %s) at %d,%d with %s; %d amendments left.\n", ui.SeatName(names, p.Seat),
			p.Bill, p.Title, p.Dept, p.At[0], p.At[1], strings.Join(ws, ", "), p.AmendsLeft)
	}
	if lv := g.LastVote; lv != nil {
		ws := make([]string, len(lv.Votes))
		for s, vt := range lv.Votes {
			ws[s] = ui.SeatName(names, s) + " " + vt
		}
		fmt.Fprintf(&b, "Last vote, on %s: %s.\n", lv.Bill, strings.Join(ws, ", "))
	}
	fmt.Fprintf(&b, "Discard pile: %s. Bills left to deal: %d.\n", refList(g.Pile), g.DeckLeft)
	var hand []string
	for _, h := range g.Hand {
		hand = append(hand, fmt.Sprintf("%s (%s, %s, budget %s)", h.Bill, h.Title, h.Dept, budgetText(h.Budget)))
	}
	if len(hand) == 0 {
		hand = []string{"empty"}
	}
	fmt.Fprintf(&b, "Your hand: %s\n", strings.Join(hand, "; "))
	if len(g.Holds) > 0 {
		var hs []string
		for _, h := range g.Holds {
			hs = append(hs, fmt.Sprintf("%q on %s", h.Title, ui.SeatName(names, h.Target)))
		}
		fmt.Fprintf(&b, "Your blackmail cards: %s\n", strings.Join(hs, ", "))
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "not rolled yet"
	}
	return s
}

// The brick wall in text: a half card is halfW characters wide, a row boxH lines high; each
// bill is a box two half cards wide. The proposal under negotiation is drawn with dotted edges.
const (
	halfW = 7
	boxH  = 4
)

func drawWall(g *gameState) string {
	type box struct {
		at    [2]int
		lines [boxH - 1]string
		edge  [2]byte // horizontal, vertical
	}
	var boxes []box
	for _, p := range g.Program {
		bx := box{at: p.At, edge: [2]byte{'-', '|'}}
		bx.lines[0] = fmt.Sprintf("%s %d%d%d", p.Bill, p.Budget[0], p.Budget[1], p.Budget[2])
		bx.lines[1] = fmt.Sprintf("$ %d.%d.%d", p.Officials[0], p.Officials[1], p.Officials[2])
		var emp []string
		for s, n := range p.Employees {
			for range n {
				emp = append(emp, fmt.Sprint(s))
			}
		}
		if len(emp) > 0 {
			bx.lines[2] = "e " + strings.Join(emp, ",")
		}
		if p.Interview != [3]int{} {
			bx.lines[2] = fmt.Sprintf("> %d.%d.%d", p.Interview[0], p.Interview[1], p.Interview[2])
		}
		boxes = append(boxes, bx)
	}
	if p := g.Proposal; p != nil {
		bx := box{at: p.At, edge: [2]byte{'.', ':'}}
		bx.lines[0] = fmt.Sprintf("%s %d%d%d", p.Bill, p.Budget[0], p.Budget[1], p.Budget[2])
		bx.lines[1] = "proposed"
		boxes = append(boxes, bx)
	}
	if len(boxes) == 0 {
		return ""
	}
	minR, maxR, minC, maxC := boxes[0].at[0], boxes[0].at[0], boxes[0].at[1], boxes[0].at[1]
	for _, bx := range boxes {
		minR, maxR = min(minR, bx.at[0]), max(maxR, bx.at[0])
		minC, maxC = min(minC, bx.at[1]), max(maxC, bx.at[1])
	}
	width := (maxC-minC+2)*halfW + 1
	height := (maxR-minR+1)*boxH + 1
	canvas := make([][]byte, height)
	for i := range canvas {
		canvas[i] = []byte(strings.Repeat(" ", width))
	}
	for _, bx := range boxes {
		x, y := (bx.at[1]-minC)*halfW, (bx.at[0]-minR)*boxH
		w := 2 * halfW
		for i := 0; i <= w; i++ {
			canvas[y][x+i], canvas[y+boxH][x+i] = bx.edge[0], bx.edge[0]
		}
		for j := 1; j < boxH; j++ {
			canvas[y+j][x], canvas[y+j][x+w] = bx.edge[1], bx.edge[1]
			copy(canvas[y+j][x+1:x+w], fmt.Sprintf("%-*.*s", w-1, w-1, bx.lines[j-1]))
		}
		for _, c := range [][2]int{{y, x}, {y, x + w}, {y + boxH, x}, {y + boxH, x + w}} {
			canvas[c[0]][c[1]] = '+'
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The program (rows %d to %d; each bill: its id and budget, $ its officials by income $1.$2.$3, e its employees by senator, > those in the interview zone):\n", minR, maxR)
	for _, line := range canvas {
		b.WriteString("  " + strings.TrimRight(string(line), " ") + "\n")
	}
	return b.String()
}

// knownMark marks the hand of a seat whose player left, which every node knows.
const knownMark = "known: its player left"
