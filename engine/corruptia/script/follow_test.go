package script_test

import (
	"fmt"
	"os"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/script"
)

// TestFollow: a seat's copy of a replayed script knows that seat's bills and no other seat's
// hidden one, has the public state (the digest) of the game of full information, and tells its
// events; Follow(-1) is the seat due.
func TestFollow(t *testing.T) {
	data, err := os.ReadFile("testdata/game-4p.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	sc.Moves = sc.Moves[:20]
	res, err := sc.Run(nil)
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
	if got := fmt.Sprintf("%x", g.Digest()); got != res.Digest {
		t.Errorf("the copy's digest %s, the game's %s", got, res.Digest)
	}
	known := func(s int) int {
		n := 0
		for _, b := range g.View(s).Hands[s] {
			if b != corruptia.Unknown {
				n++
			}
		}
		return n
	}
	pub := g.View(-1)
	if known(1) == 0 || known(1) != len(pub.Hands[1]) {
		t.Errorf("seat 1's copy knows %d of seat 1's %d bills", known(1), len(pub.Hands[1]))
	}
	for _, s := range []int{0, 2, 3} {
		shown := 0
		for _, b := range pub.Hands[s] {
			if b != corruptia.Unknown {
				shown++
			}
		}
		if n := known(s); n != shown {
			t.Errorf("seat 1's copy knows %d of seat %d's bills, %d of them shown", n, s, shown)
		}
	}
	if _, due, err := sc.Follow(-1, nil); err != nil || due != max(res.Next.Seat, 0) {
		t.Errorf("Follow(-1): seat %d, %v; want the seat due, %d", due, err, res.Next.Seat)
	}
	if _, _, err := sc.Follow(4, nil); err == nil {
		t.Error("Follow(4) at a table of 4: no error")
	}
}
