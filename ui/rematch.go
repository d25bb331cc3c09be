package ui

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"corruption/protocol"
)

// A rematch: once a game is finished, the person asks for another with the same players and
// settings in one click (POST /api/rematch). Every player's node derives the same next table
// from the last one (RematchOf), so the players who click meet at it and the table forms as
// any other does, once it has its players. The command reads Rematches, seats the person
// there with NewTable and plays it; the page starts again from the waiting screen.

// RematchOf is the table of c's rematch: the same game, players and settings, at the table
// named as c's with " #2", or with its number one more (friday, friday #2, friday #3...).
func RematchOf(c TableChoice) TableChoice {
	name, n := c.Table, 2
	if i := strings.LastIndex(name, " #"); i >= 0 {
		if k, err := strconv.Atoi(name[i+2:]); err == nil && k >= 2 && strconv.Itoa(k) == name[i+2:] {
			name, n = name[:i], k+1
		}
	}
	suffix := " #" + strconv.Itoa(n)
	for len(name)+len(suffix) > protocol.MaxNameSize {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	c.Table = name + suffix
	return c
}

// Rematches delivers the table the person asks to play next (Config.Rematch), at most once a
// table.
func (s *Server) Rematches() <-chan TableChoice { return s.rematch }

// NewTable seats the person at a new table (the rematch Rematches delivered): the page forgets
// the last table, its log and its results, and starts again from the waiting screen.
func (s *Server) NewTable(c TableChoice) {
	s.mu.Lock()
	s.choice = &c
	s.status, s.haveSt = protocol.Status{}, false
	s.log, s.noted, s.verdict, s.result = nil, map[string]bool{}, false, nil
	s.gen++
	s.again = false
	s.mu.Unlock()
	s.changed()
}

// rematchChoice is the table the results offer a rematch at, until the person asks for it:
// after a finished game, with the same players; after a game a cheater ended, or one the table
// played on without a cheater (protocol/convict.go), with the others, when enough of them stay
// (the cheaters' nodes are refused: Exclude). Not after an abandoned table (a player was lost),
// nor to a cheater. s.mu is held.
func (s *Server) rematchChoice() (TableChoice, bool) {
	r := s.result
	if !s.cfg.Rematch || s.privateJoined || s.again || s.choice == nil || r == nil || r.Err != nil || r.Outcome == nil {
		return TableChoice{}, false
	}
	o := r.Outcome
	cheaters := cheatersOf(o)
	if len(cheaters) == 0 && (!o.Finished || o.Verdict != nil) {
		return TableChoice{}, false
	}
	next := RematchOf(*s.choice)
	if len(cheaters) == 0 {
		return next, true
	}
	keys := s.status.Keys
	for _, seat := range cheaters {
		if seat == s.status.Seat || seat >= len(keys) {
			return TableChoice{}, false
		}
		next.Exclude = append(next.Exclude, keys[seat])
	}
	next.Players -= len(cheaters)
	if CheckTable(next, next.Bots) != nil {
		return TableChoice{}, false // too few players would stay
	}
	return next, true
}

// cheatersOf are the seats a table's outcome names as cheaters: those it convicted and played
// on without, or the one a cheat or an equivocation halted it on.
func cheatersOf(o *protocol.Outcome) []int {
	var out []int
	for _, c := range o.Convicted {
		out = append(out, c.Seat)
	}
	if v := o.Verdict; v != nil && (v.Kind == protocol.VerdictCheat || v.Kind == protocol.VerdictEquivocation) && v.Seat >= 0 {
		out = append(out, v.Seat)
	}
	return out
}

// withoutNames are the names of the players next is played without, as this table knew them.
// s.mu is held.
func (s *Server) withoutNames(next TableChoice) []string {
	var out []string
	for _, k := range next.Exclude {
		for seat, key := range s.status.Keys {
			if key.Equal(k) {
				out = append(out, SeatName(s.status.Names, seat))
			}
		}
	}
	return out
}

func (s *Server) postRematch(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	next, ok := s.rematchChoice()
	if ok {
		select {
		case s.rematch <- next:
			s.again = true
		default: // the command has not read the last one: it is leaving
			ok = false
		}
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusConflict, errors.New(shellWords.Say(lang(r), "error.norematch")))
		return
	}
	s.changed()
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "table": next.Table})
}
