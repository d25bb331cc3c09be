package protocol_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/bot"
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
func playNodes(t *testing.T, net *memnet.Net, n int, v engine.Variant, lbb bool, seed uint64) []nodeRun {
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

func runNode(ctx context.Context, net *memnet.Net, dir string, n int, v engine.Variant, lbb bool, seed uint64, id string) (*protocol.Outcome, error) {
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
		Tick: 20 * time.Millisecond, Linger: 2 * time.Second,
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
	runs := playNodes(t, net, 4, engine.Standard, true, 1)
	checkSame(t, runs)
	_ = ed25519.PublicKeySize
}

func TestNodesWithFaults(t *testing.T) {
	net := memnet.New(2, memnet.Faults{Drop: 0.2, Duplicate: 0.1, Reorder: 0.2, MaxDelay: 5 * time.Millisecond})
	defer net.Close()
	runs := playNodes(t, net, 3, engine.FreeStud, true, 10)
	checkSame(t, runs)
}
