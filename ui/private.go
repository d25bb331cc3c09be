package ui

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"corruption/protocol"
)

// Private tables on the page (protocol/private.go, protocol/join.go): the creator's waiting
// screen shows the join code and the failed attempts to join with it (SetPrivate), and the
// lobby joins a private table by its code (POST /api/lobby/private, Config.JoinPrivate).

// ErrNoCreator is what Config.JoinPrivate returns when no creator of a private table with the
// code's nameplate answered in time.
var ErrNoCreator = errors.New("no creator of a private table with that code answered in time")

// Private is the private table the person's node created: its join code, the internet join
// code (CODE@RELAY, "" without a relay) and the failed attempts to join it so far.
type Private struct {
	Code     string
	Internet string
	Failed   int
}

// PrivateState is Private as the waiting screen shows it.
type PrivateState struct {
	Code     string `json:"code"`
	Internet string `json:"internet,omitempty"`
	Failed   int    `json:"failed"`
}

// SetPrivate shows the private table the person's node created (call it again when the count
// of failed attempts changes).
func (s *Server) SetPrivate(p Private) {
	s.mu.Lock()
	s.private = &p
	s.mu.Unlock()
	s.changed()
}

// privateState is the private table for the page (nil when the node created none).
func (s *Server) privateState() *PrivateState {
	if s.private == nil {
		return nil
	}
	return &PrivateState{Code: s.private.Code, Internet: s.private.Internet, Failed: s.private.Failed}
}

// postPrivate joins the private table of the code posted, {"code":"CODE"} or CODE@RELAY, as
// --join does: it answers once the node is admitted (200) or refused (422, in plain words).
func (s *Server) postPrivate(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Code string `json:"code"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, errors.New("the code is not valid JSON: "+err.Error()))
		return
	}
	lang := lang(r)
	code := strings.TrimSpace(req.Code)
	bare, relay, _ := strings.Cut(code, "@")
	switch {
	case s.cfg.JoinPrivate == nil:
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang, "error.noprivate")))
		return
	case code == "":
		writeError(w, http.StatusUnprocessableEntity, errors.New(shellWords.Say(lang, "error.nocode")))
		return
	}
	if _, err := protocol.ParseJoinCode(bare); err != nil || (relay != "" && !strings.Contains(relay, "/p2p/")) {
		writeError(w, http.StatusUnprocessableEntity, errors.New(shellWords.Say(lang, "error.badcode", "code", code)))
		return
	}
	s.mu.Lock()
	seated, busy := s.choice, s.joining
	if seated == nil && !busy {
		s.joining = true
	}
	s.mu.Unlock()
	switch {
	case seated != nil:
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang, "error.seated", "table", seated.Table)))
		return
	case busy:
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang, "error.joining")))
		return
	}
	s.changed()
	c, err := s.cfg.JoinPrivate(r.Context(), code)
	if err == nil && c.Game != s.board.Game() {
		err = errors.New(shellWords.Say(lang, "error.othergame", "game", c.Game))
	}
	s.mu.Lock()
	s.joining = false
	if err == nil && s.choice == nil {
		s.privateJoined = true // no rematch of a private table: it would be open
	}
	s.mu.Unlock()
	if err != nil {
		s.changed()
		writeError(w, http.StatusUnprocessableEntity, errors.New(joinErrorText(lang, err)))
		return
	}
	s.sit(w, r, c)
}

// joinErrorText says why joining a private table failed, in plain words.
func joinErrorText(lang string, err error) string {
	var wait *protocol.JoinWaitError
	switch {
	case errors.Is(err, protocol.ErrWrongCode):
		return shellWords.Say(lang, "error.wrongcode")
	case errors.Is(err, protocol.ErrTableFull):
		return shellWords.Say(lang, "error.privatefull")
	case errors.As(err, &wait):
		return shellWords.Say(lang, "error.ratelimited", "secs", int(wait.Wait.Seconds()+0.999))
	case errors.Is(err, ErrNoCreator), errors.Is(err, protocol.ErrNoNameplate), errors.Is(err, context.DeadlineExceeded):
		return shellWords.Say(lang, "error.nocreator")
	}
	return err.Error()
}
