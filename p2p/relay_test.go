package p2p_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"corruption/p2p"
)

// TestRelay: two nodes that listen on nothing (as behind NATs nobody can dial through) and
// know only a relay find each other through it (peer exchange with the relay), connect
// through it, and gossip and make requests over the relayed connection: the relay's circuits
// are not limited, so streams of ours run on them.
func TestRelay(t *testing.T) {
	relay := newNode(t, p2p.Config{RelayService: true, Exchange: true})
	raddr := relay.Addrs()[0]
	behind := func() *p2p.Node {
		return newNode(t, p2p.Config{NoListen: true, Listen: []string{}, Relays: []string{raddr}, Exchange: true})
	}
	a, b := behind(), behind()
	waitFor(t, 20*time.Second, "a relayed address on both nodes", func() bool {
		return hasCircuit(a.Addrs()) && hasCircuit(b.Addrs())
	})
	for _, n := range []*p2p.Node{a, b} {
		for _, addr := range n.Addrs() {
			if !strings.Contains(addr, "/p2p-circuit/") {
				t.Fatalf("a node that listens on nothing announces %s", addr)
			}
		}
	}
	waitFor(t, 20*time.Second, "a and b connected through the relay", func() bool {
		return a.Relayed(b.ID()) == "relayed" && b.Relayed(a.ID()) == "relayed"
	})
	for _, n := range []*p2p.Node{a, b} {
		if err := n.Join("t", nil); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 10*time.Second, "a and b in each other's mesh", func() bool {
		return slices.Contains(a.TopicPeers("t"), b.ID()) && slices.Contains(b.TopicPeers("t"), a.ID())
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Publish(ctx, "t", []byte("hello through the relay")); err != nil {
		t.Fatal(err)
	}
	from, data, err := b.Next(ctx, "t")
	if err != nil || from != a.ID() || string(data) != "hello through the relay" {
		t.Fatalf("b got %q from %s: %v", data, from, err)
	}
	a.Handle("/test/echo/1", func(_ string, req []byte) ([]byte, error) { return append([]byte("echo "), req...), nil })
	ans, err := b.Request(ctx, a.ID(), "/test/echo/1", make([]byte, 256<<10))
	if err != nil || len(ans) != 5+256<<10 {
		t.Fatalf("a request of 256 KiB through the relay (over go-libp2p's default limit of 128 KiB): %d bytes, %v", len(ans), err)
	}
}

func hasCircuit(addrs []string) bool {
	return slices.ContainsFunc(addrs, func(a string) bool { return strings.Contains(a, "/p2p-circuit/") })
}
