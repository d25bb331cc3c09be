package ui

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"corruption/protocol"
)

// TestPauseBanner: while the game is under way the page offers to pause (State.Pause); when
// another seat asks, the banner names who and how many agree, in the page's language; POST
// /api/pause hands Agree and Keep playing to Config.Pause (no table yet is a conflict, a bad
// body a bad request); once paused, the results say so and give the command that resumes it,
// and the audit does not call the paused log bad.
func TestPauseBanner(t *testing.T) {
	var answers []bool
	var pauseErr error
	h := NewHuman(nil)
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: h, Key: testKey, Now: func() time.Time { return testNow },
		Pause: func(agree bool) error {
			if pauseErr != nil {
				return pauseErr
			}
			answers = append(answers, agree)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close()
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 3, Config: []byte{0}})
	names := []string{"ann", "bob", "cy"}
	status := func(p protocol.PauseStatus) protocol.Status {
		return protocol.Status{Table: "t", Seat: 0, Names: names, State: newPick(3, 1), Due: 1, Timeout: time.Minute, Pause: p}
	}
	nobody := protocol.PauseStatus{Asker: -1, Refused: -1}
	s.Update(status(nobody))
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Pause == nil || st.Pause.Asker != "" || st.Pause.Text != "" || st.Pause.Players != 3 {
		t.Fatalf("a game under way offers a pause: %+v", st.Pause)
	}

	s.Update(status(protocol.PauseStatus{Asker: 1, Agreed: []int{1, 2}, Refused: -1}))
	for lang, want := range map[string]string{"en": "\u2068bob\u2069 (seat 1) asks to pause the table: 2 of 3 agree.", "es": "\u2068bob\u2069 (asiento 1) pide pausar la mesa: 2 de 3 aceptan.",
		"fr": "\u2068bob\u2069 (place 1) demande une pause de la table : 2 sur 3 acceptent."} {
		st = State{}
		call(t, ts, "GET", "/api/state?lang="+lang, testKey, "", &st)
		if st.Pause == nil || !strings.HasPrefix(st.Pause.Asker, "\u2068bob\u2069 (") || st.Pause.Agreed != 2 || st.Pause.Mine || st.Pause.Text != want {
			t.Errorf("%s: the banner %+v, want %q", lang, st.Pause, want)
		}
	}
	var e apiError
	for _, tc := range []struct {
		body string
		err  error
		code int
	}{
		{`{"agree":true}`, nil, http.StatusOK},
		{`{"agree":false}`, nil, http.StatusOK},
		{`{}`, nil, http.StatusBadRequest},
		{`not json`, nil, http.StatusBadRequest},
		{`{"agree":true}`, protocol.ErrNoTable, http.StatusConflict},
		{`{"agree":true}`, errors.New("disk full"), http.StatusInternalServerError},
	} {
		pauseErr = tc.err
		if code := call(t, ts, "POST", "/api/pause", testKey, tc.body, &e); code != tc.code {
			t.Errorf("%s: %d %q, want %d", tc.body, code, e.Error, tc.code)
		}
	}
	if len(answers) != 2 || !answers[0] || answers[1] {
		t.Errorf("Config.Pause was told %v, want [true false]", answers)
	}

	s.Update(status(protocol.PauseStatus{Asker: 1, Agreed: []int{0, 1}, Mine: true, Refused: -1}))
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Pause == nil || !st.Pause.Mine || !strings.Contains(st.Pause.Text, "you among them") {
		t.Errorf("after agreeing: %+v", st.Pause)
	}
	s.Update(status(protocol.PauseStatus{Asker: -1, Refused: 2}))
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Pause == nil || st.Pause.Refused != "\u2068cy\u2069 (seat 2)" || st.Pause.Text != "\u2068cy\u2069 (seat 2) wants to keep playing: no pause." {
		t.Errorf("after a refusal: %+v", st.Pause)
	}

	const resume = "corruption play --name ann --data /tmp/d --table t --players 3"
	s.Finish(Result{Outcome: &protocol.Outcome{Table: "t", Paused: true, Entries: 42, Scores: []int{0, 0, 0}},
		Audit: &protocol.Report{Problem: "the log stops at entry 42"}, Resume: resume})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	r := st.Result
	if st.Pause != nil || r == nil || r.Status != "paused" || r.Resume != resume || !strings.Contains(r.Headline, "paused at entry 42") ||
		strings.Contains(r.Audit, "stops at entry") || r.Finished {
		t.Errorf("the results of a paused table: pause %+v result %+v", st.Pause, r)
	}
	if code := call(t, ts, "POST", "/api/pause", testKey, `{"agree":true}`, &e); code != http.StatusConflict {
		t.Errorf("a pause after the end: %d", code)
	}

	noPause, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	noPause.SetTable(TableChoice{Table: "t", Game: "pick", Players: 3, Config: []byte{0}})
	noPause.Update(status(nobody))
	ts2 := httptest.NewServer(noPause.Handler())
	defer ts2.Close()
	st = State{}
	call(t, ts2, "GET", "/api/state", testKey, "", &st)
	if st.Pause != nil {
		t.Errorf("a page with no Config.Pause offers a pause: %+v", st.Pause)
	}
}

// TestTerminalPause: at a decision, "pause" (or the language's word) asks or agrees, "keep"
// keeps playing, and the move is asked again; the terminal tells who asks, once, and at the
// end the command that resumes the table.
func TestTerminalPause(t *testing.T) {
	var answers []bool
	var out bytes.Buffer
	term := NewTerminal(pickBoard{}, strings.NewReader("pause\npausa\nkeep\nseguir\n2\n"), &out)
	defer term.Close()
	term.SetLang("es")
	term.SetPause(func(agree bool) error { answers = append(answers, agree); return nil })
	names := []string{"ann", "bob", "cy"}
	st := protocol.Status{Table: "t", Seat: 0, Names: names, Due: 1, Pause: protocol.PauseStatus{Asker: 1, Agreed: []int{1}, Refused: -1}}
	term.Update(st)
	term.Update(st)
	if n := strings.Count(out.String(), "\u2068bob\u2069 (asiento 1) pide pausar la mesa: 1 de 3 aceptan. Escribe pausa para aceptar"); n != 1 {
		t.Errorf("the terminal told the question %d times: %q", n, out.String())
	}
	a, err := term.Decide(context.Background(), newPick(3, 1, 3, 2), 0)
	if err != nil || string(a.Move) != "\x02" {
		t.Fatalf("Decide = %+v, %v; want the move 2 after the answers", a, err)
	}
	if want := []bool{true, true, false, false}; !slices.Equal(answers, want) {
		t.Errorf("answers %v, want %v", answers, want)
	}
	out.Reset()
	term.Finish(Result{Outcome: &protocol.Outcome{Paused: true, Entries: 9}, Resume: "corruption bot --data d --table t --players 3"})
	if s := out.String(); !strings.Contains(s, "en pausa en la entrada 9") || !strings.Contains(s, "corruption bot --data d --table t --players 3") {
		t.Errorf("the end of a paused table: %q", s)
	}
}
