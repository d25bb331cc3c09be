package script_test

// FuzzParseScript: Parse never panics, and whatever it accepts, Marshal writes back so that
// Parse reads the same script (and Marshal is then stable). Short runs:
// go test -run='^$' -fuzz='^FuzzParseScript$' -fuzztime=20s ./engine/corruption/script/

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"corruption/engine/corruption/script"
)

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
		doc(""),
		doc(`{"seat": 0, "faceup": []}, {"seat": 0, "faceup": [6, 1]}`, "variant", `"free-stud"`),
		doc(`{"seat": 1, "peek": -3}, {"seat": -1, "kill": 99}, {"seat": 7, "remove": 0}, {"seat": 2, "pass": true}`, "little_black_book", "true"),
		doc(`{"seat": 0, "assign": "dam"}, {"seat": 0, "card": "hitman", "on": "swiss:capitol"}`, "variant", `"closed"`),
		`{"players": 3}`, `{"moves": [{}]}`, "", "{", `{"players": 3, "players": 4}`, `{"Players": 3}`,
		"{\"players\": 3,\n \"deck\": [\"school\" \"monument\"]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := script.Parse(data)
		if err != nil {
			if sc != nil {
				t.Fatalf("a script and an error: %v", err)
			}
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		out, err := sc.Marshal()
		if err != nil {
			t.Fatalf("Parse accepted what Marshal cannot write: %v", err)
		}
		back, err := script.Parse(out)
		if err != nil {
			t.Fatalf("Parse rejects what Marshal wrote: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, sc) {
			t.Fatalf("round trip:\n%+v\nwant\n%+v", back, sc)
		}
		again, err := back.Marshal()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Marshal is not stable: %v\n%s\n%s", err, out, again)
		}
		if len(sc.Moves) <= 200 {
			_, _ = sc.Run() // must not panic, whatever the moves
		}
	})
}
