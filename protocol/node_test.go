package protocol_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

var long = flag.Bool("long", false, "run the long matrices and searches (every player count with every variant, 300 fault plans, every brute force)")

// TestNodesInMemory: a Corruption table with the little black book completes on a perfect
// network.
func TestNodesInMemory(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	checkSame(t, playNodes(t, net, corruptionSpec(4, corruption.Standard, true, 1)))
}

var variants = []corruption.Variant{corruption.Standard, corruption.DownTheRiver, corruption.FreeStud, corruption.Closed}

// TestNodesWithFaults plays full games for 3 to 7 nodes on a network that drops, duplicates,
// reorders and delays messages: every node must end with the same log. Each player count plays
// one variant; with -long, every variant; with -short (the race pass), 3 to 5 players only.
func TestNodesWithFaults(t *testing.T) {
	t.Parallel()
	for n := corruption.MinPlayers; n <= corruption.MaxPlayers; n++ {
		for k, v := range variants {
			if (!*long && k != n%len(variants)) || (testing.Short() && n > 5) {
				continue
			}
			lbb := v != corruption.Closed && n%2 == 1
			t.Run(fmt.Sprintf("%d-%s-lbb=%v", n, v, lbb), func(t *testing.T) {
				seed := uint64(n*10 + k)
				net := memnet.New(seed, memnet.Faults{Drop: 0.1, Duplicate: 0.1, Reorder: 0.2, MaxDelay: 3 * time.Millisecond})
				defer net.Close()
				runs := playNodes(t, net, corruptionSpec(n, v, lbb, seed))
				checkSame(t, runs)
				st := net.Stats()
				t.Logf("published %d, delivered %d, dropped %d, duplicated %d, reordered %d", st.Published, st.Delivered, st.Dropped, st.Duplicated, st.Reordered)
			})
		}
	}
}

// TestNodesRestart kills one node at a random point of the game (its context is cancelled in
// the middle of applying entries), removes it from the network as a crashed process, and
// starts it again from its data directory: the table must complete with identical logs. The
// toy restarts too, so that a node reads its hidden values back from its notes and its private
// cards from the log.
func TestNodesRestart(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 6; seed++ {
		if testing.Short() && seed%2 == 0 {
			continue // -short (the race pass): one restart in two
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			spec := corruptionSpec(4, corruption.Standard, true, seed)
			killAt := 20 + int(seed*53%200) // a 4-player game gives each node 229 events or more
			if seed > 4 {
				spec, killAt = toySpec(3), int(seed)
			}
			runs := playRestarted(t, memnet.Faults{Drop: 0.05, MaxDelay: 2 * time.Millisecond}, spec, int(seed)%spec.players, killAt, seed)
			checkSame(t, runs)
		})
	}
}

// playRestarted plays spec with node victim killed at its game event killAt and restarted.
func playRestarted(t *testing.T, faults memnet.Faults, spec gameSpec, victim, killAt int, seed uint64) []nodeRun {
	net := memnet.New(seed, faults)
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	base := t.TempDir()
	runs := make([]nodeRun, spec.players)
	var wg sync.WaitGroup
	for i := range spec.players {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == victim {
				kctx, kill := context.WithCancel(ctx)
				events := 0
				hooked := spec
				hooked.onEvent = func(int) func(engine.Event) {
					return func(engine.Event) {
						if events++; events == killAt {
							kill()
						}
					}
				}
				out, err := startNode(kctx, net, runs[i].dir, hooked, i)
				kill()
				if out != nil && out.Finished {
					// Restarted, it would find its table over and wait for a new one.
					runs[i].err = fmt.Errorf("the game ended before node %d's event %d, where it was to be killed: nothing to restart", i, killAt)
					return
				}
				if err != nil {
					// Killed: the process is gone, and so is its endpoint.
					net.Remove(fmt.Sprintf("n%d", i))
				}
			}
			runs[i].out, runs[i].err = startNode(ctx, net, runs[i].dir, spec, i)
		}()
	}
	wg.Wait()
	return runs
}

// TestNodesPartitionHeals cuts the table in two for a while in mid-game; when the partition
// heals the game completes with identical logs.
func TestNodesPartitionHeals(t *testing.T) {
	net := memnet.New(7, memnet.Faults{})
	defer net.Close()
	var once sync.Once
	var heal *time.Timer
	var mu sync.Mutex
	spec := corruptionSpec(4, corruption.Standard, true, 7)
	spec.onEvent = func(i int) func(engine.Event) {
		events := 0
		return func(engine.Event) {
			if events++; i == 0 && events == 100 {
				once.Do(func() {
					net.Partition([]string{"n0", "n1"}, []string{"n2", "n3"})
					mu.Lock()
					heal = time.AfterFunc(500*time.Millisecond, net.Heal)
					mu.Unlock()
				})
			}
		}
	}
	runs := playNodes(t, net, spec)
	mu.Lock()
	if heal != nil {
		heal.Stop()
	}
	mu.Unlock()
	checkSame(t, runs)
}

// TestNodesAbandoned crashes one node for good in mid-game: every other node must end the
// table with the same verdict, naming the crashed node's seat, and its log audits to it. The
// nodes run on a fake clock: once the survivors wait for the crashed seat, the test moves their
// clock to near the timeout instead of waiting for it.
func TestNodesAbandoned(t *testing.T) {
	net := memnet.New(9, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	watch := newWatcher()
	spec := corruptionSpec(3, corruption.Standard, false, 9)
	spec.clock, spec.timeout, spec.onChange = clock, time.Minute, watch.onChange
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	nctx, kill := context.WithCancel(ctx)
	defer kill()
	killed := make(chan struct{})
	spec.onEvent = func(i int) func(engine.Event) {
		events := 0
		return func(engine.Event) {
			if events++; i == 2 && events == 60 {
				kill()
				net.Remove("n2")
				close(killed)
			}
		}
	}
	startPump(t, clock, 10*time.Millisecond)
	base := t.TempDir()
	runs := make([]nodeRun, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := ctx
			if i == 2 {
				c = nctx
			}
			runs[i].out, runs[i].err = startNode(c, net, runs[i].dir, spec, i)
		}()
	}
	select {
	case <-killed:
	case <-ctx.Done():
		t.Fatal("node 2 was never killed")
	}
	// Node 2 is gone: anything it sent is already in the others' inboxes (a perfect network
	// delivers before Publish returns), so a wait for its seat now is for good.
	if err := watch.wait(ctx, stalled([]int{0, 1}, "n2")); err != nil {
		t.Fatalf("the survivors never wait for the crashed node: %v", err)
	}
	if err := nearTimeout(ctx, clock, spec.timeout); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	crashed := runs[2].out.Seat
	for i := range 2 {
		if runs[i].err != nil {
			t.Fatalf("node %d: %v", i, runs[i].err)
		}
		v := runs[i].out.Verdict
		if v == nil || v.Kind != protocol.VerdictAbandoned || v.Seat != crashed {
			t.Fatalf("node %d: verdict %v, want seat %d abandoned", i, v, crashed)
		}
		if v.Seq != runs[0].out.Verdict.Seq {
			t.Fatalf("nodes disagree on where the table stopped: %d and %d", runs[0].out.Verdict.Seq, v.Seq)
		}
		if rep := auditDir(t, runs[i].dir); rep.Blamed != crashed || rep.At != int64(v.Seq) {
			t.Errorf("node %d's log audits to %+v, want seat %d blamed at %d", i, rep, crashed, v.Seq)
		}
	}
}
