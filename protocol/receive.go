package protocol

import (
	"context"
	"errors"
	"fmt"
)

// The path of an entry through the node, as a list of steps. An entry comes from a peer
// (gossip, or the answer to a fetch: receiveEntries) or from this node itself (its own
// decision or an open seat's entry it computed: writeEntry); either way the table checks and
// applies it (Table.Append, table.go: its place, who vouches for it, its effect, its link), and
// then each step below is one call into the file named for it:
//
//	received entry          own entry
//	  other table? form.go    store.go   kept before it is applied (a crash rewrites it)
//	  Table.Append            Table.Append
//	  ├ applied:  grown (below): watch.go, form.go, sync.go, node.go
//	  │           then sync.go (forks), store.go, sync.go (announce)   publish, announce
//	  ├ ahead:    sync.go holds it and fetches what comes before
//	  ├ verdict:  store.go, sync.go (evidence), then halted (below): sync.go, the peers
//	  ├ promised: depart_node.go holds it
//	  ├ opened:   depart_node.go rebuilds the log around the seat that left
//	  ├ cut:      the table cut its log at an equivocation (cut.go): cutLog (below)
//	  └ refused:  sync.go looks for a fork
//	  then sync.go applies what it held ahead, and depart_node.go checks a promise

// receiveEntries applies entries from a peer, then those held ahead that the log reached; a
// node bound by its promise then looks whether the others played on (depart_node.go). A gap or
// a fork makes it fetch from that peer (broadcasts only: the answer to a fetch is not followed
// up here, see gotFetched).
func (n *Node) receiveEntries(ctx context.Context, from string, entries []*Entry, broadcast bool) {
	n.applyEntries(ctx, from, entries, broadcast)
	n.applyAhead(ctx)
	n.checkPlayedOn(ctx)
}

// applyEntries applies entries in order, until one is ahead of the log (held with those after
// it, and fetched for when it was broadcast) or stops the table.
func (n *Node) applyEntries(ctx context.Context, from string, entries []*Entry, broadcast bool) {
	for i, e := range entries {
		if n.table == nil || e.Table != n.table.ID() {
			n.otherTable(ctx, e)
			continue
		}
		if !n.receive1(ctx, from, e, entries[i:], broadcast) {
			return
		}
	}
}

// otherTable takes an entry of another table of this name (or of the first): its genesis seats
// this node or takes players from the candidates; its other entries show it started (form.go).
func (n *Node) otherTable(ctx context.Context, e *Entry) {
	if e.Seq == 0 {
		n.adopt(ctx, e)
		return
	}
	n.noteStarted(ctx, e)
}

// receive1 applies one received entry, e, the first of rest, and reports whether the entries
// after it may follow.
func (n *Node) receive1(ctx context.Context, from string, e *Entry, rest []*Entry, broadcast bool) bool {
	err := n.table.Append(e)
	var gap *GapError
	var v *Verdict
	var opened *SeatOpenedError
	var cut *CutError
	switch {
	case err == nil:
		n.grown(ctx, e)
		n.forkResolved()
		if serr := n.cfg.Store.Append(e, false); serr != nil {
			n.cfg.Logf("%v", serr)
		}
		if n.table.Len() == uint64(len(n.table.g.Roster))+1 {
			n.announce(ctx) // every key in: the seat that writes next waits for this (awaitBound)
		}
		return true
	case errors.As(err, &gap):
		for _, h := range rest {
			n.holdAhead(h)
		}
		if broadcast {
			n.fetch(ctx, from, n.table.Len())
		}
		return false
	case errors.As(err, &v):
		// The offending entry goes to the log, to every peer, and to whoever asks for entries.
		// (A blame, which convicts another seat, is a good entry and is in the log already.)
		if err := n.cfg.Store.Append(e, true); err != nil {
			n.cfg.Logf("%v", err)
		}
		n.shareEvidence(n.table.Evidence())
		n.halted(ctx, v, n.table.Evidence())
		return false
	case errors.Is(err, ErrDuplicate), errors.Is(err, ErrDone), errors.Is(err, ErrHalted):
		return true
	case errors.Is(err, ErrPromised):
		// The departing seat's entry, which this node agreed not to apply: kept, with what
		// follows it (held ahead), in case a staying seat refuses the departure or plays on
		// from the entry (depart_node.go).
		n.hold(e)
		return true
	case errors.As(err, &opened):
		if err := n.watchOpened(ctx, e); err != nil {
			n.stop(err)
		}
		return false
	case errors.As(err, &cut):
		n.cutLog(ctx, cut)
		return false
	}
	n.cfg.Logf("%v", err)
	return !n.forkCheck(ctx, from, err)
}

