package protocol_test

import (
	"context"
	"crypto/ed25519"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

type nodeRun struct {
	out *protocol.Outcome
	err error
	dir string
}

// playNodes plays one table among n nodes on an in-memory network and returns each node's
// outcome and data directory.
func playNodes(t *testing.T, net *memnet.Net, n int, v corruption.Variant, lbb bool, seed uint64) []nodeRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := t.TempDir()
	res := make(chan struct {
		i int
		r nodeRun
	}, n)
	for i := 0; i < n; i++ {
		dir := filepath.Join(base, fmt.Sprint(i))
		go func(i int) {
			r := nodeRun{dir: dir}
			r.out, r.err = runNode(ctx, net, dir, n, v, lbb, seed+uint64(i), fmt.Sprintf("n%d", i))
			res <- struct {
				i int
				r nodeRun
			}{i, r}
		}(i)
	}
	runs := make([]nodeRun, n)
	for k := 0; k < n; k++ {
		x := <-res
		runs[x.i] = x.r
	}
	return runs
}

func runNode(ctx context.Context, net *memnet.Net, dir string, n int, v corruption.Variant, lbb bool, seed uint64, id string) (*protocol.Outcome, error) {
	return startNode(ctx, net, dir, n, v, lbb, seed, id, nil)
}

// startNode runs one heuristic bot node of table "t" on net, with its data in dir.
func startNode(ctx context.Context, net *memnet.Net, dir string, n int, v corruption.Variant, lbb bool, seed uint64, id string, onEvent func(corruption.Event)) (*protocol.Outcome, error) {
	store, err := protocol.OpenStore(dir)
	if err != nil {
		return nil, err
	}
	key, err := store.Identity()
	if err != nil {
		return nil, err
	}
	b, _ := bot.New("heuristic", seed)
	node, err := protocol.NewNode(protocol.NodeConfig{
		Table: "t", Players: n, Variant: v, LBB: lbb, Name: id, Timeout: 20 * time.Second,
		Identity: key, Store: store, Player: protocol.BotPlayer(b), Net: net.Node(id),
		Tick: 20 * time.Millisecond, Linger: 2 * time.Second, OnEvent: onEvent,
	})
	if err != nil {
		return nil, err
	}
	return node.Run(ctx)
}

func readLog(t *testing.T, dir string) []*protocol.Entry {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "tables", "t", "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	es, err := protocol.ReadLog(f)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func checkSame(t *testing.T, runs []nodeRun) {
	t.Helper()
	var ref []*protocol.Entry
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		if !r.out.Finished || r.out.Verdict != nil {
			t.Fatalf("node %d: finished %v, verdict %v", i, r.out.Finished, r.out.Verdict)
		}
		log := readLog(t, r.dir)
		if i == 0 {
			ref = log
			continue
		}
		if len(log) != len(ref) {
			t.Fatalf("node %d has %d entries, node 0 has %d", i, len(log), len(ref))
		}
		for k := range log {
			if log[k].Hash() != ref[k].Hash() {
				t.Fatalf("node %d: entry %d differs", i, k)
			}
		}
		if r.out.Digest != runs[0].out.Digest {
			t.Fatalf("node %d digest differs", i)
		}
	}
	f, err := os.Open(filepath.Join(runs[0].dir, "tables", "t", "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := protocol.Audit(f)
	if err != nil || !rep.Valid {
		t.Fatalf("audit: %v %+v", err, rep)
	}
}

func TestNodesInMemory(t *testing.T) {
	net := memnet.New(1, memnet.Faults{})
	defer net.Close()
	runs := playNodes(t, net, 4, corruption.Standard, true, 1)
	checkSame(t, runs)
	_ = ed25519.PublicKeySize
}

var long = flag.Bool("long", false, "run the long matrices (every player count with every variant)")

// TestNodesWithFaults plays full games for 3 to 7 nodes, every variant, on a network that
// drops, duplicates, reorders and delays messages: every node must end with the same log.
// With -long, every player count plays every variant.
func TestNodesWithFaults(t *testing.T) {
	variants := []corruption.Variant{corruption.Standard, corruption.DownTheRiver, corruption.FreeStud, corruption.Closed}
	for n := corruption.MinPlayers; n <= corruption.MaxPlayers; n++ {
		for k, v := range variants {
			if !*long && k != n%len(variants) {
				continue
			}
			lbb := v != corruption.Closed && n%2 == 1
			t.Run(fmt.Sprintf("%d-%s-lbb=%v", n, v, lbb), func(t *testing.T) {
				seed := uint64(n*10 + k)
				net := memnet.New(seed, memnet.Faults{Drop: 0.1, Duplicate: 0.1, Reorder: 0.2, MaxDelay: 3 * time.Millisecond})
				defer net.Close()
				runs := playNodes(t, net, n, v, lbb, seed)
				checkSame(t, runs)
				st := net.Stats()
				t.Logf("published %d, delivered %d, dropped %d, duplicated %d, reordered %d", st.Published, st.Delivered, st.Dropped, st.Duplicated, st.Reordered)
			})
		}
	}
}

// TestNodesRestart kills one node at a random point of the game (its context is cancelled in
// the middle of applying entries), removes it from the network as a crashed process, and
// starts it again from its data directory: the table must complete with identical logs.
func TestNodesRestart(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			net := memnet.New(seed, memnet.Faults{Drop: 0.05, MaxDelay: 2 * time.Millisecond})
			defer net.Close()
			const n = 4
			victim := int(seed % n)
			killAt := 20 + int(seed*53%300)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			base := t.TempDir()
			runs := make([]nodeRun, n)
			done := make(chan int, n)
			for i := 0; i < n; i++ {
				runs[i].dir = filepath.Join(base, fmt.Sprint(i))
				go func(i int) {
					id := fmt.Sprintf("n%d", i)
					if i == victim {
						kctx, kill := context.WithCancel(ctx)
						events := 0
						_, err := runNodeHooked(kctx, net, runs[i].dir, n, id, uint64(i), func(corruption.Event) {
							if events++; events == killAt {
								kill()
							}
						})
						kill()
						if err == nil {
							// The game ended before the kill point: nothing to restart.
							runs[i].out, runs[i].err = runNodeHooked(ctx, net, runs[i].dir, n, id, uint64(i), nil)
							done <- i
							return
						}
						net.Remove(id)
					}
					runs[i].out, runs[i].err = runNodeHooked(ctx, net, runs[i].dir, n, id, uint64(i), nil)
					done <- i
				}(i)
			}
			for k := 0; k < n; k++ {
				<-done
			}
			checkSame(t, runs)
		})
	}
}

