package bridge

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"time"

	"corruption/protocol/tablenet"
)

// member is one of the hub's members: the laptop's own node (link nil) or a phone.
type member struct {
	h    *Hub
	id   string
	link *link // a phone's connection; nil for the local member

	// Guarded by h.mu.
	topics    map[string]*memberTopic
	handlers  map[string]func(from string, req []byte) ([]byte, error) // a phone's: a marker
	pending   map[uint32]chan *Frame                                   // requests to a phone, waiting for its Reply
	nextID    uint32
	inflight  int                 // a phone's requests under way
	lastPeers map[string][]string // what a phone was last told of each topic's peers
	key       ed25519.PublicKey   // the seat key a phone identified with (Identify)
	sits      []string            // proto NUL key: where the phone proved it sits (Sit), oldest first
}

// memberTopic is a topic a member joined; the local member's carries its queue for Next.
type memberTopic struct {
	validate func(from string, data []byte) int
	queue    chan heard
	left     chan struct{}
}

// deliver hands the member a message of a topic it joined.
func (m *member) deliver(topic, from string, data []byte) {
	if m.link != nil {
		m.link.send(&Frame{Kind: KindMessage, Topic: topic, Peer: from, Data: data})
		return
	}
	m.h.mu.Lock()
	mt := m.topics[topic]
	m.h.mu.Unlock()
	if mt == nil || (mt.validate != nil && mt.validate(from, data) != tablenet.Accept) {
		return
	}
	select {
	case mt.queue <- heard{from, data}:
	default: // a reader far behind loses the excess, as gossipsub's
	}
}

// serve answers a request with the member's handler of proto: in process for the local
// member, through its connection for a phone.
func (m *member) serve(ctx context.Context, proto, from string, req []byte) ([]byte, error) {
	h := m.h
	h.mu.Lock()
	f, ok := m.handlers[proto]
	if !ok {
		h.mu.Unlock()
		return nil, fmt.Errorf("protocol %s is not served by %s", proto, m.id)
	}
	if m.link == nil {
		h.mu.Unlock()
		return f(from, req)
	}
	m.nextID++
	id := m.nextID
	ch := make(chan *Frame, 1)
	m.pending[id] = ch
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(m.pending, id)
		h.mu.Unlock()
	}()
	if !m.link.send(&Frame{Kind: KindIncoming, ID: id, Peer: from, Proto: proto, Data: req}) {
		return nil, fmt.Errorf("the seat %s is not connected", m.id)
	}
	select {
	case f := <-ch:
		switch {
		case f == nil:
			return nil, fmt.Errorf("the seat %s disconnected", m.id)
		case f.Err != "":
			return nil, errors.New(f.Err)
		}
		return f.Data, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("the seat %s did not answer in time: %w", m.id, ctx.Err())
	}
}

// tellPeers sends a phone the peers of its topics that changed.
func (m *member) tellPeers() {
	h := m.h
	h.mu.Lock()
	topics := make([]string, 0, len(m.topics))
	for t := range m.topics {
		topics = append(topics, t)
	}
	h.mu.Unlock()
	for _, topic := range topics {
		ps := h.peers(m, topic)
		slices.Sort(ps)
		if len(ps) > MaxPeers {
			ps = ps[:MaxPeers]
		}
		h.mu.Lock()
		_, still := m.topics[topic]
		same := slices.Equal(ps, m.lastPeers[topic])
		if still && !same {
			m.lastPeers[topic] = ps
		}
		h.mu.Unlock()
		if still && !same {
			m.link.send(&Frame{Kind: KindPeers, Topic: topic, Peers: ps})
		}
	}
}

// Serve runs a phone's connection to its end: the hello, then the phone's frames, until the
// connection drops, the phone breaks the protocol or the hub closes. The phone is a member
// from its Welcome until then. Its error says why the connection ended.
func (h *Hub) Serve(conn Conn) error {
	hello, err := h.greet(conn)
	if err != nil {
		conn.Close()
		return err
	}
	_ = hello
	l := newLink(conn, h.logf)
	defer l.close()
	stop := context.AfterFunc(h.ctx, l.close)
	defer stop()
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return ErrClosed
	}
	m := h.addMember(l)
	if m == nil {
		l.sendAndClose(&Frame{Kind: KindBye, Reason: ByeFull, Err: fmt.Sprintf("this laptop serves %d phones already, the most it does: try again when one has left", MaxPhones)})
		t := time.NewTimer(handshakeTimeout)
		defer t.Stop()
		select { // the refusal written, or given up on
		case <-l.done:
		case <-t.C:
		}
		return fmt.Errorf("a phone refused: %d phones connected already", MaxPhones)
	}
	defer h.removeMember(m)
	l.send(&Frame{Kind: KindWelcome, Version: Version, Peer: m.id, Node: h.node.ID(), Label: h.label})
	go l.keepalive(h.keep, false, "the phone")
	h.logf("bridge: a phone connected as %s", m.id)
	for {
		f, err := l.read()
		if err != nil {
			if h.ctx.Err() != nil {
				return ErrClosed
			}
			return fmt.Errorf("%s: %w", m.id, err)
		}
		if err := h.frame(m, f); err != nil {
			l.send(&Frame{Kind: KindError, Err: err.Error()})
			return fmt.Errorf("%s: %w", m.id, err)
		}
	}
}

