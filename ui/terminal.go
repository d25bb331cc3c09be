package ui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"corruption/engine"
	"corruption/protocol"
)

// Terminal is the plain-text front end, the same for every game: it tells the game as it goes
// and, at each decision, shows what the game's TextBoard draws and reads the person's move from
// a line of input, asking again after a mistake. It is an engine.Player. The zero value is not
// usable: use NewTerminal.
type Terminal struct {
	board TextBoard
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

// NewTerminal reads moves from in and writes to out, with the game's text board b.
func NewTerminal(b TextBoard, in io.Reader, out io.Writer) *Terminal {
	t := &Terminal{board: b, out: out, lines: make(chan string), done: make(chan struct{}), seat: -1, noted: map[string]bool{}}
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

// Event tells one event of the game, under a heading at each new round.
func (t *Terminal) Event(e engine.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.board.Tell(e, t.names, t.seat)
	if l.Round != t.round && l.Round > 0 {
		t.round = l.Round
		fmt.Fprintf(t.out, "\n== Round %d ==\n", l.Round)
	}
	fmt.Fprintf(t.out, "  %s\n", l.Text)
}

// Finish tells how the table ended.
func (t *Terminal) Finish(r Result) {
	t.printf("%s\n", auditText(r))
}

// Decide shows the game and reads the person's move until it is a legal one. It ends with the
// input (an error wrapping io.EOF) or with ctx (Ctrl-C).
func (t *Terminal) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	t.mu.Lock()
	names := t.names
	t.mu.Unlock()
	t.printf("\n%s", t.board.Show(g, seat, names))
	for {
		t.printf("> ")
		var line string
		select {
		case <-ctx.Done():
			return engine.Action{}, ctx.Err()
		case l, ok := <-t.lines:
			if !ok {
				return engine.Action{}, fmt.Errorf("the input ended: %w", t.rerr)
			}
			line = strings.TrimSpace(l)
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "help", "?":
			t.printf("%s", t.board.Choices(g, seat, names))
			continue
		case "show", "board":
			t.printf("%s", t.board.Show(g, seat, names))
			continue
		}
		a, err := t.action(g, seat, line)
		if errors.Is(err, ErrNotAsked) {
			return engine.Action{}, err
		}
		if err != nil {
			t.printf("error: %v\n", err)
			continue
		}
		return a, nil
	}
}

// action reads a typed move and checks it.
func (t *Terminal) action(g engine.Game, seat int, line string) (engine.Action, error) {
	m, err := t.board.ParseText(line)
	if err != nil {
		return engine.Action{}, err
	}
	return m.Action(g, seat)
}
