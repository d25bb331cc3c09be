package bridge

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"time"

	"corruption/protocol/tablenet"
)

// run connects, serves the connection until it drops, and connects again, until Close.
func (c *Client) run() {
	defer close(c.done)
	backoff := c.cfg.MinBackoff
	var failing time.Time // since when no connection held ("" while one does)
	var told Trouble
	tell := func(t Trouble) {
		if t != told && c.cfg.OnTrouble != nil {
			c.cfg.OnTrouble(t)
		}
		told = t
	}
	for c.ctx.Err() == nil {
		if failing.IsZero() {
			failing = time.Now()
		}
		// A dial into a silent network ends; the trouble is said when it has lasted
		// Unreachable, even while a dial hangs.
		dctx, cancel := context.WithTimeout(c.ctx, handshakeTimeout)
		slow := time.AfterFunc(max(0, c.cfg.Unreachable-time.Since(failing)), func() {
			if c.troubleFor(nil).Kind == Unreachable {
				c.say(Trouble{Kind: Unreachable, Text: "no answer from the laptop"})
			}
		})
		conn, err := c.cfg.Dial(dctx)
		slow.Stop()
		cancel()
		if err == nil {
			start := time.Now()
			err = c.session(conn, func() { failing = time.Time{}; tell(Trouble{}) })
			if time.Since(start) > c.cfg.MaxBackoff {
				backoff = c.cfg.MinBackoff // it held: try again at once
			}
		}
		if c.ctx.Err() != nil {
			return
		}
		if t := c.troubleFor(err); t.Kind != Unreachable || time.Since(failing) >= c.cfg.Unreachable {
			tell(t)
		}
		c.cfg.Logf("bridge: %v; connecting again in %v", err, backoff)
		t := time.NewTimer(backoff)
		select {
		case <-c.ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(2*backoff, c.cfg.MaxBackoff)
	}
}

// troubleFor is what a failed connection says: the laptop's Bye, a refused address, another
// version, or silence.
func (c *Client) troubleFor(err error) Trouble {
	c.mu.Lock()
	bye := c.bye
	c.mu.Unlock()
	var be *byeError
	if errors.As(err, &be) {
		bye = be.f
	}
	if bye != nil {
		k := map[uint8]TroubleKind{ByeMoved: Moved, ByeClosing: Closing, ByeFull: Full}[bye.Reason]
		// After a Bye the next dials are refused (a new address) or unanswered (stopped):
		// the Bye says more.
		return Trouble{Kind: k, Text: bye.Err}
	}
	switch {
	case errors.Is(err, ErrRefused):
		return Trouble{Kind: Refused, Text: err.Error()}
	case errors.Is(err, errVersion):
		return Trouble{Kind: Unsupported, Text: err.Error()}
	}
	text := "no answer from the laptop"
	if err != nil {
		text = err.Error()
	}
	return Trouble{Kind: Unreachable, Text: text}
}

// say tells OnTrouble t from outside run (a dial that hangs).
func (c *Client) say(t Trouble) {
	if c.cfg.OnTrouble != nil {
		c.cfg.OnTrouble(t)
	}
}

// session says hello on a new connection, takes up the topics and protocols, and reads until
// the connection drops. welcomed runs once the laptop welcomed it.
func (c *Client) session(conn Conn, welcomed func()) error {
	l := newLink(conn, c.cfg.Logf)
	defer l.close()
	stop := context.AfterFunc(c.ctx, l.close)
	defer stop()
	l.send(&Frame{Kind: KindHello, Version: Version})
	w, err := handshake(l)
	if err != nil {
		return err
	}
	go l.keepalive(c.cfg.Keepalive, true, "the laptop")
	c.mu.Lock()
	c.conn, c.id, c.node, c.label, c.bye = l, w.Peer, w.Node, w.Label, nil
	// Results below are read and dropped: a refusal is logged (read).
	if c.identity != nil {
		id, _ := c.waitLocked()
		c.forgetLocked(id)
		l.send(&Frame{Kind: KindIdentify, ID: id, Key: c.identity.Public().(ed25519.PublicKey), Sig: ed25519.Sign(c.identity, IdentifyMessage(w.Node, w.Peer))})
	}
	for topic := range c.topics {
		id, _ := c.waitLocked()
		c.forgetLocked(id)
		l.send(&Frame{Kind: KindSubscribe, ID: id, Topic: topic})
	}
	for proto := range c.handlers {
		l.send(&Frame{Kind: KindServe, Proto: proto})
	}
	for _, s := range c.sits {
		id, _ := c.waitLocked()
		c.forgetLocked(id)
		l.send(&Frame{Kind: KindSit, ID: id, Proto: s.proto, Data: s.proof})
	}
	close(c.connected)
	c.mu.Unlock()
	c.cfg.Logf("bridge: connected to the laptop as %s", w.Peer)
	welcomed()
	if c.cfg.OnConnection != nil {
		c.cfg.OnConnection(true)
	}
	err = c.read(l)
	c.mu.Lock()
	c.conn, c.id = nil, ""
	for id, ch := range c.pending {
		close(ch) // a Request waiting gets nil: disconnected
		delete(c.pending, id)
	}
	for _, t := range c.topics {
		t.peers = nil
	}
	c.connected = make(chan struct{})
	c.mu.Unlock()
	if c.cfg.OnConnection != nil {
		c.cfg.OnConnection(false)
	}
	return err
}

// handshake reads the hub's Welcome.
func handshake(l *link) (*Frame, error) {
	type result struct {
		f   *Frame
		err error
	}
	got := make(chan result, 1)
	go func() {
		f, err := l.read()
		got <- result{f, err}
	}()
	t := time.NewTimer(handshakeTimeout)
	defer t.Stop()
	select {
	case r := <-got:
		switch {
		case r.err != nil:
			return nil, fmt.Errorf("no welcome from the laptop: %w", r.err)
		case r.f.Kind == KindError && strings.Contains(r.f.Err, "bridge version"):
			return nil, fmt.Errorf("%w: %s", errVersion, r.f.Err)
		case r.f.Kind == KindError:
			return nil, fmt.Errorf("the laptop refused the connection: %s", r.f.Err)
		case r.f.Kind == KindBye:
			return nil, &byeError{r.f}
		case r.f.Kind != KindWelcome:
			return nil, fmt.Errorf("the laptop answered hello with a frame of kind %s, not a welcome", r.f.Kind)
		case r.f.Version != Version:
			return nil, fmt.Errorf("%w: the laptop speaks bridge version %d, this seat %d: reload the page", errVersion, r.f.Version, Version)
		}
		return r.f, nil
	case <-t.C:
		l.close()
		return nil, errors.New("no welcome from the laptop within 10 s")
	}
}

// read dispatches the hub's frames until the connection fails.
func (c *Client) read(l *link) error {
	for {
		f, err := l.read()
		if err != nil {
			if c.ctx.Err() != nil {
				return ErrClosed
			}
			return fmt.Errorf("the connection to the laptop dropped: %w", err)
		}
		switch f.Kind {
		case KindMessage:
			c.mu.Lock()
			t := c.topics[f.Topic]
			c.mu.Unlock()
			if t == nil || (t.validate != nil && t.validate(f.Peer, f.Data) != tablenet.Accept) {
				continue
			}
			select {
			case t.queue <- heard{f.Peer, f.Data}:
			default: // a reader far behind loses the excess, as gossipsub's
			}
		case KindPeers:
			c.mu.Lock()
			if t := c.topics[f.Topic]; t != nil {
				t.peers = f.Peers
			}
			c.mu.Unlock()
		case KindResult, KindAnswer:
			c.mu.Lock()
			ch := c.pending[f.ID]
			delete(c.pending, f.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- f
			} else if f.Kind == KindResult && f.Err != "" {
				c.cfg.Logf("bridge: the laptop refused: %s", f.Err)
			}
		case KindIncoming:
			c.mu.Lock()
			h := c.handlers[f.Proto]
			c.mu.Unlock()
			go c.answer(l, f, h)
		case KindError:
			c.cfg.Logf("bridge: the laptop says: %s", f.Err)
		case KindBye:
			c.mu.Lock()
			c.bye = f
			c.mu.Unlock()
			c.cfg.Logf("bridge: the laptop says goodbye: %s", f.Err)
		case KindPong: // life, which the link counted as it read it
		default:
			return fmt.Errorf("the laptop sent a frame of kind %s, which only a phone sends", f.Kind)
		}
	}
}

// errVersion is a laptop of another bridge version.
var errVersion = errors.New("bridge: another release")

// byeError is a Bye in answer to hello (a laptop that serves as many phones as it may).
type byeError struct{ f *Frame }

func (e *byeError) Error() string { return "the laptop said goodbye: " + e.f.Err }

// answer answers a peer's request with the protocol's handler.
func (c *Client) answer(l *link, f *Frame, h func(string, []byte) ([]byte, error)) {
	reply := &Frame{Kind: KindReply, ID: f.ID}
	if h == nil {
		reply.Err = fmt.Sprintf("protocol %s is not served here", f.Proto)
	} else if ans, err := h(f.Peer, f.Data); err != nil {
		reply.Err = err.Error()
		if reply.Err == "" {
			reply.Err = "error"
		}
		if len(reply.Err) > maxText {
			reply.Err = reply.Err[:maxText]
		}
	} else if len(ans) > MaxData {
		reply.Err = fmt.Sprintf("response of %d bytes exceeds the %d byte limit", len(ans), MaxData)
	} else {
		reply.Data = ans
	}
	l.send(reply)
}

// waitLocked is a fresh id with the channel its answer comes on.
func (c *Client) waitLocked() (uint32, chan *Frame) {
	c.nextID++
	ch := make(chan *Frame, 1)
	c.pending[c.nextID] = ch
	return c.nextID, ch
}

func (c *Client) forget(id uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forgetLocked(id)
}

func (c *Client) forgetLocked(id uint32) { delete(c.pending, id) }
