package strictjson

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

type sample struct {
	Players int    `json:"players"`
	Rules   string `json:"rules,omitempty"`
}

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		in, err string
	}{
		{`{"players": 3, "rules": "basic"}`, ""},
		{` {"players": 3} `, ""},
		{`{"players": 3, "Rules": "basic"}`, `unknown field "Rules"`},
		{`{"players": 3, "speed": 1}`, `unknown field "speed"`},
		{`{"players": 3, "players": 4}`, `field "players" appears twice`},
		{`{"players": 3} {}`, "unexpected data after the closing brace"},
		{`{"players": 3} x`, "unexpected data after the closing brace"},
		{`{"players": "three"}`, "cannot unmarshal"},
		{`[1]`, "cannot unmarshal"},
		{`{"players": 3`, "unexpected EOF"},
	} {
		var s sample
		err := Decode([]byte(c.in), &s)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.in, err, c.err)
		case c.err == "" && s.Players != 3:
			t.Errorf("%s: decoded %+v", c.in, s)
		}
	}
}

// TestMoves: a script's moves are written one a line and the script closed; a move that
// cannot be written is named by its number, counted from 1.
func TestMoves(t *testing.T) {
	var b bytes.Buffer
	moves := []string{"a", "b"}
	err := Moves(&b, len(moves), func(b *bytes.Buffer, i int) error { b.WriteString(moves[i]); return nil })
	if want := " \"moves\": [\n  a,\n  b\n]}\n"; err != nil || b.String() != want {
		t.Errorf("Moves wrote %q, %v; want %q", b.String(), err, want)
	}
	b.Reset()
	if err := Moves(&b, 0, nil); err != nil || b.String() != " \"moves\": [\n]}\n" {
		t.Errorf("no moves: %q, %v", b.String(), err)
	}
	err = Moves(&b, 3, func(_ *bytes.Buffer, i int) error {
		if i == 1 {
			return errors.New("no such card")
		}
		return nil
	})
	if err == nil || err.Error() != "move 2: no such card" {
		t.Errorf("a move that cannot be written gives %v", err)
	}
}
