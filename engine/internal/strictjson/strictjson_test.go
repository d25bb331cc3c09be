package strictjson

import (
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
