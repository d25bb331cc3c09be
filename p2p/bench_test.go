package p2p_test

import (
	"context"
	"encoding/binary"
	"testing"
	"time"
)

// BenchmarkGossipRoundTrip measures the time from Publish on one node until
// the three other nodes of a 4-node ring (two of them one relay away) have
// the message from Next.
func BenchmarkGossipRoundTrip(b *testing.B) {
	nodes := ring(b, 4)
	joinAll(b, nodes, "bench", nil)
	ctx := context.Background()
	done := make(chan uint64, 3*64)
	for _, n := range nodes[1:] {
		go func() {
			for {
				_, data, err := n.Next(ctx, "bench")
				if err != nil {
					return
				}
				done <- binary.BigEndian.Uint64(data)
			}
		}()
	}
	msg := make([]byte, 256) // about the size of a signed log entry
	b.ResetTimer()
	for i := range uint64(b.N) {
		binary.BigEndian.PutUint64(msg, i)
		if err := nodes[0].Publish(ctx, "bench", msg); err != nil {
			b.Fatal(err)
		}
		for range 3 {
			select {
			case got := <-done:
				if got != i {
					b.Fatalf("got message %d, want %d", got, i)
				}
			case <-time.After(10 * time.Second):
				b.Fatalf("message %d not delivered", i)
			}
		}
	}
}

// BenchmarkRequest measures one request/response exchange of 256 bytes each
// way between two connected nodes.
func BenchmarkRequest(b *testing.B) {
	a, c := pair(b)
	a.Handle(echo, func(_ string, req []byte) ([]byte, error) { return req, nil })
	ctx := context.Background()
	req := make([]byte, 256)
	b.ResetTimer()
	for range b.N {
		if _, err := c.Request(ctx, a.ID(), echo, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRequestLarge fetches a 1 MiB response, about a whole game's log.
func BenchmarkRequestLarge(b *testing.B) {
	a, c := pair(b)
	resp := make([]byte, 1<<20)
	a.Handle(echo, func(string, []byte) ([]byte, error) { return resp, nil })
	ctx := context.Background()
	b.SetBytes(int64(len(resp)))
	b.ResetTimer()
	for range b.N {
		if _, err := c.Request(ctx, a.ID(), echo, nil); err != nil {
			b.Fatal(err)
		}
	}
}
