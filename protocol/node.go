package protocol

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"corruption/engine/corruption"
)

// Player makes a seat's decisions: placements, peeks, the free-stud choice and awarding
// choices. It sees only its seat's view. Decide may block (a person thinking); it must return
// when ctx is done.
type Player interface {
	Decide(ctx context.Context, v corruption.View) (corruption.Move, error)
}

// NodeConfig configures a node.
type NodeConfig struct {
	Table   string // the table's name: nodes with the same name and settings sit together
	Players int
	Variant corruption.Variant
	LBB     bool
	Name    string        // this player's name
	Timeout time.Duration // how long a due seat may stay silent (default 60s)

	Identity ed25519.PrivateKey
	Store    *Store // the data directory (required)
	Player   Player
	Net      Network

	Tick   time.Duration // how often the node announces its head and checks timeouts (default 250ms)
	Linger time.Duration // how long a finished node keeps serving peers that are behind (default 5s)
	Logf   func(format string, args ...any)
	// Notef, if set, is told what a player should know even without verbose logging (a node
	// that wants the same table with other settings).
	Notef   func(format string, args ...any)
	OnEvent func(corruption.Event) // the game's events, as they happen
	// OnChange, if set, is given a fresh Status whenever the table changes (from the node's
	// loop: it must return quickly and not call back into the node).
	OnChange func(Status)
	// Lobby, if set, is a second channel on which the node announces itself while it waits for
	// its table to form, so that browsers on the LAN can list open tables (see ParseAnnouncement).
	Lobby Network
	Rand  io.Reader // for the genesis nonce (default crypto/rand)
}

// Status is a snapshot of a node's table for front ends.
type Status struct {
	Table    string
	Seat     int               // this node's seat (-1 before the table forms)
	Names    []string          // the players' names by seat (nil before the table forms)
	Members  []string          // names of the nodes heard while forming
	Game     *corruption.State // a private copy of the game (nil before the first player is drawn)
	Entries  int
	Due      int       // the seat the table waits for (-1 when none)
	DueWhat  string    // what the table waits for, in words ("seat 2 to write its shuffle")
	DueSince time.Time // since when
	Timeout  time.Duration
	Done     bool
	Verdict  *Verdict
}

// Node is one player's node at a table.
type Node struct {
	cfg   NodeConfig
	self  *Self
	table *Table

	members   map[string]*hello // by identity key, before the genesis
	heads     map[int]uint64    // the log length each seat last announced
	progress  time.Time         // when the log last grew
	deciding  bool              // a Decide call is under way
	decisions chan decision
	incoming  chan message
	genesisAt time.Time // when the node last republished the genesis for a latecomer

	mu       sync.Mutex // guards shared, sharedID and evidence, read by serve
	shared   []*Entry
	sharedID [32]byte
	evidence []*Entry // the signed entries that halted the table, if any

	reported    [4]int          // what OnChange was last told: entries, members, verdict, done
	forkChecked map[string]bool // peers whose other version of the log was already fetched
	warned      map[string]bool // nodes already named for wanting other settings
	inflight    map[string]bool // peers a fetch is under way from
	fetchedC    chan fetched
}

type decision struct {
	seq  uint64 // the log length the decision was asked at
	move corruption.Move
	err  error
}

type message struct {
	from string
	data []byte
}

