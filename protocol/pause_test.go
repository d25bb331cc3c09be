package protocol_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// spyEntries collects the entries gossiped on net, by seq, as a stranger on the table's channel
// hears them.
type spyEntries struct {
	mu      sync.Mutex
	by      map[uint64]*protocol.Entry
	changed chan struct{} // closed, and a new one made, as each entry is heard
}

func spyOn(ctx context.Context, ep *memnet.Endpoint) *spyEntries {
	s := &spyEntries{by: map[uint64]*protocol.Entry{}, changed: make(chan struct{})}
	go func() {
		for {
			_, data, err := ep.Next(ctx)
			if err != nil {
				return
			}
			if len(data) > 1 && data[0] == 'e' {
				if e, err := protocol.ParseEntry(data[1:]); err == nil {
					s.mu.Lock()
					s.by[e.Seq] = e
					close(s.changed)
					s.changed = make(chan struct{})
					s.mu.Unlock()
				}
			}
		}
	}()
	return s
}

// get waits until the spy has heard entry seq, and returns it (nil if ctx ends first). The
// spy reads on a goroutine of its own, which on a busy machine may not yet have taken from
// its inbox what every node already holds (the stress run found the test reading too soon).
func (s *spyEntries) get(ctx context.Context, seq uint64) *protocol.Entry {
	for {
		s.mu.Lock()
		e, changed := s.by[seq], s.changed
		s.mu.Unlock()
		if e != nil {
			return e
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil
		}
	}
}

// agreedBy is a condition: every node of nodes sees exactly the seats of want agree to pause
// the log as it stands, and none pauses.
func agreedBy(nodes []int, want []int) func(map[int]protocol.Status) bool {
	return func(st map[int]protocol.Status) bool {
		for _, i := range nodes {
			s, ok := st[i]
			if !ok || s.Pause.Paused || !slices.Equal(s.Pause.Agreed, want) {
				return false
			}
		}
		return true
	}
}

