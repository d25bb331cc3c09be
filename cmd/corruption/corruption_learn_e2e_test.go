package main

import (
	"fmt"
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/engine/corruption/script"
)

// corruptionLearn is what the newcomer's harness knows of Corruption: the whole game against
// two bots, and the positions cut from two of the command's scenario scripts: a standard game
// of four (placing a card, assigning a Swiss bribe, a reporter's target, the results) and a
// free-stud game of five with the little black book (the free-stud positions, a hit man's
// target). The closed game of three holds no other kind.
var corruptionLearn = learnGame{
	id:      "corruption",
	demo:    []string{"--bots", "2"},
	scripts: []string{"testdata/scripts/game-4p-standard.json", "testdata/scripts/game-5p-free-stud-lbb.json"},
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
	back:  []string{"unpick"},
	allow: []string{"Corruption"},
	// Every kind of the engine's is a person's decision but the table's: "none" (the game is
	// over), "deal" (the round's contracts dealt) and "reveal" (a seat's node opens its
	// face-down cards itself, a StepOpen: its person is not asked).
	kinds: append(engineKinds(rules.DecideNothing, rules.DecideDeal, rules.DecideReveal), "results"),
}

// TestCorruptionLearnKinds: the scripts of corruptionLearn hold a position of every kind of
// decision the engine has and of the results (the scripted test checks it too; this needs no
// browser).
func TestCorruptionLearnKinds(t *testing.T) {
	t.Parallel()
	checkKinds(t, corruptionLearn, scriptPositions(t, corruptionLearn))
}

// TestCorruptionLearn: a newcomer plays a whole game of Corruption by the page's roles and
// names, at 1366x768 or on a 390x844 phone (learnWholeSizes: one a run; both, in every
// language, under CORRUPTION_LEARN_MATRIX=1).
func TestCorruptionLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games in the plain pass")
	}
	t.Parallel()
	sweep := newAxeSweep() // (the whole games share it: axe-core checks each new screen once)
	for _, vp := range learnWholeSizes(t) {
		for _, lang := range learnLangs() {
			t.Run(fmt.Sprintf("%s-%s", vp.name, lang), func(t *testing.T) { t.Parallel(); learnWholeGame(t, corruptionLearn, vp, lang, sweep) })
		}
	}
}

// TestCorruptionLearnScripted: a position of every kind of decision of Corruption, and the
// results, in a page with no network, at both sizes (in English, and Spanish or French: learnScriptedLangs): a prompt
// line, a reason beside every disabled control, no sideways scroll, axe-core, no English left
// in Spanish or French, and the rules panel.
func TestCorruptionLearnScripted(t *testing.T) {
	t.Parallel()
	langs := learnScriptedLangs(t)
	for i, vp := range learnSizes {
		t.Run(vp.name, func(t *testing.T) { t.Parallel(); learnScripted(t, corruptionLearn, vp, langs[i]) })
	}
}
