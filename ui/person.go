package ui

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"corruption/protocol"
)

// The person's way through the page (docs/UI.md, "The person's loop"): a name, asked first
// where the command line gives none (a phone's page); the lobby; a table; its results; and
// back to the lobby, as many times as the person likes, until the program is quit (the
// laptop's page) or the tab closed (a phone's).
//
//   - AskName puts the page on a screen that asks the person's name (and offers the page's
//     languages), before anything else; POST /api/name {"name":NAME} answers it, by the rules
//     of --name (protocol.CheckName, and not empty).
//   - POST /api/leave leaves the table the person sits at (Leaves): the command stops its node
//     there and calls ToLobby, which puts the page back on the lobby.
//   - POST /api/quit quits (Quit): the laptop's program stops; the page says it may be closed.
//     Config.Quit says whether the page offers it (a phone's page does not: closing the tab
//     is its quit).

// AskName puts the page on the name screen, the name field filled with def, until the person
// answers: the name comes on the channel returned (once), and the page goes on to the lobby.
func (s *Server) AskName(def string) <-chan string {
	s.mu.Lock()
	s.asking, s.nameDefault = true, def
	s.mu.Unlock()
	s.changed()
	return s.names
}

// SetName is the person's name from now on.
func (s *Server) SetName(name string) {
	s.mu.Lock()
	s.cfg.Name = name
	s.mu.Unlock()
	s.changed()
}

// Name is the person's name.
func (s *Server) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.Name
}

func (s *Server) postName(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, errors.New("the name is not valid JSON: "+err.Error()))
		return
	}
	name := strings.TrimSpace(req.Name)
	if err := CheckPlayerName(lang(r), name); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err)
		return
	}
	s.mu.Lock()
	if !s.asking {
		s.mu.Unlock()
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.noname")))
		return
	}
	s.asking = false
	s.cfg.Name = name
	s.mu.Unlock()
	s.names <- name // buffered: asked once at a time
	s.changed()
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// CheckPlayerName says, in lang, what is wrong with a player's name (the rules of --name: at
// most protocol.MaxNameSize bytes, no control, format or bidi character), or nil. An empty
// name is wrong too.
func CheckPlayerName(lang, name string) error {
	if name == "" {
		return errors.New(shellWords.Say(lang, "name.empty"))
	}
	if err := protocol.CheckName(name); err != nil {
		return errors.New(shellWords.Say(lang, "name.bad", "error", err.Error()))
	}
	return nil
}

// Leaves delivers the person's asks to leave the table they sit at (POST /api/leave).
func (s *Server) Leaves() <-chan struct{} { return s.leaves }

func (s *Server) postLeave(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	seated := s.choice != nil
	s.mu.Unlock()
	if !seated {
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.notseated")))
		return
	}
	select {
	case s.leaves <- struct{}{}:
	default: // asked already: the command is on its way
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// ToLobby puts the page back on the lobby: it forgets the table, its log and its results (the
// person left it, or went back from its results).
func (s *Server) ToLobby() {
	s.mu.Lock()
	s.choice = nil
	s.status, s.haveSt = protocol.Status{}, false
	s.log, s.noted, s.verdict, s.result = nil, map[string]bool{}, false, nil
	s.gen++
	s.again, s.privateJoined, s.private = false, false, nil
	s.mu.Unlock()
	select { // a leave asked as the table ended is spent
	case <-s.leaves:
	default:
	}
	s.changed()
}
