package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/protocol"
)

// TestTerminal: the terminal shows what the text board draws, refuses what is not a legal move
// with the reason, takes the first legal one, tells events under a heading per round, and gives
// up when its input ends.
func TestTerminal(t *testing.T) {
	var out strings.Builder
	term := NewTerminal(pickBoard{}, strings.NewReader("help\nseven\n\n9\nshow\n2\n"), &out)
	defer term.Close()
	term.Update(protocol.Status{Table: "t", Seat: 0, Names: []string{"ann", "bob"}, State: newPick(2)})
	term.Event(engine.Event{Data: pickEvent{1, 3}})
	a, err := term.Decide(context.Background(), newPick(2, 1, 3), 0)
	if err != nil || string(a.Move) != "\x02" {
		t.Fatalf("Decide = %+v, %v; want the move 2", a, err)
	}
	for _, w := range []string{"The table \u2068t\u2069 formed. Players, in turn order: \u2068ann\u2069 (seat 0) (you), \u2068bob\u2069 (seat 1).", "== Round 1 ==", "  \u2068bob\u2069 (seat 1): 3",
		"Picks so far: [1 3]", "Moves: a number", "Ctrl-C leaves the table", `error: "seven" is not a number`, "error: 9 is more than 3"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the terminal does not show %q:\n%s", w, out.String())
		}
	}
	if n := strings.Count(out.String(), "Picks so far"); n != 2 {
		t.Errorf("the board is shown %d times, want 2 (at the decision and for show)", n)
	}
	if _, err := term.Decide(context.Background(), newPick(2, 1, 3), 0); !errors.Is(err, io.EOF) {
		t.Errorf("Decide at the end of the input: %v", err)
	}
}

// TestTerminalFinish: the end of the table in plain words, a word on Ctrl-C, in the terminal's
// language.
func TestTerminalFinish(t *testing.T) {
	for _, tt := range []struct {
		lang string
		r    Result
		want []string
	}{
		{"en", Result{Err: context.Canceled}, []string{"You left the table before the end of the game."}},
		{"es", Result{Err: context.Canceled}, []string{"Dejaste la mesa antes del final"}},
		{"en", Result{Outcome: &protocol.Outcome{Finished: true}, Audit: &protocol.Report{Valid: true, Outcome: protocol.Outcome{Entries: 9, Digest: "ab"}}}, []string{"Audit: the log checks. 9 entries"}},
		{"fr", Result{Outcome: &protocol.Outcome{Verdict: &protocol.Verdict{Kind: protocol.VerdictAbandoned, Seat: 1}}}, []string{"La partie a été abandonnée : \u2068bob\u2069 (place 1) ne répondait plus"}},
	} {
		var out strings.Builder
		term := NewTerminal(pickBoard{}, strings.NewReader(""), &out)
		term.SetLang(tt.lang)
		term.Update(protocol.Status{Table: "t", Seat: 0, Names: []string{"ann", "bob"}, State: newPick(2)})
		term.Finish(tt.r)
		term.Close()
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s %+v: %q, want %q", tt.lang, tt.r, out.String(), w)
			}
		}
		if strings.Contains(out.String(), "context canceled") {
			t.Errorf("%s: the terminal says %q", tt.lang, out.String())
		}
	}
}

// TestTerminalInterrupted: Ctrl-C (the context) ends a decision that waits for a line.
func TestTerminalInterrupted(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	term := NewTerminal(pickBoard{}, in, io.Discard)
	defer term.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := term.Decide(ctx, newPick(2), 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Decide with its context done: %v", err)
	}
	// Nothing asked of the seat: the board's Move says so, and Decide gives up at once.
	go w.Write([]byte("1\n"))
	if _, err := term.Decide(context.Background(), newPick(2), 1); !errors.Is(err, ErrNotAsked) {
		t.Errorf("Decide for a seat the game does not wait for: %v", err)
	}
}

// TestTerminalChat: "say TEXT" (or the language's word) at a decision goes to the table's chat,
// and the move is asked again; an error of the chat is told; help tells the command; without a
// chat, "say" is read as a move.
func TestTerminalChat(t *testing.T) {
	var out strings.Builder
	var said []string
	term := NewTerminal(pickBoard{}, strings.NewReader("help\nsay I will pick 2\nSAY  twice\nsay fail\ndis bonjour\n2\nsay late\n"), &out)
	defer term.Close()
	term.SetLang("fr")
	term.SetChat(func(text string) error {
		if text == "fail" {
			return errors.New("no table yet")
		}
		said = append(said, text)
		return nil
	})
	term.Update(protocol.Status{Table: "t", Seat: 0, Names: []string{"ann", "bob"}, State: newPick(2)})
	a, err := term.Decide(context.Background(), newPick(2), 0)
	if err != nil || string(a.Move) != "\x02" {
		t.Fatalf("Decide = %+v, %v; want the move 2", a, err)
	}
	if want := []string{"I will pick 2", "twice", "bonjour"}; strings.Join(said, "|") != strings.Join(want, "|") {
		t.Errorf("said %q, want %q", said, want)
	}
	for _, w := range []string{"dis TEXTE", "no table yet"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the terminal does not show %q:\n%s", w, out.String())
		}
	}

	// Without a chat, a line "say ..." is a move like any other (and refused as one).
	out.Reset()
	plain := NewTerminal(pickBoard{}, strings.NewReader("say hello\n1\n"), &out)
	defer plain.Close()
	plain.Update(protocol.Status{Table: "t", Seat: 0, Names: []string{"ann", "bob"}, State: newPick(2)})
	if a, err := plain.Decide(context.Background(), newPick(2), 0); err != nil || string(a.Move) != "\x01" {
		t.Fatalf("Decide = %+v, %v; want the move 1", a, err)
	}
	if !strings.Contains(out.String(), "error:") {
		t.Errorf("a terminal without a chat took \"say hello\" without a word:\n%s", out.String())
	}
}
