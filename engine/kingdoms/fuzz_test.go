package kingdoms_test

import (
	"reflect"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// FuzzApply: whatever input a seat or a broken table sends, at any point of a game, Apply never
// panics, and an input it refuses leaves the game exactly as it was. The first byte picks how
// far a game among random bots goes first, the second the input's kind, the third its seat,
// the rest its move (or its values and cards). Run:
// go test -run='^$' -fuzz='^FuzzApply$' -fuzztime=5000x ./engine/kingdoms/
func FuzzApply(f *testing.F) {
	for _, b := range [][]byte{{0, 0, 0}, {30, 0, 1, 1, 3}, {60, 0, 2, 2, 1, 0}, {90, 8, 0, 'y', 'e', 's'}, {120, 5, 1, 3, 7},
		{40, 0, 0, 5, 0, 1}, {200, 0, 3, 6, 2, 0xff, 0xff, 0xff, 0xff}, {10, 6, 0, 1}, {250, 4, 0, 0, 0}, {70, 0, 1}} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 3 {
			return
		}
		n := 2 + int(b[0])%5
		l, err := kingdoms.NewLocal(kingdoms.Advanced, n, bot.GameSetup(kingdoms.Advanced, n, 3, int(b[0])), nil)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]bot.Bot, n)
		for s := range bots {
			bots[s], _ = bot.New("random", uint64(s))
		}
		for range int(b[0]) {
			d, err := l.Next()
			if err != nil {
				t.Fatal(err)
			}
			if d.Kind == kingdoms.DecideNothing {
				break
			}
			if err := l.Play(bots[d.Seat].Decide(l.Game().View(d.Seat))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := l.Next(); err != nil {
			t.Fatal(err)
		}
		g := l.Game()
		in := engine.Input{Kind: engine.InputKind(b[1] % 10), Seat: int(b[2]%8) - 1, Move: b[3:], To: -1}
		for i, c := range b[3:] {
			in.Values = append(in.Values, b[3+i:3+i+1])
			in.Cards = append(in.Cards, int(c)-1)
			in.Positions = append(in.Positions, int(c)%4)
			in.Seats = append(in.Seats, int(c)%n)
			in.Refs = append(in.Refs, 1000+int(c))
			in.Ints = append(in.Ints, int(c)%6)
		}
		if b[1]%3 == 0 {
			in.Refs = nil
		}
		before, digest := g.Clone(), g.Digest()
		if err := g.Apply(in); err != nil {
			if g.Digest() != digest || !reflect.DeepEqual(g.Due(), before.Due()) {
				t.Fatalf("a refused input (%v) changed the game", err)
			}
		}
	})
}
