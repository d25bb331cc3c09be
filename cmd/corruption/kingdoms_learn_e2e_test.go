package main

import (
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms/script"
)

// kingdomsLearn is what the newcomer's harness knows of Corrupted Kingdoms: the whole game is
// the basic rules against two bots (no chaos answers to wait for: the scripted positions have
// them), and the positions come from a recorded game of the advanced rules at four players
// (simulate --game kingdoms --players 4 --seed 3 --record), which has every kind of decision.
var kingdomsLearn = learnGame{
	id:      "kingdoms",
	demo:    []string{"--bots", "2", "--rules", "basic"},
	scripts: []string{"testdata/learn/kingdoms-advanced-4p.json"},
	position: func(data []byte, seat int) (engine.Game, int, []engine.Event, error) {
		sc, err := script.Parse(data)
		if err != nil {
			return nil, 0, nil, err
		}
		var events []engine.Event
		g, seat, err := sc.Follow(seat, func(e engine.Event) { events = append(events, e) })
		if err != nil {
			return nil, 0, nil, err
		}
		return g, seat, events, nil
	},
	back:    []string{"back"},
	allow:   []string{"Corrupted Kingdoms"},
	docShot: "action",
}

// TestKingdomsLearn: a newcomer plays a whole game of Corrupted Kingdoms by the page's roles
// and names, at 1366x768 and on a 390x844 phone (in every language under
// CORRUPTION_LEARN_MATRIX=1).
func TestKingdomsLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games in the plain pass")
	}
	for _, vp := range learnSizes {
		for _, lang := range learnLangs() {
			t.Run(fmt.Sprintf("%s-%s", vp.name, lang), func(t *testing.T) { learnWholeGame(t, kingdomsLearn, vp, lang) })
		}
	}
}

// TestKingdomsLearnScripted: a position of every kind of decision of Corrupted Kingdoms, and
// the results, in a page with no network, at both sizes, in English, Spanish and French: a
// prompt line, a reason beside every disabled control, no sideways scroll, axe-core, no
// English left in Spanish or French, and the rules panel.
func TestKingdomsLearnScripted(t *testing.T) {
	for _, vp := range learnSizes {
		t.Run(vp.name, func(t *testing.T) { learnScripted(t, kingdomsLearn, vp, []string{"en", "es", "fr"}) })
	}
}
