package protocol_test

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"

	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// hostileNames are names a player could choose to take over another player's screen, each
// with the first rune version 3 refuses in it.
var hostileNames = []struct {
	name string
	r    rune
}{
	{"\x1b[2J\x1b]0;owned\x07", 0x1b},     // clears the terminal, sets its title
	{"ann\u202e001\u202c", 0x202e},        // right-to-left override
	{"bob\u2066x\u2069", 0x2066},          // an isolate
	{"cy\u200b", 0x200b},                  // zero width space
	{"dee\u2028eve", 0x2028},              // a line separator
	{"\u0085next line", 0x85},             // a C1 control
	{"tag\U000e0041", 0xe0041},            // a tag character
	{"mark\u200f", 0x200f},                // right-to-left mark
	{"arabic\u061cmark", 0x061c},          // Arabic letter mark
	{"bom\ufeff", 0xfeff},                 // byte order mark
	{"del\x7f", 0x7f},                     // DEL
	{"soft\u00adhyphen", 0xad},            // soft hyphen
	{"tab\tname", 0x09},                   // a tab
	{"nul\x00", 0x00},                     // NUL
	{"egyptian\U00013430format", 0x13430}, // Egyptian hieroglyph format control
}

// goodNames are names version 3 keeps: the zero-width joiner and non-joiner among them, which
// emoji and Persian or Indic names need.
var goodNames = []string{"ann", "José", "李小龙", "👩\u200d💻 dev", "می\u200cخواهم", "क्\u200dष", "O'Brien", `¯\_(ツ)_/¯`, "<img src=x onerror=alert(1)>", ""}

// TestRefusedRunes: the runes a name may not hold are exactly the control and format
// characters (Cc, Cf) and the line and paragraph separators of this build's Unicode tables,
// less U+200C and U+200D. The list is written out in names.go: when a new Go's Unicode adds a
// format character, this fails, and accepting it or not is a protocol change.
func TestRefusedRunes(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue // surrogates are not UTF-8
		}
		want := (unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r)) &&
			r != 0x200C && r != 0x200D
		err := protocol.CheckName("a" + string(r) + "b")
		if (err != nil) != want {
			t.Errorf("%U: refused %v, want %v (%v)", r, err != nil, want, err)
		}
		if want && !strings.Contains(fmt.Sprint(err), fmt.Sprintf("%U", r)) {
			t.Errorf("%U: the error does not name it: %v", r, err)
		}
	}
}

// TestCheckName: a name with a control, format or bidi character is refused, naming the first
// one; names in any script, with emoji and joiners, are kept; so is markup (the page shows it
// as text).
func TestCheckName(t *testing.T) {
	for _, h := range hostileNames {
		err := protocol.CheckName(h.name)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U", h.r)) {
			t.Errorf("%q: %v, want an error naming %U", h.name, err, h.r)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\u202e\u2066\u2028\x00") {
			t.Errorf("%q: the error holds the raw character: %q", h.name, err)
		}
	}
	for _, n := range goodNames {
		if err := protocol.CheckName(n); err != nil {
			t.Errorf("%q: %v", n, err)
		}
	}
	for _, n := range []string{"\xff", strings.Repeat("a", protocol.MaxNameSize+1)} {
		if protocol.CheckName(n) == nil {
			t.Errorf("%q is accepted", n)
		}
	}
}

// TestPrintable: what a screen shows of a name or a chat text of any version holds no rune a
// name may not hold and only UTF-8; a clean text is shown as it is.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[2J\x1b]0;owned\x07": `\x1b[2J\x1b]0;owned\x07`,
		"I pay \u202e001\u202c":   `I pay \u202e001\u202c`,
		"tag\U000e0041":           `tag\U000e0041`,
		"bad \xff byte":           `bad \xff byte`,
		"\u0085":                  `\u0085`,
	} {
		got := protocol.Printable(in)
		if got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
		if protocol.CheckName(got) != nil && len(got) <= protocol.MaxNameSize {
			t.Errorf("Printable(%q) = %q, which a name may not be", in, got)
		}
	}
	for _, n := range goodNames {
		if got := protocol.Printable(n); got != n {
			t.Errorf("Printable(%q) = %q, want it unchanged", n, got)
		}
	}
}

