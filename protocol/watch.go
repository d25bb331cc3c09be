package protocol

import (
	"context"
	"fmt"
	"time"
)

// The clock of the seat due. A seat has the table's Timeout for an entry its node writes by
// itself, and for a decision the Allowance and then its Bank, which drains only by what the
// allowance did not cover. Each node keeps these accounts by its own clock, from when it saw the
// seat become due; no node names a seat silent before it has asked every reachable peer for the
// entry and heard back from at least one that has the table and nothing newer; and a node whose
// clock jumped (it was paused) catches up before it counts again.

// watcher is a node's view of the table's clock.
type watcher struct {
	progress time.Time             // when the log last grew (or the node came back and counts from now)
	bank     map[int]time.Duration // each seat's bank left, by seat
	lastTick time.Time
	confirm  *confirmation // a fetch round asked before naming a seat silent
	// catchUp is the fetch round a node asks after a pause or at a restart, before it writes
	// or counts anything: it may have missed entries, or a note that ended the table.
	catchUp *confirmation
	note    *Note     // the note that ended the table, published while the node lingers
	alone   time.Time // since when no player of the table answers (zero: someone does)
	stopErr error     // why the node stops without an end (cut off too long)
}

// confirmation is the round of fetches asked before naming a seat silent: the peers still to
// answer, and whether one with the table has answered.
type confirmation struct {
	at       uint64 // the log length it was asked at
	pending  map[string]bool
	heard    bool
	attempts map[string]int // catch-up only: failed asks of each peer, retried a few times
	asked    map[string]bool
	until    time.Time // catch-up only: when it gives up waiting for peers
}

// catchUpTries is how many times a catching-up node asks a peer whose fetch fails (its
// connection may have been reset while the node was away).
const catchUpTries = 3

func (w *watcher) init() { w.bank = map[int]time.Duration{} }

// woke reports whether the clock jumped since the last tick: the node was paused.
func (n *Node) woke(now time.Time) bool {
	last := n.lastTick
	n.lastTick = now
	return !last.IsZero() && now.Sub(last) > 4*n.cfg.Tick+time.Second
}

// grew notes that entry e joined the log: the seat that wrote a decision pays what its
// allowance did not cover out of its bank, and the silence clock starts again.
func (n *Node) grew(e *Entry) {
	now := n.clock.Now()
	if t := n.table; t != nil && t.g.Allowance > 0 && (e.Kind == KindMove || e.Kind == KindCommit) {
		over := now.Sub(n.progress) - t.g.Allowance
		if over > 0 {
			n.bank[e.Seat] = max(0, n.bankLeft(e.Seat)-over)
		}
	}
	n.restart(now)
}

// progressed starts the silence clock of the seat due again from now.
func (w *watcher) progressed(now time.Time) { w.progress = now }

// restart starts the silence clock of the seat due again from now, with no fetch round asked
// before naming it silent: the log grew, or the node was away and counts from its return.
func (w *watcher) restart(now time.Time) {
	w.progress = now
	w.confirm = nil
}

// stop stops the node without an end: err says why, and blames nobody.
func (w *watcher) stop(err error) { w.stopErr = err }

// bankLeft is what is left of seat's bank, by this node's account.
func (n *Node) bankLeft(seat int) time.Duration {
	if b, ok := n.bank[seat]; ok {
		return b
	}
	return n.table.g.Bank
}

// allowed is how long the seat due may take over the entry due now.
func (n *Node) allowed(seat int) (allowance, bank time.Duration) {
	t := n.table
	if t.DueIsDecision() && t.g.Allowance > 0 {
		return t.g.Allowance, n.bankLeft(seat)
	}
	return t.g.Timeout, 0
}

