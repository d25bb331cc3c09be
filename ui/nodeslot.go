package ui

import (
	"context"
	"sync"
	"time"

	"corruption/protocol"
)

// NodeSlot holds the person's node for what reaches it from the page or the terminal (the
// table's chat, its pause), which come before the node exists: the page is served first, and a
// person's loop plays one table after another. Its methods are safe on a nil slot.
type NodeSlot struct {
	mu   sync.Mutex
	node *protocol.Node
}

// slotTimeout bounds what a call through the slot may take (signing, keeping, publishing).
const slotTimeout = 5 * time.Second

// Attach is the node from now on (nil: none, between tables).
func (s *NodeSlot) Attach(n *protocol.Node) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.node = n
	s.mu.Unlock()
}

// Node is the node now (nil before one, or between tables).
func (s *NodeSlot) Node() *protocol.Node {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.node
}

// Call calls f with the node, within 5 s, or fails with protocol.ErrNoTable without one.
func (s *NodeSlot) Call(f func(context.Context, *protocol.Node) error) error {
	n := s.Node()
	if n == nil {
		return protocol.ErrNoTable
	}
	ctx, cancel := context.WithTimeout(context.Background(), slotTimeout)
	defer cancel()
	return f(ctx, n)
}

// Say says text in the table's chat (Config.Say).
func (s *NodeSlot) Say(text string) error {
	return s.Call(func(ctx context.Context, n *protocol.Node) error {
		_, err := n.Say(ctx, text)
		return err
	})
}

// Pause asks or agrees to pause the table (agree), or keeps playing (Config.Pause).
func (s *NodeSlot) Pause(agree bool) error {
	return s.Call(func(ctx context.Context, n *protocol.Node) error {
		if agree {
			return n.Pause(ctx)
		}
		return n.KeepPlaying(ctx)
	})
}
