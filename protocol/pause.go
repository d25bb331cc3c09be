package protocol

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"
	"time"

	"corruption/protocol/internal/wire"
)

// The table's pause: a stop that every seat agrees to, after which every node ends its Run with
// the table paused, keeping its data directory, and the same command later resumes it (resume in
// node.go; the catch-up round of watch.go restarts the clock of the seat due).
//
// A seat asks or agrees with a signed vote for the log as its node holds it: (length L, hash of
// entry L−1). A vote counts only while the node's log is still at L; once the log grows it is
// void. A seat may refuse, or withdraw its own vote, with a vote that says no (Agree false): the
// question at L is closed. Each seat's latest vote (by its counter) stands. While its own vote
// stands at L, a node does not write entry L (up to half its seat's time: it is never named
// silent for asking), so a table where every seat agrees stays at L until every node holds every
// vote.
//
// The seats that vote are the seats not open (a seat that left, or that was convicted of
// cheating, plays by its stand-in and votes no more: depart.go, convict.go): a table of four
// with one open seat pauses on the three others' votes.
//
// What it promises: a node pauses only on every voting seat's vote that agrees, each signed by its seat's identity
// key for this table and the same (L, head), with head the hash of the node's own entry L−1 (a
// certificate). A node that holds a certificate stops, whatever withdrawal it hears after (a
// withdrawal that comes too late loses), and while it lingers it re-sends the certificate in one
// message, so that a node that missed a vote still gets all of them; a node whose log already
// grew past L pauses where it is on such a certificate (some node may have stopped on it). No
// node names a seat silent while it pauses. The fact "paused at L" is kept in the data
// directory (tables/NAME/paused, the certificate): a node resumed from it does not pause again
// on that certificate, and says it resumes a paused table. docs/PROTOCOL.md, "Pause", argues why
// no node plays on while another paused.

// msgPause is a pause message: one vote, or the certificate of a pause (every seat's vote).
const msgPause byte = 'p'

const pauseDomain = "corruption/pause/v1\x00"

// pausePoke is the origin of the node's own wake-up, which Pause and KeepPlaying hand to the
// node's loop (no peer has this id).
const pausePoke = "\x00pause"

// PauseVote is a seat's signed answer to a pause of its table at log length Len.
type PauseVote struct {
	Table   [32]byte
	Len     uint64   // the log's length the vote is for
	Head    [32]byte // the hash of entry Len−1
	Seat    int      // the voter's seat
	Agree   bool     // false: a refusal, or the withdrawal of the seat's vote
	Counter uint64   // the seat's count of its votes: the latest stands
	Sig     [ed25519.SignatureSize]byte
}

func (v *PauseVote) unsigned() []byte {
	w := wire.Writer{B: []byte(pauseDomain)}
	w.Fixed(v.Table[:])
	w.U64(v.Len)
	w.Fixed(v.Head[:])
	w.U8(uint8(v.Seat))
	agree := uint8(0)
	if v.Agree {
		agree = 1
	}
	w.U8(agree)
	w.U64(v.Counter)
	return w.B
}

// Sign signs the vote with its seat's identity key.
func (v *PauseVote) Sign(key ed25519.PrivateKey) {
	copy(v.Sig[:], ed25519.Sign(key, v.unsigned()))
}

// Verify checks the vote's signature against its seat's identity key.
func (v *PauseVote) Verify(pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, v.unsigned(), v.Sig[:])
}

// MarshalPause encodes a pause message: 'p' ‖ u8 count ‖ count × (table ‖ u64 len ‖ head ‖
// u8 seat ‖ flag agree ‖ u64 counter ‖ signature).
func MarshalPause(votes []*PauseVote) []byte {
	b := []byte{msgPause, uint8(len(votes))}
	for _, v := range votes {
		b = append(b, v.unsigned()[len(pauseDomain):]...)
		b = append(b, v.Sig[:]...)
	}
	return b
}

