package corruptia

import (
	"fmt"
	"slices"
	"strings"

	"corruption/engine"
	rules "corruption/engine/corruptia"
)

// The terminal's board, in the board's language. Moves are typed with English words and ids
// (a bill's id, a cell's ROW,COL: handles to type, each shown beside the bill's title or the
// place in words).

// Show draws the game as seat sees it, then the decision due with its legal choices and an
// example.
func (b Board) Show(g engine.Game, seat int, names []string) string {
	v, ok := view(g, seat)
	if !ok {
		return b.say("text.notstarted") + "\n"
	}
	s := b.to(names, seat)
	out := s.drawTable(g.(*rules.Game), v)
	if d := s.buildDecision(v); d != nil {
		out += "\n" + d.Prompt + "\n" + s.choicesText(d)
	}
	return out
}

// Choices lists the move syntax and the legal choices of the decision due.
func (b Board) Choices(g engine.Game, seat int, names []string) string {
	out := b.say("text.moves", "syntax", moveSyntax) + "\n"
	if v, ok := view(g, seat); ok {
		s := b.to(names, seat)
		if d := s.buildDecision(v); d != nil {
			out += s.choicesText(d)
		}
	}
	return out
}

// choicesText lists the legal choices in the typed syntax, with an example.
func (s sp) choicesText(d *Decision) string {
	var b strings.Builder
	switch d.Kind {
	case "discard":
		fmt.Fprintf(&b, "  %s\n", s.say("text.discard", "bills", choiceBills(d.Bills)))
	case "propose", "negotiate":
		if d.CanAmend || (d.Kind == "propose" && !d.CanNoBill) { // with no bill to propose, no workers to list
			s.proposalChoicesText(&b, d)
		}
		if d.CanNoBill {
			fmt.Fprintf(&b, "  nobill: %s\n", s.say("text.nobill"))
		}
	case "swap":
		fmt.Fprintf(&b, "  %s\n", s.say("text.swap", "bills", choiceBills(d.Bills), "pile", refList(d.Take)))
	case "vote":
		var vs []string
		for _, v := range d.Votes {
			if v.Why == "" {
				vs = append(vs, v.Vote)
			}
		}
		fmt.Fprintf(&b, "  %s\n", s.say("text.vote", "votes", strings.Join(vs, ", ")))
	}
	if d.CanOffer {
		fmt.Fprintf(&b, "  offer: %s\n", s.say("text.offer"))
	}
	for _, c := range d.Blackmail {
		if c.Why == "" {
			fmt.Fprintf(&b, "  blackmail %d yes|no: %s\n", c.Target, s.say("text.blackmail", "card", c.Title, "who", c.Name))
		}
	}
	if d.CanCall {
		fmt.Fprintf(&b, "  call: %s\n", s.say("text.call", "n", d.AmendsLft))
	}
	if d.CanPass {
		b.WriteString("  pass\n")
	}
	if d.Example != "" {
		fmt.Fprintf(&b, "  %s\n", s.say("text.example", "move", d.Example))
	}
	return b.String()
}

func (s sp) proposalChoicesText(b *strings.Builder, d *Decision) {
	verb := "propose"
	if d.Kind == "negotiate" {
		verb = "amend"
	}
	var cells []string
	for _, c := range d.Bills {
		if len(c.Cells) == 0 {
			continue
		}
		fmt.Fprintf(b, "  %s %s (%s, %s; %s) %s %s\n", verb, c.Bill, c.Title, c.DeptName, s.say("text.budget", "budget", s.budget(c.Budget)),
			s.say("text.at"), strings.Join(c.Cells, " "))
		for _, k := range c.Cells {
			if !slices.Contains(cells, k) {
				cells = append(cells, k)
			}
		}
	}
	slices.Sort(cells)
	b.WriteString("  " + s.say("text.workers"))
	for _, e := range d.Employees {
		fmt.Fprintf(b, "; %s (%s)", e.Worker, e.Text)
	}
	b.WriteString("\n")
	for _, k := range cells {
		var ws []string
		for _, src := range d.Sources[k] {
			ws = append(ws, fmt.Sprintf("%s ×%d", src.Worker, src.Count))
		}
		if len(ws) == 0 {
			ws = []string{"-"}
		}
		place := ""
		for _, p := range d.Places {
			if p.Key == k {
				place = p.Place
			}
		}
		fmt.Fprintf(b, "    %-7s %s: %s\n", k, place, strings.Join(ws, ", "))
	}
}

func choiceBills(bs []billChoice) string {
	ws := make([]string, len(bs))
	for i, c := range bs {
		ws[i] = fmt.Sprintf("%s (%s)", c.Bill, c.Title)
	}
	return strings.Join(ws, ", ")
}

func refList(bs []billRef) string {
	if len(bs) == 0 {
		return "-"
	}
	ws := make([]string, len(bs))
	for i, c := range bs {
		ws[i] = fmt.Sprintf("%s (%s)", c.Bill, c.Title)
	}
	return strings.Join(ws, ", ")
}

