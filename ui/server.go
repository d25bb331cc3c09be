package ui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"time"

	"corruption/engine"
	"corruption/protocol"
)

// Config configures a Server.
type Config struct {
	Name string // the person's name
	// Board is the board of the game the lobby's form shows first (--game; required). Boards
	// are the boards of every game the page may show, in the order the lobby offers them (it
	// lists the tables of each, and the page then shows the table's game's board); Board is
	// added to them when it is not there.
	Board  Board
	Boards []Board
	Human  *Human // the person's player (required to take moves)
	// Bots is how many local bots the lobby's form seats by default at a table the person
	// creates (the form may set another number), and how many come along to a table the
	// person joins (the lobby leaves room for them).
	Bots int
	// Levels are the bots' levels the lobby's form offers, easiest first (none: no choice),
	// and Level the one it starts from (TableChoice.Level).
	Levels []string
	Level  string
	// Defaults fills the lobby's form to create a table (its Game is Board's; the other games'
	// forms start from their boards' ShowSettings(nil), their default settings).
	Defaults TableChoice
	// Key is the session key every request must carry (default: 16 random bytes in hex).
	Key string
	// Now is the clock (default Clock's Now).
	Now func() time.Time
	// Clock times the lobby's join by code (its "still looking" and its limit; default the
	// system's clock). Now, when nil, is the Clock's.
	Clock protocol.Clock
	// JoinLimit is how long the lobby's join by code looks for the table before it gives up,
	// and says so (default DefaultJoinLimit).
	JoinLimit time.Duration
	// Dial, when set, asks the person's node to dial a peer's address (a multiaddr ending in
	// /p2p/ID), for the lobby's field to reach a player that discovery does not find. Its
	// error says what is wrong with the address.
	Dial func(addr string) error
	// Say, when set, says the person's message in the table's chat (POST /api/chat; chat.go).
	Say func(text string) error
	// Pause, when set, asks for a pause of the table or agrees to it (agree), or keeps playing
	// (POST /api/pause; pause.go).
	Pause func(agree bool) error
	// Rematch, when set, offers a rematch once a game is finished (POST /api/rematch; the
	// command reads Rematches and seats the person with NewTable; rematch.go).
	Rematch bool
	// Escrow: a table the person's node creates escrows its seats' secrets at 3 or more seats
	// (protocol.NodeConfig.Escrow): the page tells the promise that makes (depart.go).
	Escrow bool
	// JoinPrivate, when set, joins the private table of a join code (CODE, or CODE@RELAY), as
	// --join does, for the lobby's field (POST /api/lobby/private; private.go): it returns the
	// table once the person's node is admitted, or why not (protocol.ErrWrongCode,
	// protocol.ErrTableFull, a *protocol.JoinWaitError, ErrNoCreator), or ctx's error when the
	// page gives up (JoinLimit) or the person cancels. It calls heard (any number of times)
	// once a creator of the code's nameplate is heard. The command reads Choices as for any
	// table.
	JoinPrivate func(ctx context.Context, code string, heard func()) (TableChoice, error)
	// CheckSit, when set, may refuse a table the person creates or joins in the lobby, before
	// the person sits: ErrHoldsTheRest, or any error whose text the page shows.
	CheckSit func(TableChoice) error
	// Quit: the page offers to quit the program (POST /api/quit; the laptop's page). A phone's
	// page does not: closing the tab is its quit.
	Quit bool
	// RenewPhones, when set, gives phones a new address (POST /api/phones/renew; the phones'
	// box shows the button): the command sets the box again with SetPhones.
	RenewPhones func() error
}

// ErrHoldsTheRest is CheckSit's refusal of a table at which this machine's bots sit for a
// phone, where the person would make this machine hold every seat but the phone's at a table
// that escrows (docs/SECURITY.md, "A seat in the browser").
var ErrHoldsTheRest = errors.New("this machine's bots sit at that table for a phone: with you, this machine would hold every seat but the phone's at a table that escrows")

