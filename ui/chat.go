package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"corruption/protocol"
)

// The table's chat on the page and in the terminal (protocol/chat.go): the command line gives
// the page a way to say something (Config.Say, POST /api/chat), and tells the page and the
// terminal every message the node keeps (Server.Chat, Terminal.Chat). On the page a message is
// a line of the log, of kind "chat" ("chatme" for the person's own), "⁨name⁩ (seat N):
// ⁨text⁩", with ChatData for the page's script; a board may draw them where it likes
// (Corruptia's beside the proposal). The speaker is named with its seat, known from the
// table's roster, never by its name alone (two players may have one name). A message whose
// speaker had signed another with the same counter is told as what it is: that player said two
// things under one number (ChatData.Conflict). Nothing said there binds anyone.

// ChatData is what a chat line of the page's log says, for its script: the speaker's seat (-1
// before the table's roster is known), its name and the text, each shown as the shell shows
// them (names.go), and whether the speaker had signed another message with this counter.
type ChatData struct {
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Text     string `json:"text"`
	Counter  uint64 `json:"counter"`
	Conflict bool   `json:"conflict,omitempty"`
}

// Chat adds a message of the table's chat to the page's log.
func (s *Server) Chat(m protocol.ChatMessage) {
	s.mu.Lock()
	s.log = append(s.log, logItem{chat: &m})
	s.mu.Unlock()
	s.changed()
}

// chatLine is a chat message as a line of the log, in lang, for the person at seat me, with
// the players' names by seat as ShownNames shows them and the table's roster (by seat, the
// player's place in the genesis roster).
func chatLine(lang string, m *protocol.ChatMessage, shown []string, roster []int, me int) LogLine {
	seat := seatOfMember(roster, m.Member)
	who := Isolate(m.Name)
	if seat >= 0 && seat < len(shown) {
		who = shown[seat]
	}
	d := ChatData{Seat: seat, Name: who, Text: Isolate(m.Text), Counter: m.Counter, Conflict: m.Conflict}
	kind := "chat"
	if seat >= 0 && seat == me {
		kind = "chatme"
	}
	text := who + ": " + d.Text
	if m.Conflict {
		text = shellWords.Say(lang, "chat.conflict", "who", who, "n", m.Counter, "text", d.Text)
	}
	return LogLine{Kind: kind, Text: text, Data: d}
}

// postChat says the person's message to the table: {"text": ...}; 200 {"ok":true}, 409 when
// there is no table to speak at, 422 for a text the chat refuses.
func (s *Server) postChat(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Text string `json:"text"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, errors.New("the message is not valid JSON: "+err.Error()))
		return
	}
	if s.cfg.Say == nil {
		writeError(w, http.StatusConflict, errors.New("this table has no chat"))
		return
	}
	if err := protocol.CheckChatText(req.Text); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	if err := s.cfg.Say(req.Text); err != nil {
		code := http.StatusUnprocessableEntity
		if errors.Is(err, protocol.ErrNoTable) {
			code = http.StatusConflict
		}
		writeError(w, code, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// Chat tells a message of the table's chat: "[chat] ⁨ann⁩ (seat 2): ⁨text⁩", or, when the
// speaker had signed another message with this counter, that it said two things.
func (t *Terminal) Chat(m protocol.ChatMessage) {
	t.mu.Lock()
	l := chatLine(t.lang, &m, t.names, t.roster, t.seat)
	if m.Conflict {
		fmt.Fprintf(t.out, "  [chat] !! %s\n", l.Text)
	} else {
		fmt.Fprintf(t.out, "  [chat] %s\n", l.Text)
	}
	t.mu.Unlock()
}
