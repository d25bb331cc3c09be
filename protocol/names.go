package protocol

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Names and what a screen shows. A player's name and a table's name travel in the hello and
// the genesis and end up on every other player's screen: in a terminal, a control character
// there is a command to the terminal (ESC [2J clears it, ESC ] 0; sets its title), and a
// bidi control reorders what follows it. From version 3 on, a name holds none (CheckName);
// chat text holds no control character at any version, and no bidi control from version 3 on
// (CheckChatText). Printable shows any name or chat text, of any version, with those
// characters escaped, for a front end to print.
//
// What it promises:
//   - CheckName refuses exactly the runes refusedRanges lists: the control characters (Unicode
//     category Cc), the format characters (Cf, which hold the bidi controls, the invisible
//     zero-width space and word joiner, the byte order mark, the tag characters) except U+200C
//     ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER, and the line and paragraph separators
//     (U+2028, U+2029). The list is written out, not read from Go's Unicode tables, so that
//     every build accepts the same names whatever Unicode version its Go has
//     (TestRefusedRunesAreCcCf pins it to Cc and Cf of this build's tables).
//   - Printable(s) holds no rune CheckName refuses (and only valid UTF-8); it returns s itself
//     when s holds none and is valid UTF-8.

// refusedRanges are the runes a name may not hold, from version 3 on: each range inclusive.
var refusedRanges = []struct {
	lo, hi rune
	what   string
}{
	{0x0000, 0x001F, "a control character"},
	{0x007F, 0x009F, "a control character"},
	{0x00AD, 0x00AD, "a format character (soft hyphen)"},
	{0x0600, 0x0605, "a format character"},
	{0x061C, 0x061C, "a bidi control"},
	{0x06DD, 0x06DD, "a format character"},
	{0x070F, 0x070F, "a format character"},
	{0x0890, 0x0891, "a format character"},
	{0x08E2, 0x08E2, "a format character"},
	{0x180E, 0x180E, "a format character"},
	{0x200B, 0x200B, "a format character (zero width space)"},
	// U+200C ZERO WIDTH NON-JOINER and U+200D ZERO WIDTH JOINER are kept: emoji sequences and
	// Persian or Indic names need them.
	{0x200E, 0x200F, "a bidi control"},
	{0x2028, 0x2029, "a line or paragraph separator"},
	{0x202A, 0x202E, "a bidi control"},
	{0x2060, 0x2064, "a format character"},
	{0x2066, 0x2069, "a bidi control"},
	{0x206A, 0x206F, "a format character"},
	{0xFEFF, 0xFEFF, "a format character (byte order mark)"},
	{0xFFF9, 0xFFFB, "a format character"},
	{0x110BD, 0x110BD, "a format character"},
	{0x110CD, 0x110CD, "a format character"},
	{0x13430, 0x1343F, "a format character"},
	{0x1BCA0, 0x1BCA3, "a format character"},
	{0x1D173, 0x1D17A, "a format character"},
	{0xE0001, 0xE0001, "a format character (tag)"},
	{0xE0020, 0xE007F, "a format character (tag)"},
}

// refused says what r is when a name may not hold it ("a control character"), or "".
func refused(r rune) string {
	for _, rg := range refusedRanges {
		if r >= rg.lo && r <= rg.hi {
			return rg.what
		}
	}
	return ""
}

// isBidiControl reports whether r is one of the bidi controls: the embeddings and overrides
// U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C.
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// CheckName says what is wrong with a player's or a table's name by the rules of version 3,
// or nil: valid UTF-8 of at most MaxNameSize bytes, without any rune refusedRanges lists. The
// error names the first such rune (U+001B) and what it is.
func CheckName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("%q is not UTF-8", name)
	}
	if len(name) > MaxNameSize {
		return fmt.Errorf("%q is %d bytes, more than %d", name, len(name), MaxNameSize)
	}
	for _, r := range name {
		if what := refused(r); what != "" {
			return fmt.Errorf("%q holds %U, %s (a name is shown on every player's screen: it may hold no control, format or bidi character)", name, r, what)
		}
	}
	return nil
}

// CheckTableName says what is wrong with a table's name, or nil: the one rule of a table's name,
// which the command line, the page, the network's names and the phones' laptop all apply: 1 to
// MaxNameSize bytes, no slash (a table's files are kept under its name), not "." or "..", and
// CheckName's runes. Spaces, accents, Greek or emoji are names as any.
func CheckTableName(name string) error {
	if name == "" || len(name) > MaxNameSize || strings.ContainsAny(name, "/\\") || name == "." || name == ".." {
		return fmt.Errorf("%q is not a table name (1 to %d characters, no slashes)", name, MaxNameSize)
	}
	return CheckName(name)
}

// Printable is s as a screen may show it: every rune a name may not hold (refusedRanges)
// escaped as \x1b (below U+0080), \u202e or \U000e0041, and every byte that is not UTF-8 as
// \xff. A name or a chat text of a version-2 log may hold anything; Printable shows it all the
// same.
func Printable(s string) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if refused(r) != "" {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case refused(r) == "":
			b.WriteString(s[i : i+size])
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	return b.String()
}
