package bot

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"corruption/engine/kingdoms"
)

// TestStrongSeesOnlyItsView: the strong bot decides the same, and samples the very same
// determinizations, from a simulation's full-information game (every seat's shareholder and
// chaos cards known, the decks in order) and from the game as its own node knows it
// (Game.ForSeat: the others' secrets forgotten, no deck at all), at every one of its seat's
// decisions of whole games, with the basic and the advanced rules.
func TestStrongSeesOnlyItsView(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	for _, rules := range []kingdoms.Config{{}, {Bonuses: true, Chaos: true}} {
		for g := range games {
			l, err := kingdoms.NewLocal(rules, 4, GameSetup(rules, 4, 7, g), nil)
			if err != nil {
				t.Fatal(err)
			}
			me := g % 4
			bots := make([]Bot, 4)
			for s := range bots {
				bots[s] = &Heuristic{rng: rand.New(rand.NewPCG(uint64(g), uint64(s)))}
			}
			decisions := 0
			for {
				d, err := l.Next()
				if err != nil {
					t.Fatal(err)
				}
				if d.Kind == kingdoms.DecideNothing {
					break
				}
				full := l.Game().View(me)
				if d.Seat == me && full.Playing {
					decisions++
					own := l.Game().ForSeat(me).View(me)
					a := full.Determinize(rand.New(rand.NewPCG(1, uint64(decisions))))
					b := own.Determinize(rand.New(rand.NewPCG(1, uint64(decisions))))
					if !reflect.DeepEqual(a, b) {
						t.Fatalf("%s game %d, decision %d: the determinizations differ", rules.Words(), g, decisions)
					}
					if decisions%5 == 1 {
						ma := NewStrong(rand.New(rand.NewPCG(3, uint64(decisions))), 8).Decide(full)
						mb := NewStrong(rand.New(rand.NewPCG(3, uint64(decisions))), 8).Decide(own)
						if ma != mb {
							t.Fatalf("%s game %d, decision %d: %s from the full game, %s from its own", rules.Words(), g, decisions, ma, mb)
						}
					}
				}
				if err := play(l, bots[d.Seat], d.Seat, nil); err != nil {
					t.Fatal(err)
				}
			}
			if decisions < 10 {
				t.Fatalf("%s game %d: only %d decisions of seat %d", rules.Words(), g, decisions, me)
			}
		}
	}
}
