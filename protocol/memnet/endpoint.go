package memnet

import (
	"context"
	"fmt"
	"slices"
)

// Endpoint is one node's attachment to a Net. It has the methods of protocol.Network and is
// safe for concurrent use. Its state is guarded by the Net's mutex.
type Endpoint struct {
	net  *Net
	id   string
	done chan struct{} // closed when the endpoint closes

	// Guarded by net.mu.
	closed  bool
	inbox   []message
	held    []*held
	wake    chan struct{} // closed and replaced when inbox or closed changes
	handler func(from string, req []byte) ([]byte, error)
}

type message struct {
	from string
	data []byte
}

// held is a copy held back by Faults.Reorder.
type held struct {
	msg   message
	timer *timer
}

// ID returns the node's name on the network.
func (e *Endpoint) ID() string { return e.id }

// Publish sends a copy of data to every other live node that e reaches, subject to the
// faults. It never blocks. It fails only if ctx is done or e is closed.
func (e *Endpoint) Publish(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	n := e.net
	n.mu.Lock()
	defer n.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	n.stats.Published++
	for _, p := range n.peersLocked(e.id) {
		n.sendLocked(n.nodes[p], message{from: e.id, data: slices.Clone(data)})
	}
	return nil
}

// Next returns the next broadcast in e's inbox, in delivery order, waiting for one if it is
// empty. Copies held back by Faults.Reorder are released when Next finds nothing else to read. It fails with ctx's error once ctx is done and with ErrClosed once e is closed.
func (e *Endpoint) Next(ctx context.Context) (from string, data []byte, err error) {
	n := e.net
	for {
		if err := ctx.Err(); err != nil {
			return "", nil, err
		}
		n.mu.Lock()
		if e.closed {
			n.mu.Unlock()
			return "", nil, ErrClosed
		}
		if len(e.inbox) == 0 && len(e.held) > 0 {
			e.releaseLocked(e.held[len(e.held)-1]) // nothing could overtake them now
		}
		if len(e.inbox) > 0 {
			m := e.inbox[0]
			e.inbox[0] = message{}
			e.inbox = e.inbox[1:]
			n.mu.Unlock()
			return m.from, m.data, nil
		}
		wake := e.wake
		n.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
		}
	}
}

// Request sends a copy of req to peer's handler, run on its own goroutine, and returns a copy
// of its answer. It fails if ctx is done, if e is closed, if peer is unknown, crashed (even
// while answering), out of reach or does not serve requests, if Faults.RequestDrop strikes,
// or with the handler's own error, wrapped.
func (e *Endpoint) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := e.net
	n.mu.Lock()
	if e.closed {
		n.mu.Unlock()
		return nil, ErrClosed
	}
	n.stats.Requests++
	target := n.nodes[peer]
	var h func(string, []byte) ([]byte, error)
	var err error
	switch {
	case target == nil:
		err = fmt.Errorf("memnet: request to %s: no such peer", peer)
	case !n.reachLocked(e.id, peer):
		err = fmt.Errorf("memnet: request to %s: peer unreachable", peer)
	case n.chanceLocked(n.faults.RequestDrop):
		err = fmt.Errorf("memnet: request to %s: connection lost", peer)
	case target.handler == nil:
		err = fmt.Errorf("memnet: request to %s: peer %s does not serve requests", peer, peer)
	default:
		h = target.handler
	}
	if err != nil {
		n.stats.RequestFailures++
		n.mu.Unlock()
		return nil, err
	}
	n.asking++
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		n.asking--
		n.mu.Unlock()
	}()

	type result struct {
		resp []byte
		err  error
	}
	answer := make(chan result, 1)
	from, reqCopy := e.id, slices.Clone(req)
	go func() {
		resp, err := h(from, reqCopy)
		answer <- result{slices.Clone(resp), err}
	}()
	select {
	case r := <-answer:
		if r.err != nil {
			err = fmt.Errorf("memnet: request to %s: %w", peer, r.err)
			break
		}
		return r.resp, nil
	case <-ctx.Done():
		err = ctx.Err()
	case <-e.done:
		err = ErrClosed
	case <-target.done:
		err = fmt.Errorf("memnet: request to %s: peer crashed", peer)
	}
	n.mu.Lock()
	n.stats.RequestFailures++
	n.mu.Unlock()
	return nil, err
}

// Serve sets the handler for requests to e; nil stops serving.
func (e *Endpoint) Serve(h func(from string, req []byte) ([]byte, error)) {
	e.net.mu.Lock()
	defer e.net.mu.Unlock()
	e.handler = h
}

// Peers lists the other live nodes e reaches, sorted; none once e is closed.
func (e *Endpoint) Peers() []string {
	e.net.mu.Lock()
	defer e.net.mu.Unlock()
	if e.closed {
		return nil
	}
	return e.net.peersLocked(e.id)
}

func (e *Endpoint) signalLocked() {
	close(e.wake)
	e.wake = make(chan struct{})
}

func (e *Endpoint) closeLocked() {
	if e.closed {
		return
	}
	e.closed = true
	e.net.stats.Dropped += len(e.held)
	for _, h := range e.held {
		e.net.stopLocked(h.timer)
	}
	e.held, e.inbox, e.handler = nil, nil, nil
	close(e.done)
	e.signalLocked()
}

// releaseLocked delivers h when its reorder window ends without a later copy overtaking it,
// together with the copies held before it, in the order they arrived. (Their windows end
// first, but timers set for the same instant may fire in any order.)
func (e *Endpoint) releaseLocked(h *held) {
	i := slices.Index(e.held, h)
	if i < 0 || e.closed {
		return
	}
	for _, r := range e.held[:i+1] {
		e.net.stopLocked(r.timer)
		e.inbox = append(e.inbox, r.msg)
		e.net.stats.Delivered++
	}
	e.held = slices.Delete(e.held, 0, i+1)
	e.signalLocked()
}

// Pending returns how many broadcasts wait in e's inbox, not counting copies still in flight
// or held back. Tests use it to check that nothing arrived.
func (e *Endpoint) Pending() int {
	e.net.mu.Lock()
	defer e.net.mu.Unlock()
	return len(e.inbox)
}
