package ui

import (
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"
)

// The shell's files (index.html, app.js, kit.js, style.css), embedded in the binary; the
// board's come from its Assets.
//
//go:embed static
var static embed.FS

// Handler serves the page and its API:
//
//	GET  /                  the page (/?key=K stores the session key in the node's cookie, then redirects to /)
//	GET  /static/...        the shell's scripts and styles
//	GET  /static/boards/GAME/...  each game's board's (board.js, board.css, lang/LANG.json)
//	GET  /api/state         the State as JSON
//	GET  /api/events        server-sent events: "state" with a State whose Log holds the lines not sent yet
//	POST /api/move          a move, as the board reads it; 200 {"ok":true}, or 409/422 {"error":...}
//	POST /api/lobby/create  a LobbyForm with the board's settings: create a table and sit at it
//	POST /api/lobby/join    the same, or {"table":NAME}: sit at a table listed in the lobby
//	POST /api/lobby/private {"code":CODE}: join a private table by its code, as --join (Config.JoinPrivate)
//	POST /api/lobby/private/cancel  stop looking for it
//	POST /api/dial          {"addr":MULTIADDR}: ask the person's node to dial a player (Config.Dial)
//	POST /api/quit          quit: the program stops (Config.Quit; the laptop's page)
//	POST /api/leave         leave the table the person sits at: back to the lobby (Leaves, ToLobby)
//	POST /api/name          {"name":NAME}: the person's name, on the screen that asks it first (AskName)
//	POST /api/rematch       once a game is over: play again with the same players (Config.Rematch)
//	POST /api/chat          {"text":...}: say it in the table's chat (Config.Say)
//	POST /api/pause         {"agree":true|false}: ask or agree to pause the table, or keep playing (Config.Pause)
//	POST /api/phones/renew  give phones a new address: the old one admits nobody (Config.RenewPhones)
//
// Every request must name this machine as host by an IP address or localhost; /api/ requests
// must carry the session key (the node's cookie, or the X-Corruption-Key header). The API
// speaks the language of its ?lang= (one of Languages), else of the Accept-Language header.
//
// It is the whole of the page's API, and needs no listener: InProcess drives it in the
// process that holds it (the browser seat, and the tests).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveIndex)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(s.shell)))
	for _, id := range s.games {
		prefix := "/static/boards/" + id + "/"
		mux.Handle("GET "+prefix, http.StripPrefix(prefix, http.FileServerFS(s.boards[id].Assets())))
	}
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	api := http.NewServeMux()
	api.HandleFunc("GET /api/state", s.getState)
	api.HandleFunc("GET /api/events", s.events)
	api.HandleFunc("POST /api/move", s.postMove)
	api.HandleFunc("POST /api/lobby/create", s.postCreate)
	api.HandleFunc("POST /api/lobby/join", s.postJoin)
	api.HandleFunc("POST /api/lobby/private", s.postPrivate)
	api.HandleFunc("POST /api/lobby/private/cancel", s.postCancelPrivate)
	api.HandleFunc("POST /api/dial", s.postDial)
	api.HandleFunc("POST /api/quit", s.postQuit)
	api.HandleFunc("POST /api/leave", s.postLeave)
	api.HandleFunc("POST /api/name", s.postName)
	api.HandleFunc("POST /api/rematch", s.postRematch)
	api.HandleFunc("POST /api/chat", s.postChat)
	api.HandleFunc("POST /api/pause", s.postPause)
	api.HandleFunc("POST /api/phones/renew", s.postRenewPhones)
	mux.Handle("/api/", s.keyed(api))
	return s.hosted(mux)
}

// hosted refuses requests whose Host is a name other than localhost (a page of another site
// that rebinds its name to 127.0.0.1 would otherwise reach the API).
func (s *Server) hosted(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hp, _, err := net.SplitHostPort(host); err == nil {
			host = hp
		}
		host = strings.Trim(host, "[]")
		if host != "localhost" && net.ParseIP(host) == nil {
			http.Error(w, "this page answers only for this machine's address", http.StatusForbidden)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

func (s *Server) keyOK(r *http.Request) bool {
	got := r.Header.Get("X-Corruption-Key")
	if c, err := r.Cookie(s.cookieName()); got == "" && err == nil {
		got = c.Value
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.Key)) == 1
}

func (s *Server) keyed(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.keyOK(r) {
			writeError(w, http.StatusForbidden, errors.New("no session key: open the address that corruption printed (it carries the key)"))
			return
		}
		if r.Method == http.MethodPost {
			ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if ct != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, errors.New("send JSON (Content-Type: application/json)"))
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	if k := r.URL.Query().Get("key"); k != "" {
		if subtle.ConstantTimeCompare([]byte(k), []byte(s.cfg.Key)) != 1 {
			http.Error(w, "wrong session key: open the address that corruption printed", http.StatusForbidden)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: k, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(s.index)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

// lang is the language a request asks for.
func lang(r *http.Request) string {
	return Lang(r.URL.Query().Get("lang"), r.Header.Get("Accept-Language"))
}

func (s *Server) getState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.snapshot(0, lang(r)))
}

// events streams the state: a "state" event at once and after every change. Each event's Log
// holds only the lines this stream has not sent yet (LogStart says where they go).
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, errors.New("streaming is not supported"))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	sent, last, gen, lang := 0, -1, 0, lang(r)
	for {
		s.mu.Lock()
		notify, version := s.notify, s.version
		if s.gen != gen { // a new table (a rematch): its log starts again
			sent, gen = 0, s.gen
		}
		s.mu.Unlock()
		if version != last {
			st := s.snapshot(sent, lang)
			b, err := json.Marshal(st)
			if err != nil {
				return
			}
			if _, err := w.Write(append(append([]byte("event: state\ndata: "), b...), '\n', '\n')); err != nil {
				return
			}
			fl.Flush()
			sent, last = st.LogStart+len(st.Log), version
		}
		select {
		case <-notify:
		case <-ping.C:
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return
			}
			fl.Flush()
		case <-r.Context().Done():
			return
		case <-s.closed:
			return
		}
	}
}