// TestGenesisNames: a genesis of version 3 with a player or table name that holds a control,
// format or bidi character is refused (Check, ParseGenesis, NewGenesis); the same genesis of
// version 2 still parses by version 2's rules, so that its logs audit.
func TestGenesisNames(t *testing.T) {
	g, keys := chatGenesis(t)
	for _, h := range hostileNames {
		for _, where := range []string{"player", "table"} {
			bad := *g
			bad.Roster = append([]protocol.Member(nil), g.Roster...)
			if where == "player" {
				bad.Roster[1].Name = h.name
			} else {
				bad.Name = h.name
			}
			want := fmt.Sprintf("%U", h.r)
			if err := bad.Check(); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s name %q at version 3: Check says %v, want an error naming %U", where, h.name, err, h.r)
			}
			if _, err := protocol.ParseGenesis(bad.Marshal()); err == nil {
				t.Errorf("%s name %q: ParseGenesis accepts it", where, h.name)
			}
			if _, err := protocol.NewGenesis(bytes.NewReader(make([]byte, 16)), keys[0], &bad); err == nil {
				t.Errorf("%s name %q: NewGenesis signs it", where, h.name)
			}
			old := bad
			old.Version = 2
			if err := old.Check(); err != nil {
				t.Errorf("%s name %q at version 2: %v", where, h.name, err)
			}
			e, err := protocol.NewGenesis(bytes.NewReader(make([]byte, 16)), keys[0], &old)
			if err != nil {
				t.Fatalf("%s name %q at version 2: %v", where, h.name, err)
			}
			if e.Version != 2 {
				t.Fatalf("a genesis of version 2 is signed as version %d", e.Version)
			}
			back, err := protocol.GenesisOf(e)
			if err != nil || back.Version != 2 {
				t.Errorf("%s name %q: the version-2 genesis reads back with %v", where, h.name, err)
			}
		}
	}
}

// TestHelloNames: a hello of version 3 whose player or table name holds a control, format or
// bidi character does not parse (so the network's validator drops it), naming the rune; a
// hello of version 2 with the same name parses, to be told apart as an older release; a node
// is not made with such a name.
func TestHelloNames(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	cfg := corruption.EncodeConfig(corruption.Standard, false)
	for _, h := range hostileNames {
		for _, msg := range [][]byte{
			protocol.HelloForTest(3, "t", "corruption", cfg, 3, h.name, key),
			protocol.HelloForTest(3, h.name, "corruption", cfg, 3, "ann", key),
		} {
			_, err := protocol.ParseAnnouncement(msg)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U", h.r)) {
				t.Errorf("a hello of version 3 with %q: %v, want an error naming %U", h.name, err, h.r)
			}
			if protocol.Check(msg) {
				t.Errorf("a hello of version 3 with %q passes Check", h.name)
			}
		}
		a, err := protocol.ParseAnnouncement(protocol.HelloForTest(2, "t", "corruption", cfg, 3, h.name, key))
		if err != nil || a.Version != 2 || a.Name != h.name {
			t.Errorf("a hello of version 2 with %q: %+v, %v", h.name, a, err)
		}
	}
	for _, n := range goodNames {
		if _, err := protocol.ParseAnnouncement(protocol.HelloForTest(3, "t", "corruption", cfg, 3, n, key)); err != nil {
			t.Errorf("a hello of version 3 from %q: %v", n, err)
		}
	}
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	store, err := protocol.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = protocol.NewNode(protocol.NodeConfig{Table: "t", Game: "corruption", Config: cfg, Players: 3, Name: "\x1b]0;x\x07",
		Identity: key, Store: store, Player: toyBot{}, Net: net.Node("n"), Timeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "U+001B") {
		t.Errorf("NewNode with a name holding ESC: %v", err)
	}
}

// TestCheckTableName: the one rule of a table's name: what a person types is a name (spaces,
// an apostrophe, accents, Greek, emoji), but a slash, "." or "..", an empty name, one over
// MaxNameSize bytes, or one holding a rune CheckName refuses.
func TestCheckTableName(t *testing.T) {
	for _, ok := range []string{"ann's table", "Zoë et Ça", "Τραπέζι της Άννας", "🎲 ann's table 🃏", "friday #2", strings.Repeat("x", protocol.MaxNameSize)} {
		if err := protocol.CheckTableName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{"": "not a table name", "a/b": "no slashes", `a\b`: "no slashes", ".": "not a table name",
		"..": "not a table name", strings.Repeat("x", protocol.MaxNameSize+1): "not a table name", "friday\u2066": "U+2066", "a\x1bb": "U+001B"} {
		if err := protocol.CheckTableName(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", bad, err, want)
		}
	}
}
