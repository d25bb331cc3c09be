package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/p2p"
	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/ui"
)

// A session is one node's run at a table, the same for bot, play and demo (and the local bots
// of play and demo): its data directory and identity, its p2p host, the lobby and the table's
// network, the node, and at the end the log saved to --out, the outcome printed and the exit
// status. Its errors are cli exit errors whose messages name what was wrong.
type session struct {
	cfg     sessionConfig
	store   *protocol.Store
	key     ed25519.PrivateKey
	host    *p2p.Node
	net     tablenet.Node // the host, or its member of the phones' hub (phones.go)
	hub     *bridge.Hub   // the phones' hub, with --phones and in host
	lobby   *tablenet.Net // once joined
	tmpData string        // a temporary data directory, removed at close unless kept
	cleanup []func()
	logf    func(string, ...any) // the node's and the host's events (--verbose)
	notef   func(string, ...any) // what a player should know

	atMu sync.Mutex
	at   personSeat // the table the person's node sits at now (play)
}

// personSeat is the table the session's person sits at, and whether the person's node would
// escrow it.
type personSeat struct {
	table  string
	escrow bool
}

// personAt says whether the person's node sits at table now, and whether it escrows there.
func (s *session) personAt(table string) (sits, escrow bool) {
	s.atMu.Lock()
	defer s.atMu.Unlock()
	return s.at.table == table && table != "", s.at.escrow
}

// sitAt notes the table the session's node sits at now (none: Table ""), and whether it
// would escrow it.
func (s *session) sitAt(c ui.TableChoice, escrow bool) {
	s.atMu.Lock()
	defer s.atMu.Unlock()
	s.at = personSeat{table: c.Table, escrow: escrow && c.Players >= protocol.MinEscrowSeats}
}

// sessionConfig says where a session keeps its data, how its host finds peers and where it
// speaks.
type sessionConfig struct {
	data   string   // the data directory ("": a temporary one, removed at close)
	listen []string // default p2p.LANListen
	peers  []string
	relays []string // --relay: circuit relays to keep a reservation on (p2p/relay.go)
	mdns   bool
	// errw, when set, is told the listen addresses and the notes; logf, when set, the events.
	errw io.Writer
	logf func(string, ...any)
	// holdAddrs: the command prints the listen addresses itself (printAddrs), after what a
	// person needs first (the page's address).
	holdAddrs bool
}

// openSession opens the data directory and starts the p2p host.
func openSession(ctx context.Context, cfg sessionConfig) (*session, error) {
	s := &session{cfg: cfg, logf: cfg.logf}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	s.notef = s.logf
	if w := cfg.errw; w != nil {
		s.notef = func(f string, a ...any) { fmt.Fprintln(w, "corruption: "+oneLine(fmt.Sprintf(f, a...))) }
	}
	err := s.openStore()
	if err == nil {
		err = s.openHost(ctx)
	}
	if err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *session) openStore() error {
	dir := s.cfg.data
	if dir == "" {
		tmp, err := os.MkdirTemp("", "corruption-")
		if err != nil {
			return cli.Exit(fmt.Sprintf("cannot make a data directory: %v", err), 1)
		}
		dir, s.tmpData = tmp, tmp
		s.cleanup = append(s.cleanup, func() {
			if s.tmpData != "" {
				os.RemoveAll(s.tmpData)
			}
		})
	}
	store, err := protocol.OpenStore(dir)
	if err != nil {
		return cli.Exit(fmt.Sprintf("--data: %v", err), 1)
	}
	s.store = store
	s.cleanup = append(s.cleanup, func() { store.Close() })
	if s.key, err = store.Identity(); err != nil {
		return cli.Exit(fmt.Sprintf("--data: %v", err), 1)
	}
	return nil
}

// openHost starts the p2p host; a bad --listen or --peer is a usage error.
func (s *session) openHost(ctx context.Context) error {
	listen := s.cfg.listen
	if len(listen) == 0 {
		listen = []string{p2p.LANListen}
	}
	noListen := len(listen) == 1 && listen[0] == "none"
	if noListen && len(s.cfg.relays) == 0 {
		return usageError("--listen none: a node that listens nowhere needs a --relay to be reached through")
	}
	host, err := p2p.New(ctx, p2p.Config{Identity: s.key, Listen: listen, Peers: s.cfg.peers, MDNS: s.cfg.mdns,
		ServiceTag: tablenet.ServiceTag, Exchange: true, Relays: s.cfg.relays, NoListen: noListen, Logf: s.logf})
	if err != nil {
		return cli.Exit(err.Error(), 2)
	}
	s.host, s.net = host, host
	s.cleanup = append(s.cleanup, func() { host.Close() })
	if !s.cfg.holdAddrs {
		s.printAddrs()
	}
	return nil
}

// printAddrs prints the host's addresses, for other players' --peer.
func (s *session) printAddrs() {
	if s.cfg.errw == nil {
		return
	}
	for _, a := range s.host.Addrs() {
		fmt.Fprintf(s.cfg.errw, "listening on %s\n", a)
	}
}