func runNodeHooked(ctx context.Context, net *memnet.Net, dir string, n int, id string, seed uint64, onEvent func(corruption.Event)) (*protocol.Outcome, error) {
	return startNode(ctx, net, dir, n, corruption.Standard, true, seed, id, onEvent)
}

// TestNodesPartitionHeals cuts the table in two for a while in mid-game; when the partition
// heals the game completes with identical logs.
func TestNodesPartitionHeals(t *testing.T) {
	net := memnet.New(7, memnet.Faults{})
	defer net.Close()
	const n = 4
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := t.TempDir()
	runs := make([]nodeRun, n)
	done := make(chan int, n)
	var once sync.Once
	for i := 0; i < n; i++ {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		go func(i int) {
			events := 0
			hook := func(corruption.Event) {
				if events++; i == 0 && events == 100 {
					once.Do(func() {
						net.Partition([]string{"n0", "n1"}, []string{"n2", "n3"})
						time.AfterFunc(500*time.Millisecond, net.Heal)
					})
				}
			}
			runs[i].out, runs[i].err = runNodeHooked(ctx, net, runs[i].dir, n, fmt.Sprintf("n%d", i), uint64(i), hook)
			done <- i
		}(i)
	}
	for k := 0; k < n; k++ {
		<-done
	}
	checkSame(t, runs)
}

// TestNodesAbandoned crashes one node for good in mid-game: every other node must end the
// table with the same verdict, naming the crashed node's seat.
func TestNodesAbandoned(t *testing.T) {
	net := memnet.New(9, memnet.Faults{})
	defer net.Close()
	const n = 3
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := t.TempDir()
	outs := make([]*protocol.Outcome, n)
	errs := make([]error, n)
	done := make(chan int, n)
	for i := 0; i < n; i++ {
		go func(i int) {
			dir := filepath.Join(base, fmt.Sprint(i))
			store, _ := protocol.OpenStore(dir)
			key, _ := store.Identity()
			b, _ := bot.New("random", uint64(i))
			nctx, kill := context.WithCancel(ctx)
			defer kill()
			events := 0
			id := fmt.Sprintf("n%d", i)
			node, err := protocol.NewNode(protocol.NodeConfig{
				Table: "t", Players: n, Variant: corruption.Standard, Name: id, Timeout: 1500 * time.Millisecond,
				Identity: key, Store: store, Player: protocol.BotPlayer(b), Net: net.Node(id),
				Tick: 20 * time.Millisecond, Linger: time.Second,
				OnEvent: func(corruption.Event) {
					if events++; i == 2 && events == 60 {
						kill()
						net.Remove(id)
					}
				},
			})
			if err != nil {
				errs[i] = err
			} else {
				outs[i], errs[i] = node.Run(nctx)
				if i == 2 {
					outs[i] = &protocol.Outcome{Seat: node.Table().Genesis().SeatOf(key.Public().(ed25519.PublicKey))}
				}
			}
			done <- i
		}(i)
	}
	for k := 0; k < n; k++ {
		<-done
	}
	crashed := outs[2].Seat
	for i := 0; i < 2; i++ {
		if errs[i] != nil {
			t.Fatalf("node %d: %v", i, errs[i])
		}
		v := outs[i].Verdict
		if v == nil || v.Kind != protocol.VerdictAbandoned || v.Seat != crashed {
			t.Fatalf("node %d: verdict %v, want seat %d abandoned", i, v, crashed)
		}
		if outs[i].Verdict.Seq != outs[0].Verdict.Seq {
			t.Fatalf("nodes disagree on where the table stopped: %d and %d", outs[0].Verdict.Seq, outs[i].Verdict.Seq)
		}
	}
}
