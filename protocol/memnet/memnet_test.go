package memnet_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"corruption/protocol/memnet"
)

func TestFanOutExactlyOnce(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	ids := []string{"a", "b", "c", "d"}
	nodes := make(map[string]*memnet.Endpoint)
	for _, id := range ids {
		nodes[id] = net.Node(id)
	}
	for _, id := range ids {
		publish(t, nodes[id], "hello from "+id)
	}
	for _, id := range ids {
		got := recvN(t, nodes[id], len(ids)-1)
		want := make([]string, 0, len(ids)-1)
		for _, other := range ids {
			if other != id {
				want = append(want, other+":hello from "+other)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s received %q, want %q", id, got, want)
		}
		expectEmpty(t, nodes[id])
	}
	st := net.Stats()
	if st.Published != 4 || st.Delivered != 12 || st.Dropped != 0 {
		t.Errorf("stats %+v, want 4 published, 12 delivered, 0 dropped", st)
	}
	if got := nodes["b"].Peers(); !slices.Equal(got, []string{"a", "c", "d"}) {
		t.Errorf("b.Peers() = %q, want [a c d]", got)
	}
}

func TestPerSenderOrder(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b, c := net.Node("a"), net.Node("b"), net.Node("c")
	var want []string
	for i := range 100 {
		for _, e := range []*memnet.Endpoint{a, b} {
			m := fmt.Sprintf("m%03d", i)
			publish(t, e, m)
			want = append(want, e.ID()+":"+m)
		}
	}
	if got := recvN(t, c, len(want)); !slices.Equal(got, want) {
		t.Errorf("c received in order %q, want %q", got, want)
	}
}

func TestBytesAreCopied(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b, c := net.Node("a"), net.Node("b"), net.Node("c")
	buf := []byte("first")
	if err := a.Publish(context.Background(), buf); err != nil {
		t.Fatal(err)
	}
	copy(buf, "XXXXX")
	_, data, err := b.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "first" {
		t.Errorf("b got %q after the sender reused its buffer, want \"first\"", data)
	}
	copy(data, "YYYYY")
	if _, msg := recv(t, c); msg != "first" {
		t.Errorf("c got %q after b modified its copy, want \"first\"", msg)
	}
}

func TestDropAll(t *testing.T) {
	net := memnet.New(1, memnet.Faults{Drop: 1})
	defer net.Close()
	a, b, c := net.Node("a"), net.Node("b"), net.Node("c")
	for _, m := range msgs("a", 50) {
		publish(t, a, m)
	}
	expectEmpty(t, b)
	expectEmpty(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if from, data, err := b.Next(ctx); err != context.DeadlineExceeded {
		t.Errorf("b.Next = %q, %q, %v; want context.DeadlineExceeded", from, data, err)
	}
	if st := net.Stats(); st.Dropped != 100 || st.Delivered != 0 || st.Published != 50 {
		t.Errorf("stats %+v, want 50 published, 100 dropped, 0 delivered", st)
	}
}

func TestDuplicateAll(t *testing.T) {
	net := memnet.New(1, memnet.Faults{Duplicate: 1})
	defer net.Close()
	a, b := net.Node("a"), net.Node("b")
	sent := msgs("a", 20)
	for _, m := range sent {
		publish(t, a, strings.TrimPrefix(m, "a:"))
	}
	got := recvN(t, b, 2*len(sent))
	want := make(map[string]int)
	for _, m := range sent {
		want[m] = 2
	}
	if err := sameCounts(count(got), want); err != nil {
		t.Error(err)
	}
	expectEmpty(t, b)
	if st := net.Stats(); st.Duplicated != 20 || st.Delivered != 40 {
		t.Errorf("stats %+v, want 20 duplicated, 40 delivered", st)
	}
}

// reorderRun publishes 50 messages from a with the given seed and returns b's delivery order.
// The long window keeps a slow publisher from releasing held copies early; the trailing ones
// are released when b's Next finds nothing else to read.
func reorderRun(t *testing.T, seed uint64) []string {
	t.Helper()
	net := memnet.New(seed, memnet.Faults{Reorder: 0.3, ReorderWindow: time.Minute})
	defer net.Close()
	a, b := net.Node("a"), net.Node("b")
	for _, m := range msgs("a", 50) {
		publish(t, a, strings.TrimPrefix(m, "a:"))
	}
	got := recvN(t, b, 50)
	expectEmpty(t, b)
	if st := net.Stats(); st.Reordered == 0 || st.Delivered != 50 {
		t.Errorf("seed %d: stats %+v, want some reordered and 50 delivered", seed, st)
	}
	return got
}

func TestReorderLosesNothing(t *testing.T) {
	sent := msgs("a", 50)
	reordered := 0
	for seed := range uint64(10) {
		got := reorderRun(t, seed)
		if err := sameCounts(count(got), count(sent)); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
		if !slices.Equal(got, sent) {
			reordered++
		}
		if again := reorderRun(t, seed); !slices.Equal(got, again) {
			t.Errorf("seed %d: two runs delivered %q and %q", seed, got, again)
		}
	}
	if reordered == 0 {
		t.Error("no seed changed the delivery order")
	}
}

func TestMaxDelayDeliversEverything(t *testing.T) {
	checkGoroutines(t)
	net := memnet.New(7, memnet.Faults{MaxDelay: 20 * time.Millisecond, Reorder: 0.2})
	defer net.Close()
	ids := []string{"a", "b", "c"}
	nodes := make([]*memnet.Endpoint, len(ids))
	for i, id := range ids {
		nodes[i] = net.Node(id)
	}
	for i := range 30 {
		for _, e := range nodes {
			publish(t, e, fmt.Sprintf("m%03d", i))
		}
	}
	for _, e := range nodes {
		got := recvN(t, e, 60)
		want := make(map[string]int)
		for _, other := range ids {
			if other != e.ID() {
				for _, m := range msgs(other, 30) {
					want[m] = 1
				}
			}
		}
		if err := sameCounts(count(got), want); err != nil {
			t.Errorf("%s: %v", e.ID(), err)
		}
	}
	if st := net.Stats(); st.Delivered != 180 {
		t.Errorf("stats %+v, want 180 delivered", st)
	}
}

func TestPartitionAndHeal(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b, c, d, e := net.Node("a"), net.Node("b"), net.Node("c"), net.Node("d"), net.Node("e")
	net.Partition([]string{"a", "b"}, []string{"c", "d"})

	publish(t, a, "split")
	if from, msg := recv(t, b); from != "a" || msg != "split" {
		t.Errorf("b got %s:%s, want a:split", from, msg)
	}
	for _, n := range []*memnet.Endpoint{c, d, e} {
		expectEmpty(t, n)
	}
	publish(t, e, "alone")
	for _, n := range []*memnet.Endpoint{a, b, c, d} {
		expectEmpty(t, n)
	}
	for _, tc := range []struct {
		n    *memnet.Endpoint
		want []string
	}{{a, []string{"b"}}, {c, []string{"d"}}, {e, nil}} {
		if got := tc.n.Peers(); !slices.Equal(got, tc.want) {
			t.Errorf("%s.Peers() = %q during partition, want %q", tc.n.ID(), got, tc.want)
		}
	}
	c.Serve(func(string, []byte) ([]byte, error) { return []byte("ok"), nil })
	if _, err := a.Request(context.Background(), "c", nil); err == nil || !strings.Contains(err.Error(), "c") {
		t.Errorf("a.Request(c) across the partition: err = %v, want an error naming c", err)
	}

	net.Heal()
	publish(t, a, "healed")
	for _, n := range []*memnet.Endpoint{b, c, d, e} {
		if from, msg := recv(t, n); from != "a" || msg != "healed" {
			t.Errorf("%s got %s:%s after heal, want a:healed", n.ID(), from, msg)
		}
		expectEmpty(t, n)
	}
	if got := e.Peers(); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("e.Peers() = %q after heal, want [a b c d]", got)
	}
	if resp, err := a.Request(context.Background(), "c", nil); err != nil || string(resp) != "ok" {
		t.Errorf("a.Request(c) after heal = %q, %v; want ok", resp, err)
	}
}

func TestOverlappingGroups(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b, c := net.Node("a"), net.Node("b"), net.Node("c")
	net.Partition([]string{"a", "b"}, []string{"b", "c"})
	publish(t, b, "bridge")
	recv(t, a)
	recv(t, c)
	publish(t, a, "side")
	recv(t, b)
	expectEmpty(t, c)
}

func TestRemove(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b, c := net.Node("a"), net.Node("b"), net.Node("c")
	b.Serve(func(string, []byte) ([]byte, error) { return []byte("ok"), nil })
	publish(t, a, "before")
	net.Remove("b")

	if from, data, err := b.Next(context.Background()); !isClosed(err) {
		t.Errorf("b.Next after Remove = %q, %q, %v; want ErrClosed", from, data, err)
	}
	if err := b.Publish(context.Background(), []byte("x")); !isClosed(err) {
		t.Errorf("b.Publish after Remove: err = %v, want ErrClosed", err)
	}
	if _, err := a.Request(context.Background(), "b", nil); err == nil || !strings.Contains(err.Error(), "b") {
		t.Errorf("a.Request(b) after Remove: err = %v, want an error naming b", err)
	}
	if got := a.Peers(); !slices.Equal(got, []string{"c"}) {
		t.Errorf("a.Peers() = %q after Remove(b), want [c]", got)
	}
	if p := b.Pending(); p != 0 {
		t.Errorf("crashed b still holds %d messages", p)
	}
	if got := b.Peers(); got != nil {
		t.Errorf("b.Peers() = %q after Remove(b), want none", got)
	}
	publish(t, a, "after")
	recvN(t, c, 2)
	if st := net.Stats(); st.Delivered != 3 {
		t.Errorf("stats %+v, want 3 delivered", st)
	}
}

func TestRecreatedNodeGetsNewMessagesOnly(t *testing.T) {
	net := memnet.New(3, memnet.Faults{MaxDelay: 50 * time.Millisecond})
	defer net.Close()
	a := net.Node("a")
	old := net.Node("b")
	for _, m := range msgs("a", 20) {
		publish(t, a, strings.TrimPrefix(m, "a:"))
	}
	net.Remove("b")
	publish(t, a, "while down")
	b := net.Node("b")
	if b == old {
		t.Fatal("Node after Remove returned the crashed endpoint")
	}
	// Every copy sent to the old endpoint either arrived before Remove (and was discarded with
	// its inbox) or arrives at the closed endpoint and is counted as dropped. Wait for the rest.
	waitFor(t, "in-flight copies to the crashed b", func() bool {
		return net.Stats().InFlight == 0
	})
	// Publishing 20 messages takes far less than the longest of 20 delays up to 50ms.
	if st := net.Stats(); st.Delivered+st.Dropped != 20 || st.Dropped == 0 {
		t.Errorf("stats %+v, want 20 copies delivered or dropped, some dropped", st)
	}
	net.SetFaults(memnet.Faults{})
	publish(t, a, "new")
	if from, msg := recv(t, b); from != "a" || msg != "new" {
		t.Errorf("re-created b got %s:%s first, want a:new", from, msg)
	}
	expectEmpty(t, b)
	if got := net.Node("b"); got != b {
		t.Error("Node on a live node returned a different endpoint")
	}
}

func TestCloseStopsEverything(t *testing.T) {
	checkGoroutines(t)
	net := memnet.New(1, memnet.Faults{MaxDelay: time.Hour, Reorder: 0.5})
	a, b := net.Node("a"), net.Node("b")
	for _, m := range msgs("a", 100) {
		publish(t, a, m)
	}
	blocked := make(chan error)
	go func() {
		_, _, err := b.Next(context.Background())
		blocked <- err
	}()
	if st := net.Stats(); st.InFlight == 0 {
		t.Fatalf("stats %+v, want copies in flight before Close", st)
	}
	net.Close()
	if st := net.Stats(); st.InFlight != 0 {
		t.Errorf("stats %+v after Close, want nothing in flight", st)
	}
	if err := <-blocked; !isClosed(err) {
		t.Errorf("Next blocked across Close returned %v, want ErrClosed", err)
	}
	if err := a.Publish(context.Background(), []byte("x")); !isClosed(err) {
		t.Errorf("Publish after Close: err = %v, want ErrClosed", err)
	}
	if _, _, err := net.Node("c").Next(context.Background()); !isClosed(err) {
		t.Errorf("Next on a node created after Close: err = %v, want ErrClosed", err)
	}
	net.Close() // idempotent
}

func TestNextHonoursContext(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	a, b := net.Node("a"), net.Node("b")
	deadline, cancelDeadline := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancelDeadline()
	cancelled, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{deadline, context.DeadlineExceeded}, {cancelled, context.Canceled}} {
		done := make(chan error, 1)
		go func() {
			_, _, err := b.Next(tc.ctx)
			done <- err
		}()
		cancel()
		select {
		case err := <-done:
			if err != tc.want {
				t.Errorf("Next: err = %v, want %v", err, tc.want)
			}
		case <-time.After(waitTime):
			t.Fatalf("Next did not return once its context was done (want %v)", tc.want)
		}
	}
	if err := a.Publish(cancelled, []byte("x")); err != context.Canceled {
		t.Errorf("Publish with a cancelled context: err = %v, want context.Canceled", err)
	}
	expectEmpty(t, b)
}
