package script_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"corruption/engine/kingdoms/script"
)

var update = flag.Bool("update", false, "rewrite the .want files of testdata/")

// TestGolden replays every script of testdata/: a good one must end as its .want file says (the
// result as `replay --json` prints it); a bad one (bad-*.json) must be refused with the error
// its .want file holds. Rewrite the files with go test -run TestGolden -update.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) == 0 {
		t.Fatal("no scripts in testdata/")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			sc, err := script.Parse(data)
			if err == nil {
				var res *script.Result
				res, err = sc.Run(nil)
				if err == nil {
					b, _ := json.MarshalIndent(res, "", " ")
					got = string(b) + "\n"
				}
			}
			bad := strings.HasPrefix(filepath.Base(file), "bad-")
			switch {
			case bad && err == nil:
				t.Fatal("a bad script replays without an error")
			case !bad && err != nil:
				t.Fatal(err)
			case bad:
				got = err.Error() + "\n"
			}
			want := strings.TrimSuffix(file, ".json") + ".want"
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(w) {
				t.Errorf("got\n%s\nwant\n%s", got, w)
			}
		})
	}
}
