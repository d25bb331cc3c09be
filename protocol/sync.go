package protocol

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"time"

	"corruption/protocol/internal/wire"
	"sync"
)

// Syncing. Gossip keeps no history, so a node that missed entries, joins late or restarts
// fetches them from a peer. Requests run on goroutines of their own and their answers come back
// to the node's loop, so a peer that is slow, silent or lying never stalls the node: it only
// wastes its own fetch. At most one fetch per peer is under way, and at most maxFetches in all.

// errNoTable is a peer's answer for a table it does not hold.
var errNoTable = errors.New("no such table here")

const (
	maxFetches   = 4
	fetchTimeout = 3 * time.Second
)

// syncer is the node's fetching and serving state.
type syncer struct {
	sharedLog
	heads       map[int]uint64  // the log length each seat last announced
	forkChecked map[string]bool // peers whose other version of the log was already fetched
	inflight    map[string]bool // peers a fetch is under way from
	fetchedC    chan fetched
	// A peer whose fetch failed, or brought nothing new, is not asked again before its backoff
	// ends (it doubles each time, from a tick to 8 s); one that said it has no such table is not asked again
	// until it announces a head of this table.
	backoff map[string]backoff
	noTable map[string]bool
	peerOf  map[int]string // the peer each seat's heads come from
	// ahead holds entries that arrived before the ones they follow (gossip reorders), by seq,
	// at most two a seq (an equivocation's twins) and maxAhead seqs past the log: they are
	// applied once the log reaches them, as well as fetched for.
	ahead map[uint64][]*Entry
}

const (
	maxAhead      = 64
	maxAheadBytes = 4 << 20
)

type backoff struct {
	until time.Time
	wait  time.Duration
}

const maxBackoff = 8 * time.Second

func (s *syncer) init() {
	s.heads = map[int]uint64{}
	s.forkChecked = map[string]bool{}
	s.inflight = map[string]bool{}
	s.fetchedC = make(chan fetched, 2*maxFetches)
	s.backoff = map[string]backoff{}
	s.noTable = map[string]bool{}
	s.peerOf = map[int]string{}
	s.ahead = map[uint64][]*Entry{}
}

type fetched struct {
	peer    string
	seq     uint64
	entries []*Entry
	note    *Note // the peer's note that ended the table, if any
	err     error
}

// heard takes a peer's head: a longer log is fetched, another version of the log at the same
// length is looked into.
func (n *Node) heard(ctx context.Context, from string, h *head) {
	delete(n.noTable, from)
	if h.seat < len(n.table.keys) && h.len > n.heads[h.seat] {
		n.heads[h.seat] = h.len
	}
	if h.seat < len(n.table.keys) && from != "" {
		n.peerOf[h.seat] = from
	}
	if h.len > n.table.Len() {
		n.fetch(ctx, from, n.table.Len())
	} else if h.len == n.table.Len() && h.hash != n.table.Head() && !n.forkChecked[from] {
		n.cfg.Logf("seat %d announces another version of the log at entry %d: looking for the fork", h.seat, h.len)
		n.forkChecked[from] = true
		n.fetch(ctx, from, n.forkSeq())
	}
}

// applyAhead applies the entries held ahead of the log that it has reached, and forgets those
// it has passed.
func (n *Node) applyAhead(ctx context.Context) {
	for n.table != nil && n.table.Verdict() == nil {
		l := n.table.Len()
		es := n.ahead[l]
		if es == nil {
			break
		}
		delete(n.ahead, l)
		n.applyEntries(ctx, "", es, false)
		if n.table.Len() == l {
			break
		}
	}
	if n.table != nil {
		for seq := range n.ahead {
			if seq < n.table.Len() {
				delete(n.ahead, seq)
			}
		}
	}
}