// Outcome is how a table ended, as a node saw it.
type Outcome struct {
	Table    string   `json:"table"`
	ID       string   `json:"id"`
	Seat     int      `json:"seat"`
	Finished bool     `json:"finished"`
	Scores   []int    `json:"scores"`
	Winners  []int    `json:"winners"`
	Digest   string   `json:"digest"`
	Entries  int      `json:"entries"`
	Verdict  *Verdict `json:"verdict,omitempty"`
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
	g := &Genesis{Name: cfg.Table, Variant: cfg.Variant, LBB: cfg.LBB, Timeout: cfg.Timeout}
	for i := 0; i < cfg.Players; i++ {
		g.Roster = append(g.Roster, Member{Key: make([]byte, 32)})
		g.Roster[i].Key[0] = byte(i)
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	return &Node{cfg: cfg, self: NewSelf(cfg.Identity, [32]byte{}), members: map[string]*hello{},
		heads: map[int]uint64{}, forkChecked: map[string]bool{}, warned: map[string]bool{}, inflight: map[string]bool{}, fetchedC: make(chan fetched, maxFetches), decisions: make(chan decision, 1), incoming: make(chan message, 256)}, nil
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
	tick := time.NewTicker(n.cfg.Tick)
	defer tick.Stop()
	n.progress = time.Now()
	var finished time.Time // when the table completed or halted
	n.hello(ctx)
	for {
		n.report()
		if t := n.table; t != nil {
			if t.Verdict() != nil || t.Done() {
				if finished.IsZero() {
					finished = time.Now()
					n.announce(ctx) // tell the others at once, so that nobody waits for us
				}
				// Linger: serve the peers that are behind, and (after a verdict) hear the
				// evidence that would turn a cheat into an equivocation.
				if (t.Done() && n.allDone()) || time.Since(finished) > n.cfg.Linger {
					return n.outcome(), nil
				}
			} else if err := n.act(ctx); err != nil {
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
		case <-tick.C:
			n.tick(ctx)
		}
	}
}

// resume reloads the saved log, if any, and the secret seed beside it; a new log gets a new
// seed.
func (n *Node) resume() error {
	entries, err := n.cfg.Store.LoadLog(n.cfg.Table)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		n.self.Seed, err = n.cfg.Store.NewTableSeed(n.cfg.Table)
		return err
	}
	if n.self.Seed, err = n.cfg.Store.TableSeed(n.cfg.Table); err != nil {
		return err
	}
	t, err := NewTable(entries[0], n.self, n.gameOpts()...)
	if err != nil {
		return fmt.Errorf("saved log: %w", err)
	}
	for _, e := range entries[1:] {
		if err := t.Append(e); err != nil && t.Verdict() == nil {
			return fmt.Errorf("saved log: %w", err)
		}
	}
	n.table = t
	n.share()
	n.cfg.Logf("resumed table %q from %d saved entries", n.cfg.Table, t.Len())
	return nil
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

// act writes the node's entry when its seat is due.
func (n *Node) act(ctx context.Context) error {
	t := n.table
	seat, _ := t.Due()
	if seat != n.self.seat || n.deciding {
		return nil
	}
	var asked bool
	e, err := t.NextEntry(func(v corruption.View) (corruption.Move, bool) {
		asked = true
		n.deciding = true
		view := t.Game().Clone().View(n.self.seat)
		seq := t.Len()
		go func() {
			m, err := n.cfg.Player.Decide(ctx, view)
			select {
			case n.decisions <- decision{seq, m, err}:
			case <-ctx.Done():
			}
		}()
		return corruption.Move{}, false
	})
	if err != nil || asked {
		return err
	}
	return n.write(ctx, e)
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
	if d.seq != t.Len() || t.Verdict() != nil {
		return nil // the table moved on (it cannot while this seat is due, but be safe)
	}
	e, err := t.NextEntry(func(corruption.View) (corruption.Move, bool) { return d.move, true })
	if err != nil {
		n.cfg.Logf("%v", err)
		return nil // the player will be asked again
	}
	if e == nil {
		return nil
	}
	return n.write(ctx, e)
}

// write persists one of the node's own entries, applies it and publishes it.
func (n *Node) write(ctx context.Context, e *Entry) error {
	if err := n.cfg.Store.Append(e, true); err != nil {
		return err
	}
	if err := n.table.Append(e); err != nil {
		var v *Verdict
		if !errors.As(err, &v) {
			return fmt.Errorf("the table refused the node's own entry: %w", err)
		}
		// Our own entry convicts another seat (a blame): it is in the log; every node must
		// see it to reach the same verdict.
		n.cfg.Logf("%v", v)
		n.share()
		n.spread(ctx, []*Entry{e})
		return nil
	}
	n.progress = time.Now()
	n.share()
	n.publish(ctx, append([]byte{msgEntry}, e.Marshal()...))
	n.announce(ctx)
	return nil
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
		if h.seat < len(n.table.keys) && h.len > n.heads[h.seat] {
			n.heads[h.seat] = h.len
		}
		if h.len > n.table.Len() {
			n.fetch(ctx, m.from, n.table.Len())
		} else if h.len == n.table.Len() && h.hash != n.table.Head() && !n.forkChecked[m.from] {
			n.cfg.Logf("seat %d announces another version of the log at entry %d: looking for the fork", h.seat, h.len)
			n.forkChecked[m.from] = true
			n.fetch(ctx, m.from, n.forkSeq())
		}
	}
}

// receiveEntries applies entries from a peer. A gap or a fork makes it fetch from that peer
// (broadcasts only: the answer to a fetch is not followed up here, see gotFetched).
func (n *Node) receiveEntries(ctx context.Context, from string, entries []*Entry, broadcast bool) {
	for _, e := range entries {
		if n.table == nil {
			if e.Seq == 0 {
				n.adopt(ctx, e)
			}
			continue
		}
		err := n.table.Append(e)
		var gap *GapError
		var v *Verdict
		switch {
		case err == nil:
			n.progress = time.Now()
			n.share()
			clear(n.forkChecked)
			if serr := n.cfg.Store.Append(e, false); serr != nil {
				n.cfg.Logf("%v", serr)
			}
		case errors.As(err, &gap):
			if broadcast {
				n.fetch(ctx, from, n.table.Len())
			}
			return
		case errors.As(err, &v):
			n.cfg.Logf("%v", v)
			// Keep the proof: the offending entry goes to the log, to every peer, and to
			// whoever asks for entries. (A blame, which convicts another seat, is a good
			// entry and is in the table's log already.)
			if err := n.cfg.Store.Append(e, true); err != nil {
				n.cfg.Logf("%v", err)
			}
			n.share()
			// (Entries() is the log; Evidence() the proof outside it.)
			proof := n.table.Evidence()
			n.mu.Lock()
			n.evidence = proof
			n.mu.Unlock()
			n.spread(ctx, proof)
			return
		case errors.Is(err, ErrDuplicate), errors.Is(err, ErrDone), errors.Is(err, ErrHalted):
		default:
			n.cfg.Logf("%v", err)
			var rj *RejectError
			if errors.As(err, &rj) && rj.chain && from != "" && !n.forkChecked[from] {
				// Another version of the log: fetch the peer's recent entries, where two
				// versions of one entry signed by one seat prove an equivocation.
				n.forkChecked[from] = true
				n.fetch(ctx, from, n.forkSeq())
				return
			}
		}
	}
}

// Fetching. Requests run on goroutines of their own and their answers come back to the node's
// loop, so a peer that is slow, silent or lying never stalls the node: it only wastes its own
// fetch. At most one fetch per peer is under way, and at most maxFetches in all.

const (
	maxFetches   = 4
	fetchTimeout = 3 * time.Second
)

type fetched struct {
	peer    string
	seq     uint64
	entries []*Entry
	err     error
}

// fetch asks peer for the entries from seq on, unless a fetch from it is under way.
func (n *Node) fetch(ctx context.Context, peer string, seq uint64) {
	if n.table == nil || peer == "" || n.inflight[peer] || len(n.inflight) >= maxFetches {
		return
	}
	n.inflight[peer] = true
	req := entriesRequest(n.table.ID(), seq)
	go func() {
		rctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		r := fetched{peer: peer, seq: seq}
		var ans []byte
		if ans, r.err = n.cfg.Net.Request(rctx, peer, req); r.err == nil {
			r.entries, r.err = parseBatch(ans)
		}
		select {
		case n.fetchedC <- r:
		case <-ctx.Done():
		}
	}()
}

// fetchAny asks every reachable peer for what this node lacks (a stalled table, a lost fetch).
func (n *Node) fetchAny(ctx context.Context) {
	for _, p := range n.cfg.Net.Peers() {
		n.fetch(ctx, p, n.table.Len())
	}
}

// gotFetched applies a fetch's answer. A fetch that helped is followed by another from the same
// peer (it may have more); one that failed or did not help sends the node to the others.
func (n *Node) gotFetched(ctx context.Context, r fetched) {
	delete(n.inflight, r.peer)
	if n.table == nil {
		return
	}
	if r.err != nil {
		n.cfg.Logf("fetch from %s: %v", r.peer, r.err)
		n.fetchAny(ctx)
		return
	}
	before := n.table.Len()
	n.receiveEntries(ctx, r.peer, r.entries, false)
	switch {
	case n.table.Verdict() != nil:
	case n.table.Len() > before && len(r.entries) >= maxBatch-1:
		n.fetch(ctx, r.peer, n.table.Len())
	case n.table.Len() == before && r.seq >= before && n.behind():
		n.fetchAny(ctx)
	}
}

// behind reports whether some seat has announced a longer log than this node's.
func (n *Node) behind() bool {
	for _, l := range n.heads {
		if l > n.table.Len() {
			return true
		}
	}
	return false
}

// forkSeq is where to look for a fork: a few entries back, where two versions of one entry
// would show as an equivocation.
func (n *Node) forkSeq() uint64 {
	const back = 8
	if l := n.table.Len(); l > back {
		return l - back
	}
	return 1
}

// serve answers peers' requests for entries.
func (n *Node) serve(from string, req []byte) ([]byte, error) {
	r := reader{b: req}
	if r.u8() != reqEntries {
		return nil, errors.New("unknown request")
	}
	var id [32]byte
	r.fixed(id[:])
	seq := r.u64()
	if err := r.done("entries request"); err != nil {
		return nil, err
	}
	n.mu.Lock()
	entries, tid, evidence := n.shared, n.sharedID, n.evidence
	n.mu.Unlock()
	if len(entries) == 0 || tid != id {
		return nil, errors.New("no such table here")
	}
	start := min(seq, uint64(len(entries)))
	end := min(start+maxBatch-uint64(len(evidence)), uint64(len(entries)))
	batch := entries[start:end]
	if len(evidence) > 0 && end == uint64(len(entries)) {
		// The entries that halted the table, so that the asker reaches the same verdict.
		batch = append(append([]*Entry(nil), batch...), evidence...)
	}
	return marshalBatch(batch), nil
}

// share publishes the log to serve (entries are immutable once appended, and the log only
// grows, so a copy of the slice header is a consistent snapshot).
func (n *Node) share() {
	n.mu.Lock()
	n.shared, n.sharedID = n.table.entries, n.table.id
	n.mu.Unlock()
}

// hello asks for a seat, until the genesis comes.
func (n *Node) hello(ctx context.Context) {
	if n.table != nil {
		return
	}
	h := &hello{table: n.cfg.Table, players: n.cfg.Players, variant: n.cfg.Variant, lbb: n.cfg.LBB,
		name: n.cfg.Name, key: n.self.Public()}
	h.sig = ed25519.Sign(n.cfg.Identity, h.unsigned())
	n.publish(ctx, h.marshal())
	if n.cfg.Lobby != nil {
		if err := n.cfg.Lobby.Publish(ctx, h.marshal()); err != nil && ctx.Err() == nil {
			n.cfg.Logf("lobby: %v", err)
		}
	}
	n.hear(ctx, h, "")
}

// hear takes note of a node that wants a seat. When N nodes want one, the one with the lowest
// key writes the genesis: the roster is the N lowest keys, in key order.
func (n *Node) hear(ctx context.Context, h *hello, from string) {
	if h.table != n.cfg.Table {
		return
	}
	if t := n.table; t != nil {
		// A roster member that missed the genesis: send it again (once a tick at most).
		if t.g.SeatOf(h.key) >= 0 && from != "" && time.Since(n.genesisAt) > n.cfg.Tick {
			n.genesisAt = time.Now()
			n.publish(ctx, append([]byte{msgEntry}, t.entries[0].Marshal()...))
		}
		return
	}
	if diff := settingsDiff(h, n.cfg); diff != "" {
		if !n.warned[string(h.key)] {
			n.warned[string(h.key)] = true
			n.cfg.Notef("%q also wants table %q, but with %s: it will not sit with us", h.name, h.table, diff)
		}
		return
	}
	n.members[string(h.key)] = h
	if len(n.members) < n.cfg.Players {
		return
	}
	keys := make([]string, 0, len(n.members))
	for k := range n.members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	keys = keys[:n.cfg.Players]
	if keys[0] != string(n.self.Public()) {
		return
	}
	g := &Genesis{Name: n.cfg.Table, Variant: n.cfg.Variant, LBB: n.cfg.LBB, Timeout: n.cfg.Timeout}
	for _, k := range keys {
		m := n.members[k]
		g.Roster = append(g.Roster, Member{Name: m.name, Key: m.key})
	}
	e, err := NewGenesis(n.cfg.Rand, n.cfg.Identity, g)
	if err != nil {
		n.cfg.Logf("cannot create the table: %v", err)
		return
	}
	n.adopt(ctx, e)
}

// settingsDiff says how a hello's settings differ from ours ("" if they do not).
func settingsDiff(h *hello, cfg NodeConfig) string {
	var d []string
	if h.players != cfg.Players {
		d = append(d, fmt.Sprintf("%d players (we want %d)", h.players, cfg.Players))
	}
	if h.variant != cfg.Variant {
		d = append(d, fmt.Sprintf("variant %s (we want %s)", h.variant, cfg.Variant))
	}
	if h.lbb != cfg.LBB {
		d = append(d, fmt.Sprintf("little black book %v (we want %v)", h.lbb, cfg.LBB))
	}
	return strings.Join(d, " and ")
}

// Heard is how many nodes (this one included) have asked for a seat at the table so far.
// Only safe once Run has returned.
func (n *Node) Heard() int { return len(n.members) }

// adopt takes a genesis that seats this node.
func (n *Node) adopt(ctx context.Context, e *Entry) {
	g, err := ParseGenesis(e.Body)
	if err != nil || g.Name != n.cfg.Table || g.SeatOf(n.self.Public()) < 0 {
		return
	}
	if len(g.Roster) != n.cfg.Players || g.Variant != n.cfg.Variant || g.LBB != n.cfg.LBB {
		n.cfg.Logf("ignoring a genesis for %q with other settings", g.Name)
		return
	}
	t, err := NewTable(e, n.self, n.gameOpts()...)
	if err != nil {
		n.cfg.Logf("ignoring a genesis: %v", err)
		return
	}
	// A table this node sat at before, whose log it no longer has: sitting again would derive
	// its old secrets anew (a replayed genesis), so it never does.
	if played, err := n.cfg.Store.Played(e.Table); err != nil || played {
		if err == nil && !n.warned["played "+string(e.Table[:])] {
			n.warned["played "+string(e.Table[:])] = true
			n.cfg.Notef("refusing table %q (id %x): this node sat at it before and no longer has its log; it never sits at one table twice", g.Name, e.Table[:8])
		}
		if err != nil {
			n.cfg.Logf("%v", err)
		}
		return
	}
	if err := n.cfg.Store.MarkPlayed(e.Table); err != nil {
		n.cfg.Logf("%v", err)
		return
	}
	if err := n.cfg.Store.Append(e, true); err != nil {
		n.cfg.Logf("%v", err)
		return
	}
	n.table = t
	n.progress = time.Now()
	n.share()
	n.cfg.Logf("table %q formed: seat %d of %d", g.Name, n.self.seat, len(g.Roster))
	n.publish(ctx, append([]byte{msgEntry}, e.Marshal()...))
}

// tick announces the node's head, says hello while there is no table, and names a seat that
// stays silent too long.
func (n *Node) tick(ctx context.Context) {
	if n.table == nil {
		n.hello(ctx)
		return
	}
	n.announce(ctx)
	t := n.table
	seat, _ := t.Due()
	if seat < 0 {
		return
	}
	if seat != n.self.seat && time.Since(n.progress) > t.g.Timeout/2 {
		n.fetchAny(ctx) // perhaps it wrote and we missed it
	}
	// A seat silent past the timeout is named, by the others and by its own node alike (a
	// person who did not decide in time), so that every node ends with the same verdict.
	if seat2, _ := t.Due(); seat2 == seat && time.Since(n.progress) > t.g.Timeout {
		v := t.Abandon(fmt.Sprintf("silent for %v while the table waited for it", t.g.Timeout))
		n.cfg.Logf("%v", v)
		// Record it at the end of the log, signed, so that an audit of this log names the
		// same seat.
		note := NewNote(t, n.self, v)
		if err := n.cfg.Store.AppendNote(note); err != nil {
			n.cfg.Logf("%v", err)
		}
	}
}

func (n *Node) announce(ctx context.Context) {
	t := n.table
	h := &head{table: t.id, seat: n.self.seat, len: t.Len(), hash: t.head}
	if g := t.Game(); g != nil {
		h.digest = g.Digest()
	}
	n.heads[n.self.seat] = t.Len()
	n.publish(ctx, h.marshal())
}

// allDone reports whether every seat has announced the complete log.
func (n *Node) allDone() bool {
	for seat := range n.table.keys {
		if n.heads[seat] < n.table.Len() {
			return false
		}
	}
	return true
}

func (n *Node) gameOpts() []corruption.Option {
	if n.cfg.OnEvent == nil {
		return nil
	}
	return []corruption.Option{corruption.WithEvents(n.cfg.OnEvent)}
}

// report tells OnChange about a change.
func (n *Node) report() {
	if n.cfg.OnChange == nil {
		return
	}
	st := Status{Table: n.cfg.Table, Seat: n.self.seat, Due: -1, DueSince: n.progress, Timeout: n.cfg.Timeout}
	for _, h := range n.members {
		st.Members = append(st.Members, h.name)
	}
	sort.Strings(st.Members)
	key := [4]int{0, len(st.Members), 0, 0}
	if t := n.table; t != nil {
		for _, m := range t.g.Roster {
			st.Names = append(st.Names, m.Name)
		}
		st.Entries, st.Done, st.Verdict, st.Timeout = int(t.Len()), t.Done(), t.Verdict(), t.g.Timeout
		st.Due, _ = t.Due()
		st.DueWhat = t.DueString()
		if g := t.Game(); g != nil {
			st.Game = g.Clone()
			st.Game.OnEvent = nil
		}
		key[0] = st.Entries
		if st.Verdict != nil {
			key[2] = 1
		}
		if st.Done {
			key[3] = 1
		}
	}
	if key == n.reported {
		return
	}
	n.reported = key
	n.cfg.OnChange(st)
}

func (n *Node) outcome() *Outcome {
	o := &Outcome{Table: n.cfg.Table, Seat: n.self.seat}
	t := n.table
	if t == nil {
		return o
	}
	fillOutcome(o, t)
	return o
}

func fillOutcome(o *Outcome, t *Table) {
	o.ID = fmt.Sprintf("%x", t.id[:8])
	o.Entries = int(t.Len())
	o.Verdict = t.Verdict()
	o.Finished = t.Done()
	if g := t.Game(); g != nil {
		for seat := range t.keys {
			v, _ := g.Score(seat)
			o.Scores = append(o.Scores, v)
		}
		o.Winners = g.Winners()
		d := g.Digest()
		o.Digest = fmt.Sprintf("%x", d)
	}
}