// Network is how the person's node finds other players, for the lobby and the waiting screen
// (see NetworkState).
type Network struct {
	MDNS  bool     // discovery on the LAN
	Peers int      // peers connected now
	Addrs []string // the node's addresses, as another player's --peer takes them
	// Conns is how the node reaches each peer connected now: directly or through a relay.
	Conns []PeerConn
}

// PeerConn is a peer the node is connected to and how: Kind is "direct" or "relayed" (what
// --verbose logs).
type PeerConn struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

// Result is how the person's node ended: its outcome, the audit of its log, or an error.
type Result struct {
	Outcome *protocol.Outcome
	Audit   *protocol.Report
	Err     error
	// Resume is the command that resumes a paused table ("" when it cannot resume).
	Resume string
	// escrow: the table escrowed its seats' secrets, so that the others play on when the
	// person leaves (set by Finish, from the node's last status; depart.go).
	escrow bool
}

// Server is the person's local web page and its JSON API: the shell every game shares, with
// the game's Board. It is fed by the command line: Update with the node's status, Event with
// the game's events, Announce (or ReadLobby) with the lobby, Finish at the end. The zero value
// is not usable: use NewServer.
type Server struct {
	cfg     Config
	board   Board            // Config.Board: the game the lobby's form shows first
	boards  map[string]Board // every game's board, by game id
	games   []string         // their ids, in Boards' order
	node    string           // the page's node id: its cookie's and its storage's names (session.go)
	human   *Human
	shell   fs.FS  // the shell's static files
	index   []byte // the page, named for its node (session.go)
	choices chan TableChoice
	rematch chan TableChoice // the rematch the person asks for (rematch.go)
	quit    chan struct{}
	leaves  chan struct{} // the person asks to leave the table (person.go)
	names   chan string   // the name the person gave (AskName)
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
	noted   map[string]bool // the keys of the board's notes in the log
	verdict bool            // the verdict is in the log
	lobby   lobby
	result  *Result
	network *Network
	phones  *Phones     // SetPhones
	gen     int         // the person's tables so far: 0, then one more at each rematch
	again   bool        // the person asked for a rematch of this table
	private *Private    // the private table the node created (private.go)
	joining *joinSearch // the node is joining a private table by its code (private.go)
	// privateJoined: the person joined a private table from the page (no rematch offer).
	privateJoined bool
	asking        bool   // the page asks the person's name (AskName)
	nameDefault   string // and fills the field with it
}

// logItem is a line of the log: a game event, a verdict or the audit (told when the page asks,
// in its language, with the names then known), or a line already in words.
type logItem struct {
	event   *engine.Event
	verdict *protocol.Verdict
	audit   *Result
	chat    *protocol.ChatMessage
	line    LogLine
	note    string // a board's note's key: told again in the page's language
}

// NewServer makes a server for cfg.Boards' games, cfg.Board's first. cfg.Human's changes are
// shown on the page, and its decisions are timed by cfg.Now.
func NewServer(cfg Config) (*Server, error) {
	if cfg.Board == nil {
		return nil, errors.New("the page needs a game's board")
	}
	shell, err := fs.Sub(static, "static")
	if err != nil {
		return nil, fmt.Errorf("the page's files: %w", err)
	}
	if cfg.Key == "" {
		var b [16]byte
		rand.Read(b[:])
		cfg.Key = hex.EncodeToString(b[:])
	}
	if cfg.Clock == nil {
		cfg.Clock = systemClock{}
	}
	if cfg.Now == nil {
		cfg.Now = cfg.Clock.Now
	}
	if cfg.JoinLimit <= 0 {
		cfg.JoinLimit = DefaultJoinLimit
	}
	cfg.Defaults.Game = cfg.Board.Game()
	if cfg.Defaults.Players == 0 {
		cfg.Defaults.Players = max(4, cfg.Bots+1)
	}
	s := &Server{cfg: cfg, board: cfg.Board, boards: map[string]Board{}, node: nodeID(cfg.Key), human: cfg.Human, shell: shell,
		choices: make(chan TableChoice, 1), rematch: make(chan TableChoice, 1), quit: make(chan struct{}), closed: make(chan struct{}),
		leaves: make(chan struct{}, 1), names: make(chan string, 1),
		notify: make(chan struct{}), noted: map[string]bool{}}
	for _, b := range append(cfg.Boards[:len(cfg.Boards):len(cfg.Boards)], cfg.Board) {
		if b == nil || s.boards[b.Game()] != nil {
			continue
		}
		if !validGameID(b.Game()) {
			return nil, fmt.Errorf("the board of %q: a game id is lowercase letters and digits", b.Game())
		}
		s.boards[b.Game()] = b
		s.games = append(s.games, b.Game())
	}
	if s.index, err = pageFor(shell, s.node); err != nil {
		return nil, err
	}
	if s.human != nil && s.human.onChange == nil {
		s.human.onChange, s.human.now = s.changed, cfg.Now
	}
	return s, nil
}

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

