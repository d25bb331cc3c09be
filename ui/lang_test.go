package ui

import (
	"fmt"
	"strings"
	"testing"
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
