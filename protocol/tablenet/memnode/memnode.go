// Package memnode is an in-memory network of tablenet.Nodes, for tests: members with topics and
// request protocols, as the bridge's hub gives its members and as *p2p.Node gives a laptop's
// node (a Member satisfies tablenet.Node), with no libp2p.
package memnode

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Bus is an in-memory network: a publish reaches every other member subscribed (after its
// validator; a reader 16384 messages behind loses the excess, as gossip's), a request reaches
// the member named, by its handler.
type Bus struct {
	mu      sync.Mutex
	members map[string]*Member
	n       int
}

// New is an empty network.
func New() *Bus { return &Bus{members: map[string]*Member{}} }

// Member is one node of the network.
type Member struct {
	b        *Bus
	id       string
	closed   bool
	topics   map[string]*busTopic
	handlers map[string]func(from string, req []byte) ([]byte, error)
}

type busTopic struct {
	validate func(from string, data []byte) int
	ch       chan [2]string
	left     chan struct{}
}

// Member adds a member.
func (b *Bus) Member() *Member {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
	m := &Member{b: b, id: fmt.Sprintf("m%d", b.n), topics: map[string]*busTopic{}, handlers: map[string]func(string, []byte) ([]byte, error){}}
	b.members[m.id] = m
	return m
}

// ID is the member's id, as others see it in from.
func (m *Member) ID() string { return m.id }

// errClosed is what a closed member's calls return.
var errClosed = errors.New("memnode: closed")

// Close takes the member off the network: its topics are left, and its calls fail from now on.
func (m *Member) Close() error {
	m.b.mu.Lock()
	defer m.b.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	for topic, t := range m.topics {
		delete(m.topics, topic)
		close(t.left)
	}
	delete(m.b.members, m.id)
	return nil
}

func (m *Member) Join(topic string, validate func(from string, data []byte) int) error {
	m.b.mu.Lock()
	defer m.b.mu.Unlock()
	if m.closed {
		return errClosed
	}
	if _, ok := m.topics[topic]; ok {
		return fmt.Errorf("topic %q already joined", topic)
	}
	m.topics[topic] = &busTopic{validate: validate, ch: make(chan [2]string, 1<<14), left: make(chan struct{})}
	return nil
}

func (m *Member) Leave(topic string) error {
	m.b.mu.Lock()
	defer m.b.mu.Unlock()
	t, ok := m.topics[topic]
	if !ok {
		return fmt.Errorf("topic %q not joined", topic)
	}
	delete(m.topics, topic)
	close(t.left)
	return nil
}

func (m *Member) Publish(ctx context.Context, topic string, data []byte) error {
	m.b.mu.Lock()
	defer m.b.mu.Unlock()
	if m.closed {
		return errClosed
	}
	own, ok := m.topics[topic]
	if !ok {
		return fmt.Errorf("topic %q not joined", topic)
	}
	if own.validate != nil && own.validate(m.id, data) != 0 { // a node checks its own word, as gossipsub does
		return errors.New("memnode: the topic's validator refused the message")
	}
	for _, o := range m.b.members {
		if t, ok := o.topics[topic]; ok && o != m && (t.validate == nil || t.validate(m.id, data) == 0) {
			select {
			case t.ch <- [2]string{m.id, string(data)}:
			default: // a reader far behind loses messages, as gossip's
			}
		}
	}
	return nil
}

func (m *Member) Next(ctx context.Context, topic string) (string, []byte, error) {
	m.b.mu.Lock()
	t, ok := m.topics[topic]
	m.b.mu.Unlock()
	if !ok {
		return "", nil, fmt.Errorf("topic %q not joined", topic)
	}
	select {
	case msg := <-t.ch:
		return msg[0], []byte(msg[1]), nil
	case <-t.left:
		return "", nil, errors.New("left")
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}

func (m *Member) TopicPeers(topic string) []string {
	m.b.mu.Lock()
	defer m.b.mu.Unlock()
	var out []string
	for id, o := range m.b.members {
		if _, ok := o.topics[topic]; ok && o != m {
			out = append(out, id)
		}
	}
	return out
}

func (m *Member) Request(ctx context.Context, peer, proto string, req []byte) ([]byte, error) {
	m.b.mu.Lock()
	if m.closed {
		m.b.mu.Unlock()
		return nil, errClosed
	}
	o := m.b.members[peer]
	var h func(string, []byte) ([]byte, error)
	if o != nil {
		h = o.handlers[proto]
	}
	m.b.mu.Unlock()
	if h == nil {
		return nil, fmt.Errorf("peer %s does not serve %s", peer, proto)
	}
	return h(m.id, req)
}

func (m *Member) Handle(proto string, h func(from string, req []byte) ([]byte, error)) {
	m.b.mu.Lock()
	defer m.b.mu.Unlock()
	if h == nil {
		delete(m.handlers, proto)
		return
	}
	m.handlers[proto] = h
}
