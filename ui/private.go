package ui

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"corruption/protocol"
)

// Private tables on the page (protocol/private.go, protocol/join.go): the creator's waiting
// screen shows the join code and the failed attempts to join with it (SetPrivate), and the
// lobby joins a private table by its code (POST /api/lobby/private, Config.JoinPrivate).
//
// The join by code, as the person lives it: a creator that refuses the code is said in plain
// words as soon as its node answers (seconds); while no creator of the code's nameplate is
// heard, the lobby says it is looking, for how long at most (Config.JoinLimit), and once
// joinQuiet passes without a table heard, that no table with that code was heard yet and that
// it still looks; Cancel (POST /api/lobby/private/cancel) stops looking at once, and at the
// limit the search gives up and says so. The times are Config.Clock's.

// DefaultJoinLimit is how long the lobby's join by code looks for its table at most.
const DefaultJoinLimit = 2 * time.Minute

// joinQuiet is how long the join by code looks before the lobby says that no table with that
// code was heard yet.
const joinQuiet = 5 * time.Second

// joinSearch is a join by code under way. Its fields but cancel are guarded by the server's mu.
type joinSearch struct {
	started time.Time
	heard   bool   // a creator of the code's nameplate was heard
	quiet   bool   // joinQuiet passed with no creator heard
	ended   string // why the page stopped it: "cancel" (the person) or "limit"
	cancel  context.CancelFunc
}

// JoinState is how a join by code goes, for the lobby: in words, with Cancel beside them.
type JoinState struct {
	Text    string `json:"text"`
	Heard   bool   `json:"heard"` // a table with that code answered: the exchange is under way
	Quiet   bool   `json:"quiet"` // no table with that code heard yet, after joinQuiet
	SinceMS int64  `json:"since_ms"`
	LimitMS int64  `json:"limit_ms"` // when the search gives up, after SinceMS
}

// state is the search for the lobby, in lang. The server's mu is held.
func (j *joinSearch) state(lang string, limit time.Duration) *JoinState {
	st := &JoinState{Heard: j.heard, Quiet: j.quiet, SinceMS: j.started.UnixMilli(), LimitMS: limit.Milliseconds()}
	lim := durationWords(lang, limit)
	switch {
	case j.heard:
		st.Text = shellWords.Say(lang, "private.heard")
	case j.quiet:
		st.Text = shellWords.Say(lang, "private.quiet", "limit", lim)
	default:
		st.Text = shellWords.Say(lang, "private.joining", "limit", lim)
	}
	return st
}

// durationWords is d in words: whole minutes ("2 min"), else seconds ("30 s").
func durationWords(lang string, d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return shellWords.Say(lang, "time.min", "n", int(d/time.Minute))
	}
	return shellWords.Say(lang, "time.s", "n", int((d+time.Second-1)/time.Second))
}

// systemClock is the system's clock (protocol.Clock's shape).
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

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
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	// The search's clock starts before the lobby shows it under way.
	tick, stop := s.cfg.Clock.Ticker(time.Second)
	defer stop()
	js := &joinSearch{started: s.now(), cancel: cancel}
	s.mu.Lock()
	seated, busy := s.choice, s.joining != nil
	if seated == nil && !busy {
		s.joining = js
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
	go s.timeJoin(ctx, js, tick)
	c, err := s.cfg.JoinPrivate(ctx, code, func() { s.joinHeard(js) })
	if err == nil && s.boards[c.Game] == nil {
		err = errors.New(shellWords.Say(lang, "error.othergame", "game", c.Game))
	}
	s.mu.Lock()
	s.joining = nil
	ended := js.ended
	if err == nil && s.choice == nil {
		s.privateJoined = true // no rematch of a private table: it would be open
	}
	s.mu.Unlock()
	switch {
	case err != nil && ended == "cancel":
		s.changed()
		writeJSON(w, http.StatusOK, map[string]bool{"ok": false, "cancelled": true})
	case err != nil && ended == "limit":
		s.changed()
		writeError(w, http.StatusUnprocessableEntity, errors.New(shellWords.Say(lang, "error.nocreator.limit", "limit", durationWords(lang, s.cfg.JoinLimit))))
	case err != nil:
		s.changed()
		writeError(w, http.StatusUnprocessableEntity, errors.New(joinErrorText(lang, err)))
	default:
		s.sit(w, r, c)
	}
}

// timeJoin times the search js with the clock's ticks: the lobby says "still looking" once
// joinQuiet passes with no table heard, and the search ends at Config.JoinLimit. It returns
// when ctx (the search's) ends.
func (s *Server) timeJoin(ctx context.Context, js *joinSearch, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
		elapsed := s.now().Sub(js.started)
		s.mu.Lock()
		quiet := !js.quiet && !js.heard && elapsed >= joinQuiet
		js.quiet = js.quiet || quiet
		over := elapsed >= s.cfg.JoinLimit && js.ended == ""
		if over {
			js.ended = "limit"
		}
		s.mu.Unlock()
		if quiet {
			s.changed()
		}
		if over {
			js.cancel()
			return
		}
	}
}

// joinHeard notes that a creator of the searched code's nameplate was heard.
func (s *Server) joinHeard(js *joinSearch) {
	s.mu.Lock()
	news := !js.heard
	js.heard = true
	s.mu.Unlock()
	if news {
		s.changed()
	}
}

// postCancelPrivate stops the join by code under way: its POST /api/lobby/private answers
// {"ok":false,"cancelled":true}.
func (s *Server) postCancelPrivate(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	js := s.joining
	if js != nil && js.ended == "" {
		js.ended = "cancel"
	}
	s.mu.Unlock()
	if js == nil {
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.notjoining")))
		return
	}
	js.cancel()
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
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
