package main

import (
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption/script"
)

// corruptionLearn is what the newcomer's harness knows of Corruption: the whole game against
// two bots, and the positions cut from the command's scenario scripts (a standard game of four,
// a free-stud game of five with the little black book, a closed game of three), which between
// them hold every kind of decision: placing a card (and peeking), assigning a Swiss bribe, a
// hit man's target, a reporter's, the free-stud positions, and the results.
var corruptionLearn = learnGame{
	id:   "corruption",
	demo: []string{"--bots", "2"},
	scripts: []string{"testdata/scripts/game-4p-standard.json", "testdata/scripts/game-5p-free-stud-lbb.json",
		"testdata/scripts/game-3p-closed.json"},
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
}

// TestCorruptionLearn: a newcomer plays a whole game of Corruption by the page's roles and
// names, at 1366x768 and on a 390x844 phone (in every language under CORRUPTION_LEARN_MATRIX=1).
func TestCorruptionLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games in the plain pass")
	}
	t.Parallel()
	for _, vp := range learnSizes {
		for _, lang := range learnLangs() {
			t.Run(fmt.Sprintf("%s-%s", vp.name, lang), func(t *testing.T) { t.Parallel(); learnWholeGame(t, corruptionLearn, vp, lang) })
		}
	}
}

// TestCorruptionLearnScripted: a position of every kind of decision of Corruption, and the
// results, in a page with no network, at both sizes, in English, Spanish and French: a prompt
// line, a reason beside every disabled control, no sideways scroll, axe-core, no English left
// in Spanish or French, and the rules panel.
func TestCorruptionLearnScripted(t *testing.T) {
	t.Parallel()
	for _, vp := range learnSizes {
		t.Run(vp.name, func(t *testing.T) { t.Parallel(); learnScripted(t, corruptionLearn, vp, []string{"en", "es", "fr"}) })
	}
}