// watch names the seat due silent once its time is up everywhere this node can ask.
func (n *Node) watch(ctx context.Context, now time.Time) {
	t := n.table
	seat, _ := t.Due()
	if seat < 0 || n.catchUp != nil || t.OpenDue() {
		return // nothing due, still catching up, or an open seat's entry (computed at once)
	}
	if t.Promised() != nil {
		n.watchDeparture(ctx, now) // this node agreed that the seat due left (depart_node.go)
		return
	}
	allowance, bank := n.allowed(seat)
	if allowance >= NoClock {
		// A decision without a clock (a person among bots): nobody is ever named for it, but
		// a node that waits long asks its peers, in case it missed the entry.
		if seat != n.self.seat && now.Sub(n.progress) > t.g.Timeout {
			n.fetchAny(ctx)
		}
		return
	}
	silent := now.Sub(n.progress)
	if seat != n.self.seat && silent > allowance/2 && n.confirm == nil {
		n.fetchAny(ctx) // perhaps it wrote and we missed it
	}
	if silent <= allowance+bank {
		return
	}
	if seat != n.self.seat {
		// Before naming another seat, ask every reachable peer once more, and wait for the
		// answers: a node that missed the entry must not blame a seat that wrote.
		switch c := n.confirm; {
		case c == nil || c.at != t.Len():
			n.confirm = &confirmation{at: t.Len(), pending: map[string]bool{}}
			for _, p := range n.cfg.Net.Peers() {
				n.confirm.pending[p] = true
				n.fetchNow(ctx, p, t.Len())
			}
			return
		case len(c.pending) > 0:
			return
		case !c.heard:
			// Nobody with this table answered: alone, this node cannot tell a silent seat
			// from its own isolation. It says so and waits; it stops, blaming nobody, once
			// it has been alone as long again.
			if n.alone.IsZero() {
				n.alone = now
				n.cfg.Notef("table %q waits for %s, and no other player of the table answers: this node is cut off, or the others have left", t.g.Name, t.DueString())
			} else if now.Sub(n.alone) > allowance+bank {
				n.stopErr = fmt.Errorf("table %q stopped at entry %d, waiting for %s: no other player of the table has answered for %v (cut off, or they have left); nobody is blamed",
					t.g.Name, t.Len(), t.DueString(), now.Sub(n.alone).Round(time.Second))
			}
			n.confirm = nil
			return
		}
		n.alone = time.Time{}
	}
	if t.Departable() == "" {
		// The table may play on without the seat (depart.go). The other players' nodes agree
		// that it left (not a node whose own seat is open: it only watches); the seat's own
		// node names nobody, and takes what they decide: its seat opened, or its entry played.
		if seat != n.self.seat && !t.IsOpen(n.self.seat) {
			if d := n.boundBy(seat); d != nil {
				n.waitBound(now, d) // its silence is its promise over an entry this node holds
				return
			}
			n.agree(ctx)
		}
		return
	}
	v := t.Abandon(fmt.Sprintf("silent for %v while the table waited for it", silent.Round(time.Second)))
	n.cfg.Logf("%v", v)
	// Record it at the end of the log, signed, so that an audit of this log names the same seat,
	// and tell the others (a node that was paused hears it as it catches up).
	note := NewNote(t, n.self, v)
	if err := n.cfg.Store.AppendNote(note); err != nil {
		n.cfg.Logf("%v", err)
	}
	n.setNote(note)
	n.publish(ctx, append([]byte{msgNote}, note.Marshal()...))
}

// confirmed takes a fetch's answer into the confirmation and catch-up rounds under way.
func (n *Node) confirmed(r fetched) {
	for _, c := range []*confirmation{n.confirm, n.catchUp} {
		if c == nil || !c.pending[r.peer] {
			continue
		}
		if r.err != nil && c.attempts != nil {
			if c.attempts[r.peer]++; c.attempts[r.peer] < catchUpTries {
				continue // asked again at the next tick (retryCatchUp)
			}
		}
		delete(c.pending, r.peer)
		if r.err == nil {
			c.heard = true
		}
	}
	if c := n.catchUp; c != nil && c.heard && !n.waitsForPlayer(c) {
		n.cfg.Logf("caught up: %d of %d peers answered", len(c.asked)-len(c.pending), len(c.asked))
		n.caughtUp()
	}
}

// waitsForPlayer reports whether a peer that c still waits for is a player of the table (one
// whose heads a seat's came from), or, while the node knows no player's peer yet, any peer. A
// stranger on the table's topic that never answers must not hold a node's catch-up (and its
// own entries) for the whole round.
func (n *Node) waitsForPlayer(c *confirmation) bool {
	if len(n.peerOf) == 0 {
		return len(c.pending) > 0
	}
	for seat, p := range n.peerOf {
		if seat != n.self.seat && c.pending[p] {
			return true
		}
	}
	return false
}

// caughtUp ends the catch-up round. The clock of the seat due starts from now: the time the
// round took is this node's absence, not that seat's silence (when the seat is this node's own,
// its entry comes at the next turn of the loop, and must not be beaten by its own clock).
func (n *Node) caughtUp() {
	n.catchUp = nil
	n.progress = n.clock.Now()
}

