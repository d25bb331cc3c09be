package cmdkit_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/cmdkit"
)

// values are settings' values by name; given are those given.
type values struct {
	m     map[string]any
	given map[string]bool
}

func (v values) String(name string) string { s, _ := v.m[name].(string); return s }
func (v values) Int(name string) int       { n, _ := v.m[name].(int); return n }
func (v values) Bool(name string) bool     { b, _ := v.m[name].(bool); return b }
func (v values) IsSet(name string) bool    { return v.given[name] }

// whole is a game with every part, its configuration the byte of --n.
func whole() *cmdkit.Game {
	return &cmdkit.Game{
		ID:       "toy",
		Settings: []cmdkit.Setting{{Name: "n", Default: 2, Min: 0, Max: 9}, {Name: "fast", Default: false}, {Name: "deck", Default: "red"}},
		Encode: func(v cmdkit.Values) ([]byte, error) {
			if v.String("deck") != "red" {
				return nil, errors.New("--deck: only red")
			}
			return []byte{byte(v.Int("n"))}, nil
		},
		Bots:     []string{"random"},
		Bot:      func(string, uint64, int) (engine.Player, error) { return nil, nil },
		Batches:  batches(nil),
		Replay:   func([]byte, io.Writer) (any, string, error) { return nil, "", nil },
		Narrator: func(io.Writer, []byte, int) func(engine.Event) { return nil },
		Score:    func(int) string { return "" },
	}
}

// TestCheck: a whole game passes; a game without a part, or with a setting whose default is
// of no kind a flag has, fails with the part's name.
func TestCheck(t *testing.T) {
	if err := whole().Check(); err != nil {
		t.Fatal(err)
	}
	for part, cut := range map[string]func(g *cmdkit.Game){
		"no Replay":  func(g *cmdkit.Game) { g.Replay = nil },
		"no Batches": func(g *cmdkit.Game) { g.Batches = nil },
		"no Bots":    func(g *cmdkit.Game) { g.Bots = nil },
		"no Score":   func(g *cmdkit.Game) { g.Score = nil },
		"--n":        func(g *cmdkit.Game) { g.Settings[0].Default = 2.5 },
	} {
		g := whole()
		cut(g)
		if err := g.Check(); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(part, "no ")) {
			t.Errorf("%s: Check says %v", part, err)
		}
	}
}

// TestConfig: an int setting out of its bounds is refused with the flag, the value and the
// bounds; within them, the values are Encode's, and Encode's errors are given as they are.
func TestConfig(t *testing.T) {
	g := whole()
	for _, tt := range []struct {
		v         map[string]any
		want, err string
	}{
		{map[string]any{"n": 3, "deck": "red"}, "\x03", ""},
		{map[string]any{"n": 10, "deck": "red"}, "", "--n: 10, want 0 to 9"},
		{map[string]any{"n": -1, "deck": "red"}, "", "--n: -1, want 0 to 9"},
		{map[string]any{"n": 1, "deck": "blue"}, "", "--deck: only red"},
	} {
		got, err := g.Config(values{m: tt.v})
		if string(got) != tt.want || (err == nil) != (tt.err == "") || (err != nil && err.Error() != tt.err) {
			t.Errorf("Config(%v) = %q, %v; want %q, %q", tt.v, got, err, tt.want, tt.err)
		}
	}
}

// TestWords: the settings in words.
func TestWords(t *testing.T) {
	g := whole()
	if got, want := g.SettingsWords(), "its settings are --n, --fast and --deck"; got != want {
		t.Errorf("SettingsWords = %q, want %q", got, want)
	}
	g.Settings = g.Settings[:1]
	if got, want := g.SettingsWords(), "its setting is --n"; got != want {
		t.Errorf("SettingsWords = %q, want %q", got, want)
	}
	if !g.Has("n") || g.Has("deck") {
		t.Errorf("Has: n %v, deck %v", g.Has("n"), g.Has("deck"))
	}
	if cmdkit.Plural(1, "game", "games") != "game" || cmdkit.Plural(2, "game", "games") != "games" {
		t.Error("Plural")
	}
}

// report is a batch's results: how many games.
type report struct{ games int }

func (r *report) Report(w io.Writer) { fmt.Fprintf(w, "%d games", r.games) }

// script is a recorded game: its number.
type script struct{ game int }

func (s *script) Marshal() ([]byte, error) { return []byte(fmt.Sprint(s.game)), nil }

// batches plays a batch by its number of games, failing with fail when it is not nil; its
// configuration decodes when it is "ok".
func batches(fail error) cmdkit.Batches[int, *report, *script] {
	return cmdkit.Batches[int, *report, *script]{
		Decode: func(b cmdkit.Batch) (int, error) {
			if string(b.Config) != "ok" {
				return 0, fmt.Errorf("config %q", b.Config)
			}
			return b.Games, nil
		},
		Tell: func(games *int, show io.Writer) { fmt.Fprintf(show, "%d games to play", *games) },
		Play: func(games int) (*report, error) {
			if fail != nil {
				return nil, fail
			}
			return &report{games}, nil
		},
		Recorded: func(games, i int) (*script, error) {
			if fail != nil {
				return nil, fail
			}
			return &script{i}, nil
		},
	}
}

// TestBatches: a batch is decoded, then played or one of its games recorded and marshalled;
// a failure of either is given as it is, with no report (not a nil report in an interface).
func TestBatches(t *testing.T) {
	b := cmdkit.Batch{Games: 3, Config: []byte("ok")}
	var out, shown strings.Builder
	r, err := batches(nil).Simulate(b, &shown)
	if err != nil || r == nil || shown.String() != "3 games to play" {
		t.Fatalf("Simulate = %v, %v, showing %q", r, err, shown.String())
	}
	if r.Report(&out); out.String() != "3 games" {
		t.Errorf("the report says %q", out.String())
	}
	if data, err := batches(nil).Record(b, 2); string(data) != "2" || err != nil {
		t.Errorf("Record = %q, %v", data, err)
	}
	fail := errors.New("no bots")
	if r, err := batches(fail).Simulate(b, nil); r != nil || err != fail {
		t.Errorf("a failed batch gives %#v, %v", r, err)
	}
	if data, err := batches(fail).Record(b, 2); data != nil || err != fail {
		t.Errorf("a failed record gives %q, %v", data, err)
	}
	bad := cmdkit.Batch{Games: 3, Config: []byte("bad")}
	if r, err := batches(nil).Simulate(bad, nil); r != nil || err == nil || !strings.Contains(err.Error(), "bad") {
		t.Errorf("a batch of a bad configuration gives %#v, %v", r, err)
	}
	if _, err := batches(nil).Record(bad, 0); err == nil {
		t.Error("a game of a bad configuration is recorded")
	}
}
