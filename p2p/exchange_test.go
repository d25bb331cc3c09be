package p2p_test

import (
	"fmt"
	"testing"
	"time"

	"corruption/p2p"
)

// TestPeerExchange: nodes given only the first node's address become fully connected through
// peer exchange, and keep talking when the first node goes away.
func TestPeerExchange(t *testing.T) {
	hub := newNode(t, p2p.Config{Exchange: true})
	const k = 4
	nodes := []*p2p.Node{hub}
	for i := 1; i < k; i++ {
		nodes = append(nodes, newNode(t, p2p.Config{Exchange: true, Peers: hub.Addrs()}))
	}
	for i, n := range nodes {
		var others []string
		for j, m := range nodes {
			if j != i {
				others = append(others, m.ID())
			}
		}
		waitFor(t, 10*time.Second, fmt.Sprintf("node %d to connect to all others", i), func() bool {
			return connectedTo(n, others...)
		})
	}
	if err := hub.Close(); err != nil {
		t.Fatal(err)
	}
	rest := nodes[1:]
	joinAll(t, rest, "after-hub", nil)
	ctx := ctxTimeout(t, 10*time.Second)
	if err := rest[0].Publish(ctx, "after-hub", []byte("still here")); err != nil {
		t.Fatal(err)
	}
	for i, n := range rest[1:] {
		from, data, err := n.Next(ctx, "after-hub")
		if err != nil || string(data) != "still here" || from != rest[0].ID() {
			t.Fatalf("node %d: got %q from %s, %v", i+2, data, from, err)
		}
	}
}

// TestPeerExchangeAsksAgain: a node asks a peer for its peers again later, so that it meets a
// node that reached the same peer after its first ask (here one that never asks anyone, as two
// nodes reaching the hub at the same moment are each missing from the other's first answer).
func TestPeerExchangeAsksAgain(t *testing.T) {
	hub := newNode(t, p2p.Config{Exchange: true})
	early := newNode(t, p2p.Config{Exchange: true, Peers: hub.Addrs()})
	waitFor(t, 10*time.Second, "the early node to reach the hub", func() bool {
		return connectedTo(early, hub.ID()) && connectedTo(hub, early.ID())
	})
	late := newNode(t, p2p.Config{Peers: hub.Addrs()})
	waitFor(t, 20*time.Second, "the early node to meet the late one through the hub", func() bool {
		return connectedTo(early, late.ID())
	})
}
