package corruption

import (
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/ui/boardtest"
)

// FuzzMoves: whatever a person types or the page posts never panics, and a move the board
// takes (parsed, checked and encoded) is one the game takes: every seat's copy applies it.
func FuzzMoves(f *testing.F) {
	for _, s := range []string{"4000 airport", "8000 swiss:city", "reporter monument", "peek 5", "faceup 1 3", "faceup",
		"assign monument", "kill 7", "remove 12", "pass", "1000 school", "da swiss:city", "place hitman school", "",
		`{"kind":"place","card":"1000","spot":"school"}`, `{"kind":"faceup","positions":[1,3]}`, `{"kind":"peek","index":2}`,
		`{"text":"2000 monument"}`, `{"kind":`, `[]`, `{"kind":"remove","index":-1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tb := newTable(t, 3, rules.FreeStud, true)
		tb.play("faceup 1", "1000 school", "2000 swiss:city")
		seat := tb.seats[0].Due().Seat
		for _, m := range boardtest.Parsed(Board{}, Board{}, in) {
			a, err := m.(move).Action(tb.game(seat), seat)
			if err != nil {
				continue
			}
			mv := engine.Input{Kind: engine.InMove, Seat: seat, Move: a.Move}
			for i := range a.Hidden {
				mv.Refs = append(mv.Refs, tb.refs+i)
			}
			for s, g := range tb.seats {
				if err := g.Clone().Apply(mv); err != nil {
					t.Fatalf("%q: the board took a move (%x) that seat %d's copy refuses: %v", in, a.Move, s, err)
				}
			}
		}
	})
}
