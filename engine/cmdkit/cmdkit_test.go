package cmdkit_test

import (
	"errors"
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
		Simulate: func(cmdkit.Batch, io.Writer) (cmdkit.Report, error) { return nil, nil },
		Replay:   func([]byte, io.Writer) (any, string, error) { return nil, "", nil },
		Record:   func(cmdkit.Batch, int) ([]byte, error) { return nil, nil },
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
		"no Replay": func(g *cmdkit.Game) { g.Replay = nil },
		"no Bots":   func(g *cmdkit.Game) { g.Bots = nil },
		"no Score":  func(g *cmdkit.Game) { g.Score = nil },
		"--n":       func(g *cmdkit.Game) { g.Settings[0].Default = 2.5 },
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

// TestWords: the settings and the seating in words.
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
	if got, want := cmdkit.Seating([]string{"a", "b"}, 3), "0=a 1=b 2=a"; got != want {
		t.Errorf("Seating = %q, want %q", got, want)
	}
	if cmdkit.Plural(1, "game", "games") != "game" || cmdkit.Plural(2, "game", "games") != "games" {
		t.Error("Plural")
	}
}
