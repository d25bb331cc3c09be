package protocol

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"

	"time"

	"corruption/engine"
)

// NodeConfig configures a node.
type NodeConfig struct {
	Table   string // the table's name: nodes with the same name and settings sit together
	Game    string // the game's id in engine's registry
	Config  []byte // the game's canonical configuration
	Players int
	Name    string        // this player's name
	Timeout time.Duration // how long a seat may take over an entry its node writes alone (default 60s)
	// Allowance and Bank are the clock of a decision (a move, a choice) at a table this node
	// creates: the allowance for each, then a bank for the whole game; Allowance 0 gives a
	// decision the Timeout instead, NoClock no limit. A table's clock is its creator's.
	Allowance time.Duration
	Bank      time.Duration
	// Escrow: a table this node creates escrows its seats' root secrets (escrow.go), at 3 or
	// more seats, so that it plays on when a player leaves (depart.go). Off unless set: it
	// weakens the privacy promise (docs/SECURITY.md), so a caller chooses it (the command line
	// does, by default). A table's escrow is its creator's.
	Escrow bool
	// Exclude are players this node never sits with: the cheaters of its last table, when the
	// person plays again without them (the page's rematch). It ignores their hellos and refuses
	// a genesis that seats one of them.
	Exclude []ed25519.PublicKey

	Identity ed25519.PrivateKey
	Store    *Store // the data directory (required)
	Player   engine.Player
	Net      Network
	Clock    Clock // default: the real clock

	// FormTimeout bounds the wait for the table to form (default 10 minutes); past it, Run
	// returns a *FormError that says who was heard.
	FormTimeout time.Duration

	Tick   time.Duration // how often the node announces its head and checks timeouts (default 250ms)
	Linger time.Duration // how long a finished node keeps serving peers that are behind (default 5s)
	Logf   func(format string, args ...any)
	// Notef, if set, is told what a player should know even without verbose logging (a node
	// that wants the same table with other settings).
	Notef   func(format string, args ...any)
	OnEvent func(engine.Event) // the game's events, as they happen
	// OnChange, if set, is given a fresh Status whenever the table changes (from the node's
	// loop: it must return quickly and not call back into the node).
	OnChange func(Status)
	// OnChat, if set, is told every new message of the table's chat (chat.go), the node's own
	// included: from the node's loop, or from Say's caller. It must return quickly.
	OnChat func(ChatMessage)
	// Lobby, if set, is a second channel on which the node announces itself while it waits for
	// its table to form, so that browsers on the LAN can list open tables (see ParseAnnouncement).
	Lobby Network
	// Private, if set, makes the table private (private.go): only its creator writes the
	// genesis, and it seats only nodes that passed the join code. Net must be Private.Wrap'd.
	Private *PrivateTable
	Rand    io.Reader // for the genesis nonce (default crypto/rand)
	// Tamper, when set, makes the node cheat on purpose: it is given each entry the node is
	// about to write for its own seat, and returns the entry the node keeps and applies instead
	// (nil: none, the node stays silent there) and the entries it publishes (its own, another
	// version of it, or a broken copy). Only the adversary build sets it (bot --cheat,
	// protocol/cheat); an honest node leaves it nil.
	Tamper func(e *Entry) (keep *Entry, send []*Entry)
}

// Node is one player's node at a table. Its parts: the network loop (Run, with the fetching
// in sync.go and the table's formation in form.go), the writer of its own entries (the table's
// NextEntry), and the player's decision, asked on a goroutine of its own so that a person who
// thinks never stalls the loop.
type Node struct {
	cfg   NodeConfig
	self  *Self
	table *Table
	clock Clock

	deciding  bool // a Decide call is under way
	decisions chan decision
	incoming  chan message

	former    // the table's formation, before the genesis
	syncer    // fetching and serving entries, heads
	watcher   // the clock of the seat due
	departing // the departure being agreed (depart_node.go)
	reporter  // what OnChange was last told (status.go)
	told      // what the person was told of the log (receive.go)
	chat      chatRoom

	pause pauser // the table's pause (pause.go)
}

type decision struct {
	seq  uint64 // the log length the decision was asked at
	cuts int    // and the log's cuts then (cut.go): a cut may bring the log back to that length
	act  engine.Action
	err  error
}

type message struct {
	from string
	data []byte
}

