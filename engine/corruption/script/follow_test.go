package script_test

import (
	"os"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/corruption/script"
)

// TestFollow: a seat's copy of a script played at the kit's table knows that seat's face-down
// cards and no other seat's one not yet revealed, stands where the script's State stands (the
// same plays, the same scores), and tells the table's events; Follow(-1) is the seat due.
func TestFollow(t *testing.T) {
	data, err := os.ReadFile("../../../cmd/corruption/testdata/scripts/game-4p-standard.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	sc.Moves = sc.Moves[:36] // round 2 under way, each player's third card face down
	full, err := sc.Run()
	if err != nil {
		t.Fatal(err)
	}
	events := 0
	g, seat, err := sc.Follow(1, func(engine.Event) { events++ })
	if err != nil || seat != 1 {
		t.Fatalf("Follow(1): seat %d, %v", seat, err)
	}
	if events == 0 {
		t.Error("the copy told no event")
	}
	v := g.View(1)
	if v.Round() != full.Round() || v.NumPlays() != full.NumPlays() {
		t.Fatalf("the copy is at round %d, play %d; the script at round %d, play %d", v.Round(), v.NumPlays(), full.Round(), full.NumPlays())
	}
	for s := range 4 {
		if a, _ := v.Score(s); a != func() int { x, _ := full.Score(s); return x }() {
			t.Errorf("seat %d's score %d in the copy", s, a)
		}
	}
	mine, hidden := 0, 0
	for i := 1; i <= v.NumPlays(); i++ {
		p, _ := g.State().PlayAt(i)
		switch {
		case p.Seat == 1 && !p.FaceUp:
			if p.Card == corruption.CardUnknown {
				t.Errorf("play %d is seat 1's, face down, and its copy does not know it", i)
			}
			mine++
		case !p.Revealed && p.Card != corruption.CardUnknown:
			t.Errorf("play %d is seat %d's, face down, and seat 1's copy knows it: %v", i, p.Seat, p.Card)
		case !p.Revealed:
			hidden++
		}
	}
	if mine == 0 || hidden == 0 {
		t.Errorf("the position has %d face-down cards of seat 1 and %d of others: the test checks nothing", mine, hidden)
	}
	if _, due, err := sc.Follow(-1, nil); err != nil || due != full.Next().Seat {
		t.Errorf("Follow(-1): seat %d, %v; want the seat due, %d", due, err, full.Next().Seat)
	}
	if _, _, err := sc.Follow(4, nil); err == nil {
		t.Error("Follow(4) at a table of 4: no error")
	}
}
