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
	lang  string
	out   io.Writer
	lines chan string // lines read from the input; closed at its end
	rerr  error       // why the input ended (read once lines is closed)
	done  chan struct{}
	once  sync.Once

	mu     sync.Mutex              // guards out and what follows
	chat   func(text string) error // says a line in the table's chat (nil: the game has none)
	names  []string                // the players by seat, as ShownNames shows them
	roster []int                   // by seat, the player's place in the genesis roster
	seat   int
	round  int
	noted  map[string]bool
	ahead  bool // pass ahead is set (passahead.go)

	pause     func(agree bool) error // answers a pause of the table (nil: none; pause.go)
	pauseSaid string                 // the last line told about the pause

	escrow bool // the table escrows: the others play on when a player leaves (depart.go)
}

// NewTerminal reads moves from in and writes to out, with the game's text board b. Whatever
// it writes holds no control, format or bidi character but line breaks, tabs and the isolates
// around names (names.go).
func NewTerminal(b TextBoard, in io.Reader, out io.Writer) *Terminal {
	t := &Terminal{board: b, lang: Languages[0], out: safeWriter{out}, lines: make(chan string), done: make(chan struct{}), seat: -1, noted: map[string]bool{}}
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

// SetLang has the terminal, and its board when it is a Localizer, speak lang (one of
// Languages; see LangFromEnv). Call it before the game.
func (t *Terminal) SetLang(lang string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lang = Lang(lang)
	t.board = Localize(t.board, t.lang)
}

func (t *Terminal) say(key string, args ...any) string { return shellWords.Say(t.lang, key, args...) }

// Close stops reading the input (a read under way still ends only with the input).
func (t *Terminal) Close() { t.once.Do(func() { close(t.done) }) }

func (t *Terminal) printf(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.out, format, args...)
}

// Update takes note of the players' names and tells a verdict. Names are shown as ShownNames
// shows them, with their seats.
func (t *Terminal) Update(raw protocol.Status) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := *shownStatus(t.lang, &raw)
	if st.Names != nil && st.State != nil && !t.noted["formed"] { // the order of play is drawn by then
		t.noted["formed"] = true
		players := make([]string, len(st.Names))
		for i := range st.Names {
			players[i] = st.Names[i]
			if i == st.Seat {
				players[i] = t.say("term.you", "name", players[i])
			}
		}
		fmt.Fprintln(t.out, t.say("term.formed", "table", Isolate(st.Table), "players", strings.Join(players, ", ")))
	}
	if st.Names != nil {
		t.names, t.roster, t.seat = st.Names, st.Roster, st.Seat
	}
	if st.Verdict != nil && !t.noted["verdict"] {
		t.noted["verdict"] = true
		fmt.Fprintf(t.out, "!! %s\n", verdictText(t.lang, st.Verdict, st.Names, st.Seat))
	}
	t.tellPause(st)
	if st.Names != nil {
		t.escrow = st.Escrow
	}
	t.tellDepart(st)
}

// Event tells one event of the game, under a heading at each new round.
func (t *Terminal) Event(e engine.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.board.Tell(e, t.names, t.seat)
	if l.Round != t.round && l.Round > 0 {
		t.round = l.Round
		fmt.Fprintf(t.out, "\n== %s ==\n", t.say("term.round", "n", l.Round))
	}
	fmt.Fprintf(t.out, "  %s\n", l.Text)
}

// Finish tells how the table ended, in plain words (a word on Ctrl-C when the person stopped
// it), and the audit of the log.
func (t *Terminal) Finish(r Result) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r.escrow = t.escrow
	status, headline := ending(t.lang, &r, t.names, t.seat)
	if status != "finished" || r.Audit == nil {
		fmt.Fprintf(t.out, "\n%s\n", headline)
	}
	if status == "paused" {
		fmt.Fprintf(t.out, "%s\n", resumeText(t.lang, r))
		return
	}
	if status == "stopped" {
		return
	}
	fmt.Fprintf(t.out, "%s\n", auditText(t.lang, r))
}

// SetChat lets the person speak in the table's chat: a line "say TEXT" (in the terminal's
// language: "di", "dis") at any decision goes to say, and the move is asked again.
func (t *Terminal) SetChat(say func(text string) error) {
	t.mu.Lock()
	t.chat = say
	t.mu.Unlock()
}

// chatLine returns the text of a line that speaks in the chat ("say TEXT"), if it is one.
func (t *Terminal) chatLine(line string) (string, bool) {
	for _, cmd := range []string{"say", t.say("term.cmd.say")} {
		if len(line) > len(cmd) && strings.EqualFold(line[:len(cmd)], cmd) && line[len(cmd)] == ' ' {
			return strings.TrimSpace(line[len(cmd):]), true
		}
	}
	return "", false
}

// Decide shows the game and reads the person's move until it is a legal one. It ends with the
// input (an error wrapping io.EOF) or with ctx (Ctrl-C).
func (t *Terminal) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	t.mu.Lock()
	names, board, chat := t.names, t.board, t.chat
	t.mu.Unlock()
	t.printf("\n%s", board.Show(g, seat, names))
	for {
		if a, done, err := t.autoPass(ctx, board, g, seat); done {
			return a, err
		}
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
		switch w := strings.ToLower(line); {
		case w == "":
			continue
		case w == "help" || w == "?" || w == t.say("term.cmd.help"):
			t.printf("%s%s\n", board.Choices(g, seat, names), t.say("term.commands"))
			if chat != nil {
				t.printf("%s\n", t.say("term.chat"))
			}
			if _, ok := board.(AutoPasser); ok {
				t.printf("%s\n", t.say("term.ahead"))
			}
			if t.pause != nil {
				t.printf("%s\n", t.say("term.pause"))
			}
			continue
		case w == "show" || w == "board" || w == t.say("term.cmd.show"):
			t.printf("%s", board.Show(g, seat, names))
			continue
		}
		if t.pauseLine(line) {
			continue
		}
		if t.passAheadLine(board, line) {
			continue
		}
		if text, ok := t.chatLine(line); ok && chat != nil {
			if err := chat(text); err != nil {
				t.printf("%s\n", t.say("term.error", "error", err))
			}
			continue
		}
		a, err := action(board, g, seat, line)
		if errors.Is(err, ErrNotAsked) {
			return engine.Action{}, err
		}
		if err != nil {
			t.printf("%s\n", t.say("term.error", "error", err))
			continue
		}
		return a, nil
	}
}

// action reads a typed move and checks it.
func action(board TextBoard, g engine.Game, seat int, line string) (engine.Action, error) {
	m, err := board.ParseText(line)
	if err != nil {
		return engine.Action{}, err
	}
	return m.Action(g, seat)
}
