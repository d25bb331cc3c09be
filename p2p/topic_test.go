package p2p_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corruption/p2p"
)

// readUntil reads messages from topic on n until done says it has all it
// needs, and returns them as "author:payload" strings.
func readUntil(t *testing.T, n *p2p.Node, topic string, done func(got []string) bool) []string {
	t.Helper()
	ctx := ctxTimeout(t, 15*time.Second)
	var got []string
	for !done(got) {
		from, data, err := n.Next(ctx, topic)
		if err != nil {
			t.Fatalf("node %s: Next after %q: %v", n.ID(), got, err)
		}
		got = append(got, from+":"+string(data))
	}
	return got
}

func TestGossipReachesEveryOtherNodeOnce(t *testing.T) {
	const k = 4
	nodes := ring(t, k)
	joinAll(t, nodes, "table", nil)

	// Phase 1: every node publishes one message; each must receive the
	// other three, each once, with the right author, and never its own.
	for i, n := range nodes {
		if err := n.Publish(ctxTimeout(t, 5*time.Second), "table", fmt.Appendf(nil, "msg-%d", i)); err != nil {
			t.Fatalf("node %d: Publish: %v", i, err)
		}
	}
	results := make([][]string, k)
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() {
			results[i] = readUntil(t, n, "table", func(got []string) bool { return len(got) == k-1 })
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i := range nodes {
		want := map[string]bool{}
		for j, m := range nodes {
			if j != i {
				want[fmt.Sprintf("%s:msg-%d", m.ID(), j)] = true
			}
		}
		for _, g := range results[i] {
			if !want[g] {
				t.Errorf("node %d got unexpected or repeated message %q", i, g)
			}
			delete(want, g)
		}
	}

	// Phase 2: every node publishes an end marker. A duplicate of a phase 1
	// message would show up here, before all the markers are in.
	for i, n := range nodes {
		if err := n.Publish(ctxTimeout(t, 5*time.Second), "table", fmt.Appendf(nil, "end-%d", i)); err != nil {
			t.Fatalf("node %d: Publish: %v", i, err)
		}
	}
	for i, n := range nodes {
		wg.Go(func() {
			got := readUntil(t, n, "table", func(got []string) bool { return len(got) == k-1 })
			for _, g := range got {
				if !strings.Contains(g, ":end-") {
					t.Errorf("node %d got %q after phase 1 was complete", i, g)
				}
			}
		})
	}
	wg.Wait()
}

func TestValidatorVerdicts(t *testing.T) {
	nodes := ring(t, 3)
	var rejected, ignored atomic.Int32
	var badAuthor atomic.Value
	publisher := nodes[0]
	// The publisher accepts anything, so that what the others refuse does
	// go out on the wire; the others judge by prefix.
	joinAll(t, nodes, "lobby", func(i int) func(string, []byte) p2p.Verdict {
		if i == 0 {
			return nil
		}
		return func(from string, data []byte) p2p.Verdict {
			if from != publisher.ID() {
				badAuthor.Store(from)
			}
			switch {
			case strings.HasPrefix(string(data), "ok"):
				return p2p.Accept
			case strings.HasPrefix(string(data), "bad"):
				rejected.Add(1)
				return p2p.Reject
			case strings.HasPrefix(string(data), "early"):
				ignored.Add(1)
				return p2p.Ignore
			}
			return 42 // unknown verdicts count as Ignore
		}
	})

	for _, m := range []string{"bad-1", "early-1", "odd-1", "ok-1", "bad-2", "early-2", "ok-end"} {
		if err := publisher.Publish(ctxTimeout(t, 5*time.Second), "lobby", []byte(m)); err != nil {
			t.Fatalf("Publish %q: %v", m, err)
		}
	}
	for i, n := range nodes[1:] {
		got := readUntil(t, n, "lobby", func(got []string) bool {
			return len(got) > 0 && strings.HasSuffix(got[len(got)-1], ":ok-end")
		})
		for _, g := range got {
			if !strings.Contains(g, ":ok-") {
				t.Errorf("node %d delivered %q, which its validator refused", i+1, g)
			}
		}
	}
	// Each of the two judging nodes saw both refused kinds.
	waitFor(t, 10*time.Second, "the validators to see the refused messages", func() bool {
		return rejected.Load() >= 4 && ignored.Load() >= 4
	})
	if a := badAuthor.Load(); a != nil {
		t.Errorf("validator was told the author is %v, want %s", a, publisher.ID())
	}

	// A node's own validator also judges what it publishes.
	err := nodes[1].Publish(ctxTimeout(t, 5*time.Second), "lobby", []byte("bad-own"))
	if err == nil {
		t.Error("Publish of a message the node's own validator rejects succeeded")
	}
}

func TestPublishLimitsAndTopicErrors(t *testing.T) {
	n := newNode(t, p2p.Config{})
	ctx := ctxTimeout(t, 5*time.Second)
	if err := n.Publish(ctx, "nowhere", []byte("x")); err == nil || !strings.Contains(err.Error(), `"nowhere" not joined`) {
		t.Errorf("Publish on an unjoined topic: got %v", err)
	}
	if err := n.Join("t", nil); err != nil {
		t.Fatal(err)
	}
	if err := n.Join("t", nil); err == nil {
		t.Error("joining a topic twice succeeded")
	}
	if err := n.Publish(ctx, "t", make([]byte, p2p.MaxMessageSize)); err != nil {
		t.Errorf("Publish of exactly MaxMessageSize: %v", err)
	}
	err := n.Publish(ctx, "t", make([]byte, p2p.MaxMessageSize+1))
	if err == nil || !strings.Contains(err.Error(), "exceeds the 1048576 byte limit") {
		t.Errorf("Publish of MaxMessageSize+1: got %v", err)
	}

	// Next returns ctx's error, and ErrClosed once the topic is left.
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, _, err := n.Next(short, "t"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next with an expiring ctx: got %v", err)
	}
	errc := make(chan error, 1)
	go func() {
		_, _, err := n.Next(context.Background(), "t")
		errc <- err
	}()
	if err := n.Leave("t"); err != nil {
		t.Fatalf("Leave: %v", err)
	}
	// Next ends with ErrClosed if it was waiting, or finds the topic not
	// joined if it started late.
	if err := <-errc; !errors.Is(err, p2p.ErrClosed) && (err == nil || !strings.Contains(err.Error(), "not joined")) {
		t.Errorf("Next on a left topic: got %v, want ErrClosed", err)
	}
	if err := n.Leave("t"); err == nil {
		t.Error("leaving a topic twice succeeded")
	}
	if err := n.Join("t", nil); err != nil {
		t.Errorf("rejoining a left topic: %v", err)
	}
}

func TestNextEndsWhenNodeCloses(t *testing.T) {
	n := newNode(t, p2p.Config{})
	if err := n.Join("t", nil); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, _, err := n.Next(context.Background(), "t")
		errc <- err
	}()
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, p2p.ErrClosed) {
		t.Errorf("Next on a closed node: got %v, want ErrClosed", err)
	}
	if err := n.Join("u", nil); !errors.Is(err, p2p.ErrClosed) {
		t.Errorf("Join on a closed node: got %v, want ErrClosed", err)
	}
}
