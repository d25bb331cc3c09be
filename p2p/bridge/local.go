package bridge

import (
	"context"
	"fmt"

	"corruption/protocol/tablenet"
)

// Local is the laptop's own node as a member of its hub: the methods of *p2p.Node that a
// table needs, going through the hub, so that the laptop's seat hears the phones and they
// hear it. Its topics and protocols are held to the hub's Policy, as a phone's.
type Local struct {
	h *Hub
	m *member
}

var _ tablenet.Node = (*Local)(nil)

// Local is the hub's member for the laptop's own node.
func (h *Hub) Local() *Local { return h.local }

// Node is the laptop's peer id.
func (l *Local) Node() string { return l.h.node.ID() }

// ID is the local member's id, as the phones see it in from.
func (l *Local) ID() string { return l.m.id }

// Join subscribes to a topic; validate (nil: accept all) is run on each message delivered,
// after the node's validator.
func (l *Local) Join(topic string, validate func(from string, data []byte) int) error {
	if err := l.h.subscribe(l.m, topic, &memberTopic{validate: validate, queue: make(chan heard, queueSize), left: make(chan struct{})}); err != nil {
		return fmt.Errorf("bridge: join %q: %w", topic, err)
	}
	return nil
}

// Leave unsubscribes from a topic; Next calls waiting on it return ErrClosed.
func (l *Local) Leave(topic string) error { return l.h.unsubscribe(l.m, topic) }

// Publish says data on the topic: to the node's peers and the other members.
func (l *Local) Publish(ctx context.Context, topic string, data []byte) error {
	return l.h.publish(ctx, l.m, topic, data)
}

// Next is the next message on a joined topic, from a peer or another member.
func (l *Local) Next(ctx context.Context, topic string) (string, []byte, error) {
	l.h.mu.Lock()
	mt := l.m.topics[topic]
	l.h.mu.Unlock()
	if mt == nil {
		return "", nil, fmt.Errorf("bridge: topic %q not joined", topic)
	}
	select {
	case m := <-mt.queue:
		return m.from, m.data, nil
	case <-mt.left:
		return "", nil, ErrClosed
	case <-l.h.ctx.Done():
		return "", nil, ErrClosed
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}

// TopicPeers are the node's peers on the topic and the other members subscribed to it.
func (l *Local) TopicPeers(topic string) []string { return l.h.peers(l.m, topic) }

// Request asks a member (by its id) or a peer, on a protocol of the Policy.
func (l *Local) Request(ctx context.Context, peer, proto string, req []byte) ([]byte, error) {
	ans, err := l.h.request(ctx, l.m, peer, proto, req)
	if err != nil {
		return nil, fmt.Errorf("request %s to %s: %w", proto, peer, err)
	}
	return ans, nil
}

// Handle serves proto for the node's peers and the other members (nil stops).
func (l *Local) Handle(proto string, h func(from string, req []byte) ([]byte, error)) {
	if err := l.h.serve(l.m, proto, h); err != nil {
		l.h.logf("bridge: %v", err)
	}
}
