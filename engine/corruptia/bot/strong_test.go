package bot

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
)

// TestStrongSeesOnlyItsView: the strong bot decides and votes the same, and samples the very
// same determinizations, from a simulation's full-information game (every hand known, the deck
// in order) and from the game as its own node knows it (Game.ForSeat: the others' bills
// forgotten, no deck at all), at every one of its seat's decisions of whole games.
func TestStrongSeesOnlyItsView(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	for g := range games {
		game, err := corruptia.NewGame(corruptia.DefaultConfig(), 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		h, c := corruptia.NewHost(game), corruptia.Seeded(7, uint64(g))
		me := g % 4
		bots := make([]Bot, 4)
		for s := range bots {
			bots[s] = &Heuristic{rng: rand.New(rand.NewPCG(uint64(g), uint64(s)))}
		}
		decisions := 0
		check := func(vote bool) {
			full, own := game.View(me), game.ForSeat(me).View(me)
			if full.Round == 0 {
				return
			}
			decisions++
			ha, ca := full.Determinize(rand.New(rand.NewPCG(1, uint64(decisions))))
			hb, cb := own.Determinize(rand.New(rand.NewPCG(1, uint64(decisions))))
			if !reflect.DeepEqual(ha, hb) || !reflect.DeepEqual(ca, cb) {
				t.Fatalf("game %d, decision %d: the determinizations differ", g, decisions)
			}
			if decisions%6 != 1 {
				return
			}
			a := NewStrong(rand.New(rand.NewPCG(3, uint64(decisions))), 6)
			b := NewStrong(rand.New(rand.NewPCG(3, uint64(decisions))), 6)
			if vote {
				if va, vb := a.Vote(full), b.Vote(game.ForSeat(me).View(me)); va != vb {
					t.Fatalf("game %d, decision %d: votes %s from the full game, %s from its own", g, decisions, va, vb)
				}
			} else if ma, mb := a.Decide(full), b.Decide(game.ForSeat(me).View(me)); ma != mb {
				t.Fatalf("game %d, decision %d: %s from the full game, %s from its own", g, decisions, ma, mb)
			}
		}
		for {
			if err := h.Run(c); err != nil {
				t.Fatal(err)
			}
			st := game.Due()
			if st.Kind == engine.StepOver {
				break
			}
			if st.Kind == engine.StepChoose {
				check(true)
				votes := make([]corruptia.Vote, 4)
				for s := range votes {
					votes[s] = bots[s].Vote(game.View(s))
				}
				if err := h.Votes(votes); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if st.Seat == me {
				check(false)
			}
			if err := h.Move(st.Seat, bots[st.Seat].Decide(game.View(st.Seat))); err != nil {
				t.Fatal(err)
			}
		}
		if decisions < 20 {
			t.Fatalf("game %d: only %d decisions of seat %d", g, decisions, me)
		}
	}
}
