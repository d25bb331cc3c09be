package protocol

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// A node's part in departures (depart.go): it agrees when the seat due is silent past its time
// by its own clock, gathers the others' agreements, writes the depart entry once it holds them
// all, refuses a departure whose seat's entry it already applied, and writes the open seats'
// computed entries. A node bound by its promise keeps the seat's entry and what follows it, and
// is released when a staying seat refuses or plays on from that entry; a node that holds the
// seat's entry never agrees that a seat bound by such a promise left.

// msgDepart carries a Departure: an agreement or a refusal.
const msgDepart byte = 'd'

// departing is what a node knows of the departure being agreed.
type departing struct {
	agreements map[int]*Departure   // the agreements heard for the departure due now, by writer
	agreedAt   time.Time            // when this node agreed
	sentAt     time.Time            // when it last sent its agreement
	answered   map[uint64]time.Time // when it last answered an agreement to a departure at a seq its log is past
	refuted    map[uint64]bool      // the seqs of departures a staying seat refused (heard, or this node's own)
	// bound is the agreements of seats that promised not to apply an entry this node applied,
	// by writer: such a seat cannot write until a refusal or a staying seat's entry after that
	// entry releases it (boundBy).
	bound      map[int]*Departure
	boundSince time.Time // since when the seat due has been bound, its time spent
	boundAt    uint64    // the log length boundSince is for
	held       *Entry    // the departing seat's entry, held while the node is promised
	muted      bool      // the game's events are not told (a log replayed again)
	hearsayAt  uint64    // one more than the seq of the departure whose first agreement heard asked every peer
}

// hold keeps the departing seat's entry, which this node promised not to apply.
func (d *departing) hold(e *Entry) { d.held = e }

func (n *Node) departingInit() {
	n.agreements = map[int]*Departure{}
	n.answered = map[uint64]time.Time{}
	n.refuted = map[uint64]bool{}
	n.bound = map[int]*Departure{}
}

// agree signs, keeps and sends this node's agreement that the seat due left: from now on it
// does not apply that seat's entry, unless a staying seat refuses.
func (n *Node) agree(ctx context.Context) {
	t := n.table
	d := t.Agreement(n.self)
	if err := n.cfg.Store.SavePromise(n.cfg.Table, d.Marshal()); err != nil {
		n.cfg.Logf("cannot keep the agreement: %v", err)
		return
	}
	t.Promise(d)
	n.reportAgain() // the front end shows the departure being agreed
	now := n.clock.Now()
	n.agreedAt, n.sentAt = now, now
	n.addAgreement(d)
	n.cfg.Notef("%s is silent past its time: this node agrees that the player left; the table plays on, with a bot in that seat, once every other player agrees",
		n.seatName(d.Seat))
	n.publish(ctx, append([]byte{msgDepart}, d.Marshal()...))
	n.tryDepart(ctx)
}

func (n *Node) seatName(seat int) string {
	if t := n.table; t != nil && seat >= 0 && seat < t.Seats() {
		if name := t.Players()[seat].Name; name != "" {
			// Escaped and bidi-isolated (FSI … PDI), as every name on a screen (names.go).
			return fmt.Sprintf("seat %d (\u2068%s\u2069)", seat, Printable(name))
		}
	}
	return fmt.Sprintf("seat %d", seat)
}

// addAgreement keeps an agreement for the departure due now (a newer departure forgets the
// older agreements).
func (x *departing) addAgreement(d *Departure) {
	for w, o := range x.agreements {
		if o.Seq != d.Seq || o.Head != d.Head || o.Seat != d.Seat {
			delete(x.agreements, w)
		}
	}
	x.agreements[d.Writer] = d
}

// tryDepart writes the depart entry once this node has agreed and holds every staying seat's
// agreement.
func (n *Node) tryDepart(ctx context.Context) {
	t := n.table
	if t == nil || t.Promised() == nil || t.Verdict() != nil {
		return
	}
	e := t.DepartEntry(n.agreements)
	if e == nil {
		return
	}
	if err := n.writeComputed(ctx, e, true); err != nil {
		n.cfg.Logf("%v", err)
	}
}

