package kingdoms

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	rules "corruption/engine/kingdoms"
	"corruption/ui"
)

// TestTerminalPassAhead: at the terminal, "pass ahead on" has every answer to a steal or to the
// revealed votes passed without a line, AnswerDelay after the decision was first shown (the
// moment a typed answer leaves), with or without a playable card in hand; any other decision
// still reads a line; "pass ahead off" reads lines again; a bad value is refused with what was
// wrong; it speaks the terminal's language; Ctrl-C ends a pass that waits. The clock is fake:
// the test reads what the board waits for, and never waits.
func TestTerminalPassAhead(t *testing.T) {
	with, without := answers(t)
	var action asking // a decision that is no answer: an action
	play(t, tables[0], 7, func(g *rules.Game, seat int) {
		if action.g == nil && g.Next().Kind == rules.DecideAction {
			action = asking{g: g.Clone().(*rules.Game), seat: seat}
		}
	})
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	for name, a := range map[string][2]asking{"a playable card": {with[0], without[0]}, "no playable card": {without[0], with[0]}} {
		t.Run(name, func(t *testing.T) {
			calls := 0
			clock := &fakeClock{fire: make(chan time.Time)}
			close(clock.fire)
			tb := &TextBoard{After: clock.after, Now: func() time.Time { // each look at the clock, a second later
				calls++
				return t0.Add(time.Duration(calls) * time.Second)
			}}
			var out strings.Builder
			term := ui.NewTerminal(tb, strings.NewReader("pass ahead maybe\npass ahead on\n"), &out)
			defer term.Close()
			want := passAction(t, a[0])
			got, err := term.Decide(context.Background(), a[0].g, a[0].seat)
			if err != nil || string(got.Move) != string(want) {
				t.Fatalf("Decide = %x, %v; want the pass %x", got.Move, err, want)
			}
			if len(clock.asked) != 1 || clock.asked[0] != AnswerDelay-time.Second {
				t.Errorf("the pass waited %v, want %v (the delay counted from the decision shown)", clock.asked, AnswerDelay-time.Second)
			}
			// The next answer, with the other hand: no line left to read, and none needed.
			got, err = term.Decide(context.Background(), a[1].g, a[1].seat)
			if err != nil || string(got.Move) != string(passAction(t, a[1])) || len(clock.asked) != 2 || clock.asked[1] != clock.asked[0] {
				t.Errorf("the next answer: %x, %v, waits %v; want a pass after the same delay", got.Move, err, clock.asked)
			}
			// An action is no answer: the terminal reads a line (and the input has ended).
			if _, err := term.Decide(context.Background(), action.g, action.seat); !errors.Is(err, io.EOF) {
				t.Errorf("an action with pass ahead on: %v, want the input's end", err)
			}
			for _, w := range []string{"error: pass ahead maybe: want on or off", "Pass ahead is on", "Passed ahead"} {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the terminal does not say %q:\n%s", w, out.String())
				}
			}
			if n := strings.Count(out.String(), "Passed ahead"); n != 2 {
				t.Errorf("%d passes told, want 2", n)
			}
		})
	}
	t.Run("off, and in Spanish", func(t *testing.T) {
		clock := &fakeClock{fire: make(chan time.Time)}
		close(clock.fire)
		tb := &TextBoard{After: clock.after}
		var out strings.Builder
		term := ui.NewTerminal(tb, strings.NewReader("pasar siempre sí\npass ahead off\n"), &out)
		defer term.Close()
		term.SetLang("es")
		if _, err := term.Decide(context.Background(), with[0].g, with[0].seat); err != nil || len(clock.asked) != 1 {
			t.Fatalf("pasar siempre sí: %v, waits %v", err, clock.asked)
		}
		term.Decide(context.Background(), action.g, action.seat) // reads pass ahead off, then the input ends
		if _, err := term.Decide(context.Background(), without[0].g, without[0].seat); !errors.Is(err, io.EOF) || len(clock.asked) != 1 {
			t.Errorf("after pass ahead off an answer is passed (%v, waits %v), want a line read", err, clock.asked)
		}
		for _, w := range []string{"Pasar siempre está activado", "Pasaste por adelantado", "Pasar siempre está desactivado"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("the terminal does not say %q:\n%s", w, out.String())
			}
		}
	})
	t.Run("Ctrl-C while the pass waits", func(t *testing.T) {
		clock := &fakeClock{fire: make(chan time.Time)} // never fires
		tb := &TextBoard{After: clock.after}
		term := ui.NewTerminal(tb, strings.NewReader("pass ahead on\n"), io.Discard)
		defer term.Close()
		ctx, cancel := context.WithCancel(context.Background())
		term.Decide(ctx, action.g, action.seat) // reads the line, then the input ends
		cancel()
		if _, err := term.Decide(ctx, with[0].g, with[0].seat); !errors.Is(err, context.Canceled) || len(clock.asked) != 1 {
			t.Errorf("Decide with its context done: %v (waited %v), want context.Canceled", err, clock.asked)
		}
	})
	t.Run("help", func(t *testing.T) {
		var out strings.Builder
		term := ui.NewTerminal(&TextBoard{}, strings.NewReader("help\n"), &out)
		defer term.Close()
		term.Decide(context.Background(), action.g, action.seat)
		if !strings.Contains(out.String(), "Pass ahead: pass ahead on passes for you every answer a pass declines") {
			t.Errorf("help does not tell pass ahead:\n%s", out.String())
		}
	})
}

// passAction is a typed pass's action at a.
func passAction(t *testing.T, a asking) []byte {
	t.Helper()
	m, err := (Board{}).ParseText("pass")
	if err != nil {
		t.Fatal(err)
	}
	act, err := m.Action(a.g, a.seat)
	if err != nil {
		t.Fatal(err)
	}
	return act.Move
}