// choose takes the person's choice from the page; when the person already sits at a table, it
// returns that table's name instead.
func (s *Server) choose(c TableChoice) (seated string, ok bool) {
	s.mu.Lock()
	if s.choice != nil {
		t := s.choice.Table
		s.mu.Unlock()
		return t, false
	}
	s.choice = &c
	s.mu.Unlock()
	s.choices <- c // buffered: only one choice is ever taken
	s.changed()
	return "", true
}

// SetNetwork shows how the person's node finds other players (call it again when the number
// of peers changes).
func (s *Server) SetNetwork(n Network) {
	s.mu.Lock()
	s.network = &n
	s.mu.Unlock()
	s.changed()
}

// Update shows the node's latest status.
func (s *Server) Update(st protocol.Status) {
	s.mu.Lock()
	s.status, s.haveSt = st, true
	if st.State != nil && st.Seat >= 0 {
		// The board's notes are told once, in its first language.
		for _, n := range s.tableBoard().Notes(st.State, st.Seat, ShownNames(Languages[0], st.Names)) {
			if !s.noted[n.Key] {
				s.noted[n.Key] = true
				s.log = append(s.log, logItem{line: n.LogLine, note: n.Key})
			}
		}
	}
	if v := st.Verdict; v != nil && !s.verdict {
		s.verdict = true
		s.log = append(s.log, logItem{verdict: v})
	}
	s.mu.Unlock()
	s.changed()
}

// Event adds a game event to the log.
func (s *Server) Event(e engine.Event) {
	s.mu.Lock()
	s.log = append(s.log, logItem{event: &e})
	s.mu.Unlock()
	s.changed()
}

// Finish shows how the table ended.
func (s *Server) Finish(r Result) {
	s.mu.Lock()
	r.escrow = s.haveSt && s.status.Escrow
	s.result = &r
	s.log = append(s.log, logItem{audit: &r})
	s.mu.Unlock()
	s.changed()
}

// Quit is closed when the person leaves from the page.
func (s *Server) Quit() <-chan struct{} { return s.quit }

// Close ends the page's event streams (before shutting the HTTP server down).
func (s *Server) Close() { s.once.Do(func() { close(s.closed) }) }

// tableBoard is the board of the person's table's game, or in the lobby Board's. s.mu is held.
func (s *Server) tableBoard() Board {
	if c := s.choice; c != nil {
		if b := s.boards[c.Game]; b != nil {
			return b
		}
	}
	return s.board
}

// boardIn is the board of the person's table's game (in the lobby, Board's), speaking lang.
func (s *Server) boardIn(lang string) Board {
	s.mu.Lock()
	b := s.tableBoard()
	s.mu.Unlock()
	return Localize(b, lang)
}

