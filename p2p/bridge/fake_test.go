package bridge

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// world is an in-memory network of fake nodes: a publish reaches every other node joined to
// the topic (after its validator), never the publisher, as gossipsub; a request runs the
// target's handler.
type world struct {
	mu    sync.Mutex
	nodes map[string]*fakeNode
}

func newWorld() *world { return &world{nodes: map[string]*fakeNode{}} }

type fakeNode struct {
	w        *world
	id       string
	topics   map[string]chan heard
	validate map[string]func(string, []byte) int
	handlers map[string]func(string, []byte) ([]byte, error)
}

func (w *world) node(id string) *fakeNode {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := &fakeNode{w: w, id: id, topics: map[string]chan heard{}, validate: map[string]func(string, []byte) int{},
		handlers: map[string]func(string, []byte) ([]byte, error){}}
	w.nodes[id] = n
	return n
}

func (n *fakeNode) ID() string { return n.id }

func (n *fakeNode) Join(topic string, v func(string, []byte) int) error {
	n.w.mu.Lock()
	defer n.w.mu.Unlock()
	if _, ok := n.topics[topic]; ok {
		return fmt.Errorf("topic %q already joined", topic)
	}
	n.topics[topic] = make(chan heard, 1024)
	n.validate[topic] = v
	return nil
}

func (n *fakeNode) Leave(topic string) error {
	n.w.mu.Lock()
	defer n.w.mu.Unlock()
	ch, ok := n.topics[topic]
	if !ok {
		return fmt.Errorf("topic %q not joined", topic)
	}
	delete(n.topics, topic)
	close(ch)
	return nil
}

func (n *fakeNode) Publish(_ context.Context, topic string, data []byte) error {
	n.w.mu.Lock()
	defer n.w.mu.Unlock()
	if _, ok := n.topics[topic]; !ok {
		return fmt.Errorf("topic %q not joined", topic)
	}
	if v := n.validate[topic]; v != nil && v(n.id, data) != Accept {
		return errors.New("validation failed")
	}
	for _, o := range n.w.nodes {
		if ch, ok := o.topics[topic]; ok && o != n {
			if v := o.validate[topic]; v == nil || v(n.id, data) == Accept {
				ch <- heard{n.id, data}
			}
		}
	}
	return nil
}

func (n *fakeNode) Next(ctx context.Context, topic string) (string, []byte, error) {
	n.w.mu.Lock()
	ch, ok := n.topics[topic]
	n.w.mu.Unlock()
	if !ok {
		return "", nil, errors.New("not joined")
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return "", nil, ErrClosed
		}
		return m.from, m.data, nil
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}

func (n *fakeNode) TopicPeers(topic string) []string {
	n.w.mu.Lock()
	defer n.w.mu.Unlock()
	var out []string
	for id, o := range n.w.nodes {
		if _, ok := o.topics[topic]; ok && o != n {
			out = append(out, id)
		}
	}
	return out
}

func (n *fakeNode) Request(_ context.Context, peer, proto string, req []byte) ([]byte, error) {
	n.w.mu.Lock()
	o := n.w.nodes[peer]
	var h func(string, []byte) ([]byte, error)
	if o != nil {
		h = o.handlers[proto]
	}
	n.w.mu.Unlock()
	if h == nil {
		return nil, fmt.Errorf("peer %s does not serve %s", peer, proto)
	}
	ans, err := h(n.id, req)
	if err != nil {
		return nil, fmt.Errorf("peer %s answered %s with an error: %v", peer, proto, err)
	}
	return ans, nil
}

func (n *fakeNode) Handle(proto string, h func(string, []byte) ([]byte, error)) {
	n.w.mu.Lock()
	defer n.w.mu.Unlock()
	if h == nil {
		delete(n.handlers, proto)
	} else {
		n.handlers[proto] = h
	}
}

// pipe is one end of an in-memory frame connection.
type pipe struct {
	in, out chan []byte
	done    chan struct{}
	once    *sync.Once
}

func pipes() (Conn, Conn) {
	a, b := make(chan []byte, 64), make(chan []byte, 64)
	done, once := make(chan struct{}), &sync.Once{}
	return &pipe{in: a, out: b, done: done, once: once}, &pipe{in: b, out: a, done: done, once: once}
}

func (p *pipe) Read(ctx context.Context) ([]byte, error) {
	select {
	case b := <-p.in:
		return b, nil
	case <-p.done:
		return nil, errors.New("pipe closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipe) Write(ctx context.Context, b []byte) error {
	select {
	case p.out <- b:
		return nil
	case <-p.done:
		return errors.New("pipe closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pipe) Close() error {
	p.once.Do(func() { close(p.done) })
	return nil
}
