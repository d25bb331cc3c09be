package games

import (
	"slices"
	"testing"

	"corruption/engine"
	"fmt"
)

// TestWhole: the list holds every game this build registers, once, each with its rules, its
// stand-in, a page board and a fresh terminal board of the same game.
func TestWhole(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range All() {
		ids = append(ids, g.ID())
		if got, ok := Lookup(g.ID()); !ok || got.Board.Game() != g.ID() {
			t.Errorf("Lookup(%q) = %v, %v", g.ID(), got, ok)
		}
		if a, b := g.Text(), g.Text(); a == nil || (isPointer(a) && a == b) {
			t.Errorf("%s: the terminal's board is nil or shared: %v", g.ID(), a)
		}
	}
	slices.Sort(ids)
	if want := engine.Games(); !slices.Equal(ids, want) {
		t.Errorf("the list holds %v; the build registers %v", ids, want)
	}
	if len(Boards()) != len(ids) {
		t.Errorf("%d boards for %d games", len(Boards()), len(ids))
	}
	if _, ok := Lookup("nosuchgame"); ok {
		t.Error("Lookup found a game that is not listed")
	}
}

func isPointer(v any) bool { return fmt.Sprintf("%T", v)[0] == '*' }
