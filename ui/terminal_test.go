package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"corruption/engine/corruption"
)

// TestTerminal: the terminal shows the board and the choices, refuses what is not a legal move
// with the reason, takes the first legal one, and gives up when its input ends.
func TestTerminal(t *testing.T) {
	s := newGame(t, 3)
	var out strings.Builder
	term := NewTerminal(strings.NewReader("help\nbribe the mayor\nda swiss:city\n\n2000 swiss:county\n"), &out)
	defer term.Close()
	m, err := term.Decide(context.Background(), s.View(0))
	want := corruption.Move{Kind: corruption.MovePlace, Seat: 0, Card: corruption.Bribe2000, Spot: corruption.SwissCounty}
	if err != nil || m != want {
		t.Fatalf("Decide = %+v, %v; want %+v", m, err, want)
	}
	for _, w := range []string{"Round 1 of 4", "City Hall", "school $100,000", "Your hand: 1000 2000", "for example: 1000 school",
		`error: "bribe the mayor" is not a move`, "error: seat 0 cannot", "Moves: CARD PLACE"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the terminal does not show %q:\n%s", w, out.String())
		}
	}
	if _, err := term.Decide(context.Background(), s.View(0)); !errors.Is(err, io.EOF) {
		t.Errorf("Decide at the end of the input: %v", err)
	}
}
