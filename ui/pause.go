package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"corruption/protocol"
)

// The table's pause on the page and in the terminal (protocol/pause.go): the command line gives
// the page a way to answer (Config.Pause, POST /api/pause), and the node's status says who asks
// and how many agree (State.Pause). Once every seat agreed, the node stops: the results say the
// table is paused and give the command that resumes it (Result.Resume), or say that it cannot
// resume (its data were in a temporary directory).

// PauseState is a pause asked at the table, or the offer to ask for one.
type PauseState struct {
	Asker   string `json:"asker,omitempty"` // who asked first ("" while nobody asks)
	Agreed  int    `json:"agreed"`          // how many seats agree
	Players int    `json:"players"`
	Mine    bool   `json:"mine"`              // the person agrees
	Refused string `json:"refused,omitempty"` // who said to keep playing
	Text    string `json:"text,omitempty"`    // the banner, in words
}

// pauseState is the pause as the page shows it, with st's names (nil when the page cannot
// pause, or the game is not under way). s.mu is held.
func (s *Server) pauseState(lang string, st *protocol.Status, mode string) *PauseState {
	if s.cfg.Pause == nil || s.result != nil || (mode != "game" && mode != "setup") || st.Names == nil || st.Done || st.Verdict != nil {
		return nil
	}
	return pauseWords(lang, st)
}

// pauseWords is the pause of st, in words.
func pauseWords(lang string, st *protocol.Status) *PauseState {
	p := st.Pause
	out := &PauseState{Agreed: len(p.Agreed), Players: len(st.Names), Mine: p.Mine}
	if p.Refused >= 0 && p.Refused < len(st.Names) {
		out.Refused = SeatName(st.Names, p.Refused)
		if p.Refused == st.Seat {
			out.Text = shellWords.Say(lang, "pause.refused.you")
		} else {
			out.Text = shellWords.Say(lang, "pause.refused", "who", out.Refused)
		}
	}
	if len(p.Agreed) > 0 && p.Asker >= 0 {
		out.Asker = SeatName(st.Names, p.Asker)
		switch {
		case p.Asker == st.Seat:
			out.Text = shellWords.Say(lang, "pause.asked.you", "n", out.Agreed, "of", out.Players)
		case p.Mine:
			out.Text = shellWords.Say(lang, "pause.asked.agreed", "who", out.Asker, "n", out.Agreed, "of", out.Players)
		default:
			out.Text = shellWords.Say(lang, "pause.asked", "who", out.Asker, "n", out.Agreed, "of", out.Players)
		}
	}
	return out
}

// postPause answers a pause: {"agree": true} asks for one or agrees, {"agree": false} keeps
// playing; 200 {"ok":true}, 409 when there is no table to pause.
func (s *Server) postPause(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Agree *bool `json:"agree"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Agree == nil {
		msg := "the answer must be {\"agree\": true} or {\"agree\": false}"
		if err != nil {
			msg += ": " + err.Error()
		}
		writeError(w, http.StatusBadRequest, errors.New(msg))
		return
	}
	s.mu.Lock()
	over := s.result != nil
	s.mu.Unlock()
	if s.cfg.Pause == nil || over {
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.nopause")))
		return
	}
	if err := s.cfg.Pause(*req.Agree); err != nil {
		code := http.StatusConflict
		if !errors.Is(err, protocol.ErrNoTable) {
			code = http.StatusInternalServerError
		}
		writeError(w, code, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// SetPause lets the person answer a pause at the terminal: a line "pause" (in the terminal's
// language too) at any decision asks for one or agrees, "keep" keeps playing; the move is asked
// again.
func (t *Terminal) SetPause(answer func(agree bool) error) {
	t.mu.Lock()
	t.pause = answer
	t.mu.Unlock()
}

// pauseLine answers a pause if line is "pause" or "keep" (or their words in the terminal's
// language), and reports whether it was.
func (t *Terminal) pauseLine(line string) bool {
	t.mu.Lock()
	answer := t.pause
	t.mu.Unlock()
	if answer == nil {
		return false
	}
	w := strings.ToLower(strings.TrimSpace(line))
	var agree bool
	switch w {
	case "pause", t.say("term.cmd.pause"):
		agree = true
	case "keep", t.say("term.cmd.keep"):
	default:
		return false
	}
	if err := answer(agree); err != nil {
		t.printf("%s\n", t.say("term.error", "error", err))
	}
	return true
}

// tellPause prints a change of the pause at the table (t.mu is held).
func (t *Terminal) tellPause(st protocol.Status) {
	if t.pause == nil || st.Names == nil || st.Done || st.Verdict != nil {
		return
	}
	w := pauseWords(t.lang, &st)
	line := w.Text
	if w.Asker != "" && !w.Mine {
		line += " " + t.say("term.pause.answer")
	}
	if line == t.pauseSaid {
		return
	}
	t.pauseSaid = line
	if line != "" {
		fmt.Fprintf(t.out, "  [pause] %s\n", line)
	}
}

// resumeText says how to resume a paused table, or that it cannot resume.
func resumeText(lang string, r Result) string {
	if r.Resume == "" {
		return shellWords.Say(lang, "result.paused.noresume")
	}
	return shellWords.Say(lang, "result.paused.resume") + "\n  " + r.Resume
}