// TestPauseEverySeatThenResume: at a table stalled at entry L (a player who does not decide),
// two of three seats ask to pause, a stranger sends an old vote, a forged one and a forged
// certificate for the third seat: nobody pauses, however long the clock runs. The third seat
// agrees: every node stops paused at L, with L entries in its log and the pause on record. Every
// node is started again from its data directory with players that decide (one of them with the
// record of a certificate for L−1, as a node keeps that paused past the certificate's entry):
// the table resumes, every node says it resumed the pause at L, and the game ends with
// identical logs that audit.
func TestPauseEverySeatThenResume(t *testing.T) {
	clock := protocol.NewTickClockForTest()
	net := memnet.New(11, memnet.Faults{})
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	spy := net.Node("x")
	heard := spyOn(ctx, spy)

	asked := make(chan struct{}, 1)
	spec := toySpec(3)
	spec.clock = clock
	spec.timeout = time.Minute
	spec.player = func(i int) engine.Player {
		if i == 1 {
			return silentPlayer{asked}
		}
		return toyBot{}
	}
	watch := newWatcher()
	spec.onChange = watch.onChange
	var mu sync.Mutex
	nodes := make([]*protocol.Node, 3)
	keys := make([]ed25519.PrivateKey, 3)
	spec.onNode = func(i int, n *protocol.Node) { mu.Lock(); nodes[i] = n; mu.Unlock() }
	spec.store = func(i int, s *protocol.Store) {
		k, err := s.Identity()
		if err != nil {
			t.Error(err)
		}
		mu.Lock()
		keys[i] = k
		mu.Unlock()
	}
	base := t.TempDir()
	res := runNodes(ctx, net, spec, base)

	step := time.NewTicker(2 * time.Millisecond)
	defer step.Stop()
	for waiting := true; waiting; {
		select {
		case <-asked:
			waiting = false
		case <-step.C:
			clock.Advance(20 * time.Millisecond)
		case r := <-res:
			t.Fatalf("node %d ended before the table stalled: %+v %v", r.i, r.out, r.err)
		}
	}
	all := []int{0, 1, 2}
	if err := watch.waitPoked(ctx, spy, stalled(all, "n1")); err != nil {
		t.Fatalf("the nodes never all wait for the silent seat: %v", err)
	}
	watch.mu.Lock()
	L := uint64(watch.st[0].Entries)
	seats := []int{watch.st[0].Seat, watch.st[1].Seat, watch.st[2].Seat}
	first := heard.get(ctx, 0)
	if first == nil {
		t.Fatal("the spy never heard the genesis")
	}
	id := first.Table
	watch.mu.Unlock()

	mu.Lock()
	n0, n1, n2 := nodes[0], nodes[1], nodes[2]
	mu.Unlock()
	for _, n := range []*protocol.Node{n0, n1} {
		if err := n.Pause(ctx); err != nil {
			t.Fatal(err)
		}
	}
	two := slices.Sorted(slices.Values(seats[:2]))
	if err := watch.waitPoked(ctx, spy, agreedBy(all, two)); err != nil {
		t.Fatalf("the nodes never all see seats %v agree: %v", two, err)
	}

	// The third seat's old vote (for entry L−1, honestly signed), a vote for it signed with
	// another seat's key, a certificate with that forged vote, and bytes that are no vote.
	prev := heard.get(ctx, L-1)
	older := heard.get(ctx, L-2)
	if prev == nil || older == nil {
		t.Fatalf("the spy missed entry %d or %d", L-2, L-1)
	}
	old := &protocol.PauseVote{Table: id, Len: L - 1, Head: older.Hash(), Seat: seats[2], Agree: true, Counter: 1}
	old.Sign(keys[2])
	forged := &protocol.PauseVote{Table: id, Len: L, Head: prev.Hash(), Seat: seats[2], Agree: true, Counter: 1}
	forged.Sign(keys[0])
	var cert []*protocol.PauseVote
	for i, k := range keys[:2] {
		v := &protocol.PauseVote{Table: id, Len: L, Head: prev.Hash(), Seat: seats[i], Agree: true, Counter: 1}
		v.Sign(k)
		cert = append(cert, v)
	}
	cert = append(cert, forged)
	for _, msg := range [][]byte{protocol.MarshalPause([]*protocol.PauseVote{old}),
		protocol.MarshalPause([]*protocol.PauseVote{forged}), protocol.MarshalPause(cert), {'p', 1, 2, 3}} {
		if err := spy.Publish(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	// Past the linger (2s) a node that paused would have stopped.
	if err := clock.Pass(ctx, 5*time.Second, passStep); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-res:
		t.Fatalf("node %d stopped with two votes of three (and an old, a forged one): %+v %v", r.i, r.out, r.err)
	default:
	}
	if err := watch.waitPoked(ctx, spy, agreedBy(all, two)); err != nil {
		t.Fatalf("the statuses moved from seats %v agreeing: %v", two, err)
	}

	if err := n2.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	runs := make([]nodeRun, 3)
	for range 3 {
		var r endedRun
		for got := false; !got; {
			select {
			case r = <-res:
				got = true
			case <-step.C:
				clock.Advance(20 * time.Millisecond)
			case <-ctx.Done():
				t.Fatal("the nodes never all stopped")
			}
		}
		runs[r.i] = r.nodeRun
	}
	for i, r := range runs {
		if r.err != nil || !r.out.Paused || r.out.Finished || r.out.Verdict != nil || uint64(r.out.Entries) != L {
			t.Fatalf("node %d: %+v %v; want paused at %d", i, r.out, r.err, L)
		}
		if got := len(readLog(t, r.dir)); uint64(got) != L {
			t.Fatalf("node %d's log holds %d entries, want %d", i, got, L)
		}
		if _, err := os.Stat(filepath.Join(r.dir, "tables", "t", "paused")); err != nil {
			t.Fatalf("node %d keeps no record of the pause: %v", i, err)
		}
	}

	// Node 0's record becomes a certificate for entry L−1, as a node keeps when its log had
	// grown past the length the seats agreed on before it took their certificate: it paused
	// where its log stood (L), and must say it resumes from there.
	var earlier []*protocol.PauseVote
	for i, k := range keys {
		v := &protocol.PauseVote{Table: id, Len: L - 1, Head: older.Hash(), Seat: seats[i], Agree: true, Counter: 9}
		v.Sign(k)
		earlier = append(earlier, v)
	}
	if err := os.WriteFile(filepath.Join(runs[0].dir, "tables", "t", "paused"), protocol.MarshalPause(earlier), 0o600); err != nil {
		t.Fatal(err)
	}

	// Resume: the same data directories, on a new network, with players that decide.
	net2 := memnet.New(12, memnet.Faults{})
	defer net2.Close()
	spec2 := toySpec(3)
	resumed := make([]int, 3)
	spec2.onChange = func(i int) func(protocol.Status) {
		return func(s protocol.Status) {
			mu.Lock()
			resumed[i] = max(resumed[i], s.Pause.Resumed)
			mu.Unlock()
		}
	}
	checkSame(t, playNodesIn(t, net2, spec2, base))
	mu.Lock()
	defer mu.Unlock()
	for i, r := range resumed {
		if uint64(r) != L {
			t.Errorf("node %d says it resumed a pause at entry %d, want %d", i, r, L)
		}
	}
}

// TestPauseKeepPlaying: a seat that says to keep playing closes the question: every node sees
// it refused, and the seat that asked no longer agrees at the next entry.
func TestPauseKeepPlaying(t *testing.T) {
	net := memnet.New(13, memnet.Faults{})
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	spy := net.Node("x")
	asked := make(chan struct{}, 1)
	spec := toySpec(3)
	spec.clock = protocol.NewTickClockForTest()
	spec.player = func(i int) engine.Player {
		if i == 1 {
			return silentPlayer{asked}
		}
		return toyBot{}
	}
	watch := newWatcher()
	spec.onChange = watch.onChange
	var mu sync.Mutex
	nodes := make([]*protocol.Node, 3)
	spec.onNode = func(i int, n *protocol.Node) { mu.Lock(); nodes[i] = n; mu.Unlock() }
	res := runNodes(ctx, net, spec, t.TempDir())
	clock := spec.clock.(*protocol.TickClockForTest)
	step := time.NewTicker(2 * time.Millisecond)
	defer step.Stop()
	for waiting := true; waiting; {
		select {
		case <-asked:
			waiting = false
		case <-step.C:
			clock.Advance(20 * time.Millisecond)
		}
	}
	all := []int{0, 1, 2}
	if err := watch.waitPoked(ctx, spy, stalled(all, "n1")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n0, n2 := nodes[0], nodes[2]
	mu.Unlock()
	if err := n0.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	if err := n2.KeepPlaying(ctx); err != nil {
		t.Fatal(err)
	}
	watch.mu.Lock()
	s0, s2 := watch.st[0].Seat, watch.st[2].Seat
	watch.mu.Unlock()
	refused := func(st map[int]protocol.Status) bool {
		for _, i := range all {
			if p := st[i].Pause; p.Refused != s2 || !slices.Equal(p.Agreed, []int{s0}) || p.Paused {
				return false
			}
		}
		return true
	}
	if err := watch.waitPoked(ctx, spy, refused); err != nil {
		t.Fatalf("the nodes never all see seat %d refuse: %v", s2, err)
	}
	select {
	case r := <-res:
		t.Fatalf("node %d stopped: %+v %v", r.i, r.out, r.err)
	default:
	}
}

// FuzzParsePause: whatever ParsePause accepts re-encodes to the same bytes, and Check agrees
// with it.
func FuzzParsePause(f *testing.F) {
	_, k0, _ := ed25519.GenerateKey(bytes.NewReader(make([]byte, 64)))
	_, k1, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{1}, 64)))
	a := &protocol.PauseVote{Len: 9, Seat: 0, Agree: true, Counter: 7}
	a.Sign(k0)
	b := &protocol.PauseVote{Len: 9, Seat: 1, Agree: true, Counter: 3}
	b.Sign(k1)
	no := &protocol.PauseVote{Len: 4, Seat: 2, Counter: 1}
	no.Sign(k1)
	f.Add(protocol.MarshalPause([]*protocol.PauseVote{a}))
	f.Add(protocol.MarshalPause([]*protocol.PauseVote{a, b}))
	f.Add(protocol.MarshalPause([]*protocol.PauseVote{no}))
	f.Add([]byte{'p', 0})
	f.Fuzz(func(t *testing.T, msg []byte) {
		votes, err := protocol.ParsePause(msg)
		if ok := protocol.Check(msg); ok != (err == nil) {
			t.Fatalf("Check says %v, ParsePause %v", ok, err)
		}
		if err != nil {
			return
		}
		if out := protocol.MarshalPause(votes); !bytes.Equal(out, msg) {
			t.Fatalf("re-encodes to %x, not %x", out, msg)
		}
	})
}

