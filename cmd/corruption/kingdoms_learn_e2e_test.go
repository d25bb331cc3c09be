package main

import (
	"fmt"
	"testing"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/script"
)

// kingdomsLearn is what the newcomer's harness knows of Corrupted Kingdoms: the whole game is
// the basic rules against two bots (no chaos answers to wait for: the scripted positions have
// them), and the positions come from two recorded games of the advanced rules at four players
// (simulate --game kingdoms --players 4 --games 1 --seed S --record DIR): seed 3's has every
// kind of decision but the answer to a steal, which few games have; seed 218's has one after
// its 27th move (seat 1 influences seat 3's Praetor, and seat 3 holds a chaos card it may
// answer with). Every kind of the engine's must have a position (TestKingdomsLearnKinds).
var kingdomsLearn = learnGame{
	id:      "kingdoms",
	demo:    []string{"--bots", "2", "--rules", "basic"},
	scripts: []string{"testdata/learn/kingdoms-advanced-4p.json", "testdata/learn/kingdoms-steal-4p.json"},
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
	// Every kind of the engine's is a person's decision but "nothing" (the table acts, or the
	// game is over).
	kinds: append(engineKinds(rules.DecideNothing), "results"),
}

// TestKingdomsLearnKinds: the scripts of kingdomsLearn hold a position of every kind of
// decision the engine has and of the results (the scripted test checks it too; this needs no
// browser).
func TestKingdomsLearnKinds(t *testing.T) {
	t.Parallel()
	checkKinds(t, kingdomsLearn, scriptPositions(t, kingdomsLearn))
}

// TestKingdomsLearn: a newcomer plays a whole game of Corrupted Kingdoms by the page's roles
// and names, at 1366x768 or on a 390x844 phone (learnWholeSizes: one a run; both, in every
// language, under CORRUPTION_LEARN_MATRIX=1).
func TestKingdomsLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games in the plain pass")
	}
	t.Parallel()
	sweep := newAxeSweep() // (the whole games share it: axe-core checks each new screen once)
	for _, vp := range learnWholeSizes(t) {
		for _, lang := range learnLangs() {
			t.Run(fmt.Sprintf("%s-%s", vp.name, lang), func(t *testing.T) { t.Parallel(); learnWholeGame(t, kingdomsLearn, vp, lang, sweep) })
		}
	}
}

// TestKingdomsLearnScripted: a position of every kind of decision of Corrupted Kingdoms, and
// the results, in a page with no network, at both sizes (in English, and Spanish or French: learnScriptedLangs): a
// prompt line, a reason beside every disabled control, no sideways scroll, axe-core, no
// English left in Spanish or French, and the rules panel.
func TestKingdomsLearnScripted(t *testing.T) {
	t.Parallel()
	langs := learnScriptedLangs(t)
	for i, vp := range learnSizes {
		t.Run(vp.name, func(t *testing.T) { t.Parallel(); learnScripted(t, kingdomsLearn, vp, langs[i]) })
	}
}