// heardDeparture takes another node's agreement or refusal.
func (n *Node) heardDeparture(ctx context.Context, d *Departure) {
	t := n.table
	if t == nil || t.Verdict() != nil || d.Table != t.id || d.Writer >= t.Seats() || d.Seat >= t.Seats() || !d.Verify(t.keys[d.Writer]) {
		return
	}
	switch {
	case d.Refuse:
		n.heardRefusal(ctx, d)
	case d.Seq < t.Len():
		n.answerAgreement(ctx, d)
	case d.Seq == t.Len() && d.Head == t.head:
		seat, _ := t.Due()
		if seat != d.Seat || t.Departable() != "" {
			return
		}
		n.addAgreement(d)
		if t.Promised() == nil {
			// Another node's clock ran out first. This one asks its peers for the entry now (it
			// may have missed it), and agrees only when its own clock is out, after its own
			// confirmation round (watch.go): hearsay shortens nobody's time. The first agreement
			// heard at this entry asks every peer at once, whatever their backoff (a peer that
			// had nothing a moment ago may have the entry now); the next ones ask as any fetch.
			if n.hearsayAt != t.Len()+1 {
				n.hearsayAt = t.Len() + 1
				for _, p := range n.cfg.Net.Peers() {
					n.fetchNow(ctx, p, t.Len())
				}
			} else {
				n.fetchAny(ctx)
			}
		}
		n.tryDepart(ctx)
	}
}

// answerAgreement answers an agreement to a departure at a seq the log is past. When the log
// holds the departing seat's own entry there, the node that agreed is bound by its promise not
// to apply it: a staying node refuses, and the seat's own node, which cannot refuse its own
// departure, remembers that the agreeing seat cannot write until something releases it
// (boundBy). Either sends the entry with it (at most once a second: the agreement comes again
// every second while its node waits).
func (n *Node) answerAgreement(ctx context.Context, d *Departure) {
	t := n.table
	e := t.entries[d.Seq]
	if e.Seat != d.Seat || e.Kind == KindDepart || e.Prev != d.Head || t.IsOpen(n.self.seat) || d.Writer == n.self.seat {
		return
	}
	n.bound[d.Writer] = d
	now := n.clock.Now()
	if last, ok := n.answered[d.Seq]; ok && now.Sub(last) < time.Second {
		return
	}
	n.answered[d.Seq] = now
	if n.self.seat != d.Seat {
		n.refuted[d.Seq] = true
		n.cfg.Logf("seat %d agrees that seat %d left at entry %d, whose entry this node has: it refuses", d.Writer, d.Seat, d.Seq)
		n.publish(ctx, append([]byte{msgDepart}, t.Refusal(n.self, d.Seq).Marshal()...))
	} else {
		n.cfg.Logf("seat %d agrees that this node's seat left at entry %d, which this node wrote: it sends the entry", d.Writer, d.Seq)
	}
	n.publish(ctx, append([]byte{msgEntry}, e.Marshal()...))
}

// heardRefusal takes a staying seat's refusal: it applied the departing seat's entry, so the
// departure can never be agreed, and a node that agreed is released from its promise.
func (n *Node) heardRefusal(ctx context.Context, d *Departure) {
	t := n.table
	if t.IsOpen(d.Writer) || d.Writer == n.self.seat {
		return
	}
	if d.Seq < t.Len() && t.entries[d.Seq].Hash() == d.Entry {
		n.refuted[d.Seq] = true
	}
	p := t.Promised()
	if p == nil || p.Seq != d.Seq || p.Seat != d.Seat || p.Head != d.Head {
		return
	}
	n.release(fmt.Sprintf("%s has %s's entry: the player is back, and the table goes on with it", n.seatName(d.Writer), n.seatName(d.Seat)))
	if e := n.held; e != nil && e.Hash() == d.Entry {
		n.held = nil
		n.receiveEntries(ctx, "", []*Entry{e}, false)
		return
	}
	n.fetchAny(ctx)
}

