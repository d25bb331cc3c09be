package ui

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"corruption/engine/corruption"
	"corruption/protocol"
)

// Config configures a Server.
type Config struct {
	Name  string // the person's name
	Human *Human // the person's player (required)
	// Bots is how many local bots will sit with the person (the lobby leaves room for them).
	Bots int
	// Defaults fills the lobby's form to create a table.
	Defaults TableChoice
	// Key is the session key every request must carry (default: 16 random bytes in hex).
	Key string
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Result is how the person's node ended: its outcome, the audit of its log, or an error.
type Result struct {
	Outcome *protocol.Outcome
	Audit   *protocol.Report
	Err     error
}

// Server is the person's local web page and its JSON API. It is fed by the command line:
// Update with the node's status, Event with the game's events, Announce (or ReadLobby) with the
// lobby, Finish at the end. The zero value is not usable: use NewServer.
type Server struct {
	cfg     Config
	human   *Human
	choices chan TableChoice
	quit    chan struct{}
	closed  chan struct{}
	once    sync.Once
	quitted sync.Once

	mu      sync.Mutex
	version int
	notify  chan struct{} // closed and replaced at every change
	choice  *TableChoice
	status  protocol.Status
	haveSt  bool
	log     []logItem
	peeks   map[[2]int]bool // (round, card) of peeks whose answer is in the log
	verdict bool            // the verdict is in the log
	lobby   lobby
	result  *Result
}

type logItem struct {
	round int
	kind  string
	event *corruption.Event
	text  string
}

// NewServer makes a server. cfg.Human's changes are shown on the page.
func NewServer(cfg Config) *Server {
	if cfg.Key == "" {
		var b [16]byte
		rand.Read(b[:])
		cfg.Key = hex.EncodeToString(b[:])
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Defaults.Players == 0 {
		cfg.Defaults.Players = max(4, cfg.Bots+1)
	}
	s := &Server{cfg: cfg, human: cfg.Human, choices: make(chan TableChoice, 1), quit: make(chan struct{}),
		closed: make(chan struct{}), notify: make(chan struct{}), peeks: map[[2]int]bool{}}
	if s.human != nil && s.human.onChange == nil {
		s.human.onChange = s.changed
	}
	return s
}

// Key is the session key.
func (s *Server) Key() string { return s.cfg.Key }

// URL is the address to open for a server listening on addr (host:port): it carries the key.
func (s *Server) URL(addr string) string { return fmt.Sprintf("http://%s/?key=%s", addr, s.cfg.Key) }

func (s *Server) now() time.Time { return s.cfg.Now() }

// changed tells the page's event streams that something changed.
func (s *Server) changed() {
	s.mu.Lock()
	s.version++
	close(s.notify)
	s.notify = make(chan struct{})
	s.mu.Unlock()
}

// Choices delivers the table the person creates or joins in the lobby (once).
func (s *Server) Choices() <-chan TableChoice { return s.choices }

// SetTable seats the person at a table chosen elsewhere (the command line's --table): the page
// skips the lobby.
func (s *Server) SetTable(c TableChoice) {
	s.mu.Lock()
	s.choice = &c
	s.mu.Unlock()
	s.changed()
}

// choose takes the person's choice from the page.
func (s *Server) choose(c TableChoice) error {
	s.mu.Lock()
	if s.choice != nil {
		t := s.choice.Table
		s.mu.Unlock()
		return fmt.Errorf("you already sit at table %q", t)
	}
	s.choice = &c
	s.mu.Unlock()
	s.choices <- c // buffered: only one choice is ever taken
	s.changed()
	return nil
}

// Update shows the node's latest status.
func (s *Server) Update(st protocol.Status) {
	s.mu.Lock()
	s.status, s.haveSt = st, true
	if g := st.Game; g != nil && st.Seat >= 0 {
		v := g.View(st.Seat)
		for i := 1; i <= v.NumPlays(); i++ {
			p, _ := v.Play(i)
			key := [2]int{v.Round(), i}
			if p.PeekedBy&(1<<st.Seat) == 0 || p.Card == corruption.CardUnknown || s.peeks[key] {
				continue
			}
			s.peeks[key] = true
			s.log = append(s.log, logItem{round: v.Round(), kind: "peek", text: fmt.Sprintf("Your peek: card %d, %s %s, is %s.",
				i, seatName(st.Names, p.Seat)+"'s", spotPhrase(p.Spot), p.Card.Title())})
		}
	}
	if v := st.Verdict; v != nil && !s.verdict {
		s.verdict = true
		s.log = append(s.log, logItem{kind: "verdict", text: verdictText(v, st.Names, st.Seat)})
	}
	s.mu.Unlock()
	s.changed()
}

// Event adds a game event to the log.
func (s *Server) Event(e corruption.Event) {
	s.mu.Lock()
	s.log = append(s.log, logItem{round: e.Round, kind: eventKind(e.Kind), event: &e})
	s.mu.Unlock()
	s.changed()
}

// Note adds a line of the server's own to the log.
func (s *Server) Note(text string) {
	s.mu.Lock()
	s.log = append(s.log, logItem{kind: "note", text: text})
	s.mu.Unlock()
	s.changed()
}

// Finish shows how the table ended.
func (s *Server) Finish(r Result) {
	s.mu.Lock()
	s.result = &r
	s.log = append(s.log, logItem{kind: "audit", text: auditText(r)})
	s.mu.Unlock()
	s.changed()
}

// Quit is closed when the person leaves from the page.
func (s *Server) Quit() <-chan struct{} { return s.quit }

// Close ends the page's event streams (before shutting the HTTP server down).
func (s *Server) Close() { s.once.Do(func() { close(s.closed) }) }

// Snapshot is the page's state now, with the log from line logFrom on.
func (s *Server) Snapshot(logFrom int) State {
	var pend Pending
	var asked bool
	if s.human != nil {
		pend, asked = s.human.Pending()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.status
	out := State{Version: s.version, Me: Me{Name: s.cfg.Name, Seat: -1}, Log: []LogLine{}}
	if s.haveSt {
		out.Me.Seat = st.Seat
	}
	names := st.Names
	if s.choice != nil {
		c := s.choice
		out.Table = &TableState{Name: c.Table, Players: c.Players, Variant: c.Variant.String(), LBB: c.LBB,
			Entries: st.Entries, Members: st.Members, Bots: s.cfg.Bots}
	}
	var view *corruption.View
	if st.Game != nil && st.Seat >= 0 {
		v := st.Game.View(st.Seat)
		view = &v
	}
	switch {
	case s.result != nil || (view != nil && view.Over()):
		out.Mode = "over"
	case s.choice == nil:
		out.Mode = "lobby"
	case names == nil:
		out.Mode = "waiting"
	case view == nil:
		out.Mode = "setup"
	default:
		out.Mode = "game"
	}
	if s.choice == nil {
		d := s.cfg.Defaults
		if d.Table == "" {
			d.Table = s.cfg.Name + "'s table"
		}
		out.Lobby = &LobbyState{Tables: s.lobby.list(s.cfg.Bots), Bots: s.cfg.Bots,
			Defaults: LobbyForm{Table: d.Table, Players: d.Players, Variant: d.Variant.String(), LBB: d.LBB},
			Variants: []string{"standard", "down-the-river", "free-stud", "closed"}}
	}
	if names != nil {
		out.Seats = buildSeats(view, st)
	}
	if view != nil {
		out.Game = buildGame(*view, names)
	}
	if asked && s.result == nil && st.Verdict == nil {
		out.Decision = buildDecision(pend, names)
	}
	if s.haveSt && st.Due >= 0 && !st.Done && st.Verdict == nil && s.result == nil {
		since := st.DueSince
		if asked && st.Due == st.Seat {
			since = pend.Since
		}
		out.Clock = &Clock{Due: st.Due, Name: seatName(names, st.Due), SinceMS: since.UnixMilli(),
			TimeoutMS: st.Timeout.Milliseconds(), NowMS: s.now().UnixMilli()}
	}
	if v := st.Verdict; v != nil {
		out.Alerts = append(out.Alerts, Alert{Level: "error", Text: verdictText(v, names, st.Seat)})
	}
	if r := s.result; r != nil {
		out.Result = buildResult(r, names, st.Seat)
		if r.Err != nil {
			out.Alerts = append(out.Alerts, Alert{Level: "error", Text: "Your node stopped: " + r.Err.Error()})
		}
	}
	logFrom = min(max(logFrom, 0), len(s.log))
	out.LogStart = logFrom
	for _, it := range s.log[logFrom:] {
		l := LogLine{Round: it.round, Kind: it.kind, Text: it.text}
		if it.event != nil {
			l.Text = describe(*it.event, names, st.Seat)
		}
		out.Log = append(out.Log, l)
	}
	return out
}

// verdictText says why the table halted, in words.
func verdictText(v *protocol.Verdict, names []string, me int) string {
	who := seatName(names, v.Seat)
	if v.Seat == me {
		who = "Your node"
	}
	switch v.Kind {
	case protocol.VerdictAbandoned:
		return fmt.Sprintf("%s is gone: %s. The table named them and stopped (entry %d); every node reaches the same verdict.", who, v.Reason, v.Seq)
	case protocol.VerdictEquivocation:
		return fmt.Sprintf("%s was caught cheating: it signed two different entries for entry %d (%s). The table halted.", who, v.Seq, v.Reason)
	}
	return fmt.Sprintf("%s was caught cheating at entry %d: %s. The table halted; the log holds the proof.", who, v.Seq, v.Reason)
}

func auditText(r Result) string {
	switch {
	case r.Audit != nil && r.Audit.Valid:
		return fmt.Sprintf("Audit: the log checks. %d entries: every signature, shuffle proof, commitment and rule verified; every seat signed off the final digest %.16s….",
			r.Audit.Entries, r.Audit.Digest)
	case r.Audit != nil:
		return "Audit: the log does not check: " + r.Audit.Problem
	case r.Err != nil:
		return "The table did not finish: " + r.Err.Error()
	}
	return "The table ended."
}

func buildResult(r *Result, names []string, me int) *ResultState {
	out := &ResultState{Audit: auditText(*r), Scores: []int{}, Winners: []int{}}
	if o := r.Outcome; o != nil {
		out.Finished, out.Digest, out.Entries = o.Finished, o.Digest, o.Entries
		if o.Scores != nil {
			out.Scores = o.Scores
		}
		if o.Winners != nil && o.Finished {
			out.Winners = o.Winners
		}
		if o.Verdict != nil {
			out.Verdict = verdictText(o.Verdict, names, me)
		}
	}
	if r.Audit != nil {
		out.Valid = r.Audit.Valid
	}
	if r.Err != nil {
		out.Error = r.Err.Error()
	}
	return out
}
