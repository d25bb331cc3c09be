package ui

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"corruption/protocol"
)

// Names and chat text on screen. A player chooses its name, and another player's screen shows
// it: the shell never shows a name or a chat text as it came. What it promises:
//   - Every name and chat text the page and the terminal show is escaped (protocol.Printable:
//     a control, format or bidi character shows as \x1b or \u202e, whatever the log's version)
//     and bidi-isolated: inside FSI…PDI (U+2068, U+2069), so that a right-to-left name or
//     text neither reorders the words around it nor is reordered by them. On the page the
//     text goes into the document as text, never as markup.
//   - A player's name is always shown with its seat ("⁨ann⁩ (seat 2)"; ShownName): two
//     players of one name, or of names that look alike (another case, another script's
//     letters, an invisible joiner), are told apart by their seat, and on the page by their
//     seat's colour too (docs/UI.md).
//   - The terminal prints nothing a name may not hold but line breaks, tabs and the isolates
//     it puts around names (safeWriter), whatever a board or an error message holds.

const (
	fsi = "\u2068" // FIRST STRONG ISOLATE
	pdi = "\u2069" // POP DIRECTIONAL ISOLATE
)

// Isolate is a name or a chat text as the shell shows it: escaped (protocol.Printable) and
// inside FSI…PDI.
func Isolate(s string) string { return fsi + protocol.Printable(s) + pdi }

// ShownName is the player of seat as the page and the terminal show it, in lang: its name
// isolated and its seat ("⁨ann⁩ (seat 2)"), or the seat alone when it has no name.
func ShownName(lang string, names []string, seat int) string {
	label := shellWords.Say(lang, "seat", "n", seat)
	if seat < 0 || seat >= len(names) || names[seat] == "" {
		return label
	}
	return fmt.Sprintf("%s (%s)", Isolate(names[seat]), label)
}

// ShownNames are the players' names by seat as ShownName shows them (nil for nil): what the
// shell gives a board, which prints them as they are.
func ShownNames(lang string, names []string) []string {
	if names == nil {
		return nil
	}
	out := make([]string, len(names))
	for seat := range names {
		out[seat] = ShownName(lang, names, seat)
	}
	return out
}

// distinct tells apart the players of one name where no seat does yet (the lobby, a table
// that forms): the second "ann" of a sorted list is "ann (2)", the third "ann (3)".
func distinct(names []string) []string {
	out := make([]string, len(names))
	seen := map[string]int{}
	for i, n := range names {
		seen[n]++
		out[i] = n
		if k := seen[n]; k > 1 {
			out[i] = fmt.Sprintf("%s (%d)", n, k)
		}
	}
	return out
}

// shownStatus is st with its names as ShownNames shows them, for the words that name players.
func shownStatus(lang string, st *protocol.Status) *protocol.Status {
	c := *st
	c.Names = ShownNames(lang, st.Names)
	return &c
}

// seatOfMember is the seat of the roster member a chat message names, by st's roster (-1 when
// the table's roster is not known yet).
func seatOfMember(roster []int, member int) int {
	for seat, r := range roster {
		if r == member {
			return seat
		}
	}
	return -1
}

// terminalText is s as the terminal prints it: every rune a name may not hold escaped
// (protocol.Printable), but line breaks, tabs and the isolates around names.
func terminalText(s string) string {
	keep := func(r rune) bool { return r == '\n' || r == '\t' || r == '\u2068' || r == '\u2069' }
	var b strings.Builder
	for {
		i := strings.IndexFunc(s, keep)
		if i < 0 {
			b.WriteString(protocol.Printable(s))
			return b.String()
		}
		b.WriteString(protocol.Printable(s[:i]))
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size])
		s = s[i+size:]
	}
}

// safeWriter writes what the terminal prints as terminalText shows it.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, terminalText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// isolateAll is every name of names isolated (nil for nil).
func isolateAll(names []string) []string {
	if names == nil {
		return nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Isolate(n)
	}
	return out
}