// ParsePause decodes a pause message (with its kind byte) strictly: one vote, or a certificate
// of 2 to 16 agreeing votes of distinct seats for one table, length and head. Signatures are
// checked against the table's keys by the node.
func ParsePause(msg []byte) ([]*PauseVote, error) {
	if len(msg) < 1 || msg[0] != msgPause {
		return nil, errors.New("not a pause message")
	}
	r := wire.Reader{B: msg[1:]}
	n := int(r.U8())
	if r.Err == nil && (n < 1 || n > maxSeats) {
		return nil, fmt.Errorf("malformed pause message: %d votes, want 1 to %d", n, maxSeats)
	}
	var votes []*PauseVote
	for i := 0; i < n && r.Err == nil; i++ {
		v := &PauseVote{}
		r.Fixed(v.Table[:])
		v.Len = r.U64()
		r.Fixed(v.Head[:])
		v.Seat = int(r.U8())
		switch f := r.U8(); {
		case r.Err != nil:
		case f > 1:
			return nil, fmt.Errorf("malformed pause vote %d: agree flag %d", i, f)
		default:
			v.Agree = f == 1
		}
		v.Counter = r.U64()
		r.Fixed(v.Sig[:])
		votes = append(votes, v)
	}
	if err := r.Done("pause message"); err != nil {
		return nil, err
	}
	seats := map[int]bool{}
	for i, v := range votes {
		switch {
		case v.Len == 0:
			return nil, fmt.Errorf("malformed pause vote %d: length 0 (a table has its genesis)", i)
		case v.Counter == 0:
			return nil, fmt.Errorf("malformed pause vote %d: counter 0 (counters start at 1)", i)
		case v.Seat >= maxSeats:
			return nil, fmt.Errorf("malformed pause vote %d: seat %d", i, v.Seat)
		case n > 1 && !v.Agree:
			return nil, fmt.Errorf("malformed pause certificate: vote %d of seat %d does not agree", i, v.Seat)
		case n > 1 && (v.Table != votes[0].Table || v.Len != votes[0].Len || v.Head != votes[0].Head):
			return nil, fmt.Errorf("malformed pause certificate: vote %d of seat %d is for another table or log", i, v.Seat)
		case seats[v.Seat]:
			return nil, fmt.Errorf("malformed pause certificate: seat %d votes twice", v.Seat)
		}
		seats[v.Seat] = true
	}
	return votes, nil
}

// PauseStatus is the table's pause as a node sees it, for front ends.
type PauseStatus struct {
	Asker   int   // the seat that asked first at the log's length (-1: nobody asks)
	Agreed  []int // the seats that agree at the log's length, in order
	Mine    bool  // this node's seat is one of them
	Refused int   // a seat that refused at the log's length (-1: none)
	Paused  bool  // the table is paused: the node stops
	// Resumed is the log length of the pause this node resumed from (0: none).
	Resumed int
}

// pauser is a node's pause. wish, refuse and agreeAll are shared with Pause, KeepPlaying and
// AgreeToPauses (mu); the rest belongs to the node's loop.
type pauser struct {
	mu       sync.Mutex
	wish     bool // this node's player wants the table paused (it votes at every length)
	refuse   bool // this node's player said to keep playing: a refusal is due
	agreeAll bool // this node agrees to every pause another seat asks (bots)

	loaded  bool               // the record of a past pause was read
	floor   uint64             // a certificate for a length up to this is the one resumed from
	resumed uint64             // the length this node's log stood at when it paused (floor or more)
	counter uint64             // this node's last vote counter
	votes   map[int]*PauseVote // each seat's latest vote
	cert    []*PauseVote       // the certificate this node pauses on
	pending []*PauseVote       // a certificate for a length this node has not reached yet
	since   time.Time          // when the node began to pause
	at      uint64             // the length it pauses at
	certBy  map[string]bool    // the peers that sent the certificate
	paused  bool               // Run returned paused
}

// Pause asks the table to pause, or agrees to the pause another seat asked: this node's seat
// votes for the log as it stands, and again whenever the log grows, until the table pauses, a
// seat refuses, or KeepPlaying withdraws the wish. It is safe to call from any goroutine while
// Run runs; it fails before the table forms.
func (n *Node) Pause(ctx context.Context) error {
	return n.pauseWish(ctx, true)
}

