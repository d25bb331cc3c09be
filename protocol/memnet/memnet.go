// Package memnet is an in-memory network for multi-node tests of the table protocol. It has
// the shape of protocol.Network (without importing it) and injects the faults a real network
// has: lost, duplicated, delayed and reordered broadcasts, failed requests, crashed nodes and
// partitions.
//
// What it promises:
//   - With all faults zero, a broadcast reaches every other reachable live node exactly once,
//     immediately (before Publish returns), and each sender's broadcasts arrive in order.
//   - Inboxes are unbounded: Publish never blocks and nothing is lost except by a fault, a
//     partition or a crash.
//   - Every fault decision comes from one PCG generator seeded by New, drawn under a mutex in
//     call order, so the same seed and the same sequence of calls make the same decisions.
//     Delayed copies arrive on real timers, so their interleaving is only as deterministic as
//     the scheduler.
//   - Bytes are copied on the way in and on the way out: senders may reuse their buffers and
//     receivers may keep or modify what they are given.
//   - Close stops every timer the network started; no goroutine of memnet outlives it except
//     request handlers that have not yet returned.
package memnet

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// ErrClosed is returned by an endpoint that was closed by Net.Close or Net.Remove.
var ErrClosed = errors.New("memnet: endpoint closed")

// DefaultReorderWindow is the longest a held-back copy keeps a waiting receiver waiting when
// Faults.ReorderWindow is zero.
const DefaultReorderWindow = 10 * time.Millisecond

// Faults says how unreliable the network is. The zero value is a perfect network.
// Probabilities are in [0, 1]; each is applied independently to each copy.
type Faults struct {
	// Drop is the probability that a broadcast copy to one receiver is lost.
	Drop float64
	// Duplicate is the probability that a copy which is not dropped is delivered twice. The two
	// copies are delayed and reordered independently.
	Duplicate float64
	// Reorder is the probability that a copy is held back on arrival and delivered right after
	// the next copy that reaches the same receiver. It is released sooner if the receiver calls
	// Next with nothing else to read, and after ReorderWindow if the receiver is already
	// waiting: a held copy is late, never lost.
	Reorder float64
	// ReorderWindow bounds how long a held-back copy keeps a waiting receiver waiting; zero
	// means DefaultReorderWindow.
	ReorderWindow time.Duration
	// MaxDelay delays each copy by a random duration in [0, MaxDelay].
	MaxDelay time.Duration
	// RequestDrop is the probability that a request fails as if the connection were lost,
	// before it reaches the peer's handler.
	RequestDrop float64
}

// Stats counts what the network did since New.
type Stats struct {
	Published       int // successful Publish calls
	Delivered       int // copies put in an inbox, duplicates included
	Dropped         int // copies lost to Faults.Drop, or in flight to a node that crashed
	Duplicated      int // extra copies made by Faults.Duplicate
	Reordered       int // copies held back by Faults.Reorder
	Requests        int // Request calls that got past their own context and endpoint checks
	RequestFailures int // requests that failed for any reason, the handler's errors included
	InFlight        int // copies now delayed or held back; zero once the network is quiet
}

// Net is an in-memory network of named nodes. Its methods are safe for concurrent use.
type Net struct {
	mu     sync.Mutex
	rng    *rand.Rand
	faults Faults
	nodes  map[string]*Endpoint
	groups map[string][]int // nil: no partition
	timers map[*timer]struct{}
	stats  Stats
	closed bool
	asking int // requests whose answer has not been returned yet
}

// Idle reports whether nothing is on its way: every open endpoint's inbox is empty, no copy is
// delayed or held back, and no request waits for its answer. A test that drives a fake clock
// waits for it before it moves the time on, so that the time does not run past messages the
// machine has not yet found the time to deliver.
func (n *Net) Idle() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.asking > 0 || len(n.timers) > 0 {
		return false
	}
	for _, e := range n.nodes {
		if !e.closed && (len(e.inbox) > 0 || len(e.held) > 0) {
			return false
		}
	}
	return true
}

// New returns a network whose fault decisions come from seed.
func New(seed uint64, f Faults) *Net {
	return &Net{
		rng:    rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		faults: f,
		nodes:  make(map[string]*Endpoint),
		timers: make(map[*timer]struct{}),
	}
}

// Node returns the endpoint of the live node id, creating it if there is none. A node
// re-created after Remove gets a new endpoint with an empty inbox, like a restarted process;
// copies still in flight to its old endpoint are lost. After Close, Node returns a closed
// endpoint.
func (n *Net) Node(id string) *Endpoint {
	n.mu.Lock()
	defer n.mu.Unlock()
	if e := n.nodes[id]; e != nil {
		return e
	}
	e := &Endpoint{net: n, id: id, wake: make(chan struct{}), done: make(chan struct{})}
	if n.closed {
		e.closeLocked()
		return e
	}
	n.nodes[id] = e
	return e
}

