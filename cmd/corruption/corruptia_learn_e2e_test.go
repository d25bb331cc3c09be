package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia/script"
)

// corruptiaLearn is what the newcomer's harness knows of Corruptia: the whole game against two
// bots, and the positions cut from a recorded game of four senators (simulate --game corruptia
// --players 4 --seed 3 --record), which has every kind of decision but the rare "no bill to
// propose": the opening discard, a proposal, a response, a negotiation (amendments too), a
// vote, an absent senator's swap, and the results.
var corruptiaLearn = learnGame{
	id:      "corruptia",
	demo:    []string{"--bots", "2"},
	scripts: []string{"testdata/learn/corruptia-4p.json"},
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
	// A newcomer answers the others' proposals by passing and calls the vote on its own.
	pick: func(names []string, lang string) int {
		w := boardWordsOf("corruptia", lang)
		for _, k := range []string{"go.pass", "go.call"} {
			for i, n := range names {
				if n == w[k] || stripKey(n) == w[k] {
					return i
				}
			}
		}
		return -1
	},
	back:  []string{"unpick", "unpick.place", "vacancy.change", "amend.close"},
	allow: []string{"Corruptia"},
}

// TestCorruptiaLearn: a newcomer plays a whole game of Corruptia by the page's roles and names,
// at 1366x768 and on a 390x844 phone (in every language under CORRUPTION_LEARN_MATRIX=1).
func TestCorruptiaLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games in the plain pass")
	}
	t.Parallel()
	for _, vp := range learnSizes {
		for _, lang := range learnLangs() {
			t.Run(fmt.Sprintf("%s-%s", vp.name, lang), func(t *testing.T) { t.Parallel(); learnWholeGame(t, corruptiaLearn, vp, lang) })
		}
	}
}

// TestCorruptiaLearnScripted: a position of every kind of decision of Corruptia, and the
// results, in a page with no network, at both sizes, in English, Spanish and French: a prompt
// line, a reason beside every disabled control, no sideways scroll, axe-core, no English left
// in Spanish or French, and the rules panel.
func TestCorruptiaLearnScripted(t *testing.T) {
	t.Parallel()
	for _, vp := range learnSizes {
		t.Run(vp.name, func(t *testing.T) { t.Parallel(); learnScripted(t, corruptiaLearn, vp, []string{"en", "es", "fr"}) })
	}
}

// boardWordsOf are game's board's words in lang, read once.
func boardWordsOf(game, lang string) map[string]string {
	k := game + "/" + lang
	boardWordsMu.Lock()
	defer boardWordsMu.Unlock()
	if w, ok := boardWordsCache[k]; ok {
		return w
	}
	var f struct {
		Words map[string]string `json:"words"`
	}
	if b, err := os.ReadFile("../../ui/" + game + "/static/lang/" + lang + ".json"); err == nil {
		json.Unmarshal(b, &f)
	}
	boardWordsCache[k] = f.Words
	return f.Words
}

var (
	boardWordsCache = map[string]map[string]string{}
	boardWordsMu    sync.Mutex
)

// stripKey is a button's name without the key it shows first ("1 Pass" is "Pass").
func stripKey(name string) string {
	for i, r := range name {
		if r == ' ' && i > 0 && i <= 2 && !slices.Contains([]rune(name[:i]), ' ') {
			return name[i+1:]
		}
	}
	return name
}