func (s *Server) postMove(w http.ResponseWriter, r *http.Request) {
	var req json.RawMessage
	var head struct {
		ID int `json:"id"` // the decision the move answers (0: whatever is due)
	}
	err := json.NewDecoder(r.Body).Decode(&req)
	if err == nil {
		err = json.Unmarshal(req, &head)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, errors.New("the move is not valid JSON: "+err.Error()))
		return
	}
	lang := lang(r)
	m, err := s.boardIn(lang).ParseMove(req)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	if s.human == nil {
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang, "error.notasked")))
		return
	}
	switch err := s.human.submit(head.ID, m); {
	case errors.Is(err, ErrNotAsked):
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang, "error.notasked")))
	case errors.Is(err, errStale):
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang, "error.stale")))
	case err != nil:
		writeError(w, http.StatusUnprocessableEntity, err)
	default:
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	}
}

// readTable reads the table a lobby request posts, with bots local bots unless it says how
// many; a bad one is answered with the error.
func (s *Server) readTable(w http.ResponseWriter, r *http.Request, bots int) (TableChoice, bool) {
	var raw json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		writeError(w, http.StatusBadRequest, errors.New("the table is not valid JSON: "+err.Error()))
		return TableChoice{}, false
	}
	lang := lang(r)
	boardOf := func(game string) Board {
		if b := s.boards[game]; b != nil {
			return Localize(b, lang)
		}
		return nil
	}
	c, err := readForm(raw, boardOf, s.board.Game(), bots, s.cfg.Levels)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return TableChoice{}, false
	}
	return c, true
}

// postCreate creates the table posted, with the bots its form says (by default Config.Bots).
func (s *Server) postCreate(w http.ResponseWriter, r *http.Request) {
	c, ok := s.readTable(w, r, s.cfg.Bots)
	if !ok {
		return
	}
	err := CheckTable(c, c.Bots)
	if err == nil && !s.checkSit(w, r, c) {
		return // refused whether or not the lobby has heard of the table yet
	}
	if err == nil {
		s.mu.Lock()
		if _, seated, ok := s.lobby.find(c.Game, c.Table, nil); ok && seated > 0 {
			err = errors.New(shellWords.Say(lang(r), "error.taken"))
		}
		s.mu.Unlock()
	}
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	s.sit(w, r, c)
}

// postJoin sits at a listed table, with Config.Bots local bots.
func (s *Server) postJoin(w http.ResponseWriter, r *http.Request) {
	f, ok := s.readTable(w, r, s.cfg.Bots)
	if !ok {
		return
	}
	f.Bots = s.cfg.Bots
	// With its settings (as listed), the very table; with its name alone, any of that name.
	var want *TableChoice
	if f.Players != 0 {
		want = &f
	}
	s.mu.Lock()
	c, seated, found := s.lobby.find(f.Game, f.Table, want)
	s.mu.Unlock()
	c.Bots = f.Bots
	var err error
	switch {
	case !found:
		err = errors.New(shellWords.Say(lang(r), "error.gone"))
	case seated+1+s.cfg.Bots > c.Players:
		err = errors.New(shellWords.Say(lang(r), "error.noroom"))
	default:
		err = CheckTable(c, s.cfg.Bots)
	}
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	s.sit(w, r, c)
}

func (s *Server) sit(w http.ResponseWriter, r *http.Request, c TableChoice) {
	s.mu.Lock()
	joining := s.joining != nil
	s.mu.Unlock()
	if joining { // the node is joining a private table by its code (private.go)
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.joining")))
		return
	}
	if !s.checkSit(w, r, c) {
		return
	}
	if t, ok := s.choose(c); !ok {
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.seated", "table", t)))
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// checkSit asks Config.CheckSit whether the person may sit at c, and answers 409 with the
// reason, in the page's language, when not.
func (s *Server) checkSit(w http.ResponseWriter, r *http.Request, c TableChoice) bool {
	if s.cfg.CheckSit == nil {
		return true
	}
	err := s.cfg.CheckSit(c)
	if err == nil {
		return true
	}
	if errors.Is(err, ErrHoldsTheRest) {
		err = errors.New(shellWords.Say(lang(r), "error.holds"))
	}
	writeError(w, http.StatusConflict, err)
	return false
}

// postDial asks the person's node to dial the address posted: {"addr":"/ip4/.../p2p/ID"}.
func (s *Server) postDial(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Addr string `json:"addr"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, errors.New("the address is not valid JSON: "+err.Error()))
		return
	}
	lang := lang(r)
	addr := strings.TrimSpace(req.Addr)
	switch {
	case s.cfg.Dial == nil:
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang, "error.nodial")))
		return
	case addr == "":
		writeError(w, http.StatusUnprocessableEntity, errors.New(shellWords.Say(lang, "error.noaddr")))
		return
	}
	if err := s.cfg.Dial(addr); err != nil {
		writeError(w, http.StatusUnprocessableEntity, errors.New(shellWords.Say(lang, "error.dial", "addr", addr, "error", err.Error())))
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) postQuit(w http.ResponseWriter, r *http.Request) {
	s.quitted.Do(func() { close(s.quit) })
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
