package ui

import (
	"context"
	"strings"
	"testing"
)

// TestTerminalNoPassAhead: a board that cannot pass ahead (not an AutoPasser) has no such
// command: the line goes to its parser like any other, and help does not offer it.
func TestTerminalNoPassAhead(t *testing.T) {
	var out strings.Builder
	term := NewTerminal(pickBoard{}, strings.NewReader("help\npass ahead on\n1\n"), &out)
	defer term.Close()
	if a, err := term.Decide(context.Background(), newPick(2), 0); err != nil || string(a.Move) != "\x01" {
		t.Fatalf("Decide = %+v, %v; want the move 1", a, err)
	}
	if !strings.Contains(out.String(), `error: "pass ahead on" is not a number`) || strings.Contains(out.String(), "Pass ahead") {
		t.Errorf("a board without pass ahead:\n%s", out.String())
	}
}
