package ui

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
)

// hostile are players' names as a version-2 log or an older node could hold them (version 3
// refuses all but the markup and the look-alike), by seat: seats 3 and 4 have one name.
var hostile = []string{"\x1b[2J\x1b]0;owned\x07", "ann\u202e001\u202c", "<img src=x onerror=alert(1)>", "ann", "ann", "Ann"}

// checkShown fails when s holds a rune a name may not hold, other than line breaks, tabs and
// the isolates the shell puts around names, or an isolate left open.
func checkShown(t *testing.T, where, s string) {
	t.Helper()
	if strings.Count(s, fsi) != strings.Count(s, pdi) {
		t.Errorf("%s: %d FSI for %d PDI: %q", where, strings.Count(s, fsi), strings.Count(s, pdi), s)
	}
	bare := strings.NewReplacer(fsi, "", pdi, "", "\n", "", "\t", "").Replace(s)
	if protocol.Printable(bare) != bare {
		t.Errorf("%s: holds a control, format or bidi character: %q", where, s)
	}
}

// eachString calls f with every string in a decoded JSON value.
func eachString(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			eachString(e, f)
		}
	case map[string]any:
		for k, e := range x {
			f(k)
			eachString(e, f)
		}
	}
}

// TestHostileNames: names that would rewrite a terminal, reorder a line or inject markup, and
// names alike, as the page's state and the terminal show them: every name escaped, isolated
// and with its seat (so the three players called ann or Ann are told apart), every chat text
// escaped and isolated, the markup given to the page as text only (JSON), and nothing the
// terminal prints holds a control, format or bidi character.
func TestHostileNames(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 4, Config: []byte{0}})
	var out bytes.Buffer
	term := NewTerminal(pickBoard{}, strings.NewReader(""), &out)
	defer term.Close()
	roster := []int{0, 1, 2, 3, 4, 5}
	st := protocol.Status{Table: "t", Seat: 4, Names: hostile, Roster: roster, State: newPick(6), Due: 0, Timeout: time.Minute, Leaving: 1,
		Members: hostile, Pause: protocol.PauseStatus{Asker: 2, Agreed: []int{2}, Refused: -1}}
	s.Update(st)
	term.Update(st)
	for seat := range hostile {
		e := engine.Event{Data: pickEvent{seat, 1}}
		s.Event(e)
		term.Event(e)
		m := protocol.ChatMessage{Member: seat, Counter: 1, Name: hostile[seat], Text: "I pay you \u202e001\u202c, " + hostile[seat]}
		s.Chat(m)
		term.Chat(m)
	}
	st.Open, st.Leaving = []int{0}, -1
	st.Verdict = &protocol.Verdict{Kind: protocol.VerdictCheat, Seq: 9, Seat: 0, Reason: "bad proof"}
	s.Update(st)
	term.Update(st)
	res := Result{Outcome: &protocol.Outcome{Verdict: st.Verdict}}
	s.Finish(res)
	term.Finish(res)

	req, _ := http.NewRequest("GET", ts.URL+"/api/state", nil)
	req.Header.Set("X-Corruption-Key", testKey)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("the state is served as %q", ct)
	}
	if bytes.Contains(body, []byte("<img")) || bytes.ContainsAny(body, "\x1b\u202e") {
		t.Errorf("the state's JSON holds markup or a raw control character: %s", body)
	}
	var state any
	if err := json.Unmarshal(body, &state); err != nil {
		t.Fatal(err)
	}
	var all []string
	eachString(state, func(s string) {
		checkShown(t, "the page's state", s)
		all = append(all, s)
	})
	page := strings.Join(all, "\n")
	term.mu.Lock()
	text := out.String()
	term.mu.Unlock()
	checkShown(t, "the terminal", text)
	for where, got := range map[string]string{"the page": page, "the terminal": text} {
		for _, want := range []string{
			"\u2068\\x1b[2J\\x1b]0;owned\\x07\u2069 (seat 0)",
			"\u2068ann\\u202e001\\u202c\u2069 (seat 1)",
			"\u2068<img src=x onerror=alert(1)>\u2069 (seat 2)", // text, which the page puts in the document as text
			"\u2068ann\u2069 (seat 3)", "\u2068ann\u2069 (seat 4)", "\u2068Ann\u2069 (seat 5)",
			"\u2068I pay you \\u202e001\\u202c, \\x1b[2J\\x1b]0;owned\\x07\u2069",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%s does not show %q:\n%s", where, want, got)
			}
		}
	}
	if !strings.Contains(text, "\u2068\\x1b[2J\\x1b]0;owned\\x07\u2069 (seat 0) was caught cheating") {
		t.Errorf("the terminal's verdict:\n%s", text)
	}
}

// TestTerminalWriter: whatever reaches the terminal (a board's text, an error message) is
// printed with every control, format and bidi character escaped, but line breaks, tabs and
// the isolates around names.
func TestTerminalWriter(t *testing.T) {
	var out bytes.Buffer
	w := safeWriter{&out}
	in := "error: \x1b[31mred\x1b[0m \u202eevil\n\t\u2068ann\u2069 \xff\r\n"
	if n, err := io.WriteString(w, in); n != len(in) || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if want := "error: \\x1b[31mred\\x1b[0m \\u202eevil\n\t\u2068ann\u2069 \\xff\\x0d\n"; out.String() != want {
		t.Errorf("the terminal prints %q, want %q", out.String(), want)
	}
}
