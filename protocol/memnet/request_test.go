package memnet_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corruption/protocol/memnet"
)

func TestRequestRoundTrip(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b := net.Node("a"), net.Node("b")
	errNope := errors.New("nope")
	var buf []byte // the handler reuses it; Request must copy the answer out
	b.Serve(func(from string, req []byte) ([]byte, error) {
		if string(req) == "fail" {
			return nil, errNope
		}
		buf = append(buf[:0], from+" asked "+string(req)...)
		return buf, nil
	})
	resp, err := a.Request(context.Background(), "b", []byte("ping"))
	if err != nil || string(resp) != "a asked ping" {
		t.Fatalf("Request = %q, %v; want \"a asked ping\"", resp, err)
	}
	copy(buf, "XXXX")
	if string(resp) != "a asked ping" {
		t.Errorf("the answer changed to %q with the handler's buffer", resp)
	}

	_, err = a.Request(context.Background(), "b", []byte("fail"))
	if !errors.Is(err, errNope) || !strings.Contains(err.Error(), "b") {
		t.Errorf("Request with a failing handler: err = %v, want errNope naming b", err)
	}

	b.Serve(nil)
	_, err = a.Request(context.Background(), "b", nil)
	if err == nil || !strings.Contains(err.Error(), "peer b does not serve requests") {
		t.Errorf("Request to a node without handler: err = %v", err)
	}
	_, err = a.Request(context.Background(), "zed", nil)
	if err == nil || !strings.Contains(err.Error(), "zed") {
		t.Errorf("Request to an unknown node: err = %v, want an error naming zed", err)
	}
	if st := net.Stats(); st.Requests != 4 || st.RequestFailures != 3 {
		t.Errorf("stats %+v, want 4 requests, 3 failures", st)
	}
}

func TestRequestDrop(t *testing.T) {
	net := memnet.New(1, memnet.Faults{RequestDrop: 1})
	defer net.Close()
	a, b := net.Node("a"), net.Node("b")
	var called atomic.Bool
	b.Serve(func(string, []byte) ([]byte, error) { called.Store(true); return nil, nil })
	if _, err := a.Request(context.Background(), "b", nil); err == nil || !strings.Contains(err.Error(), "b") {
		t.Errorf("Request with RequestDrop=1: err = %v, want an error naming b", err)
	}
	if called.Load() {
		t.Error("a dropped request reached the handler")
	}
}

// blockingHandler serves requests by waiting until release is closed.
func blockingHandler(started chan<- struct{}, release <-chan struct{}) func(string, []byte) ([]byte, error) {
	return func(string, []byte) ([]byte, error) {
		started <- struct{}{}
		<-release
		return []byte("late"), nil
	}
}

func TestRequestHonoursContext(t *testing.T) {
	checkGoroutines(t)
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b := net.Node("a"), net.Node("b")
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	b.Serve(blockingHandler(started, release))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := awaitRequest(t, a, ctx, "b"); err != context.DeadlineExceeded {
		t.Errorf("Request past its deadline: err = %v, want context.DeadlineExceeded", err)
	}
	<-started
}

// awaitRequest runs e.Request(ctx, peer, nil) and returns its error, failing the test if it
// does not return within waitTime.
func awaitRequest(t *testing.T, e *memnet.Endpoint, ctx context.Context, peer string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := e.Request(ctx, peer, nil)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(waitTime):
		t.Fatalf("%s: request to %s did not return", e.ID(), peer)
		return nil
	}
}

func TestRequestToCrashingPeer(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b := net.Node("a"), net.Node("b")
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	b.Serve(blockingHandler(started, release))
	go func() {
		<-started
		net.Remove("b")
	}()
	if err := awaitRequest(t, a, context.Background(), "b"); err == nil || !strings.Contains(err.Error(), "b") {
		t.Errorf("Request to a peer that crashed while answering: err = %v, want an error naming b", err)
	}
}

// TestConcurrentChaos runs publishers, readers, requests and partition changes at once (for
// -race) and checks that, with no Drop, every broadcast still arrives. The partitions it sets
// overlap so that every node still reaches every other.
func TestConcurrentChaos(t *testing.T) {
	checkGoroutines(t)
	net := memnet.New(42, memnet.Faults{
		Duplicate: 0.1, Reorder: 0.2, MaxDelay: 2 * time.Millisecond, RequestDrop: 0.1,
	})
	defer net.Close()
	ids := []string{"a", "b", "c", "d"}
	const perNode = 50
	for _, id := range ids { // all up before anyone publishes
		net.Node(id).Serve(func(from string, req []byte) ([]byte, error) { return req, nil })
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		e := net.Node(id)
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), waitTime)
			defer cancel()
			for i := range perNode {
				if err := e.Publish(ctx, fmt.Appendf(nil, "m%03d", i)); err != nil {
					t.Errorf("%s: publish: %v", id, err)
					return
				}
				for _, p := range e.Peers() {
					resp, err := e.Request(ctx, p, []byte(id))
					if err == nil && string(resp) != id {
						t.Errorf("%s: request to %s answered %q", id, p, resp)
					}
				}
			}
		})
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), waitTime)
			defer cancel()
			seen := make(map[string]bool)
			for len(seen) < (len(ids)-1)*perNode {
				from, data, err := e.Next(ctx)
				if err != nil {
					t.Errorf("%s: next after %d distinct messages: %v; pending %d, stats %+v", id, len(seen), err, e.Pending(), net.Stats())
					return
				}
				seen[from+":"+string(data)] = true
			}
		})
	}
	wg.Go(func() {
		for range 50 {
			net.Partition([]string{"a", "b", "c", "d"}, []string{"a", "b"})
			net.Heal()
			net.Stats()
		}
	})
	wg.Wait()
	if st := net.Stats(); st.Requests != len(ids)*(len(ids)-1)*perNode {
		t.Errorf("stats %+v, want %d requests", st, len(ids)*(len(ids)-1)*perNode)
	}
}
