package protocol_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// countingNet counts the fetches a node sends, by peer, and refuses those to the stalled node
// (a peer whose fetches fail: its connection is broken, its gossip still arrives).
type countingNet struct {
	*memnet.Endpoint
	from    int
	stalled *atomic.Int64 // the stalled node's index + 1 (0: none yet)
	mu      *sync.Mutex
	asked   map[[2]string]int // (from, to) -> fetches
}

func (c countingNet) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	c.mu.Lock()
	c.asked[[2]string{fmt.Sprintf("n%d", c.from), peer}]++
	c.mu.Unlock()
	if s := c.stalled.Load(); s > 0 && peer == fmt.Sprintf("n%d", s-1) {
		return nil, errors.New("connection refused (the test's)")
	}
	return c.Endpoint.Request(ctx, peer, req)
}

// stallFirst is a toy bot, except that the first decision asked of any node of the table is
// never made: that node's seat goes silent.
type stallFirst struct {
	node    int
	stalled *atomic.Int64
}

func (s stallFirst) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if s.stalled.CompareAndSwap(0, int64(s.node)+1) || s.stalled.Load() == int64(s.node)+1 {
		<-ctx.Done()
		return engine.Action{}, ctx.Err()
	}
	return toyBot{}.Decide(ctx, g, seat)
}

// TestNoFetchStorm: a table stalls on a silent seat whose fetches fail, and a fourth node of the
// same name sits at no table. Until the others name the silent seat, each asks the node with no
// table only a few times (it said it has no such table), and the failing one only as its
// backoff allows (doubling from a tick to 8 s): not at every tick, and not again at each failure.
func TestNoFetchStorm(t *testing.T) {
	const timeout = 10 * time.Second
	net := memnet.New(77, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	startPump(t, clock, 10*time.Millisecond)
	var stalled atomic.Int64
	var mu sync.Mutex
	asked := map[[2]string]int{}
	spec := toySpec(3)
	spec.nodes, spec.clock, spec.timeout = 4, clock, timeout
	spec.player = func(i int) engine.Player { return stallFirst{i, &stalled} }
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network {
		return countingNet{Endpoint: ep, from: i, stalled: &stalled, mu: &mu, asked: asked}
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res := runNodes(ctx, net, spec, t.TempDir())
	seated := map[int]nodeRun{}
	for range 3 {
		x := <-res
		seated[x.i] = x.nodeRun
	}
	cancel() // the node at no table waits for players; it is done here
	unseated := <-res
	if len(seated) != 3 || seated[unseated.i].dir != "" {
		t.Fatalf("the unseated node is not the one left: %d", unseated.i)
	}
	silent := int(stalled.Load()) - 1
	if silent < 0 || silent == unseated.i {
		t.Fatalf("no seated node stalled (%d)", silent)
	}
	for i, r := range seated {
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		if v := r.out.Verdict; v == nil || v.Kind != protocol.VerdictAbandoned || v.Seat != seated[silent].out.Seat {
			t.Fatalf("node %d: verdict %v, want the silent node's seat %d abandoned", i, v, seated[silent].out.Seat)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// The node with no table: one fetch to learn it, one in the round of asks before naming the
	// seat, one more if a hello of it arrived in between (a hello clears what a node knows).
	const noTableMax = 3
	// The failing node, over the table's timeout (and the round of asks after it): a backoff
	// of 20 ms doubling to 8 s allows about ten fetches in 10 s; each tick (20 ms) would be 500.
	const failingMax = 16
	for i := range seated {
		if i == silent {
			continue
		}
		me := fmt.Sprintf("n%d", i)
		if k := asked[[2]string{me, fmt.Sprintf("n%d", unseated.i)}]; k > noTableMax {
			t.Errorf("node %d asked the node with no table %d times, want at most %d", i, k, noTableMax)
		}
		if k := asked[[2]string{me, fmt.Sprintf("n%d", silent)}]; k > failingMax || k == 0 {
			t.Errorf("node %d asked the failing node %d times, want 1 to %d", i, k, failingMax)
		}
		t.Logf("node %d: %d fetches to the node with no table, %d to the failing one", i,
			asked[[2]string{me, fmt.Sprintf("n%d", unseated.i)}], asked[[2]string{me, fmt.Sprintf("n%d", silent)}])
	}
}

// noFetchNet refuses every fetch: the node learns entries only from gossip.
type noFetchNet struct{ *memnet.Endpoint }

func (noFetchNet) Request(context.Context, string, []byte) ([]byte, error) {
	return nil, errors.New("connection refused (the test's)")
}

// TestReorderedGossip: gossip that delivers every entry, but half of them late (after the next
// message), at a table where no fetch ever succeeds: a node keeps what arrives ahead of its log
// and applies it once the log reaches it, and the table completes identically (without the
// entries held ahead, a node would wait for a fetch that never comes).
//
// The genesis reaches every node first, on a perfect network: a node that has not adopted the
// table yet has no log to keep an entry ahead of (nor the keys to check it), and fetches what
// it missed, which no fetch here does. From the moment every node holds the genesis on, half of
// the gossip is late. (Reordered from the start, a loaded machine let a seat's key overtake the
// genesis to a node that was slow to read its inbox: that node dropped the key, and the table
// stopped after its minute of timeout, twice.)
func TestReorderedGossip(t *testing.T) {
	net := memnet.New(78, memnet.Faults{})
	defer net.Close()
	spec := toySpec(3)
	spec.timeout = time.Minute
	spec.net = func(_ int, ep *memnet.Endpoint) protocol.Network { return noFetchNet{ep} }
	var mu sync.Mutex
	formed := map[int]bool{}
	spec.onChange = func(i int) func(protocol.Status) {
		return func(st protocol.Status) {
			mu.Lock()
			defer mu.Unlock()
			if st.Entries > 0 && !formed[i] {
				if formed[i] = true; len(formed) == spec.players {
					net.SetFaults(memnet.Faults{Reorder: 0.5, MaxDelay: time.Millisecond})
				}
			}
		}
	}
	runs := playNodes(t, net, spec)
	checkSame(t, runs)
	if st := net.Stats(); st.Reordered == 0 {
		t.Fatalf("no message was late: %+v", st)
	}
}
