package main

import (
	"context"
	"sync"
	"time"

	"corruption/protocol"
)

// chatRelay is the table's chat between a person's node and its page or terminal: what the
// person says goes to the node once the node exists (the page is served before), and what the
// node keeps is told to the person. Its methods are safe on a nil relay (a bot's seat has
// none): they do nothing.
type chatRelay struct {
	mu   sync.Mutex
	node *protocol.Node
	tell func(protocol.ChatMessage)
}

// sayTimeout bounds how long saying a message may take (signing, keeping, publishing).
const sayTimeout = 5 * time.Second

// say says text at the node's table.
func (r *chatRelay) say(text string) error {
	if r == nil {
		return protocol.ErrNoTable
	}
	r.mu.Lock()
	n := r.node
	r.mu.Unlock()
	if n == nil {
		return protocol.ErrNoTable
	}
	ctx, cancel := context.WithTimeout(context.Background(), sayTimeout)
	defer cancel()
	_, err := n.Say(ctx, text)
	return err
}

// heard tells the person a message the node keeps (the node's OnChat).
func (r *chatRelay) heard(m protocol.ChatMessage) {
	if r == nil {
		return
	}
	r.mu.Lock()
	tell := r.tell
	r.mu.Unlock()
	if tell != nil {
		tell(m)
	}
}

// attach gives the relay its node.
func (r *chatRelay) attach(n *protocol.Node) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.node = n
	r.mu.Unlock()
}

// to sets whom the relay tells.
func (r *chatRelay) to(tell func(protocol.ChatMessage)) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.tell = tell
	r.mu.Unlock()
}
