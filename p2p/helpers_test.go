package p2p_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	"corruption/p2p"
)

// Tests listen on the loopback interface only and dial only what they listen on.
const loopback = "/ip4/127.0.0.1/tcp/0"

func newKey(tb testing.TB) ed25519.PrivateKey {
	tb.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	return priv
}

// newNode starts a node on loopback (unless cfg says where) with a fresh key
// (unless cfg has one) and closes it when the test ends.
func newNode(tb testing.TB, cfg p2p.Config) *p2p.Node {
	tb.Helper()
	if cfg.Identity == nil {
		cfg.Identity = newKey(tb)
	}
	if cfg.Listen == nil {
		cfg.Listen = []string{loopback}
	}
	if _, bench := tb.(*testing.B); cfg.Logf == nil && !bench {
		cfg.Logf = tb.Logf
	}
	n, err := p2p.New(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(func() {
		if err := n.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return n
}

// waitFor polls cond until it holds or the timeout passes.
func waitFor(tb testing.TB, timeout time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func connectedTo(n *p2p.Node, ids ...string) bool {
	peers := n.Peers()
	for _, id := range ids {
		if !slices.Contains(peers, id) {
			return false
		}
	}
	return true
}

// ring starts k nodes where node i dials node i-1 and the last also dials the
// first, so that every message has two paths to most nodes.
func ring(tb testing.TB, k int) []*p2p.Node {
	tb.Helper()
	nodes := make([]*p2p.Node, k)
	for i := range nodes {
		var cfg p2p.Config
		if i > 0 {
			cfg.Peers = append(cfg.Peers, nodes[i-1].Addrs()...)
		}
		if i == k-1 && k > 2 {
			cfg.Peers = append(cfg.Peers, nodes[0].Addrs()...)
		}
		nodes[i] = newNode(tb, cfg)
	}
	for i := 1; i < k; i++ {
		waitFor(tb, 10*time.Second, fmt.Sprintf("node %d to connect to node %d", i, i-1), func() bool {
			return connectedTo(nodes[i], nodes[i-1].ID())
		})
	}
	if k > 2 {
		waitFor(tb, 10*time.Second, "the ring to close", func() bool {
			return connectedTo(nodes[k-1], nodes[0].ID())
		})
	}
	return nodes
}

// joinAll joins every node to topic and waits until each sees its ring
// neighbours subscribed, which is when a published message can travel.
func joinAll(tb testing.TB, nodes []*p2p.Node, topic string, validate func(int) func(string, []byte) p2p.Verdict) {
	tb.Helper()
	for i, n := range nodes {
		var v func(string, []byte) p2p.Verdict
		if validate != nil {
			v = validate(i)
		}
		if err := n.Join(topic, v); err != nil {
			tb.Fatalf("node %d: Join: %v", i, err)
		}
	}
	for i, n := range nodes {
		waitFor(tb, 10*time.Second, fmt.Sprintf("node %d to see its peers on %q", i, topic), func() bool {
			peers, subscribed := n.Peers(), n.TopicPeers(topic)
			for _, p := range peers {
				if !slices.Contains(subscribed, p) {
					return false
				}
			}
			return len(peers) > 0
		})
	}
}

func ctxTimeout(tb testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	tb.Cleanup(cancel)
	return ctx
}
