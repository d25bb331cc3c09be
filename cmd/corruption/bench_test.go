package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/p2p"
	"corruption/protocol"
)

// playLibp2p plays one standard table of n heuristic bot nodes in this process, over real
// libp2p on loopback (the first node's address given to the others as --peer would).
func playLibp2p(b *testing.B, n int, table string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var first string
	type result struct {
		out *protocol.Outcome
		err error
	}
	results := make(chan result, n)
	nodes := make([]*p2p.Node, n)
	defer func() {
		for _, nd := range nodes {
			if nd != nil {
				nd.Close()
			}
		}
	}()
	for i := 0; i < n; i++ {
		store, err := protocol.OpenStore(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		key, _ := store.Identity()
		var peers []string
		if i > 0 {
			peers = []string{first}
		}
		nd, err := p2p.New(ctx, p2p.Config{Identity: key, Listen: []string{"/ip4/127.0.0.1/tcp/0"}, Peers: peers, Exchange: true})
		if err != nil {
			b.Fatal(err)
		}
		nodes[i] = nd
		if i == 0 {
			first = nd.Addrs()[0]
		}
		tn, err := joinTable(nd, table)
		if err != nil {
			b.Fatal(err)
		}
		bt, _ := bot.New("heuristic", uint64(i))
		node, err := protocol.NewNode(protocol.NodeConfig{Table: table, Players: n, Variant: corruption.Standard,
			Name: fmt.Sprint(i), Timeout: 30 * time.Second, Identity: key, Store: store,
			Player: protocol.BotPlayer(bt), Net: tn, Linger: 2 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		go func() {
			out, err := node.Run(ctx)
			results <- result{out, err}
		}()
	}
	var digest string
	for i := 0; i < n; i++ {
		r := <-results
		if r.err != nil || !r.out.Finished {
			b.Fatalf("node: %v %+v", r.err, r.out)
		}
		if digest == "" {
			digest = r.out.Digest
		} else if r.out.Digest != digest {
			b.Fatal("nodes disagree on the final digest")
		}
	}
}

func benchLibp2p(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		var nonce [4]byte
		rand.Read(nonce[:])
		playLibp2p(b, n, fmt.Sprintf("bench-%x", nonce))
	}
}

// BenchmarkGame5Libp2p is one whole 5-player standard table among bot nodes in one process,
// over real libp2p on loopback, with all the cryptography: wall time per game.
// Run: go test -run='^$' -bench=Libp2p -benchtime=3x ./cmd/corruption/
func BenchmarkGame5Libp2p(b *testing.B) { benchLibp2p(b, 5) }

// BenchmarkGame7Libp2p is the same with seven players.
func BenchmarkGame7Libp2p(b *testing.B) { benchLibp2p(b, 7) }

var _ = ed25519.PublicKeySize
