package protocol_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// gameSpec is a table for tests: the game, its configuration, the number of seats, and each
// node's player.
type gameSpec struct {
	game     string
	config   []byte
	players  int
	nodes    int // how many nodes want the table (default players)
	player   func(node int) engine.Player
	timeout  time.Duration // default 20s
	onEvent  func(node int) func(engine.Event)
	onChange func(node int) func(protocol.Status)
	clock    protocol.Clock
	linger   time.Duration // default 2s
	net      func(node int, ep *memnet.Endpoint) protocol.Network
	// store and adjust, if set, adjust node i's store (before its identity is drawn) and its
	// configuration; onNode, if set, is given node i before it runs.
	store  func(node int, s *protocol.Store)
	adjust func(node int, cfg *protocol.NodeConfig)
	onNode func(node int, n *protocol.Node)
}

func toySpec(n int) gameSpec {
	return gameSpec{game: toyID, config: []byte{1}, players: n, player: func(int) engine.Player { return toyBot{} }}
}

type nodeRun struct {
	out *protocol.Outcome
	err error
	dir string
}

// playNodes plays one table among spec.players nodes on an in-memory network and returns each
// node's outcome and data directory.
func playNodes(t testing.TB, net *memnet.Net, spec gameSpec) []nodeRun {
	t.Helper()
	return playNodesIn(t, net, spec, t.TempDir())
}

// hangGuard bounds a whole table's game in the tests that only wait for it to end: it is there
// to turn a table that never ends into a failure, not to time one, and is generous because a
// game among nodes under -race, beside other test binaries on two cores, once took over a minute.
const hangGuard = 3 * time.Minute

// playNodesIn runs spec's nodes (spec.nodes of them, spec.players by default) with their data
// directories under base (base/0, base/1...), until each has ended.
func playNodesIn(t testing.TB, net *memnet.Net, spec gameSpec, base string) []nodeRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res := runNodes(ctx, net, spec, base)
	runs := make([]nodeRun, cap(res))
	for range cap(res) {
		x := <-res
		runs[x.i] = x.nodeRun
	}
	return runs
}

// endedRun is node i's run, as it ends.
type endedRun struct {
	i int
	nodeRun
}

// runNodes starts spec's nodes (spec.nodes of them, spec.players by default) with their data
// directories under base, and tells each one's end on the channel it returns (its capacity is
// the number of nodes).
func runNodes(ctx context.Context, net *memnet.Net, spec gameSpec, base string) <-chan endedRun {
	n := spec.nodes
	if n == 0 {
		n = spec.players
	}
	res := make(chan endedRun, n)
	for i := range n {
		dir := filepath.Join(base, fmt.Sprint(i))
		go func() {
			r := nodeRun{dir: dir}
			r.out, r.err = startNode(ctx, net, dir, spec, i)
			res <- endedRun{i, r}
		}()
	}
	return res
}

// startNode runs node i of table "t" on net, with its data in dir.
func startNode(ctx context.Context, net *memnet.Net, dir string, spec gameSpec, i int) (*protocol.Outcome, error) {
	store, err := protocol.OpenStore(dir)
	if err != nil {
		return nil, err
	}
	if spec.store != nil {
		spec.store(i, store)
	}
	key, err := store.Identity()
	if err != nil {
		return nil, err
	}
	id := fmt.Sprintf("n%d", i)
	var nw protocol.Network = net.Node(id)
	if spec.net != nil {
		nw = spec.net(i, net.Node(id))
	}
	cfg := protocol.NodeConfig{
		Table: "t", Game: spec.game, Config: spec.config, Players: spec.players, Name: id,
		Timeout: spec.timeout, Identity: key, Store: store, Player: spec.player(i), Net: nw,
		Tick: 20 * time.Millisecond, Linger: spec.linger, Clock: spec.clock,
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 20 * time.Second
	}
	if cfg.Linger == 0 {
		cfg.Linger = 2 * time.Second
	}
	if spec.onEvent != nil {
		cfg.OnEvent = spec.onEvent(i)
	}
	if spec.onChange != nil {
		cfg.OnChange = spec.onChange(i)
	}
	if spec.adjust != nil {
		spec.adjust(i, &cfg)
	}
	node, err := protocol.NewNode(cfg)
	if err != nil {
		store.Close()
		return nil, err
	}
	if spec.onNode != nil {
		spec.onNode(i, node)
	}
	return node.Run(ctx)
}

func readLog(t testing.TB, dir string) []*protocol.Entry {
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

// checkSame checks that every node finished the table with the same log and digest, and that
// the log audits as valid.
func checkSame(t testing.TB, runs []nodeRun) {
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
	rep := auditDir(t, runs[0].dir)
	if !rep.Valid {
		t.Fatalf("audit: %+v", rep)
	}
}

func auditDir(t testing.TB, dir string) *protocol.Report {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "tables", "t", "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := protocol.Audit(f, engine.Options{})
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	return rep
}