// joinLobby joins the lobby topic (once).
func (s *session) joinLobby() (*tablenet.Net, error) {
	if s.lobby != nil {
		return s.lobby, nil
	}
	l, err := tablenet.JoinLobby(s.net, p2p.PeerKey)
	if err != nil {
		return nil, cli.Exit(err.Error(), 1)
	}
	s.lobby = l
	return l, nil
}

// keep keeps a temporary data directory (it holds a log that could not be saved elsewhere).
func (s *session) keep() { s.tmpData = "" }

func (s *session) close() {
	for i := len(s.cleanup) - 1; i >= 0; i-- {
		s.cleanup[i]()
	}
	s.cleanup = nil
}

// seat is what a session's node needs to sit at one table.
type seat struct {
	choice   ui.TableChoice
	name     string
	clock    tableClock
	player   engine.Player
	onEvent  func(engine.Event)
	onChange func(protocol.Status)
	lobby    bool // announce the table on the lobby while it forms
	// slot, if set, is given the node once it exists: what is said in the table's chat, and
	// asks for a pause, go to the node through it; onChat is told the chat's messages.
	slot   *ui.NodeSlot
	onChat func(protocol.ChatMessage)
	// agreePause: the node agrees to every pause asked (a bot's; pause.go).
	agreePause bool
	// private, if set, is the private table the node was admitted to (or created): its
	// channel is sealed and only its creator's genesis counts (private.go).
	private *protocol.PrivateTable
	// tamper makes the node cheat (the adversary build's bot --cheat; nil: honest).
	tamper func(*protocol.Entry) (*protocol.Entry, []*protocol.Entry)
}

// played is how a session's node played its table.
type played struct {
	seat seat
	node *protocol.Node
	out  *protocol.Outcome
	err  error // why Run stopped before the end
}

// play sits at the table and plays it to its end, or until ctx ends. Its error is one of
// setting up; how the table went is in the run.
func (s *session) play(ctx context.Context, st seat) (*played, error) {
	var tn protocol.Network
	var leave func() error
	var err error
	if st.private != nil {
		tn, leave, err = tablenet.JoinPrivate(s.net, st.private)
	} else {
		var t *tablenet.Net
		if t, err = tablenet.JoinTable(s.net, st.choice.Table); err == nil {
			tn, leave = t, t.Leave
		}
	}
	if err != nil {
		return nil, cli.Exit(err.Error(), 1)
	}
	defer leave() // the table's topic, once its node is done (a person's next table may bear its name)
	cfg := protocol.NodeConfig{Table: st.choice.Table, Game: st.choice.Game, Config: st.choice.Config, Players: st.choice.Players,
		Name: st.name, Timeout: st.clock.timeout, Allowance: st.clock.allowance, Bank: st.clock.bank,
		FormTimeout: st.clock.wait, Escrow: st.clock.escrow, Exclude: st.choice.Exclude, Identity: s.key, Store: s.store, Player: st.player, Net: tn,
		Logf: s.logf, Notef: s.notef, OnEvent: st.onEvent, OnChange: st.onChange, Private: st.private, Tamper: st.tamper}
	if st.lobby && st.private == nil {
		if cfg.Lobby, err = s.joinLobby(); err != nil {
			return nil, err
		}
	}
	cfg.OnChat = st.onChat
	node, err := protocol.NewNode(cfg)
	if err != nil {
		return nil, cli.Exit(err.Error(), 1)
	}
	if st.slot != nil {
		st.slot.Attach(node)
	}
	s.sitAt(st.choice, st.clock.escrow)
	defer s.sitAt(ui.TableChoice{}, false)
	if st.agreePause {
		node.AgreeToPauses()
	}
	out, err := node.Run(ctx)
	for _, p := range s.host.Peers() { // how each connection ended (--verbose): direct or relayed
		s.logf("p2p: the connection to %s is %s", p, s.host.Relayed(p))
	}
	return &played{seat: st, node: node, out: out, err: err}, nil
}

// report is how a command ends a run: where it saves the log, how it prints the outcome.
type report struct {
	out    string // --out: where to save the log ("": nowhere)
	json   bool   // the outcome as one JSON object
	stdout io.Writer
	game   *game
}

// finish ends a run as bot, play and demo end: it saves the log to --out, prints the outcome
// and returns the exit status: 0 for a table every seat signed off, 1 for one that halted,
// stopped or was interrupted (with a message that says where it stood).
func (s *session) finish(r *played, rep report) error {
	if err := s.saveOut(r, rep.out); err != nil {
		return err
	}
	if r.err != nil {
		return s.stopped(r)
	}
	if r.out.Paused { // every seat agreed: exit 0, and say how to resume (pause.go)
		if rep.json {
			return json.NewEncoder(rep.stdout).Encode(r.out)
		}
		s.printPaused(rep.stdout, r)
		return nil
	}
	if rep.json {
		if err := json.NewEncoder(rep.stdout).Encode(r.out); err != nil {
			return err
		}
		if r.out.Verdict != nil && s.cfg.errw != nil {
			fmt.Fprintf(s.cfg.errw, "table %q halted: %v\n", r.out.Table, r.out.Verdict)
		}
	} else {
		printOutcome(rep.stdout, r, rep.game)
	}
	if r.out.Verdict != nil || !r.out.Finished {
		return cli.Exit("", 1)
	}
	return nil
}