// startCatchUp asks every reachable peer for what this node missed; the node writes nothing
// until they have answered (or failed).
func (n *Node) startCatchUp(ctx context.Context) {
	if n.table == nil {
		return
	}
	n.catchUp = &confirmation{at: n.table.Len(), pending: map[string]bool{}, attempts: map[string]int{},
		asked: map[string]bool{}, until: n.clock.Now().Add(2 * fetchTimeout)}
	n.retryCatchUp(ctx)
}

// retryCatchUp asks the peers of the catch-up round it has not asked yet (connections come back
// after a pause), and again those whose fetch failed. The round ends when every peer asked has
// answered (or failed three times) and one with the table did, or when its time is up.
func (n *Node) retryCatchUp(ctx context.Context) {
	c := n.catchUp
	if c == nil {
		return
	}
	if n.clock.Now().After(c.until) {
		n.cfg.Logf("caught up as far as it could (%d peers did not answer)", len(c.pending))
		n.caughtUp()
		return
	}
	// Every peer it can reach, and every player of the table it has heard from (reachable or
	// not yet again: the one whose note ended the table matters most).
	peers := n.cfg.Net.Peers()
	for seat, p := range n.peerOf {
		if seat != n.self.seat {
			peers = append(peers, p)
		}
	}
	for _, p := range peers {
		if !c.asked[p] {
			c.asked[p], c.pending[p] = true, true
		}
	}
	for p := range c.pending {
		if !n.inflight[p] {
			n.fetchNow(ctx, p, n.table.Len())
		}
	}
}

// heardNote takes another node's note that the seat due went silent. A node that waits for the
// same seat at the same entry, and whose own clock for it is nearly out too, agrees, and ends
// the same way (the note goes into its log, as the
// proof of what it agreed to); a note about anything else is that node's word against this
// node's log, and changes nothing here.
func (n *Node) heardNote(note *Note) {
	t := n.table
	if t == nil || t.Verdict() != nil || note.Table != t.id || note.Writer < 0 || note.Writer >= len(t.keys) ||
		!note.Verify(t.keys[note.Writer]) {
		return
	}
	seat, _ := t.Due()
	if n.lateOwn(note) {
		// This node's own entries from that point never reached the others before they ended
		// the table (it was paused just after writing): it ends the table as they did.
		v := &Verdict{Kind: VerdictAbandoned, Seq: note.Verdict.Seq, Seat: note.Verdict.Seat,
			Reason: fmt.Sprintf("named silent by seat %d before this node's entry %d reached the others: %s", note.Writer, note.Verdict.Seq, note.Verdict.Reason)}
		t.halt(v)
		n.cfg.Notef("%v", v)
		if err := n.cfg.Store.AppendNote(note); err != nil {
			n.cfg.Logf("%v", err)
		}
		n.setNote(note)
		return
	}
	if note.Verdict.Seq != t.Len() || note.Verdict.Seat != seat || note.Writer == seat && seat != n.self.seat {
		if key := fmt.Sprintf("note %d %d", note.Writer, note.Verdict.Seq); n.firstTime(key) {
			n.cfg.Logf("a note of seat %d names seat %d at entry %d; this node waits for seat %d at entry %d: it stands by its own log", note.Writer, note.Verdict.Seat, note.Verdict.Seq, seat, t.Len())
		}
		return
	}
	// A note must not let one player end the table on an honest seat that is merely slow: this
	// node agrees only once the seat's time is nearly up by its own clock too (a couple of ticks
	// and a second for the clocks' drift), or when the note names this node itself (it knows
	// it was away).
	allowance, bank := n.allowed(seat)
	if seat != n.self.seat && n.clock.Now().Sub(n.progress) < allowance+bank-2*n.cfg.Tick-time.Second {
		return
	}
	v := t.Abandon(fmt.Sprintf("named silent by seat %d: %s", note.Writer, note.Verdict.Reason))
	n.cfg.Logf("%v", v)
	if err := n.cfg.Store.AppendNote(note); err != nil {
		n.cfg.Logf("%v", err)
	}
	n.setNote(note)
}

// setNote keeps the note that ended the table, to publish and serve it.
func (n *Node) setNote(note *Note) {
	n.note = note
	n.shareNote(note)
}

// lateOwn reports whether note names this node's seat at an entry it wrote, every entry of its
// log from there on being its own: entries that, written just before a pause, never reached the
// others.
func (n *Node) lateOwn(note *Note) bool {
	t := n.table
	if note.Verdict.Seat != n.self.seat || note.Verdict.Seq >= t.Len() || note.Verdict.Seq == 0 {
		return false
	}
	for _, e := range t.Entries(note.Verdict.Seq) {
		if e.Seat != n.self.seat {
			return false
		}
	}
	return true
}