// greet reads a phone's Hello and refuses any other first frame, or another version, with an
// Error frame that says why.
func (h *Hub) greet(conn Conn) (*Frame, error) {
	ctx, cancel := context.WithTimeout(h.ctx, handshakeTimeout)
	defer cancel()
	b, err := conn.Read(ctx)
	if err != nil {
		return nil, fmt.Errorf("no hello: %w", err)
	}
	f, err := Decode(b)
	refuse := func(msg string) (*Frame, error) {
		if out, err := (&Frame{Kind: KindError, Err: msg}).Encode(); err == nil {
			conn.Write(ctx, out)
		}
		return nil, errors.New(msg)
	}
	switch {
	case err != nil:
		return refuse(fmt.Sprintf("the first frame is not a hello: %v", err))
	case f.Kind != KindHello:
		return refuse(fmt.Sprintf("the first frame is of kind %s, not a hello", f.Kind))
	case f.Version != Version:
		return refuse(fmt.Sprintf("the page speaks bridge version %d and this laptop %d: reload the page, or run the same release of corruption", f.Version, Version))
	}
	return f, nil
}

// frame acts on one frame of a phone. Its error, a frame a phone must not send, ends the
// connection.
func (h *Hub) frame(m *member, f *Frame) error {
	switch f.Kind {
	case KindPing:
		m.link.send(&Frame{Kind: KindPong})
	case KindSubscribe:
		res := &Frame{Kind: KindResult, ID: f.ID}
		if err := h.subscribe(m, f.Topic, &memberTopic{}); err != nil {
			res.Err = err.Error()
		}
		m.link.send(res)
		if res.Err == "" {
			m.tellPeers()
		}
	case KindUnsubscribe:
		if err := h.unsubscribe(m, f.Topic); err != nil {
			m.link.send(&Frame{Kind: KindError, Err: err.Error()})
		}
	case KindPublish:
		ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
		err := h.publish(ctx, m, f.Topic, f.Data)
		cancel()
		if err != nil {
			m.link.send(&Frame{Kind: KindError, Err: clip(fmt.Sprintf("publish on %q: %v", f.Topic, err))})
		}
	case KindRequest:
		h.mu.Lock()
		busy := m.inflight >= maxRequests
		if !busy {
			m.inflight++
		}
		h.mu.Unlock()
		if busy {
			m.link.send(&Frame{Kind: KindAnswer, ID: f.ID, Err: fmt.Sprintf("%d requests under way already, the most a phone may have", maxRequests)})
			return nil
		}
		go func() {
			defer func() {
				h.mu.Lock()
				m.inflight--
				h.mu.Unlock()
			}()
			ctx, cancel := context.WithTimeout(h.ctx, DefaultRequestTimeout)
			defer cancel()
			ans := &Frame{Kind: KindAnswer, ID: f.ID}
			data, err := h.request(ctx, m, f.Peer, f.Proto, f.Data)
			if err != nil {
				ans.Err = clip(err.Error())
			} else {
				ans.Data = data
			}
			m.link.send(ans)
		}()
	case KindIdentify:
		res := &Frame{Kind: KindResult, ID: f.ID}
		if err := h.identify(m, f.Key, f.Sig); err != nil {
			res.Err = err.Error()
		}
		m.link.send(res)
	case KindSit:
		res := &Frame{Kind: KindResult, ID: f.ID}
		if err := h.sit(m, f.Proto, f.Data); err != nil {
			res.Err = clip(err.Error())
		}
		m.link.send(res)
	case KindServe, KindUnserve:
		var marker func(string, []byte) ([]byte, error)
		if f.Kind == KindServe {
			marker = func(string, []byte) ([]byte, error) { return nil, errors.New("unreachable") }
		}
		if err := h.serve(m, f.Proto, marker); err != nil {
			m.link.send(&Frame{Kind: KindError, Err: err.Error()})
		}
	case KindReply:
		h.mu.Lock()
		ch := m.pending[f.ID]
		delete(m.pending, f.ID)
		h.mu.Unlock()
		if ch != nil {
			ch <- f
		}
	default:
		return fmt.Errorf("a frame of kind %s, which only the laptop sends", f.Kind)
	}
	return nil
}

// clip makes a text an error text: not empty, at most maxText bytes.
func clip(s string) string {
	if s == "" {
		return "error"
	}
	if len(s) > maxText {
		return s[:maxText]
	}
	return s
}