// Remove crashes node id: its endpoint is closed, its inbox discarded, nothing more is
// delivered to it and requests to it fail, including those already waiting for its answer.
// Removing an unknown node does nothing.
func (n *Net) Remove(id string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if e := n.nodes[id]; e != nil {
		delete(n.nodes, id)
		e.closeLocked()
	}
}

// Partition splits the network: from now on two nodes reach each other (broadcasts and
// requests) only if some group holds both. A node in no group, including one created later,
// is isolated; a node may be in several groups. Copies already in flight are not affected.
func (n *Net) Partition(groups ...[]string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.groups = make(map[string][]int)
	for i, g := range groups {
		for _, id := range g {
			if !slices.Contains(n.groups[id], i) {
				n.groups[id] = append(n.groups[id], i)
			}
		}
	}
}

// Heal ends any partition: every node reaches every other again.
func (n *Net) Heal() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.groups = nil
}

// SetFaults replaces the faults applied from now on. Copies in flight keep their fate.
func (n *Net) SetFaults(f Faults) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.faults = f
}

// Stats returns the counters so far. Tests can poll it for InFlight == 0 to wait until every
// copy has arrived or been dropped.
func (n *Net) Stats() Stats {
	n.mu.Lock()
	defer n.mu.Unlock()
	st := n.stats
	st.InFlight = len(n.timers)
	return st
}

// Close closes every endpoint and stops every pending delivery. It is idempotent.
func (n *Net) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	for tm := range n.timers {
		tm.t.Stop()
	}
	clear(n.timers)
	for id, e := range n.nodes {
		e.closeLocked()
		delete(n.nodes, id)
	}
}

// reachLocked reports whether a and b are on the same side of the partition.
func (n *Net) reachLocked(a, b string) bool {
	if n.groups == nil {
		return true
	}
	for _, g := range n.groups[a] {
		if slices.Contains(n.groups[b], g) {
			return true
		}
	}
	return false
}

// peersLocked lists the live nodes other than id that id reaches, sorted.
func (n *Net) peersLocked(id string) []string {
	var ps []string
	for p := range n.nodes {
		if p != id && n.reachLocked(id, p) {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	return ps
}

// chanceLocked draws true with probability p; it draws nothing when p <= 0.
func (n *Net) chanceLocked(p float64) bool {
	return p > 0 && n.rng.Float64() < p
}

// timer is a pending delivery; it is in n.timers until it fires or is stopped.
type timer struct{ t *time.Timer }

// afterLocked runs f under n.mu after d, unless the timer is stopped or the net closed first.
func (n *Net) afterLocked(d time.Duration, f func()) *timer {
	tm := &timer{}
	tm.t = time.AfterFunc(d, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		if _, ok := n.timers[tm]; !ok {
			return
		}
		delete(n.timers, tm)
		f()
	})
	n.timers[tm] = struct{}{}
	return tm
}

func (n *Net) stopLocked(tm *timer) {
	tm.t.Stop()
	delete(n.timers, tm)
}

// sendLocked applies the faults to one copy of m for e: drop, duplicate, delay, reorder.
func (n *Net) sendLocked(e *Endpoint, m message) {
	if n.chanceLocked(n.faults.Drop) {
		n.stats.Dropped++
		return
	}
	copies := 1
	if n.chanceLocked(n.faults.Duplicate) {
		copies = 2
		n.stats.Duplicated++
	}
	for i := range copies {
		c := m
		if i > 0 {
			c.data = slices.Clone(m.data)
		}
		var delay time.Duration
		if n.faults.MaxDelay > 0 {
			delay = time.Duration(n.rng.Int64N(int64(n.faults.MaxDelay) + 1))
		}
		hold := n.chanceLocked(n.faults.Reorder)
		if delay == 0 {
			n.arriveLocked(e, c, hold)
			continue
		}
		n.afterLocked(delay, func() { n.arriveLocked(e, c, hold) })
	}
}

// arriveLocked puts a copy that has crossed the network into e's inbox, or holds it back.
func (n *Net) arriveLocked(e *Endpoint, m message, hold bool) {
	if e.closed {
		n.stats.Dropped++
		return
	}
	if hold {
		n.stats.Reordered++
		h := &held{msg: m}
		window := n.faults.ReorderWindow
		if window <= 0 {
			window = DefaultReorderWindow
		}
		h.timer = n.afterLocked(window, func() { e.releaseLocked(h) })
		e.held = append(e.held, h)
		return
	}
	e.inbox = append(e.inbox, m)
	n.stats.Delivered++
	for _, h := range e.held {
		n.stopLocked(h.timer)
		e.inbox = append(e.inbox, h.msg)
		n.stats.Delivered++
	}
	e.held = nil
	e.signalLocked()
}
