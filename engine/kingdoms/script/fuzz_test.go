package script_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"corruption/engine/kingdoms/script"
)

// FuzzParseScript: Parse never panics; whatever it accepts, Marshal writes so that Parse reads
// the same script, and Marshal is then stable; Run never panics. Run:
// go test -run='^$' -fuzz='^FuzzParseScript$' -fuzztime=5000x ./engine/kingdoms/script/
func FuzzParseScript(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		`{"players": 2, "moves": []}`,
		`{"players": 5, "rules": "bonuses", "seed": 3, "moves": [{"seat": 1, "pick": "gold/magic", "remove": "whip", "exchange": "magic-1", "for": "magic-2", "minion": "devil"}]}`,
		`{"players": 4, "rules": "chaos", "moves": [{"seat": 0, "chaos": "margin-call", "target": 1, "minion": "golem"}, {"seat": 0, "pass": false}]}`,
		`{"players": 3, "moves": [{"seat": 0, "influence": "marshal", "waive": ["golem", "golem"], "extra": "devil"}, {"seat": 2, "cycle": "gold/magic"}]}`,
		`{"players": 3, "moves": [{"seat": 0, "influence": "chancellor", "pay": ["devil", "golem"]}, {"seat": 1, "influence": "whip", "pay": []}, {"seat": 2, "influence": "whip", "pay": ["zombie", "goblin", "golem", "golem"]}]}`,
		`{"players": 6, "shareholders": [["magic-1"], ["magic-2"]], "moves": [{"seat": 9, "vote": "maybe"}]}`,
		`{"players": 3}`, `{"moves": [{}]}`, ``, `{`, `{"players": 3, "players": 4, "moves": []}`, `{"Players": 3, "moves": []}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := script.Parse(data)
		if err != nil {
			if sc != nil || err.Error() == "" {
				t.Fatalf("a script and an error, or an empty error: %v", err)
			}
			return
		}
		out, err := sc.Marshal()
		if err != nil {
			t.Fatalf("Parse accepted what Marshal cannot write: %v", err)
		}
		back, err := script.Parse(out)
		if err != nil {
			t.Fatalf("Parse refuses what Marshal wrote: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, sc) {
			t.Fatalf("round trip:\n%+v\nwant\n%+v", back, sc)
		}
		if again, err := back.Marshal(); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Marshal is not stable: %v", err)
		}
		if len(sc.Moves) <= 300 {
			_, _ = sc.Run(nil)
		}
	})
}