// snapshot is the page's state now, in lang, with the log from line logFrom on.
func (s *Server) snapshot(logFrom int, lang string) State {
	var pend asked
	var asked bool
	if s.human != nil {
		pend, asked = s.human.current()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := Localize(s.tableBoard(), lang)
	// Every name the page shows is escaped, isolated and shown with its seat (names.go): st
	// holds the names as ShownNames shows them.
	st := shownStatus(lang, &s.status)
	out := State{Version: s.version, Lang: lang, Me: Me{Name: Isolate(s.cfg.Name), Seat: -1}}
	if s.haveSt {
		out.Me.Seat = st.Seat
	}
	names := st.Names
	var g engine.Game
	if st.State != nil && st.Seat >= 0 {
		g = st.State
	}
	var drawn Drawing
	if names != nil {
		drawn = b.Draw(g, st.Seat, names)
		out.Seats = s.seats(drawn, g, st)
	}
	out.Mode = s.mode(names, drawn, g)
	out.Quit = s.cfg.Quit
	if s.asking {
		out.Mode, out.NameDefault = "name", s.nameDefault
	}
	if drawn.Started {
		out.Game = drawn.Game
	}
	if c := s.choice; c != nil {
		out.Table = &TableState{Name: c.Table, GameID: c.Game, Players: c.Players, Entries: st.Entries, Members: isolateAll(distinct(st.Members)), Full: st.Full,
			Bots: c.Bots, Settings: b.ShowSettings(c.Config), Private: s.private != nil || s.privateJoined}
		out.Table.Escrow = s.escrow(c.Players)
		out.Table.Promise = escrowPromise(lang, out.Table.Escrow)
	} else {
		out.Lobby = s.lobbyState(lang)
	}
	if out.Mode == "waiting" {
		out.Private = s.privateState()
	}
	if out.Mode == "lobby" || out.Mode == "waiting" {
		out.Network = s.networkState()
		out.Phones = s.phones
	}
	if asked && s.result == nil && st.Verdict == nil {
		out.Decision = &Decision{ID: pend.ID, SinceMS: pend.Since.UnixMilli(), Board: b.Decision(pend.Game, pend.Seat, names)}
	}
	out.Clock = s.clock(st, pend, asked)
	if v := st.Verdict; v != nil {
		out.Alerts = append(out.Alerts, Alert{Level: "error", Text: verdictText(lang, v, names, st.Seat)})
	}
	if s.result == nil {
		out.Alerts = append(out.Alerts, departAlerts(lang, st)...)
	}
	if r := s.result; r != nil {
		out.Result = buildResult(lang, r, names, st.Seat)
	}
	out.TableGen = s.gen
	if next, ok := s.rematchChoice(); ok {
		out.Rematch, out.Without = next.Table, s.withoutNames(next)
	}
	out.Pause = s.pauseState(lang, st, out.Mode)
	out.LogStart, out.Log = s.logLines(b, lang, st, logFrom)
	return out
}

func (s *Server) networkState() *NetworkState {
	if s.network == nil {
		return nil
	}
	n := s.network
	addrs := n.Addrs
	if addrs == nil {
		addrs = []string{}
	}
	conns := n.Conns
	if conns == nil {
		conns = []PeerConn{}
	}
	return &NetworkState{MDNS: n.MDNS, Peers: n.Peers, Addrs: addrs, Dial: s.cfg.Dial != nil, Conns: conns}
}

// logLines are the log's lines from logFrom on (and where they start), the game's events in
// the board's words with the names known now (st's, as ShownNames shows them).
func (s *Server) logLines(b Board, lang string, st *protocol.Status, logFrom int) (int, []LogLine) {
	logFrom = min(max(logFrom, 0), len(s.log))
	out := []LogLine{}
	var notes map[string]LogLine // the board's notes in lang, by key (read once)
	for _, it := range s.log[logFrom:] {
		l := it.line
		if it.note != "" && st.State != nil && st.Seat >= 0 {
			if notes == nil {
				notes = map[string]LogLine{}
				for _, n := range b.Notes(st.State, st.Seat, st.Names) {
					notes[n.Key] = n.LogLine
				}
			}
			if n, ok := notes[it.note]; ok {
				l = n
			}
		}
		switch {
		case it.event != nil:
			l = b.Tell(*it.event, st.Names, st.Seat)
		case it.verdict != nil:
			l = LogLine{Kind: "verdict", Text: verdictText(lang, it.verdict, st.Names, st.Seat)}
		case it.audit != nil:
			l = LogLine{Kind: "audit", Text: auditText(lang, *it.audit)}
		case it.chat != nil:
			l = chatLine(lang, it.chat, st.Names, st.Roster, st.Seat)
		}
		out = append(out, l)
	}
	return logFrom, out
}

// mode is the page's mode: lobby, waiting (for seats), setup, game or over.
func (s *Server) mode(names []string, drawn Drawing, g engine.Game) string {
	switch {
	case s.result != nil || (g != nil && g.Outcome().Over):
		return "over"
	case s.choice == nil:
		return "lobby"
	case names == nil:
		return "waiting"
	case !drawn.Started:
		return "setup"
	}
	return "game"
}

// seats describes every player: the shell's fields and the board's.
func (s *Server) seats(drawn Drawing, g engine.Game, st *protocol.Status) []SeatState {
	var winners []int
	if g != nil {
		winners = g.Outcome().Winners
	}
	out := make([]SeatState, max(len(st.Names), len(drawn.Seats)))
	for seat := range out {
		ss := SeatState{Seat: seat, Name: SeatName(st.Names, seat), Me: seat == st.Seat,
			Due: st.Due == seat && !st.Done && st.Verdict == nil, Open: slices.Contains(st.Open, seat), Cheated: convicted(st, seat)}
		for _, w := range winners {
			ss.Winner = ss.Winner || w == seat
		}
		if seat < len(drawn.Seats) {
			ss.Board = drawn.Seats[seat]
		}
		out[seat] = ss
	}
	return out
}

// clock is whom the table waits for and since when (nil when nobody, or at the end), with
// st's names.
func (s *Server) clock(st *protocol.Status, pend asked, asked bool) *Clock {
	if !s.haveSt || st.Due < 0 || st.Done || st.Verdict != nil || s.result != nil {
		return nil
	}
	since := st.DueSince
	if asked && st.Due == st.Seat {
		since = pend.Since
	}
	c := &Clock{Due: st.Due, Name: SeatName(st.Names, st.Due), SinceMS: since.UnixMilli(),
		TimeoutMS: st.Timeout.Milliseconds(), NowMS: s.now().UnixMilli()}
	allowance, bank := st.Allowance, st.Bank
	switch {
	case allowance <= 0: // no clock of decisions: the timeout
	case allowance >= noLimit:
		c.NoLimit = true
	default:
		a, b := allowance.Milliseconds(), bank.Milliseconds()
		c.AllowanceMS, c.BankMS = &a, &b
	}
	return c
}

// noLimit is an allowance that is no limit at all (protocol's NoClock is a day).
const noLimit = 24 * time.Hour

func buildResult(lang string, r *Result, names []string, me int) *ResultState {
	out := &ResultState{Audit: auditText(lang, *r), Scores: []int{}, Winners: []int{}, Status: "stopped"}
	if o := r.Outcome; o != nil {
		out.Finished, out.Digest, out.Entries = o.Finished, o.Digest, o.Entries
		if o.Scores != nil {
			out.Scores = o.Scores
		}
		if o.Winners != nil && o.Finished {
			out.Winners = o.Winners
		}
		if o.Verdict != nil {
			out.Verdict = verdictText(lang, o.Verdict, names, me)
		}
	}
	if r.Audit != nil && r.Err == nil {
		out.Valid = r.Audit.Valid
	}
	if r.Err != nil {
		out.Error = r.Err.Error()
	}
	out.Status, out.Headline = ending(lang, r, names, me)
	if out.Status == "paused" {
		out.Resume = r.Resume
	}
	if out.Status != "finished" {
		out.Finished, out.Winners = false, []int{}
	}
	if o := r.Outcome; o != nil && o.Forfeit {
		out.Winners = o.Winners // a table of two halted by a cheat: the other wins by forfeit
	}
	return out
}
