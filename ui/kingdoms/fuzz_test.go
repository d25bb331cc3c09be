package kingdoms

import (
	"testing"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/ui/boardtest"
)

// fuzzGames are a seat's copies of games at decisions of every kind, made once.
var fuzzGames []asking

func fuzzFixture(t testing.TB) []asking {
	if fuzzGames != nil {
		return fuzzGames
	}
	seen := map[rules.DecisionKind]bool{}
	for i, tb := range tables[:4] {
		play(t.(*testing.T), tb, uint64(50+i), func(g *rules.Game, seat int) {
			if k := g.Next().Kind; !seen[k] || len(fuzzGames) < 12 {
				seen[k] = true
				fuzzGames = append(fuzzGames, asking{g: g.Clone().(*rules.Game), seat: seat})
			}
		})
	}
	return fuzzGames
}

// FuzzMoves: whatever a person types or the page posts never panics, and a move the board
// takes (parsed, checked and encoded) is one the game takes: the seat's own copy applies it.
func FuzzMoves(f *testing.F) {
	for _, s := range []string{"take magic-4", "place magic-4 on grimhold-1", "influence whip waive goblin extra devil", "call grimhold-1",
		"chaos offshore-ballots yes", "chaos margin-call 2 devil", "chaos rider-clause magic-4 on grimhold-2", "vote yes", "no", "pass",
		"pick gold/magic remove whip", "pick none", "pick feasts/magic exchange magic-1 for magic-2", "cycle gold/magic", "discard 1",
		"discard compound-interest", "", "steal", `{"text":"pass"}`, `{"text":`, `[]`, `{"id":3}`} {
		f.Add(uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, in string) {
		games := fuzzFixture(t)
		a := games[int(which)%len(games)]
		for _, m := range boardtest.Parsed(Board{}, Board{}, in) {
			g := a.g.Clone().(*rules.Game)
			act, err := m.(move).Action(g, a.seat)
			if err != nil {
				continue
			}
			if g.Next().Kind == rules.DecideVote {
				continue // a vote is a choice's hidden value, checked by CheckChoice
			}
			in := engine.Input{Kind: engine.InMove, Seat: a.seat, Move: act.Move}
			for i := range act.Hidden {
				in.Refs = append(in.Refs, 1000+i)
			}
			if err := g.Apply(in); err != nil {
				t.Fatalf("%q: the board took a move (%x) that the seat's copy refuses: %v", in.Move, act.Move, err)
			}
		}
	})
}
