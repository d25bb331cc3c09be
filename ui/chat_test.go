package ui

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"corruption/protocol"
)

// TestChat: POST /api/chat says the person's message through Config.Say (a text the chat
// refuses never reaches it; no table yet is a conflict); the node's messages reach the log as
// lines of kind chat, the person's own as chatme; the terminal tells them.
func TestChat(t *testing.T) {
	var said []string
	var sayErr error
	h := NewHuman(nil)
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: h, Key: testKey, Now: func() time.Time { return testNow },
		Say: func(text string) error {
			if sayErr != nil {
				return sayErr
			}
			said = append(said, text)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close()
	var e apiError
	for _, tc := range []struct {
		body string
		err  error
		code int
	}{
		{`{"text":"I vote yes if you offer an employee"}`, nil, http.StatusOK},
		{`{"text":""}`, nil, http.StatusUnprocessableEntity},
		{`{"text":"two\nlines"}`, nil, http.StatusUnprocessableEntity},
		{`{"text":` + `"` + strings.Repeat("a", protocol.MaxChatText+1) + `"}`, nil, http.StatusUnprocessableEntity},
		{`{"text":"too early"}`, protocol.ErrNoTable, http.StatusConflict},
		{`not json`, nil, http.StatusBadRequest},
	} {
		sayErr = tc.err
		if code := call(t, ts, "POST", "/api/chat", testKey, tc.body, &e); code != tc.code {
			t.Errorf("%s: %d %q, want %d", tc.body, code, e.Error, tc.code)
		}
	}
	if len(said) != 1 || said[0] != "I vote yes if you offer an employee" {
		t.Errorf("said %q", said)
	}
	if code := call(t, ts, "POST", "/api/chat", "", `{"text":"hi"}`, &e); code != http.StatusForbidden {
		t.Errorf("a chat without the session key: %d", code)
	}

	// Two players named ann: the person sits at seat 1, roster member 2; the other ann at
	// seat 2, roster member 0. Each line names its speaker with its seat, and only the
	// person's own is chatme.
	s.Update(protocol.Status{Table: "t", Seat: 1, Names: []string{"bob", "ann", "ann"}, Roster: []int{1, 2, 0}})
	s.Chat(protocol.ChatMessage{Member: 1, Counter: 1, Name: "bob", Text: "deal"})
	s.Chat(protocol.ChatMessage{Member: 0, Counter: 1, Name: "ann", Text: "no deal"})
	s.Chat(protocol.ChatMessage{Member: 2, Counter: 1, Name: "ann", Text: "yes deal"})
	s.Chat(protocol.ChatMessage{Member: 1, Counter: 1, Name: "bob", Text: "no deal at all", Conflict: true})
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	var got []string
	var data []map[string]any
	for _, l := range st.Log {
		if strings.HasPrefix(l.Kind, "chat") {
			got = append(got, l.Kind+" "+l.Text)
			data = append(data, l.Data.(map[string]any))
		}
	}
	want := []string{
		"chat \u2068bob\u2069 (seat 0): \u2068deal\u2069",
		"chat \u2068ann\u2069 (seat 2): \u2068no deal\u2069",
		"chatme \u2068ann\u2069 (seat 1): \u2068yes deal\u2069",
		"chat \u2068bob\u2069 (seat 0) signed two different messages as their message 1; this one says: \u2068no deal at all\u2069",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the log's chat lines:\n%q\nwant\n%q", got, want)
	}
	if len(data) == 4 && (data[1]["seat"] != 2.0 || data[1]["name"] != "\u2068ann\u2069 (seat 2)" || data[1]["text"] != "\u2068no deal\u2069" ||
		data[1]["conflict"] != nil || data[3]["conflict"] != true || data[3]["counter"] != 1.0) {
		t.Errorf("the chat lines' data: %v", data)
	}

	nobody, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	ts2 := httptest.NewServer(nobody.Handler())
	defer ts2.Close()
	if code := call(t, ts2, "POST", "/api/chat", testKey, `{"text":"hi"}`, &e); code != http.StatusConflict {
		t.Errorf("a chat with no Say: %d", code)
	}

	var out bytes.Buffer
	term := NewTerminal(nil, strings.NewReader(""), &out)
	defer term.Close()
	term.Chat(protocol.ChatMessage{Name: "bob", Text: "deal"}) // before the table's roster: the name alone
	term.Update(protocol.Status{Table: "t", Seat: 1, Names: []string{"bob", "ann", "ann"}, Roster: []int{1, 2, 0}})
	term.Chat(protocol.ChatMessage{Member: 0, Counter: 4, Name: "ann", Text: "deal"})
	term.Chat(protocol.ChatMessage{Member: 0, Counter: 4, Name: "ann", Text: "no deal", Conflict: true})
	if want := "  [chat] \u2068bob\u2069: \u2068deal\u2069\n" +
		"  [chat] \u2068ann\u2069 (seat 2): \u2068deal\u2069\n" +
		"  [chat] !! \u2068ann\u2069 (seat 2) signed two different messages as their message 4; this one says: \u2068no deal\u2069\n"; out.String() != want {
		t.Errorf("the terminal tells\n%q\nwant\n%q", out.String(), want)
	}
}
