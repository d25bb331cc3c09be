package ui

import (
	"encoding/json"
	"errors"
	"net/http"

	"corruption/protocol"
)

// The table's chat on the page and in the terminal (protocol/chat.go): the command line gives
// the page a way to say something (Config.Say, POST /api/chat), and tells the page and the
// terminal every message the node keeps (Server.Chat, Terminal.Chat). On the page a message is
// a line of the log, of kind "chat" ("chatme" for the person's own), "name: text"; a board may
// draw them where it likes (Corruptia's beside the proposal). Nothing said there binds anyone.

// Chat adds a message of the table's chat to the page's log.
func (s *Server) Chat(m protocol.ChatMessage) {
	kind := "chat"
	if m.Name == s.cfg.Name {
		kind = "chatme"
	}
	s.mu.Lock()
	s.log = append(s.log, logItem{line: LogLine{Kind: kind, Text: m.Name + ": " + m.Text}})
	s.mu.Unlock()
	s.changed()
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

// Chat tells a message of the table's chat.
func (t *Terminal) Chat(m protocol.ChatMessage) { t.printf("  [chat] %s: %s\n", m.Name, m.Text) }