// saveOut saves the table's log to path; a log that cannot be saved stays in the data
// directory, which is then kept.
func (s *session) saveOut(r *played, path string) error {
	if path == "" || r.node.Table() == nil {
		return nil
	}
	table := r.seat.choice.Table
	if err := saveLog(path, s.store, table); err != nil {
		s.keep()
		return cli.Exit(fmt.Sprintf("--out: %v (the log stays in %s)", err, s.store.LogPath(table)), 1)
	}
	if err := saveChat(path, s.store, table); err != nil {
		s.keep()
		return cli.Exit(fmt.Sprintf("--out: the chat: %v (it stays in %s)", err, s.store.ChatPath(table)), 1)
	}
	return nil
}

// stopped is the exit error of a run that stopped before the end of its table.
func (s *session) stopped(r *played) error {
	table := r.seat.choice.Table
	if !errors.Is(r.err, context.Canceled) {
		return cli.Exit(fmt.Sprintf("table %q: %v", table, r.err), 1)
	}
	t := r.node.Table()
	if t == nil {
		return cli.Exit(fmt.Sprintf("interrupted: table %q had not formed yet (%d of %d players heard)", table, r.node.Heard(), r.seat.choice.Players), 1)
	}
	msg := fmt.Sprintf("interrupted: table %q stopped at entry %d, waiting for %s", table, t.Len(), dueWords(t))
	if s.tmpData == "" {
		msg += "; start again with the same --data to resume"
	}
	return cli.Exit(msg, 1)
}

// printOutcome prints how the table ended, every player's score in the game's unit, and the
// winners, by name and seat.
func printOutcome(w io.Writer, r *played, g *game) {
	o := r.out
	switch {
	case o.Verdict != nil:
		fmt.Fprintf(w, "Table %q halted: %v\n", o.Table, verdictWords(o.Verdict, r))
	case o.Finished:
		fmt.Fprintf(w, "Table %q is over (%d entries, every seat signed off).\n", o.Table, o.Entries)
	default:
		fmt.Fprintf(w, "Table %q stopped before the end (%d entries).\n", o.Table, o.Entries)
	}
	t := r.node.Table()
	if t == nil {
		return
	}
	players := t.Players()
	names := ui.ShownNames("en", playerNames(players)) // escaped, isolated, with their seats
	width := 8
	for _, n := range names {
		width = max(width, shownWidth(n))
	}
	for seat := range players {
		score := 0
		if seat < len(o.Scores) {
			score = o.Scores[seat]
		}
		me := ""
		if seat == o.Seat {
			me = "  (you)"
		}
		if slices.Contains(o.Open, seat) { // its player left; the others played on (protocol/depart.go)
			me += "  (left: played by a bot)"
		}
		fmt.Fprintf(w, "  %s%s %12s%s\n", names[seat], strings.Repeat(" ", width-shownWidth(names[seat])), g.Score(score), me)
	}
	if len(o.Winners) > 0 && o.Finished {
		won := make([]string, len(o.Winners))
		for i, seat := range o.Winners {
			won[i] = ui.SeatName(names, seat)
		}
		fmt.Fprintf(w, "Winners: %s\n", joinAnd(won))
	}
	if o.Digest != "" {
		fmt.Fprintf(w, "Digest: %s\n", o.Digest)
	}
}

// shownWidth is how many characters a name as ui.ShownName shows it takes on a line (the
// isolates around it take none).
func shownWidth(s string) int {
	return utf8.RuneCountInString(s) - strings.Count(s, "\u2068") - strings.Count(s, "\u2069")
}

func playerNames(ms []protocol.Member) []string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}

// dueWords is what the table waits for, naming the seat due by its player's name (and seat).
func dueWords(t *protocol.Table) string {
	due := t.DueString()
	seat, _ := t.Due()
	if seat < 0 {
		return due
	}
	if rest, ok := strings.CutPrefix(due, fmt.Sprintf("seat %d ", seat)); ok {
		return ui.ShownName("en", playerNames(t.Players()), seat) + " " + rest
	}
	return due
}

// verdictWords is a verdict naming the seat blamed by its player's name (and seat).
func verdictWords(v *protocol.Verdict, r *played) string {
	t := r.node.Table()
	if t == nil || v.Seat < 0 {
		return v.Error()
	}
	return strings.Replace(v.Error(), fmt.Sprintf("seat %d ", v.Seat), ui.ShownName("en", playerNames(t.Players()), v.Seat)+" ", 1)
}

// joinAnd is "a", "a and b", "a, b and c".
func joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// oneLine folds a multi-line message (libp2p's dial errors) onto one line, every control,
// format or bidi character escaped (protocol.Printable): what --verbose logs and the notes say
// may quote a name or a message from anyone.
func oneLine(s string) string {
	return protocol.Printable(strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " "))
}
