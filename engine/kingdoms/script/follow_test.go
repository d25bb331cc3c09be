package script_test

import (
	"os"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms/script"
)

// TestFollow: a seat's copy of a replayed script knows that seat's secret cards and no other
// seat's, agrees with the game of full information on the public state, and tells its events.
func TestFollow(t *testing.T) {
	data, err := os.ReadFile("testdata/chaos-answers.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	sc.Moves = sc.Moves[:6]
	events := 0
	g, seat, err := sc.Follow(1, func(engine.Event) { events++ })
	if err != nil || seat != 1 {
		t.Fatalf("Follow(1): seat %d, %v", seat, err)
	}
	if events == 0 {
		t.Error("the copy told no event")
	}
	known := func(s int) int {
		n := 0
		v := g.View(s)
		for _, h := range v.Hand {
			if h.Card >= 0 {
				n++
			}
		}
		return n + len(v.Shareholders)
	}
	if known(1) == 0 {
		t.Error("seat 1's copy does not know seat 1's cards")
	}
	for _, s := range []int{0, 2} {
		if n := known(s); n != 0 {
			t.Errorf("seat 1's copy knows %d of seat %d's secret cards", n, s)
		}
	}
	// The seat due: seat 1 acts after six moves.
	if _, due, err := sc.Follow(-1, nil); err != nil || due != 1 {
		t.Errorf("Follow(-1): seat %d, %v; want the seat due, 1", due, err)
	}
	if _, _, err := sc.Follow(3, nil); err == nil {
		t.Error("Follow(3) at a table of 3: no error")
	}
}