// TestParsePauseRejects: malformed pause messages, each with what is wrong.
func TestParsePauseRejects(t *testing.T) {
	_, k, _ := ed25519.GenerateKey(bytes.NewReader(make([]byte, 64)))
	vote := func(l uint64, seat int, agree bool, counter uint64) *protocol.PauseVote {
		v := &protocol.PauseVote{Len: l, Seat: seat, Agree: agree, Counter: counter}
		v.Sign(k)
		return v
	}
	good := protocol.MarshalPause([]*protocol.PauseVote{vote(5, 0, true, 1)})
	if _, err := protocol.ParsePause(good); err != nil {
		t.Fatalf("a good vote: %v", err)
	}
	badFlag := slices.Clone(good)
	badFlag[2+32+8+32+1] = 2
	for name, msg := range map[string][]byte{
		"empty":            {},
		"no votes":         {'p', 0},
		"short":            good[:len(good)-1],
		"trailing":         append(slices.Clone(good), 0),
		"agree flag 2":     badFlag,
		"length 0":         protocol.MarshalPause([]*protocol.PauseVote{vote(0, 0, true, 1)}),
		"counter 0":        protocol.MarshalPause([]*protocol.PauseVote{vote(5, 0, true, 0)}),
		"seat 16":          protocol.MarshalPause([]*protocol.PauseVote{vote(5, 16, true, 1)}),
		"cert with a no":   protocol.MarshalPause([]*protocol.PauseVote{vote(5, 0, true, 1), vote(5, 1, false, 1)}),
		"cert two lengths": protocol.MarshalPause([]*protocol.PauseVote{vote(5, 0, true, 1), vote(6, 1, true, 1)}),
		"cert same seat":   protocol.MarshalPause([]*protocol.PauseVote{vote(5, 1, true, 1), vote(5, 1, true, 2)}),
	} {
		if _, err := protocol.ParsePause(msg); err == nil {
			t.Errorf("%s: accepted", name)
		} else if protocol.Check(msg) {
			t.Errorf("%s: Check accepts what ParsePause refuses (%v)", name, err)
		}
	}
}