// checkPlayedOn releases a node bound by its promise once it holds the departing seat's entry
// and, following it, an entry signed by a staying seat (Table.PlayedOn): the others played on
// from the seat's entry, and the node joins them, applying what it held. The entries come by
// gossip or fetch like any others: the seat's entry is held aside, those after it ahead of the
// log (sync.go).
func (n *Node) checkPlayedOn(ctx context.Context) {
	t := n.table
	if t == nil || t.Promised() == nil || n.held == nil {
		return
	}
	chain := []*Entry{n.held}
	for next := n.follower(n.held); next != nil; next = n.follower(next) {
		chain = append(chain, next)
	}
	by := t.PlayedOn(chain)
	if by == nil {
		return
	}
	p := t.Promised()
	n.release(fmt.Sprintf("%s played on from %s's entry %d: the player is back, and the table goes on with it", n.seatName(by.Seat), n.seatName(p.Seat), p.Seq))
	n.held = nil
	n.receiveEntries(ctx, "", chain, false)
}

// follower is the entry held ahead of the log that follows e, if any.
func (n *Node) follower(e *Entry) *Entry {
	for _, f := range n.ahead[e.Seq+1] {
		if f.Prev == e.Hash() {
			return f
		}
	}
	return nil
}

// release frees the node from its promise, says why, and restarts the clock of the seat due.
func (n *Node) release(why string) {
	n.table.Release()
	n.reportAgain()
	n.agreements = map[int]*Departure{}
	if err := n.cfg.Store.ClearPromise(n.cfg.Table); err != nil {
		n.cfg.Logf("%v", err)
	}
	n.progressed(n.clock.Now())
	n.cfg.Notef("%s", why)
}

// boundBy is the agreement that binds seat, by this node's knowledge: seat promised not to apply
// an entry this node applied, and neither a staying seat's refusal nor a staying seat's entry
// after that entry has come since (either releases it). Such a seat cannot write: its silence
// is its promise, not its absence, and this node does not agree that it left (nil: nothing
// binds it).
func (n *Node) boundBy(seat int) *Departure {
	t := n.table
	d := n.bound[seat]
	if d == nil || n.refuted[d.Seq] || d.Seq >= t.Len() || t.entries[d.Seq].Seat != d.Seat ||
		t.playedOn(d.Seat, d.Seq, t.entries[d.Seq+1:]) != nil {
		return nil
	}
	return d
}

// waitBound waits for the seat due, silent past its time but bound by its promise (boundBy):
// nobody can open it (its departure needs this node's agreement), and it cannot write until a
// staying seat refuses its promise or plays on. Past the table's timeout the node stops,
// blaming nobody, as a node that agreed and waits for the others' agreements does.
func (n *Node) waitBound(now time.Time, d *Departure) {
	t := n.table
	if n.boundAt != t.Len() || n.boundSince.IsZero() {
		n.boundAt, n.boundSince = t.Len(), now
		n.cfg.Notef("%s is silent, but it agreed that %s left at entry %d, whose entry this node holds: it cannot play until another player refuses that departure or plays on from the entry, and this node does not agree that it left",
			n.seatName(d.Writer), n.seatName(d.Seat), d.Seq)
		return
	}
	if now.Sub(n.boundSince) > t.g.Timeout {
		n.stop(fmt.Errorf("table %q stopped at entry %d, waiting for %s, which promised not to apply %s's entry %d and which no other player released: nobody is blamed, and the same command resumes",
			t.g.Name, t.Len(), n.seatName(d.Writer), n.seatName(d.Seat), d.Seq))
	}
}

// watchDeparture keeps sending this node's agreement while the departure is not written, and
// stops the node, blaming nobody, when the others have not all agreed in the table's timeout:
// a second seat gone at once, or a partition. A node that agreed never plays the departing
// seat's entry; the same command resumes it, still bound by its agreement.
func (n *Node) watchDeparture(ctx context.Context, now time.Time) {
	t := n.table
	p := t.Promised()
	if now.Sub(n.sentAt) >= time.Second {
		n.sentAt = now
		n.publish(ctx, append([]byte{msgDepart}, p.Marshal()...))
	}
	if now.Sub(n.agreedAt) <= t.g.Timeout {
		return
	}
	var missing []string
	for _, s := range t.staying(p.Seat) {
		if n.agreements[s] == nil {
			missing = append(missing, n.seatName(s))
		}
	}
	n.stop(fmt.Errorf("table %q stopped at entry %d: %s left, and not every other player agreed to play on without it (no agreement from %v); nobody is blamed, and the same command resumes",
		t.g.Name, t.Len(), n.seatName(p.Seat), missing))
}

