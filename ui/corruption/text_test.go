package corruption

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	rules "corruption/engine/corruption"
	"corruption/ui"
)

// TestTerminal: the shell's terminal with Corruption's text board shows the board and the
// choices, refuses what is not a legal move with the reason, takes the first legal one and
// encodes it for the table, and gives up when its input ends.
func TestTerminal(t *testing.T) {
	tb := newTable(t, 3, rules.Standard, false)
	var out strings.Builder
	term := ui.NewTerminal(Board{}, strings.NewReader("help\nbribe the mayor\nda swiss:city\n\n2000 swiss:county\n"), &out)
	defer term.Close()
	a, err := term.Decide(context.Background(), tb.game(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := rules.DecodeMove(0, a.Move)
	want := rules.Move{Kind: rules.MovePlace, Seat: 0, Card: rules.CardUnknown, Spot: rules.SwissCounty}
	if err != nil || m != want || len(a.Hidden) != 1 || string(a.Hidden[0]) != "2000" {
		t.Fatalf("Decide = %+v (%+v, %v); want a face-down $2,000 on the County Seat's Swiss account", a, m, err)
	}
	for _, w := range []string{"Round 1 of 4", "City Hall", "school $100,000", "Your hand: 1000 2000", "for example: 1000 school",
		`error: "bribe the mayor" is not a move`, "error: seat 0 cannot", "Moves: CARD PLACE"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the terminal does not show %q:\n%s", w, out.String())
		}
	}
	if _, err := term.Decide(context.Background(), tb.game(0), 0); !errors.Is(err, io.EOF) {
		t.Errorf("Decide at the end of the input: %v", err)
	}
}