// KeepPlaying refuses the pause asked at the log's length, or withdraws this node's own vote:
// the question is closed (a pause every seat already agreed to stands). Safe from any goroutine.
func (n *Node) KeepPlaying(ctx context.Context) error {
	return n.pauseWish(ctx, false)
}

// AgreeToPauses makes the node agree at once to every pause another seat asks (a bot's node).
// Call it before Run.
func (n *Node) AgreeToPauses() {
	n.pause.mu.Lock()
	n.pause.agreeAll = true
	n.pause.mu.Unlock()
}

func (n *Node) pauseWish(ctx context.Context, wish bool) error {
	n.mu.Lock()
	formed := len(n.shared) > 0
	n.mu.Unlock()
	if !formed {
		return ErrNoTable
	}
	n.pause.mu.Lock()
	n.pause.wish, n.pause.refuse = wish, !wish
	n.pause.mu.Unlock()
	select { // the node's loop casts the vote
	case n.incoming <- message{from: pausePoke, data: []byte{msgPause}}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// heardPause takes a pause message (from a peer, or the node's own poke).
func (n *Node) heardPause(from string, data []byte) {
	t := n.table
	if t == nil {
		return
	}
	if from == pausePoke && len(data) == 1 {
		n.castPause(t)
		return
	}
	votes, err := ParsePause(data)
	if err != nil {
		n.cfg.Logf("dropped a pause message from %s: %v", from, err)
		return
	}
	p := &n.pause
	for _, v := range votes {
		if v.Table != t.id || v.Seat >= len(t.keys) || !v.Verify(t.keys[v.Seat]) {
			n.cfg.Logf("dropped a pause message from %s: vote of seat %d is not signed by that seat for this table", from, v.Seat)
			return
		}
	}
	if p.votes == nil {
		p.votes = map[int]*PauseVote{}
	}
	if len(votes) > 1 {
		if sameSeats(votes, voters(t, votes[0].Len)) {
			if p.certBy == nil {
				p.certBy = map[string]bool{}
			}
			p.certBy[from] = true
			n.takeCert(t, votes)
		}
		return
	}
	v := votes[0]
	if old := p.votes[v.Seat]; old != nil && old.Counter >= v.Counter {
		return // a repeat, or older than what the seat said since
	}
	p.votes[v.Seat] = v
	n.pauseChanged()
	if v.Len != t.Len() || v.Seat == n.self.seat {
		return
	}
	if !v.Agree {
		p.mu.Lock()
		p.wish = false // the question at this length is closed
		p.mu.Unlock()
	}
	n.pauseComplete(t)
}

// voters is the seats whose votes a pause at log length L needs: every seat but those open
// before L.
func voters(t *Table, L uint64) []int {
	var out []int
	for seat := range t.keys {
		if at, ok := t.OpenedAt(seat); !ok || at >= L {
			out = append(out, seat)
		}
	}
	return out
}

// sameSeats reports whether votes are one vote of each of seats.
func sameSeats(votes []*PauseVote, seats []int) bool {
	if len(votes) != len(seats) {
		return false
	}
	seen := map[int]bool{}
	for _, v := range votes {
		seen[v.Seat] = true
	}
	for _, s := range seats {
		if !seen[s] {
			return false
		}
	}
	return true
}

// castPause casts the vote Pause or KeepPlaying asked for.
func (n *Node) castPause(t *Table) {
	p := &n.pause
	p.mu.Lock()
	wish, refuse := p.wish, p.refuse
	p.refuse = false
	p.mu.Unlock()
	switch {
	case refuse:
		n.vote(t, false)
	case wish:
		n.vote(t, true)
		n.pauseComplete(t)
	}
}

// vote signs, keeps and publishes this node's vote for the log as it stands.
func (n *Node) vote(t *Table, agree bool) {
	if t.Game() == nil || t.Done() || t.Verdict() != nil || n.pause.cert != nil || t.IsOpen(n.self.seat) {
		return // nothing to pause yet, or any more; or this seat is open and votes no more
	}
	p := &n.pause
	p.counter = max(p.counter+1, uint64(n.clock.Now().UnixMilli()))
	v := &PauseVote{Table: t.id, Len: t.Len(), Head: t.head, Seat: n.self.seat, Agree: agree, Counter: p.counter}
	v.Sign(n.self.Identity)
	if p.votes == nil {
		p.votes = map[int]*PauseVote{}
	}
	p.votes[n.self.seat] = v
	n.pauseChanged()
	n.publish(context.Background(), MarshalPause([]*PauseVote{v}))
}

// pauseComplete pauses once every voting seat's latest vote agrees to the log as it stands.
func (n *Node) pauseComplete(t *Table) {
	var cert []*PauseVote
	for _, seat := range voters(t, t.Len()) {
		v := n.pause.votes[seat]
		if v == nil || !v.Agree || v.Len != t.Len() || v.Head != t.head {
			return
		}
		cert = append(cert, v)
	}
	n.takeCert(t, cert)
}

// takeCert pauses on a certificate (votes already verified) whose head is in this node's log.
func (n *Node) takeCert(t *Table, cert []*PauseVote) {
	p := &n.pause
	L := cert[0].Len
	switch {
	case p.cert != nil || L <= p.floor || t.Done() || t.Verdict() != nil:
		return
	case L > t.Len():
		p.pending = cert // checked again as the log grows
		return
	}
	head := t.head
	if L < t.Len() {
		head = t.Entries(L - 1)[0].Hash()
	}
	if head != cert[0].Head {
		n.cfg.Logf("a pause certificate for entry %d does not match this node's log: ignored", L)
		return
	}
	sort.Slice(cert, func(i, j int) bool { return cert[i].Seat < cert[j].Seat })
	p.cert, p.pending, p.at, p.since = cert, nil, t.Len(), n.clock.Now()
	if err := n.cfg.Store.savePause(n.cfg.Table, cert); err != nil {
		n.cfg.Notef("%v", err)
	}
	n.cfg.Notef("table %q: every seat agreed to pause at entry %d; it stops here and resumes with the same command", n.cfg.Table, p.at)
	n.pauseChanged()
	n.publish(context.Background(), MarshalPause(cert))
}

// pausing is the hook of Run's loop: it reads the record of a past pause, votes again for a
// grown log while this node's player wishes the pause, and reports when the node stops: every
// seat agreed, and it lingered long enough for every other node to hold the certificate.
func (n *Node) pausing() bool {
	t, p := n.table, &n.pause
	n.loadPause()
	if p.pending != nil && p.pending[0].Len <= t.Len() {
		n.takeCert(t, p.pending)
	}
	if p.cert == nil {
		p.mu.Lock()
		wish := p.wish || p.agreeAll && n.pauseAsked(t)
		p.mu.Unlock()
		if mine := p.votes[n.self.seat]; wish && (mine == nil || mine.Len != t.Len()) && t.Game() != nil {
			n.vote(t, true)
			n.pauseComplete(t)
		}
		return false
	}
	now := n.clock.Now()
	all := now.After(p.since)
	for _, seat := range voters(t, p.cert[0].Len) {
		if peer, ok := n.peerOf[seat]; seat != n.self.seat && (!ok || !p.certBy[peer]) {
			all = false
		}
	}
	if all || now.Sub(p.since) > n.cfg.Linger {
		p.paused = true
		return true
	}
	return false
}

// loadPause reads the record of a past pause of the node's table, once.
func (n *Node) loadPause() {
	p := &n.pause
	if p.loaded || n.table == nil {
		return
	}
	p.loaded = true
	if L, err := n.cfg.Store.pausedAt(n.cfg.Table, n.table.id); err != nil {
		n.cfg.Logf("%v", err)
	} else if L > 0 {
		// The certificate is for entry L; a node whose log had grown past L when it took it
		// paused where its log stood, and says so, as it did when it paused and as its
		// outcome's entries did.
		p.floor, p.resumed = L, max(L, n.table.Len())
		n.cfg.Notef("table %q was paused at entry %d: resuming it", n.cfg.Table, p.resumed)
		n.pauseChanged()
	}
}

// pauseAsked reports whether another seat asks to pause the log as it stands, and no seat
// refused.
func (n *Node) pauseAsked(t *Table) bool {
	asked := false
	for _, seat := range voters(t, t.Len()) {
		v := n.pause.votes[seat]
		if v == nil || v.Len != t.Len() || v.Head != t.head {
			continue
		}
		if !v.Agree {
			return false
		}
		asked = asked || seat != n.self.seat
	}
	return asked
}

// actUnlessPausing is act, unless this node must not write the entry due (pauseHolds).
func (n *Node) actUnlessPausing(ctx context.Context) error {
	if n.pauseHolds() {
		return nil
	}
	return n.act(ctx)
}

// pauseHolds reports whether this node must not write the entry due: the table is pausing, or
// its own vote stands at the log's length, no seat refused, and half its seat's time is not
// spent (past that it plays on, so that it is never named silent for asking).
func (n *Node) pauseHolds() bool {
	t, p := n.table, &n.pause
	if p.cert != nil {
		return true
	}
	mine := p.votes[n.self.seat]
	if mine == nil || !mine.Agree || mine.Len != t.Len() {
		return false
	}
	for _, s := range voters(t, t.Len()) {
		if v := p.votes[s]; v != nil && v.Len == t.Len() && !v.Agree {
			return false
		}
	}
	seat, _ := t.Due()
	if seat != n.self.seat {
		return false
	}
	allowance, bank := n.allowed(seat)
	return allowance >= NoClock || n.clock.Now().Sub(n.progress) < (allowance+bank)/2
}

// pauseTick is the hook of tick: it re-sends the certificate while the node lingers, or its own
// standing vote, for the nodes that missed it, and reports whether the node pauses (then nobody
// is named silent).
func (n *Node) pauseTick(ctx context.Context) bool {
	t, p := n.table, &n.pause
	if p.cert != nil {
		n.publish(ctx, MarshalPause(p.cert))
		return true
	}
	if mine := p.votes[n.self.seat]; mine != nil && mine.Len == t.Len() {
		n.publish(ctx, MarshalPause([]*PauseVote{mine}))
	}
	return false
}

// pauseChanged makes the next report tell OnChange.
func (n *Node) pauseChanged() { n.reportAgain() }

// pauseStatus is the pause for Status.
func (n *Node) pauseStatus() PauseStatus {
	n.loadPause()
	p := &n.pause
	st := PauseStatus{Asker: -1, Refused: -1, Resumed: int(p.resumed), Paused: p.cert != nil}
	t := n.table
	if t == nil {
		return st
	}
	first := uint64(0)
	for _, seat := range voters(t, t.Len()) {
		v := p.votes[seat]
		if v == nil || v.Len != t.Len() || v.Head != t.head {
			continue
		}
		if !v.Agree {
			st.Refused = seat
			continue
		}
		st.Agreed = append(st.Agreed, seat)
		st.Mine = st.Mine || seat == n.self.seat
		if st.Asker < 0 || v.Counter < first {
			st.Asker, first = seat, v.Counter
		}
	}
	if st.Paused {
		st.Agreed = st.Agreed[:0]
		for _, v := range p.cert {
			st.Agreed = append(st.Agreed, v.Seat)
		}
		st.Mine, st.Refused = true, -1
	}
	return st
}

// The record of a pause: DIR/tables/NAME/paused holds the certificate.

func (s *Store) pausePath(name string) string {
	return "tables/" + name + "/paused"
}

// savePause keeps the certificate of the pause of table name.
func (s *Store) savePause(name string, cert []*PauseVote) error {
	if _, err := s.tableDir(name); err != nil {
		return err
	}
	if err := s.b.WriteFile(s.pausePath(name), MarshalPause(cert)); err != nil {
		return fmt.Errorf("cannot keep the record of the pause: %w", err)
	}
	return nil
}

// pausedAt is the log length table id (of name) was paused at, 0 if it was not.
func (s *Store) pausedAt(name string, id [32]byte) (uint64, error) {
	if _, err := s.tableDir(name); err != nil {
		return 0, err
	}
	b, err := s.b.ReadFile(s.pausePath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	votes, err := ParsePause(b)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", s.b.Path(s.pausePath(name)), err)
	}
	if votes[0].Table != id {
		return 0, nil // the record of an earlier table of that name
	}
	return votes[0].Len, nil
}