// writeComputed writes an entry no seat signs: a depart entry, or an open seat's entry.
func (n *Node) writeComputed(ctx context.Context, e *Entry, publish bool) error {
	if grew, err := n.writeEntry(ctx, e, publish); !grew || err != nil {
		return err
	}
	if e.Kind == KindDepart {
		n.agreements = map[int]*Departure{}
		if err := n.cfg.Store.ClearPromise(n.cfg.Table); err != nil {
			n.cfg.Logf("%v", err)
		}
		n.cfg.Notef("every other player agreed that %s left: the table plays on, and its seat will be played by a bot", n.seatName(e.Seat))
	}
	return nil
}

// watchOpened takes a depart entry of this node's own seat at a place where its log holds its
// own entry, which no other node applied (each promised not to): the others opened the seat
// while this node was away. The node drops its entries from there, takes the depart entry, and
// watches the table play on with a bot in its seat.
func (n *Node) watchOpened(ctx context.Context, depart *Entry) error {
	keep := append([]*Entry(nil), n.table.Entries(0)[:depart.Seq]...)
	if err := n.cfg.Store.ResetLog(n.cfg.Table, keep); err != nil {
		return err
	}
	n.muted = true
	t, err := NewTable(keep[0], n.self, n.gameOpts())
	for _, e := range keep[1:] {
		if err == nil {
			err = t.Append(e)
		}
	}
	n.muted = false
	if err != nil {
		return fmt.Errorf("rebuilding the log before entry %d: %w", depart.Seq, err)
	}
	n.sit(t)
	n.held = nil
	n.dropAhead()
	n.share()
	n.cfg.Notef("%v", &SeatOpenedError{Seq: depart.Seq})
	n.receiveEntries(ctx, "", []*Entry{depart}, false)
	return nil
}

// actOpen writes the open seat's entry due, computed.
func (n *Node) actOpen(ctx context.Context) error {
	e := n.table.OpenEntry()
	if e == nil {
		return nil // the table halted: the game's stand-in failed
	}
	return n.writeComputed(ctx, e, false)
}

// resumePromise reloads this node's agreement after a restart.
func (n *Node) resumePromise() error {
	b, err := n.cfg.Store.LoadPromise(n.cfg.Table)
	if err != nil || b == nil {
		return err
	}
	d, err := ParseDeparture(b)
	t := n.table
	if err != nil || t == nil || d.Table != t.id || d.Seq != t.Len() || d.Head != t.head || d.Writer != n.self.seat {
		// Spent (the log went past it) or damaged: nothing binds the node any more.
		return n.cfg.Store.ClearPromise(n.cfg.Table)
	}
	t.Promise(d)
	n.agreedAt, n.sentAt = n.clock.Now(), time.Time{}
	n.addAgreement(d)
	return nil
}

// The promise file: this node's agreement, kept until the depart entry or a refusal.

func (s *Store) promisePath(name string) (string, error) {
	dir, err := s.tableDir(name)
	return dir + "/departure", err
}

// SavePromise keeps the node's agreement to a departure, synced, before it is sent.
func (s *Store) SavePromise(name string, b []byte) error {
	path, err := s.promisePath(name)
	if err != nil {
		return err
	}
	return s.b.WriteFile(path, b)
}

// LoadPromise reads the node's agreement (nil when there is none).
func (s *Store) LoadPromise(name string) ([]byte, error) {
	path, err := s.promisePath(name)
	if err != nil {
		return nil, err
	}
	b, err := s.b.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// ResetLog replaces a table's log with entries (synced), and reopens it for appending when it
// was open.
func (s *Store) ResetLog(name string, entries []*Entry) error {
	wasOpen := s.log != nil
	if wasOpen {
		s.log.Close()
		s.log = nil
	}
	dir, err := s.tableDir(name)
	if err != nil {
		return err
	}
	if err := s.rewrite(dir+"/log", entries); err != nil {
		return fmt.Errorf("cannot rewrite the log of table %q: %w", name, err)
	}
	if wasOpen {
		return s.OpenLog(name)
	}
	return nil
}

// ClearPromise forgets the node's agreement.
func (s *Store) ClearPromise(name string) error {
	path, err := s.promisePath(name)
	if err != nil {
		return err
	}
	if err := s.b.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
