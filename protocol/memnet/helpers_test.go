package memnet_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"corruption/protocol/memnet"
)

// network repeats protocol.Network so that this test does not depend on package protocol
// compiling; keep the two in step.
type network interface {
	Publish(ctx context.Context, data []byte) error
	Next(ctx context.Context) (from string, data []byte, err error)
	Request(ctx context.Context, peer string, req []byte) ([]byte, error)
	Serve(h func(from string, req []byte) ([]byte, error))
	Peers() []string
}

var _ network = (*memnet.Endpoint)(nil)

// waitTime bounds every wait for something that must happen.
const waitTime = 5 * time.Second

func publish(t *testing.T, e *memnet.Endpoint, msg string) {
	t.Helper()
	if err := e.Publish(context.Background(), []byte(msg)); err != nil {
		t.Fatalf("%s: publish %q: %v", e.ID(), msg, err)
	}
}

// recv returns the next message for e, failing the test if none comes within waitTime.
func recv(t *testing.T, e *memnet.Endpoint) (from, msg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTime)
	defer cancel()
	from, data, err := e.Next(ctx)
	if err != nil {
		t.Fatalf("%s: next: %v", e.ID(), err)
	}
	return from, string(data)
}

// recvN returns the next n messages for e as "from:msg" strings, in delivery order.
func recvN(t *testing.T, e *memnet.Endpoint, n int) []string {
	t.Helper()
	got := make([]string, 0, n)
	for range n {
		from, msg := recv(t, e)
		got = append(got, from+":"+msg)
	}
	return got
}

// expectEmpty fails if e has a message waiting. Without delays delivery happens inside
// Publish, so this is exact.
func expectEmpty(t *testing.T, e *memnet.Endpoint) {
	t.Helper()
	if p := e.Pending(); p != 0 {
		from, msg := recv(t, e)
		t.Fatalf("%s: %d unexpected messages waiting, first %s:%s", e.ID(), p, from, msg)
	}
}

// waitFor polls cond until it holds, failing the test after waitTime.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTime)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// checkGoroutines fails the test if, after it ends, more goroutines run than when it began.
func checkGoroutines(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		var now int
		waitFor(t, fmt.Sprintf("goroutines to settle to %d", before), func() bool {
			now = runtime.NumGoroutine()
			return now <= before
		})
	})
}

func msgs(from string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s:m%03d", from, i)
	}
	return out
}

func count(xs []string) map[string]int {
	m := make(map[string]int)
	for _, x := range xs {
		m[x]++
	}
	return m
}

func sameCounts(a, b map[string]int) error {
	for k, v := range a {
		if b[k] != v {
			return fmt.Errorf("%s: got %d, want %d", k, v, b[k])
		}
	}
	for k, v := range b {
		if a[k] != v {
			return fmt.Errorf("%s: got %d, want %d", k, a[k], v)
		}
	}
	return nil
}

func isClosed(err error) bool { return errors.Is(err, memnet.ErrClosed) }
