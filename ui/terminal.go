package ui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"corruption/engine/corruption"
	"corruption/protocol"
)

// Terminal is the plain-text front end: it tells the game as it goes, shows the person's view
// and reads each decision from a line of input (see MoveSyntax), asking again after a mistake.
// It is a protocol.Player. The zero value is not usable: use NewTerminal.
type Terminal struct {
	out   io.Writer
	lines chan string // lines read from the input; closed at its end
	rerr  error       // why the input ended (read once lines is closed)
	done  chan struct{}
	once  sync.Once

	mu    sync.Mutex // guards out and what follows
	names []string
	seat  int
	round int
	noted map[string]bool
}

// NewTerminal reads moves from in and writes to out.
func NewTerminal(in io.Reader, out io.Writer) *Terminal {
	t := &Terminal{out: out, lines: make(chan string), done: make(chan struct{}), seat: -1, noted: map[string]bool{}}
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			select {
			case t.lines <- sc.Text():
			case <-t.done:
				return
			}
		}
		t.rerr = sc.Err()
		if t.rerr == nil {
			t.rerr = io.EOF
		}
		close(t.lines)
	}()
	return t
}

// Close stops reading the input (a read under way still ends only with the input).
func (t *Terminal) Close() { t.once.Do(func() { close(t.done) }) }

func (t *Terminal) printf(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.out, format, args...)
}

// Update takes note of the players' names and tells a verdict.
func (t *Terminal) Update(st protocol.Status) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st.Names != nil && t.names == nil {
		t.names, t.seat = st.Names, st.Seat
		fmt.Fprintf(t.out, "The table %q formed. You are seat %d; players: %s.\n", st.Table, st.Seat, strings.Join(st.Names, ", "))
	}
	if st.Verdict != nil && !t.noted["verdict"] {
		t.noted["verdict"] = true
		fmt.Fprintf(t.out, "!! %s\n", verdictText(st.Verdict, st.Names, st.Seat))
	}
}

// Event tells one event of the game.
func (t *Terminal) Event(e corruption.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e.Round != t.round {
		t.round = e.Round
		fmt.Fprintf(t.out, "\n== Round %d ==\n", e.Round)
	}
	fmt.Fprintf(t.out, "  %s\n", describe(e, t.names, t.seat))
}

// Finish tells how the table ended.
func (t *Terminal) Finish(r Result) {
	t.printf("%s\n", auditText(r))
}

// Decide shows the view and reads the person's move until it is a legal one.
func (t *Terminal) Decide(ctx context.Context, v corruption.View) (corruption.Move, error) {
	t.mu.Lock()
	names := t.names
	board := Board(v, names)
	t.mu.Unlock()
	d := buildDecision(Pending{View: v}, names)
	t.printf("\n%s\n%s\n%s", board, d.Prompt, choicesText(v, d))
	for {
		t.printf("> ")
		var line string
		select {
		case <-ctx.Done():
			return corruption.Move{}, ctx.Err()
		case l, ok := <-t.lines:
			if !ok {
				return corruption.Move{}, fmt.Errorf("the input ended: %w", t.rerr)
			}
			line = strings.TrimSpace(l)
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "help", "?":
			t.printf("Moves: %s\n%s", MoveSyntax, choicesText(v, d))
			continue
		case "show", "board":
			t.printf("%s\n%s", Board(v, names), choicesText(v, d))
			continue
		}
		m, err := ParseMove(line)
		if err == nil {
			m.Seat = v.Seat()
			err = Check(v, m)
		}
		if err != nil {
			if errors.Is(err, ErrNotAsked) {
				return corruption.Move{}, err
			}
			t.printf("error: %v\n", err)
			continue
		}
		return m, nil
	}
}

// choicesText lists the legal choices in the typed syntax, with an example.
func choicesText(v corruption.View, d *Decision) string {
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

// Board draws the person's view as text: the round, every body with its Swiss account and
// contracts and the cards on them, the scores and the hand.
func Board(v corruption.View, names []string) string {
	g := buildGame(v, names)
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d of %d, %s. %s.\n", g.Round, corruption.Rounds, g.Phase, g.FaceUpRule)
	on := map[string][]CardState{}
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
			fmt.Fprintf(&b, "  %-24s %s\n", fmt.Sprintf("%s $%s%s", c.ID, corruption.Money(c.Value), mark), cardsText(on[c.ID], names))
		}
	}
	var scores []string
	for seat := 0; seat < v.Config().Players; seat++ {
		val, n := v.Score(seat)
		me := ""
		if seat == v.Seat() {
			me = " (you)"
		}
		scores = append(scores, fmt.Sprintf("%s%s $%s (%d)", seatName(names, seat), me, corruption.Money(val), n))
	}
	fmt.Fprintf(&b, "Scores: %s\n", strings.Join(scores, ", "))
	hand := make([]string, len(g.Hand))
	for i, c := range g.Hand {
		hand[i] = c.Card
	}
	fmt.Fprintf(&b, "Your hand: %s\n", strings.Join(hand, " "))
	return b.String()
}

func cardsText(cs []CardState, names []string) string {
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
		ws[i] = fmt.Sprintf("#%d %s: %s", c.Index, seatName(names, c.Seat), what)
	}
	if len(ws) == 0 {
		return "-"
	}
	return strings.Join(ws, " | ")
}
