package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/script"
)

// corruptiaLearn is what the newcomer's harness knows of Corruptia: the whole game against two
// bots, and the positions cut from two recorded games (simulate --game corruptia --players P
// --games 1 --seed S --record DIR). Four senators' (seed 3) has every kind of decision but the
// rare "no bill to propose": the opening discard, a proposal, a response, a negotiation
// (amendments too), a vote, an absent senator's swap, and the results. Three senators' (seed
// 47, the earliest of seeds 1 to 150 at three and four players) has one after its 50th move:
// seat 1, active, holds no bill any free cell of the program can take (a proposal the board
// draws as "nobill", its one choice to show its hand); it is read up to there only.
var corruptiaLearn = learnGame{
	id:      "corruptia",
	demo:    []string{"--bots", "2"},
	scripts: []string{"testdata/learn/corruptia-4p.json", "testdata/learn/corruptia-nobill-3p.json"},
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
	// Every kind of the engine's is a person's decision but "nothing" (the game is over) and
	// "table" (draws, shuffles, deals, a hand shown); and "nobill", kindOf's.
	kinds: append(engineKinds(rules.DecideNothing, rules.DecideTable), "nobill", "results"),
	// A proposal with no bill to propose is a kind of its own: the board asks only to show
	// the hand (its Decision's can_nobill).
	kindOf: func(kind string, decision []byte) string {
		var d struct {
			CanNoBill bool `json:"can_nobill"`
		}
		if kind == rules.DecidePropose.String() && json.Unmarshal(decision, &d) == nil && d.CanNoBill {
			return "nobill"
		}
		return kind
	},
}

// TestCorruptiaLearnKinds: the scripts of corruptiaLearn hold a position of every kind of
// decision the engine has, of no bill to propose and of the results (the scripted test checks
// it too; this needs no browser).
func TestCorruptiaLearnKinds(t *testing.T) {
	t.Parallel()
	checkKinds(t, corruptiaLearn, scriptPositions(t, corruptiaLearn))
}

// TestCorruptiaLearn: a newcomer plays a whole game of Corruptia by the page's roles and names,
// at 1366x768 or on a 390x844 phone (learnWholeSizes: one a run; both, in every language,
// under CORRUPTION_LEARN_MATRIX=1).
func TestCorruptiaLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games in the plain pass")
	}
	t.Parallel()
	sweep := newAxeSweep() // (the whole games share it: axe-core checks each new screen once)
	for _, vp := range learnWholeSizes(t) {
		for _, lang := range learnLangs() {
			t.Run(fmt.Sprintf("%s-%s", vp.name, lang), func(t *testing.T) { t.Parallel(); learnWholeGame(t, corruptiaLearn, vp, lang, sweep) })
		}
	}
}

// TestCorruptiaLearnScripted: a position of every kind of decision of Corruptia, and the
// results, in a page with no network, at both sizes (in English, and Spanish or French: learnScriptedLangs): a prompt
// line, a reason beside every disabled control, no sideways scroll, axe-core, no English left
// in Spanish or French, and the rules panel.
func TestCorruptiaLearnScripted(t *testing.T) {
	t.Parallel()
	langs := learnScriptedLangs(t)
	for i, vp := range learnSizes {
		t.Run(vp.name, func(t *testing.T) { t.Parallel(); learnScripted(t, corruptiaLearn, vp, langs[i]) })
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