// drawTable draws the person's view as text: the round and die, the brick wall, the values,
// the senators (with an open seat's hand as the person's node cg knows it, openHand), the
// proposal, the last vote, the pile and the hand.
func (s sp) drawTable(cg *rules.Game, v *rules.View) string {
	g := s.buildGame(v)
	var b strings.Builder
	if g.Round == 0 {
		b.WriteString(s.say("text.before", "who", s.name(g.First)))
	} else {
		b.WriteString(s.say("text.round", "n", g.Round, "of", g.Rounds, "who", s.name(g.First)))
	}
	if g.Active >= 0 {
		b.WriteString(" " + s.sayAs("text.turn", g.Active, "die", g.DieText))
	}
	fmt.Fprintf(&b, " %s.\n", g.Next.Text)
	b.WriteString(s.drawWall(g))
	var vals []string
	for _, d := range g.Values {
		vals = append(vals, fmt.Sprintf("%s %d", d.Name, d.Value))
	}
	fmt.Fprintf(&b, "%s\n", s.say("text.values", "list", strings.Join(vals, ", ")))
	b.WriteString(s.say("text.senators") + "\n")
	for seat := range v.Players {
		f := s.seatFields(v, seat)
		me := ""
		if seat == v.Seat {
			me = " (" + s.say("you") + ")"
		}
		var marks []string
		if f.First {
			marks = append(marks, s.say("text.token"))
		}
		if f.Offered > 0 {
			marks = append(marks, s.say("text.offered", "n", f.Offered))
		}
		if f.Pressed != "" {
			marks = append(marks, s.say("text.pressed", "vote", s.say("vote."+f.Pressed), "who", s.name(v.PressedBy[seat])))
		}
		if f.Vote != "" {
			marks = append(marks, s.say("text.lastvote", "vote", s.say("vote."+f.Vote)))
		}
		fmt.Fprintf(&b, "  %d %-12s %s  %s\n", seat, s.name(seat)+me,
			s.say("text.seat", "score", f.Score, "approval", f.Approval, "reserve", f.Reserve, "bills", f.Bills), strings.Join(marks, ", "))
		if k := s.openHand(cg, v, seat); k != nil {
			fmt.Fprintf(&b, "    %s\n", s.say("text.known", "who", s.name(seat), "mark", s.say("mark.known"), "bills", refList(k)))
		}
	}
	if p := g.Proposal; p != nil {
		ws := make([]string, len(p.Workers))
		for i, w := range p.Workers {
			ws[i] = w.Text
		}
		fmt.Fprintf(&b, "%s\n", s.say("text.proposal", "who", s.name(p.Seat), "bill", p.Bill, "title", p.Title, "dept", p.DeptName,
			"place", p.Place, "at", fmt.Sprintf("%d,%d", p.At[0], p.At[1]), "workers", strings.Join(ws, ", "), "n", p.AmendsLeft))
	}
	if lv := g.LastVote; lv != nil {
		ws := make([]string, len(lv.Votes))
		for seat, vt := range lv.VoteNames {
			ws[seat] = s.name(seat) + " " + vt
		}
		fmt.Fprintf(&b, "%s\n", s.say("text.votes", "title", lv.Title, "votes", strings.Join(ws, ", ")))
	}
	fmt.Fprintf(&b, "%s\n", s.say("text.pile", "pile", refList(g.Pile), "n", g.DeckLeft))
	var hand []string
	for _, h := range g.Hand {
		hand = append(hand, fmt.Sprintf("%s (%s, %s; %s)", h.Bill, h.Title, h.DeptName, s.say("text.budget", "budget", s.budget(h.Budget))))
	}
	if len(hand) == 0 {
		hand = []string{"-"}
	}
	fmt.Fprintf(&b, "%s\n", s.say("text.hand", "hand", strings.Join(hand, "; ")))
	if len(g.Holds) > 0 {
		var hs []string
		for _, h := range g.Holds {
			hs = append(hs, s.say("text.card", "card", h.Title, "who", s.name(h.Target)))
		}
		fmt.Fprintf(&b, "%s\n", s.say("text.cards", "list", strings.Join(hs, ", ")))
	}
	return b.String()
}

// The brick wall in text: a half card is halfW characters wide, a row boxH lines high; each
// bill is a box two half cards wide. The proposal under negotiation is drawn with dotted edges.
const (
	halfW = 7
	boxH  = 4
)

func (s sp) drawWall(g *gameState) string {
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
		for seat, n := range p.Employees {
			for range n {
				emp = append(emp, fmt.Sprint(seat))
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
		bx.lines[1] = "?"
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
	fmt.Fprintf(&b, "%s\n", s.say("text.wall", "from", minR, "to", maxR))
	for _, line := range canvas {
		b.WriteString("  " + strings.TrimRight(string(line), " ") + "\n")
	}
	var titles []string
	for _, p := range g.Program {
		titles = append(titles, fmt.Sprintf("%s %s (%s)", p.Bill, p.Title, p.DeptName))
	}
	fmt.Fprintf(&b, "  %s\n", strings.Join(titles, "; "))
	return b.String()
}
