package protocol

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// A node's part in departures (depart.go): it agrees when the seat due is silent past its time
// by its own clock, gathers the others' agreements, writes the depart entry once it holds them
// all, refuses a departure whose seat's entry it already applied, and writes the open seats'
// computed entries.

// msgDepart carries a Departure: an agreement or a refusal.
const msgDepart byte = 'd'

// departing is what a node knows of the departure being agreed.
type departing struct {
	agreements map[int]*Departure // the agreements heard for the departure due now, by writer
	agreedAt   time.Time          // when this node agreed
	sentAt     time.Time          // when it last sent its agreement
	refused    map[uint64]bool    // the seqs it refused a departure at
	held       *Entry             // the departing seat's entry, held while the node is promised
	muted      bool               // the game's events are not told (a log replayed again)
}

func (n *Node) departingInit() {
	n.agreements = map[int]*Departure{}
	n.refused = map[uint64]bool{}
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
	n.reported = [4]int{-1} // the front end shows the departure being agreed
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
			return fmt.Sprintf("seat %d (%s)", seat, name)
		}
	}
	return fmt.Sprintf("seat %d", seat)
}

// addAgreement keeps an agreement for the departure due now (a newer departure forgets the
// older agreements).
func (n *Node) addAgreement(d *Departure) {
	for w, o := range n.agreements {
		if o.Seq != d.Seq || o.Head != d.Head || o.Seat != d.Seat {
			delete(n.agreements, w)
		}
	}
	n.agreements[d.Writer] = d
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
	if d.Refuse {
		n.heardRefusal(ctx, d)
		return
	}
	switch {
	case d.Seq < t.Len():
		// The log is past that entry. If it holds the seat's own entry there, this node refuses
		// the departure (once), with the entry, so that a node that agreed is released.
		e := t.entries[d.Seq]
		if e.Seat != d.Seat || e.Kind == KindDepart || e.Prev != d.Head || n.refused[d.Seq] ||
			n.self.seat == d.Seat || t.IsOpen(n.self.seat) {
			return
		}
		n.refused[d.Seq] = true
		r := t.Refusal(n.self, d.Seq)
		n.cfg.Logf("seat %d agrees that seat %d left at entry %d, whose entry this node has: it refuses", d.Writer, d.Seat, d.Seq)
		n.publish(ctx, append([]byte{msgDepart}, r.Marshal()...))
		n.publish(ctx, append([]byte{msgEntry}, e.Marshal()...))
	case d.Seq == t.Len() && d.Head == t.head:
		seat, _ := t.Due()
		if seat != d.Seat || t.Departable() != "" {
			return
		}
		n.addAgreement(d)
		if t.Promised() == nil && seat != n.self.seat && !t.IsOpen(n.self.seat) && n.catchUp == nil {
			// Another node's clock ran out first; this one agrees once its own clock is nearly
			// out too (a couple of ticks and a second for the clocks' drift), as with a note.
			allowance, bank := n.allowed(seat)
			if n.clock.Now().Sub(n.progress) >= allowance+bank-2*n.cfg.Tick-time.Second {
				n.agree(ctx)
				return
			}
		}
		n.tryDepart(ctx)
	}
}

// heardRefusal takes a staying seat's refusal: it applied the departing seat's entry, so the
// departure can never be agreed, and a node that agreed is released from its promise.
func (n *Node) heardRefusal(ctx context.Context, d *Departure) {
	t := n.table
	p := t.Promised()
	if p == nil || p.Seq != d.Seq || p.Seat != d.Seat || p.Head != d.Head || t.IsOpen(d.Writer) || d.Writer == n.self.seat {
		return
	}
	t.Release()
	n.reported = [4]int{-1}
	n.agreements = map[int]*Departure{}
	if err := n.cfg.Store.ClearPromise(n.cfg.Table); err != nil {
		n.cfg.Logf("%v", err)
	}
	n.progress = n.clock.Now()
	n.cfg.Notef("%s has %s's entry: the player is back, and the table goes on with it", n.seatName(d.Writer), n.seatName(d.Seat))
	if e := n.held; e != nil && e.Hash() == d.Entry {
		n.held = nil
		n.receiveEntries(ctx, "", []*Entry{e}, false)
		return
	}
	n.fetchAny(ctx)
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
	n.stopErr = fmt.Errorf("table %q stopped at entry %d: %s left, and not every other player agreed to play on without it (no agreement from %v); nobody is blamed, and the same command resumes",
		t.g.Name, t.Len(), n.seatName(p.Seat), missing)
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
	n.table, n.held = t, nil
	clear(n.ahead)
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
	return filepath.Join(dir, "departure"), err
}

// SavePromise keeps the node's agreement to a departure, synced, before it is sent.
func (s *Store) SavePromise(name string, b []byte) error {
	path, err := s.promisePath(name)
	if err != nil {
		return err
	}
	return writeFileSync(path, b, 0o600)
}

// LoadPromise reads the node's agreement (nil when there is none).
func (s *Store) LoadPromise(name string) ([]byte, error) {
	path, err := s.promisePath(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
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
	if err := s.rewrite(s.LogPath(name), entries); err != nil {
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
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