// NewNode prepares a node. Run plays.
func NewNode(cfg NodeConfig) (*Node, error) {
	if cfg.Store == nil || cfg.Net == nil || cfg.Player == nil || cfg.Identity == nil {
		return nil, errors.New("a node needs a store, a network, a player and an identity")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Tick == 0 {
		cfg.Tick = 250 * time.Millisecond
	}
	if cfg.FormTimeout == 0 {
		cfg.FormTimeout = 10 * time.Minute
	}
	if cfg.Linger == 0 {
		cfg.Linger = 5 * time.Second
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Notef == nil {
		cfg.Notef = cfg.Logf
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	// The settings must make a table: check them as a genesis with placeholder keys.
	g := &Genesis{Name: cfg.Table, Game: cfg.Game, Config: cfg.Config, Timeout: cfg.Timeout, Allowance: cfg.Allowance, Bank: cfg.Bank}
	for i := 0; i < cfg.Players; i++ {
		g.Roster = append(g.Roster, Member{Key: make([]byte, 32)})
		g.Roster[i].Key[0] = byte(i)
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	if err := CheckName(cfg.Name); err != nil {
		return nil, fmt.Errorf("player name: %w", err)
	}
	n := &Node{cfg: cfg, self: NewSelf(cfg.Identity, [32]byte{}), clock: cfg.Clock,
		decisions: make(chan decision, 1), incoming: make(chan message, 256)}
	n.former.init()
	n.syncer.init()
	n.watcher.init()
	n.departingInit()
	return n, nil
}

// Table is the node's table (nil before the genesis). Only safe to use once Run has returned.
func (n *Node) Table() *Table { return n.table }

// Run plays the table to its end: complete (every seat signed off), or halted by a verdict.
// It resumes from the store when the node was stopped before.
func (n *Node) Run(ctx context.Context) (*Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := n.resume(); err != nil {
		return nil, err
	}
	if err := n.cfg.Store.OpenLog(n.cfg.Table); err != nil {
		return nil, err
	}
	defer n.cfg.Store.Close()
	n.cfg.Net.Serve(n.serve)
	defer n.cfg.Net.Serve(nil)
	go n.receive(ctx)
	ticks, stop := n.clock.Ticker(n.cfg.Tick)
	defer stop()
	n.progressed(n.clock.Now())
	n.beginForming(n.clock.Now())
	n.startCatchUp(ctx)    // a resumed node asks what it missed before it writes
	var finished time.Time // when the table completed or halted
	var lastCall time.Time // when every seat was known to hold the complete log
	n.hello(ctx)
	for {
		n.report()
		if now := n.clock.Now(); n.woke(now) {
			// The node was paused (a laptop asleep, a stopped process): its clock jumped. It
			// catches up before it writes or counts a seat's silence again.
			n.cfg.Logf("the node's clock jumped (paused?): catching up before anything else")
			n.restart(now)
			n.startCatchUp(ctx)
		}
		if t := n.table; t != nil {
			if n.pausing() {
				return n.outcome(), nil // every seat agreed to pause the table (pause.go)
			}
			if t.Verdict() != nil || t.Done() {
				if finished.IsZero() {
					finished = n.clock.Now()
					n.announce(ctx) // tell the others at once, so that nobody waits for us
				}
				// Linger: serve the peers that are behind, and (after a verdict) hear the
				// evidence that would turn a cheat into an equivocation. Once every seat holds
				// the complete log, announce it once more and leave at the next tick: the last
				// announcement must not be lost in the host's closing.
				if t.Done() && n.allDone() && lastCall.IsZero() {
					lastCall = n.clock.Now()
					n.announce(ctx)
				}
				if (!lastCall.IsZero() && n.clock.Now().After(lastCall)) || n.clock.Now().Sub(finished) > n.cfg.Linger {
					return n.outcome(), nil
				}
			} else if err := n.actUnlessPausing(ctx); err != nil {
				return n.outcome(), err
			}
		}
		select {
		case <-ctx.Done():
			return n.outcome(), ctx.Err()
		case m := <-n.incoming:
			n.handle(ctx, m)
		case d := <-n.decisions:
			n.deciding = false
			if err := n.decided(ctx, d); err != nil {
				return n.outcome(), err
			}
		case r := <-n.fetchedC:
			n.gotFetched(ctx, r)
		case <-ticks:
			n.tick(ctx)
			if n.stopErr != nil {
				return n.outcome(), n.stopErr
			}
			if n.table == nil && n.clock.Now().Sub(n.formingSince) > n.cfg.FormTimeout {
				return n.outcome(), n.formError()
			}
		}
	}
}

// newSeed draws and keeps the secret seed of a new log, and makes it the node's.
func (n *Node) newSeed() error {
	seed, err := n.cfg.Store.NewTableSeed(n.cfg.Table)
	n.self = NewSelf(n.cfg.Identity, seed)
	return err
}

// resume reloads the saved log, if any, and the secret seed beside it; a new log gets a new
// seed.
func (n *Node) resume() error {
	entries, err := n.cfg.Store.LoadLog(n.cfg.Table)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return n.newSeed()
	}
	seed, err := n.cfg.Store.TableSeed(n.cfg.Table)
	if err != nil {
		return err
	}
	n.self = NewSelf(n.cfg.Identity, seed)
	t, err := NewTable(entries[0], n.self, n.gameOpts())
	if err != nil {
		return fmt.Errorf("saved log: %w", err)
	}
	for _, e := range entries[1:] {
		if err := t.Append(e); err != nil && t.Verdict() == nil {
			return fmt.Errorf("saved log: %w", err)
		}
	}
	notes, err := n.cfg.Store.Notes(n.cfg.Table)
	if err != nil {
		return fmt.Errorf("saved log: %w", err)
	}
	if ended := endedWhy(t, notes); ended != "" {
		// The last table of this name is over: it stays in the data directory, and this run
		// sits at a new one.
		path, err := n.cfg.Store.ArchiveLog(n.cfg.Table, t.id, ended)
		if err != nil {
			return err
		}
		n.cfg.Notef("the last table named %q in this data directory ended (%s; its log is now %s): sitting at a new one", n.cfg.Table, ended, path)
		return n.newSeed()
	}
	n.table = t
	n.share()
	n.seated(entries[0])
	n.cfg.Logf("resumed table %q from %d saved entries", n.cfg.Table, t.Len())
	return n.resumePromise()
}

// sit makes t the node's table (formed, or rebuilt from the log).
func (n *Node) sit(t *Table) { n.table = t }

// standUp leaves the node's table (it dissolved) with the secrets of the next one it may form.
func (n *Node) standUp(self *Self) {
	n.self, n.table = self, nil
}

// seated tells a Network that is a Seater the genesis of the table the node now sits at.
func (n *Node) seated(genesis *Entry) {
	if s, ok := n.cfg.Net.(Seater); ok {
		s.Seated(genesis.Marshal())
	}
}

// endedWhy says how a saved table ended ("" if it did not): over, halted or abandoned.
func endedWhy(t *Table, notes []*Note) string {
	switch {
	case t.Done():
		return "over"
	case t.Verdict() != nil:
		return "halted"
	case len(notes) > 0:
		return "abandoned"
	}
	return ""
}

func (n *Node) receive(ctx context.Context) {
	for {
		from, data, err := n.cfg.Net.Next(ctx)
		if err != nil {
			return
		}
		select {
		case n.incoming <- message{from, data}:
		case <-ctx.Done():
			return
		}
	}
}

// act writes the node's entry when its seat is due, or asks its player for the decision due.
func (n *Node) act(ctx context.Context) error {
	t := n.table
	if t.OpenDue() {
		return n.actOpen(ctx) // every node computes the open seat's entry (depart.go)
	}
	if seat, _ := t.Due(); seat != n.self.seat || n.deciding || n.catchUp != nil || n.awaitBound() {
		return nil
	}
	if t.NeedsDecision() {
		n.deciding = true
		g, seat, seq, cuts := t.Game().Clone(), n.self.seat, t.Len(), t.Cuts()
		go func() {
			act, err := n.cfg.Player.Decide(ctx, g, seat)
			select {
			case n.decisions <- decision{seq, cuts, act, err}:
			case <-ctx.Done():
			}
		}()
		return nil
	}
	e, err := t.NextEntry(engine.Action{})
	if err != nil {
		return err
	}
	return n.write(ctx, e)
}

// awaitBound reports whether the node must wait before it writes the table's first entry past
// the keys: until every seat has announced every key, so that none of them may still leave the
// table for another (form.go), or for a quarter of the table's timeout after the last key (a
// seat that went silent then is named at its turn, as before), well within what the others
// allow this node for the entry.
func (n *Node) awaitBound() bool {
	t := n.table
	keys := uint64(len(t.g.Roster)) + 1
	if t.Len() != keys || n.clock.Now().Sub(n.progress) >= t.g.Timeout/4 {
		return false
	}
	for seat := range t.g.Roster {
		if seat != n.self.seat && n.heads[seat] < keys {
			return true
		}
	}
	return false
}

// decided writes the entry for a player's decision.
func (n *Node) decided(ctx context.Context, d decision) error {
	t := n.table
	if d.err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("the player could not decide: %w", d.err)
	}
	if d.seq != t.Len() || d.cuts != t.Cuts() || t.Verdict() != nil || !t.NeedsDecision() {
		return nil // the table moved on (it cannot while this seat is due, but be safe)
	}
	e, err := t.NextEntry(d.act)
	if err != nil {
		n.cfg.Logf("%v", err)
		return nil // the player will be asked again
	}
	return n.write(ctx, e)
}

// reportLearn logs what this node's game refused to learn privately (a bug, never a verdict).
func (n *Node) reportLearn() {
	if t := n.table; t != nil {
		if err := t.takeLearnErr(); err != nil {
			n.cfg.Logf("this node's game refused what it alone may see: %v", err)
		}
	}
}

// spread publishes entries that prove a verdict.
func (n *Node) spread(ctx context.Context, entries []*Entry) {
	for _, p := range entries {
		n.publish(ctx, append([]byte{msgEntry}, p.Marshal()...))
	}
}

func (n *Node) publish(ctx context.Context, data []byte) {
	if err := n.cfg.Net.Publish(ctx, data); err != nil && ctx.Err() == nil {
		n.cfg.Logf("publish: %v", err)
	}
}

func (n *Node) handle(ctx context.Context, m message) {
	if len(m.data) == 0 {
		return
	}
	body := m.data[1:]
	switch m.data[0] {
	case msgHello:
		h, err := parseHello(body)
		if err != nil {
			n.cfg.Logf("dropped a hello: %v", err)
			return
		}
		n.hear(ctx, h, m.from)
	case msgEntry:
		e, err := ParseEntry(body)
		if err != nil {
			n.cfg.Logf("dropped a message from %s: %v", m.from, err)
			return
		}
		n.receiveEntries(ctx, m.from, []*Entry{e}, true)
	case msgHead:
		h, err := parseHead(body)
		if err != nil || n.table == nil || h.table != n.table.ID() {
			return
		}
		n.heard(ctx, m.from, h)
	case msgChat:
		n.hearChat(m.data)
	case msgNote:
		if note, err := ParseNote(body); err == nil {
			n.heardNote(note)
		}
	case msgDepart:
		if d, err := ParseDeparture(body); err == nil {
			n.heardDeparture(ctx, d)
		}
	case msgPause:
		n.heardPause(m.from, m.data)
	case msgLeft:
		// The notice of a table already dead here, or never heard of, changes nothing: it is
		// dropped before its signature is checked (every node says its notices again).
		if l, err := parseLeftUnverified(body); err == nil && n.mayHearLeft(l) && l.signed() {
			n.heardLeft(ctx, l)
		}
	}
}

// tick announces the node's head, says hello while there is no table, and watches the clock of
// the seat due (watch.go).
func (n *Node) tick(ctx context.Context) {
	now := n.clock.Now()
	n.sayLeft(ctx, now)
	if n.table == nil {
		n.hello(ctx)
		n.waiting()
		return
	}
	n.announce(ctx)
	n.retryCatchUp(ctx)
	if n.note != nil {
		n.publish(ctx, append([]byte{msgNote}, n.note.Marshal()...)) // for the nodes that missed it
	}
	if n.pauseTick(ctx) {
		return // the table pauses: nobody is named silent (pause.go)
	}
	n.watch(ctx, now)
}

func (n *Node) gameOpts() engine.Options {
	if n.cfg.OnEvent == nil {
		return engine.Options{}
	}
	// muted: a log replayed again in mid-game (depart_node.go's watchOpened) is not told twice.
	return engine.Options{OnEvent: func(e engine.Event) {
		if !n.muted {
			n.cfg.OnEvent(e)
		}
	}}
}
