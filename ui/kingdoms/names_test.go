package kingdoms

import (
	"context"
	"strings"
	"sync"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	rules "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/protocol"
	"corruption/ui"
)

// capture is seat me's player: at its decision number at (from 0) it keeps a copy of its game,
// then a bot decides.
type capture struct {
	bot   engine.Player
	me    int
	at    int
	n     *int
	mu    *sync.Mutex
	saved *engine.Game
}

func (p capture) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if seat == p.me {
		p.mu.Lock()
		if *p.n == p.at {
			*p.saved = g.Clone()
		}
		*p.n++
		p.mu.Unlock()
	}
	return p.bot.Decide(ctx, g, seat)
}

// TestTextNames: the text mode, in the shell's terminal, names the players as the shell gives
// them, escaped, isolated and with their seats: a name that would clear the terminal or turn
// a line around shows as text, and two players named alike are told apart by their seat.
func TestTextNames(t *testing.T) {
	names := []string{"\x1b[2J\x1b]0;owned\x07", "ann\u202e001\u202c", "ann", "ann"}
	const me = 3
	var events []engine.Event
	var saved engine.Game
	var mu sync.Mutex
	n := 0
	players := make([]engine.Player, len(names))
	for i := range players {
		b, err := bot.New("heuristic", uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		p := bot.Player(b)
		players[i] = capture{bot: p, me: me, at: 3, n: &n, mu: &mu, saved: &saved}
	}
	if _, err := enginetest.Play(rules.Rules{}, rules.EncodeConfig(rules.Advanced), players, 7, enginetest.Events(func(e engine.Event) { events = append(events, e) })); err != nil {
		t.Fatal(err)
	}
	if saved == nil || len(events) == 0 {
		t.Fatalf("the game gave no decision to keep (%d events)", len(events))
	}
	var out strings.Builder
	term := ui.NewTerminal(Board{}, strings.NewReader(""), &out)
	defer term.Close()
	term.Update(protocol.Status{Table: "t", Seat: me, Names: names, State: saved})
	for _, e := range events {
		term.Event(e)
	}
	term.Decide(context.Background(), saved, me) // shows the board, then the input ends
	text := out.String()
	for _, want := range []string{"\u2068\\x1b[2J\\x1b]0;owned\\x07\u2069 (seat 0)", "\u2068ann\\u202e001\\u202c\u2069 (seat 1)", "\u2068ann\u2069 (seat 2)", "\u2068ann\u2069 (seat 3)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, text)
		}
	}
	if strings.ContainsAny(text, "\x1b\u202e\u202c") {
		t.Errorf("the terminal prints a control or bidi character:\n%q", text)
	}
}