// forkCheck fetches the recent entries of a peer whose entry does not chain to the log, where
// two versions of one entry signed by one seat prove an equivocation. It reports whether it asked.
func (n *Node) forkCheck(ctx context.Context, from string, err error) bool {
	var rj *RejectError
	if !errors.As(err, &rj) || !rj.chain || from == "" || n.forkChecked[from] {
		return false
	}
	n.forkChecked[from] = true
	n.fetch(ctx, from, n.forkSeq())
	if p := n.table.lastTwins(); p != nil {
		// The peer may still be on the branch the last cut dropped: the proof, again (cut.go).
		n.publish(ctx, append([]byte{msgEntry}, p.Marshal()...))
	}
	return true
}

// forkResolved forgets the peers whose fork was looked for: the log grew, and they may fork
// from it again.
func (s *syncer) forkResolved() { clear(s.forkChecked) }

// holdAhead keeps e, ahead of the log, to apply when the log reaches it. What it holds is
// bounded (maxAhead seqs, two entries a seq, maxAheadBytes in all): a stranger who fills it
// with junk only takes the node back to fetching what it missed.
func (n *Node) holdAhead(e *Entry) {
	if e.Seq > n.table.Len()+maxAhead {
		return
	}
	m := e.Marshal()
	size := len(m)
	held := n.ahead[e.Seq]
	for _, es := range n.ahead {
		for _, h := range es {
			size += len(h.Marshal())
		}
	}
	for _, h := range held {
		if bytes.Equal(h.Marshal(), m) {
			return
		}
	}
	if len(held) < 2 && size <= maxAheadBytes {
		n.ahead[e.Seq] = append(held, e)
	}
}

// fetch asks peer for the entries from seq on, unless a fetch from it is under way, it is
// backing off, it has no such table, or maxFetches are under way.
func (n *Node) fetch(ctx context.Context, peer string, seq uint64) {
	if n.table == nil || peer == "" || n.inflight[peer] || len(n.inflight) >= maxFetches || n.noTable[peer] ||
		n.clock.Now().Before(n.backoff[peer].until) {
		return
	}
	n.startFetch(ctx, peer, seq)
}

// fetchNow asks peer at once, whatever the limits but one fetch a peer (the confirmation
// before naming a seat silent).
func (n *Node) fetchNow(ctx context.Context, peer string, seq uint64) {
	if n.table == nil || peer == "" || n.inflight[peer] {
		return
	}
	n.startFetch(ctx, peer, seq)
}

