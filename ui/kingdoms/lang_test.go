package kingdoms

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	rules "corruption/engine/kingdoms"
)

// TestBoardLanguages: the board's words files (read by the server and by the page) have the
// same keys in English, Spanish and French, each with the same arguments, and the rules panel
// the same sections; and a game's screen, log and terminal in Spanish or French hold none of
// the English sentences.
func TestBoardLanguages(t *testing.T) {
	args := regexp.MustCompile(`\{\w+\}`)
	type file struct {
		Words map[string]string `json:"words"`
		Rules []struct {
			Title string   `json:"title"`
			Text  []string `json:"text"`
		} `json:"rules"`
	}
	read := func(lang string) file {
		b, err := fs.ReadFile(static, "static/lang/"+lang+".json")
		if err != nil {
			t.Fatal(err)
		}
		var f file
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		return f
	}
	en := read("en")
	for _, lang := range []string{"es", "fr"} {
		f := read(lang)
		for k, e := range en.Words {
			x, ok := f.Words[k]
			if !ok {
				t.Errorf("%s lacks %q", lang, k)
				continue
			}
			a, b := args.FindAllString(e, -1), args.FindAllString(x, -1)
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("%s %q: arguments %v, English %v", lang, k, b, a)
			}
		}
		if len(f.Words) != len(en.Words) {
			t.Errorf("%s has %d words, English %d", lang, len(f.Words), len(en.Words))
		}
		if len(f.Rules) != len(en.Rules) || len(en.Rules) < 5 {
			t.Errorf("%s's rules panel has %d sections, English %d", lang, len(f.Rules), len(en.Rules))
		}
	}
	// A game in Spanish and French: the terminal's screen and every event's line.
	for _, lang := range []string{"es", "fr"} {
		b := Board{}.Localize(lang).(Board)
		var lines []string
		play(t, table{4, rules.Advanced, "heuristic"}, 7, func(g *rules.Game, seat int) {
			if seat == 0 && len(lines) < 400 {
				lines = append(lines, b.Show(g, seat, names[:4]))
			}
		}, enginetest.Events(func(e engine.Event) { lines = append(lines, b.Tell(e, names[:4], 0).Text) }))
		for _, english := range []string{"Round ", "Your turn", " takes ", "Vote on", "Market:", "Players:", "the Chancellor", "guilty pleasure"} {
			for _, l := range lines {
				if strings.Contains(l, english) {
					t.Errorf("%s: %q holds the English %q", lang, firstLine(l, english), english)
					break
				}
			}
		}
	}
}

func firstLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return s
}
