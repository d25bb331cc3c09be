package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// Languages are the languages the shell speaks, by their ISO 639-1 code; the first is the
// default. The page chooses one from the browser's languages (and the person may switch), the
// terminal follows LANG.
var Languages = []string{"en", "es", "fr"}

// Lang picks the first supported language in prefs, each a language tag ("es-AR"), a POSIX
// locale ("fr_FR.UTF-8") or an Accept-Language list ("de, fr;q=0.8"); English when none fits.
func Lang(prefs ...string) string {
	for _, p := range prefs {
		for _, tag := range strings.Split(p, ",") {
			tag, _, _ = strings.Cut(tag, ";")
			tag = strings.ToLower(strings.TrimSpace(tag))
			if i := strings.IndexAny(tag, "-_.@"); i >= 0 {
				tag = tag[:i]
			}
			for _, l := range Languages {
				if tag == l {
					return l
				}
			}
		}
	}
	return Languages[0]
}

// LangFromEnv is the language the locale environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES,
// then LANG, as gettext reads them), through getenv (os.Getenv).
func LangFromEnv(getenv func(string) string) string {
	var prefs []string
	if l := getenv("LANGUAGE"); l != "" {
		prefs = append(prefs, strings.Split(l, ":")...)
	}
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			prefs = append(prefs, v)
			break
		}
	}
	return Lang(prefs...)
}

// A Localizer is a board that speaks more than English: Localize returns the board (the same
// type, a Board and or a TextBoard) speaking lang, one of Languages. A board that is not a
// Localizer is shown as it is, in its own words, with the shell's in the person's language.
type Localizer interface {
	Localize(lang string) any
}

// Localize is b speaking lang, if b is a Localizer that speaks it, else b.
func Localize[B any](b B, lang string) B {
	if l, ok := any(b).(Localizer); ok {
		if x, ok := l.Localize(lang).(B); ok {
			return x
		}
	}
	return b
}

// Words are a package's strings in every language it speaks, by key: one file a language,
// LANG.json, an object whose "words" maps each key to its text. A text names its arguments in
// braces ("{who} places {card}"); the page's script reads the same files. The zero value has
// no words: Say then returns the key.
//
// A language's file is read at its first use, not before: a browser's seat speaks one language
// (and English where it lacks a word), and reading every package's every language when its
// WebAssembly started cost a phone a tenth of a second (docs/PERFORMANCE.md).
type Words struct {
	langs map[string]func() map[string]string // by language, its words read once at first use
}

// LoadWords reads dir/LANG.json from fsys for every language of Languages there is a file of;
// English must be there. Every file is read now: an error names the first that does not read.
func LoadWords(fsys fs.FS, dir string) (*Words, error) {
	w := &Words{langs: map[string]func() map[string]string{}}
	for _, l := range Languages {
		words, err := readWords(fsys, dir, l)
		if err != nil {
			if l != Languages[0] && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, err
		}
		w.langs[l] = func() map[string]string { return words }
	}
	return w, nil
}

// readWords reads dir/lang.json.
func readWords(fsys fs.FS, dir, lang string) (map[string]string, error) {
	b, err := fs.ReadFile(fsys, path.Join(dir, lang+".json"))
	if err != nil {
		return nil, fmt.Errorf("the %s words: %w", lang, err)
	}
	var f struct {
		Words map[string]string `json:"words"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("the %s words: %w", lang, err)
	}
	return f.Words, nil
}

// MustLoadWords is LoadWords for the files embedded in a package, each file read at its
// language's first use: it panics if English is not there, and a file that does not read has
// no words (Say falls back to English, then to the key). Every package's tests read its files
// whole (TestWordsRead and the packages' own).
func MustLoadWords(fsys fs.FS, dir string) *Words {
	w := &Words{langs: map[string]func() map[string]string{}}
	for _, l := range Languages {
		if _, err := fs.Stat(fsys, path.Join(dir, l+".json")); err != nil {
			if l == Languages[0] {
				panic(fmt.Errorf("the %s words: %w", l, err))
			}
			continue
		}
		w.langs[l] = sync.OnceValue(func() map[string]string {
			words, _ := readWords(fsys, dir, l)
			return words
		})
	}
	return w
}

// Speaks lists the languages w has words in.
func (w *Words) Speaks() []string {
	var out []string
	for _, l := range Languages {
		if _, ok := w.langs[l]; ok {
			out = append(out, l)
		}
	}
	return out
}

// Keys are the keys of lang's words.
func (w *Words) Keys(lang string) map[string]string { return w.of(lang) }

// of is lang's words (nil for a language w has no file of).
func (w *Words) of(lang string) map[string]string {
	if f := w.langs[lang]; f != nil {
		return f()
	}
	return nil
}

// Say is the text of key in lang (or in English, when lang lacks it; or the key itself), with
// its arguments filled in: args are pairs of a name and a value ("who", "ann").
func (w *Words) Say(lang, key string, args ...any) string {
	text, ok := w.of(lang)[key]
	if !ok {
		if text, ok = w.of(Languages[0])[key]; !ok {
			text = key
		}
	}
	if len(args) == 0 || !strings.Contains(text, "{") {
		return text
	}
	return fill(text, args)
}

// fill writes text with each {name} that args names (pairs of a name and a value) replaced by
// its value, the first pair of a name winning; any other brace stays as it is. (A
// strings.Replacer built for every text cost a browser seat a sixth of its words' time.)
func fill(text string, args []any) string {
	var b strings.Builder
	b.Grow(len(text) + 16)
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			b.WriteString(text[i:])
			break
		}
		b.WriteString(text[i : i+j])
		i += j
		end := strings.IndexByte(text[i:], '}')
		value, ok := "", false
		if end > 0 {
			name := text[i+1 : i+end]
			for k := 0; k+1 < len(args); k += 2 {
				if argText(args[k]) == name {
					value, ok = argText(args[k+1]), true
					break
				}
			}
		}
		if !ok {
			b.WriteByte('{')
			i++
			continue
		}
		b.WriteString(value)
		i += end + 1
	}
	return b.String()
}

// argText is an argument of Say as text.
func argText(a any) string {
	if s, ok := a.(string); ok {
		return s
	}
	return fmt.Sprint(a)
}
