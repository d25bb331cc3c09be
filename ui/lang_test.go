package ui

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// TestFill: Say's arguments fill a text as a strings.Replacer of "{name}" → value would (what
// Say used before), brace cases included.
func TestFill(t *testing.T) {
	args := []any{"who", "ann", "n", 3, "who", "bob", "x", "{who}"}
	for _, text := range []string{
		"", "plain", "{who} bids {n}", "{who}{who}", "{nobody} and {who}", "{a{who}", "{", "}", "{}", "{who", "who}",
		"{n}}", "{{n}}", "{x}", "é {who} ü", "{n} {n} {missing",
	} {
		var pairs []string
		for i := 0; i+1 < len(args); i += 2 {
			pairs = append(pairs, "{"+fmt.Sprint(args[i])+"}", fmt.Sprint(args[i+1]))
		}
		want := strings.NewReplacer(pairs...).Replace(text)
		if got := fill(text, args); got != want {
			t.Errorf("fill(%q) = %q, want %q", text, got, want)
		}
	}
}

func BenchmarkSay(b *testing.B) {
	for b.Loop() {
		shellWords.Say("fr", "seat", "n", 5)
	}
}

// TestWordsRead: LoadWords reads every language's file at once and names the one that does not
// read; MustLoadWords reads a language at its first use, and a file that does not read has no
// words (English, then the key, stand in for them), never a panic in a table's middle.
func TestWordsRead(t *testing.T) {
	fsys := fstest.MapFS{
		"lang/en.json": {Data: []byte(`{"words": {"hi": "Hello {who}", "bye": "Bye"}}`)},
		"lang/es.json": {Data: []byte(`{"words": {"hi": "Hola {who}"}}`)},
		"lang/fr.json": {Data: []byte(`{"words": {"hi": "Salut`)},
	}
	if _, err := LoadWords(fsys, "lang"); err == nil || !strings.Contains(err.Error(), "the fr words") {
		t.Errorf("LoadWords with a broken French file: %v", err)
	}
	w := MustLoadWords(fsys, "lang")
	if got := strings.Join(w.Speaks(), " "); got != "en es fr" {
		t.Errorf("speaks %q", got)
	}
	for _, c := range []struct{ lang, key, want string }{
		{"es", "hi", "Hola ann"}, {"es", "bye", "Bye"}, {"fr", "hi", "Hello ann"}, {"en", "nope", "nope"}, {"de", "hi", "Hello ann"},
	} {
		if got := w.Say(c.lang, c.key, "who", "ann"); got != c.want {
			t.Errorf("Say(%s, %s) = %q, want %q", c.lang, c.key, got, c.want)
		}
	}
	if len(w.Keys("fr")) != 0 || len(w.Keys("es")) != 1 {
		t.Errorf("keys: fr %v, es %v", w.Keys("fr"), w.Keys("es"))
	}
	// Without English, nothing loads.
	delete(fsys, "lang/en.json")
	if _, err := LoadWords(fsys, "lang"); err == nil {
		t.Error("LoadWords without English")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("MustLoadWords without English does not panic")
			}
		}()
		MustLoadWords(fsys, "lang")
	}()
	// Every package's own files read whole.
	if _, err := LoadWords(static, "static/lang"); err != nil {
		t.Errorf("the shell's words: %v", err)
	}
}