func (n *Node) startFetch(ctx context.Context, peer string, seq uint64) {
	n.inflight[peer] = true
	req := entriesRequest(n.table.ID(), seq)
	go func() {
		rctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		r := fetched{peer: peer, seq: seq}
		var ans []byte
		if ans, r.err = n.cfg.Net.Request(rctx, peer, req); r.err == nil {
			r.entries, r.note, r.err = parseAnswer(ans)
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
// peer (it may have more); one that did not help, while a seat announced more, sends the node to
// the others. A failed peer backs off; it is not asked again at once.
func (n *Node) gotFetched(ctx context.Context, r fetched) {
	delete(n.inflight, r.peer)
	if n.table == nil {
		return
	}
	n.confirmed(r)
	if r.err != nil {
		n.cfg.Logf("fetch from %s: %v", r.peer, r.err)
		if strings.Contains(r.err.Error(), errNoTable.Error()) {
			n.noTable[r.peer] = true
			return
		}
		n.backOff(r.peer)
		return
	}
	before := n.table.Len()
	n.receiveEntries(ctx, r.peer, r.entries, false)
	if r.note != nil {
		n.cfg.Logf("%s answered with its note of how the table ended", r.peer)
		n.heardNote(r.note)
	}
	// A peer that had nothing new backs off as a failed one does: asking it again at once
	// would bring the same answer (a storm of fetches between two nodes that disagree).
	if n.table.Len() > before {
		delete(n.backoff, r.peer)
	} else {
		n.backOff(r.peer)
	}
	switch {
	case n.table.Verdict() != nil:
	case n.table.Len() > before && len(r.entries) >= maxBatch-1:
		n.fetch(ctx, r.peer, n.table.Len())
	case n.table.Len() == before && r.seq >= before && n.behind():
		n.fetchAny(ctx)
	}
}

// backOff doubles peer's backoff, from a tick to maxBackoff.
func (n *Node) backOff(peer string) {
	b := n.backoff[peer]
	b.wait = min(max(2*b.wait, n.cfg.Tick), maxBackoff)
	b.until = n.clock.Now().Add(b.wait)
	n.backoff[peer] = b
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
func (s *syncer) serve(from string, req []byte) ([]byte, error) {
	r := wire.Reader{B: req}
	if r.U8() != reqEntries {
		return nil, errors.New("unknown request")
	}
	var id [32]byte
	r.Fixed(id[:])
	seq := r.U64()
	if err := r.Done("entries request"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	entries, tid, evidence, note := s.shared, s.sharedID, s.evidence, s.sharedNote
	s.mu.Unlock()
	if len(entries) == 0 || tid != id {
		return nil, errNoTable
	}
	start := min(seq, uint64(len(entries)))
	end := min(start+maxBatch-uint64(len(evidence)), uint64(len(entries)))
	batch := entries[start:end]
	if len(evidence) > 0 && end == uint64(len(entries)) {
		// The entries that halted the table, so that the asker reaches the same verdict.
		batch = append(append([]*Entry(nil), batch...), evidence...)
	}
	return marshalAnswer(batch, note), nil
}

// mu guards what serve (on the network's goroutines) reads.
type sharedLog struct {
	mu       sync.Mutex
	shared   []*Entry
	sharedID [32]byte
	evidence []*Entry // the signed entries that halted the table, if any
	// sharedNote is the note that ended the table (a seat named silent), served with entries.
	sharedNote *Note
}

// shareEvidence serves the entries that prove the verdict with the log.
func (s *sharedLog) shareEvidence(proof []*Entry) {
	s.mu.Lock()
	s.evidence = proof
	s.mu.Unlock()
}

// shareNote serves the note that ended the table with the entries.
func (s *sharedLog) shareNote(note *Note) {
	s.mu.Lock()
	s.sharedNote = note
	s.mu.Unlock()
}

// unshare serves nothing again: the node left the table it served.
func (s *sharedLog) unshare() {
	s.mu.Lock()
	s.shared, s.evidence = nil, nil
	s.mu.Unlock()
}

// forgetHeads forgets the heads the seats announced: they were another table's.
func (s *syncer) forgetHeads() { s.heads = map[int]uint64{} }

// dropAhead forgets the entries held ahead of the log: the log was rebuilt.
func (s *syncer) dropAhead() { clear(s.ahead) }

// share publishes the log to serve (entries are immutable once appended, and the log only
// grows, so a copy of the slice header is a consistent snapshot).
func (n *Node) share() {
	n.mu.Lock()
	n.shared, n.sharedID = n.table.entries, n.table.id
	n.mu.Unlock()
}

func (n *Node) announce(ctx context.Context) {
	t := n.table
	h := &head{table: t.id, seat: n.self.seat, len: t.Len(), hash: t.head, digest: t.Digest()}
	n.heads[n.self.seat] = t.Len()
	n.publish(ctx, h.marshal())
}

// allDone reports whether every seat has announced the complete log, or has left: a seat whose
// node announced from a peer that is no longer reachable needs nothing more from this node.
func (n *Node) allDone() bool {
	var reachable map[string]bool
	for seat := range n.table.keys {
		if n.heads[seat] >= n.table.Len() {
			continue
		}
		p, ok := n.peerOf[seat]
		if !ok || seat == n.self.seat {
			return false
		}
		if reachable == nil {
			reachable = map[string]bool{}
			for _, q := range n.cfg.Net.Peers() {
				reachable[q] = true
			}
		}
		if reachable[p] {
			return false
		}
	}
	return true
}
