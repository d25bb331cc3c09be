package bot

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"corruption/engine/corruption"
)

// TestStrongSeesOnlyItsView: the strong bot decides the same, and samples the very same
// determinizations, from a simulation's full-information state (every card known) and from
// its own node's state of the same game (the others' face-down cards unknown, no deck order),
// at every one of its seat's decisions of whole games. Nothing it may not see reaches it.
func TestStrongSeesOnlyItsView(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	for _, variant := range []corruption.Variant{corruption.Standard, corruption.FreeStud} {
		for g := range games {
			cfg := GameConfig(4, variant, true, 7, g)
			full, err := corruption.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			hcfg := cfg
			hcfg.Deck = nil
			hidden, err := corruption.New(hcfg, corruption.WithHiddenCards())
			if err != nil {
				t.Fatal(err)
			}
			me := g % 4
			bots := make([]Bot, 4)
			for s := range bots {
				bots[s] = NewHeuristic(rand.New(rand.NewPCG(uint64(g), uint64(s))))
			}
			decisions := 0
			var cards []corruption.Card // this round's cards, in play order
			for !full.Over() {
				mirrorSteps(t, cfg, cards, hidden)
				if full.NumPlays() == 0 {
					cards = cards[:0]
				}
				d := full.Next()
				if d.Seat == me && d.Kind != corruption.DecideFaceUp {
					decisions++
					a := full.View(me).Determinize(rand.New(rand.NewPCG(1, uint64(decisions))))
					b := hidden.View(me).Determinize(rand.New(rand.NewPCG(1, uint64(decisions))))
					if !reflect.DeepEqual(a, b) {
						t.Fatalf("%s game %d, decision %d: the determinizations differ", variant, g, decisions)
					}
					if decisions%4 == 1 {
						ma := NewStrong(rand.New(rand.NewPCG(3, uint64(decisions))), 12).Decide(full.View(me))
						mb := NewStrong(rand.New(rand.NewPCG(3, uint64(decisions))), 12).Decide(hidden.View(me))
						if ma != mb {
							t.Fatalf("%s game %d, decision %d: %s from the full state, %s from its own", variant, g, decisions, ma, mb)
						}
					}
				}
				m := bots[d.Seat].Decide(full.View(d.Seat))
				hm := m
				if m.Kind == corruption.MovePlace && d.Seat != me && (m.Spot.IsSwiss() || !hidden.NextFaceUp(d.Seat)) {
					hm.Card = corruption.CardUnknown
				}
				if m.Kind == corruption.MovePlace {
					cards = append(cards, m.Card)
				}
				if err := full.Apply(m); err != nil {
					t.Fatal(err)
				}
				if err := hidden.Apply(hm); err != nil {
					t.Fatalf("hidden: %s: %v", hm, err)
				}
				if m.Kind == corruption.MovePeek && d.Seat == me {
					if err := hidden.Learn(m.Index, cards[m.Index-1]); err != nil {
						t.Fatal(err)
					}
				}
			}
			if decisions < 20 {
				t.Fatalf("%s game %d: only %d decisions of seat %d", variant, g, decisions, me)
			}
		}
	}
}

// mirrorSteps gives the hidden-card game what the table would: its deals, and the reveals.
func mirrorSteps(t *testing.T, cfg corruption.Config, cards []corruption.Card, hidden *corruption.State) {
	t.Helper()
	for {
		d := hidden.Next()
		var m corruption.Move
		switch d.Kind {
		case corruption.DecideDeal:
			m.Kind = corruption.MoveDeal
			r := hidden.Round()
			copy(m.Deal[:], cfg.Deck[(r-1)*corruption.ContractsPerDeal:])
		case corruption.DecideReveal:
			m = corruption.Move{Kind: corruption.MoveReveal, Seat: d.Seat, Index: d.Index, Card: cards[d.Index-1]}
		default:
			return
		}
		if err := hidden.Apply(m); err != nil {
			t.Fatalf("hidden: %s: %v", m, err)
		}
	}
}