// write persists one of the node's own entries, applies it and publishes it (as NodeConfig.Tamper
// says, in the adversary build).
func (n *Node) write(ctx context.Context, e *Entry) error {
	if n.cfg.Tamper != nil {
		keep, send := n.cfg.Tamper(e)
		for _, s := range send {
			if s != keep {
				n.publish(ctx, append([]byte{msgEntry}, s.Marshal()...))
			}
		}
		if keep == nil {
			return nil
		}
		e = keep
	}
	_, err := n.writeEntry(ctx, e, true)
	return err
}

// writeEntry persists an entry this node wrote or computed (depart_node.go), applies it, and
// publishes it when told to; it reports whether the log grew without a verdict.
func (n *Node) writeEntry(ctx context.Context, e *Entry, publish bool) (bool, error) {
	if err := n.cfg.Store.Append(e, true); err != nil {
		return false, err
	}
	if err := n.table.Append(e); err != nil {
		var v *Verdict
		if !errors.As(err, &v) {
			return false, fmt.Errorf("the table refused the entry this node wrote: %w", err)
		}
		// Our own entry convicts another seat (a blame): it is in the log; every node must
		// see it to reach the same verdict.
		n.halted(ctx, v, []*Entry{e})
		return false, nil
	}
	n.grown(ctx, e)
	if publish {
		n.publish(ctx, append([]byte{msgEntry}, e.Marshal()...))
	}
	n.announce(ctx)
	return true, nil
}

// grown is what follows every entry the log took: the seat due's clock starts again
// (watch.go), a table of this name is known to have started (form.go), the log is served
// (sync.go), and what the game refused to learn is told (node.go).
func (n *Node) grown(ctx context.Context, e *Entry) {
	n.grew(e)
	n.startedBy(ctx, e)
	n.share()
	n.reportLearn()
	n.tellConvictions()
}

// cutLog follows a cut at an equivocation (cut.go): the table dropped its entries from the
// twins' seq on and took their proof there. The node's log file is written again without them;
// what it held ahead, a promise the cut voided and the heads peers announced (on the dropped
// branch, maybe) are forgotten; then the proof is applied like any entry, and goes to every peer,
// which cut their logs in turn.
func (n *Node) cutLog(ctx context.Context, c *CutError) {
	if err := n.cfg.Store.ResetLog(n.cfg.Table, n.table.Entries(0)); err != nil {
		n.stop(fmt.Errorf("cutting the log at entry %d: %w", c.Seq, err))
		return
	}
	if n.table.Promised() == nil {
		if err := n.cfg.Store.ClearPromise(n.cfg.Table); err != nil {
			n.cfg.Logf("%v", err)
		}
	}
	n.hold(nil)
	n.dropAhead()
	n.forgetHeads()
	n.forkResolved()
	n.cfg.Logf("%v", c)
	// A conviction told on the dropped branch is told again as the log now has it.
	n.convictions = 0
	for _, cv := range n.table.list {
		if cv.Seq < c.Seq {
			n.convictions++
		}
	}
	n.grown(ctx, c.Proof)
	n.publish(ctx, append([]byte{msgEntry}, c.Proof.Marshal()...))
	n.announce(ctx)
}

// halted follows a verdict: it is told, the log is served (sync.go), and the proof goes to
// every peer.
func (n *Node) halted(ctx context.Context, v *Verdict, proof []*Entry) {
	n.cfg.Logf("%v", v)
	n.share()
	n.spread(ctx, proof)
}

// tellConvictions tells the person of each seat the table convicted of cheating and plays on
// without (convict.go), once: the seat's player, what it did and at which entry; its own node
// is told that it watches.
func (n *Node) tellConvictions() {
	cs := n.table.list // read only: Convictions copies, and this runs at every entry
	for _, c := range cs[min(n.convictions, len(cs)):] {
		if c.Seat == n.self.seat {
			n.cfg.Notef("%v: the other players play on, with a bot in your seat; you are watching the table", c)
		} else {
			n.cfg.Notef("%s was caught cheating at entry %d (%s): a bot plays the seat from here", n.seatName(c.Seat), c.Seq, c.Reason)
		}
	}
	n.convictions = len(cs)
}

// told is what the person was told of the log: how many convictions.
type told struct {
	convictions int
}
