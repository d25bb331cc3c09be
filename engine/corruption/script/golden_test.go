package script_test

// Golden scripts: every testdata/NAME.json is replayed and compared with testdata/NAME.want, a
// JSON object with the fields of `corruption replay --json` that it pins down (issue 2):
// finished, round, scores, contracts, deferred, winners, next; or, for a script that must fail,
// "error" (how the error begins: "move K: ..." for an illegal move, a place in the file for a
// malformed one) and "error_contains"; "end" (how the game ended), when given. The state after a failed replay is the one before the
// bad move.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/script"
)

type want struct {
	Error         *string     `json:"error"`
	ErrorContains string      `json:"error_contains"`
	Finished      *bool       `json:"finished"`
	Round         int         `json:"round"`
	Scores        []int       `json:"scores"`
	Contracts     [][]string  `json:"contracts"`
	Deferred      []string    `json:"deferred"` // compared as a set
	Winners       []int       `json:"winners"`
	Next          *wantNext   `json:"next"`
	HasNext       bool        `json:"-"`
	End           *script.End `json:"end"`
}

type wantNext struct {
	Seat     int    `json:"seat"`
	Decision string `json:"decision"`
	Index    int    `json:"index"`
}

func TestGoldenScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in testdata: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			wdata, err := os.ReadFile(strings.TrimSuffix(file, ".json") + ".want")
			if err != nil {
				t.Fatalf("every script needs its .want: %v", err)
			}
			var w want
			dec := json.NewDecoder(bytes.NewReader(wdata))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&w); err != nil {
				t.Fatalf("%s.want: %v", name, err)
			}
			var raw map[string]json.RawMessage
			_ = json.Unmarshal(wdata, &raw)
			_, w.HasNext = raw["next"]

			sc, err := script.Parse(data)
			var s *corruption.State
			var sum *script.Summary
			if err == nil {
				s, err = sc.Run()
				sum, _ = sc.Replay()
			}
			switch {
			case w.Error == nil && err != nil:
				t.Fatalf("error: %v", err)
			case w.Error != nil && err == nil:
				t.Fatalf("no error, want one beginning %q", *w.Error)
			case w.Error != nil && !strings.HasPrefix(err.Error(), *w.Error):
				t.Errorf("error %q, want it to begin %q", err, *w.Error)
			}
			if w.ErrorContains != "" && (err == nil || !strings.Contains(err.Error(), w.ErrorContains)) {
				t.Errorf("error %v, want it to mention %s", err, w.ErrorContains)
			}
			if s == nil {
				return
			}
			if w.End != nil && (sum.End == nil || *sum.End != *w.End) {
				t.Errorf("end %+v, want %+v", sum.End, *w.End)
			}
			n := s.Config().Players
			if w.Finished != nil && s.Over() != *w.Finished {
				t.Errorf("finished %t", s.Over())
			}
			if w.Round != 0 && s.Round() != w.Round {
				t.Errorf("round %d, want %d", s.Round(), w.Round)
			}
			if w.Scores != nil {
				got := make([]int, n)
				for seat := range got {
					got[seat], _ = s.Score(seat)
				}
				if !slices.Equal(got, w.Scores) {
					t.Errorf("scores %v, want %v", got, w.Scores)
				}
			}
			if w.Contracts != nil {
				got := make([][]string, n)
				for seat := range got {
					got[seat] = []string{}
					for _, c := range s.Won(seat) {
						got[seat] = append(got[seat], c.String())
					}
				}
				if !reflect.DeepEqual(got, w.Contracts) {
					t.Errorf("contracts %v, want %v", got, w.Contracts)
				}
			}
			if w.Deferred != nil {
				got := []string{}
				for _, c := range s.Table() {
					if s.Deferred(c) {
						got = append(got, c.String())
					}
				}
				slices.Sort(got)
				slices.Sort(w.Deferred)
				if !slices.Equal(got, w.Deferred) {
					t.Errorf("deferred %v, want %v", got, w.Deferred)
				}
			}
			if w.Winners != nil && !slices.Equal(s.Winners(), w.Winners) {
				t.Errorf("winners %v, want %v", s.Winners(), w.Winners)
			}
			if w.HasNext {
				d := s.Next()
				switch {
				case w.Next == nil && d.Kind != corruption.DecideNothing:
					t.Errorf("next %v, want nothing", d)
				case w.Next != nil && (d.Seat != w.Next.Seat || d.Kind.String() != w.Next.Decision || d.Index != w.Next.Index):
					t.Errorf("next %v (%s seat %d index %d), want %+v", d, d.Kind, d.Seat, d.Index, *w.Next)
				}
			}
		})
	}
}
