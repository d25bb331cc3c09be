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

	s.Chat(protocol.ChatMessage{Name: "bob", Text: "deal"})
	s.Chat(protocol.ChatMessage{Name: "ann", Text: "no deal"})
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	var got []string
	for _, l := range st.Log {
		if strings.HasPrefix(l.Kind, "chat") {
			got = append(got, l.Kind+" "+l.Text)
		}
	}
	if strings.Join(got, "|") != "chat bob: deal|chatme ann: no deal" {
		t.Errorf("the log's chat lines: %q", got)
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
	term.Chat(protocol.ChatMessage{Name: "bob", Text: "deal"})
	if out.String() != "  [chat] bob: deal\n" {
		t.Errorf("the terminal tells %q", out.String())
	}
}
