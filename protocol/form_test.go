package protocol_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bytes"
	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// Formation (form.go): several tables of one name, a node too many, two geneses that seat one
// node, and nodes that want the table with other settings.

// notes collects what each node says through NodeConfig.Notef.
type notes struct {
	mu      sync.Mutex
	said    map[int][]string
	logs    map[int][]string // the last lines of each node's Logf, when logf is its Logf
	changed chan struct{}    // one pending signal at most
}

func newNotes() *notes { return &notes{said: map[int][]string{}, changed: make(chan struct{}, 1)} }

// notef is node i's Notef.
func (n *notes) notef(i int) func(string, ...any) {
	return func(format string, args ...any) {
		n.mu.Lock()
		n.said[i] = append(n.said[i], fmt.Sprintf(format, args...))
		n.mu.Unlock()
		select {
		case n.changed <- struct{}{}:
		default:
		}
	}
}

// logf is node i's Logf: its last lines are kept for a failure's message (tail).
func (n *notes) logf(i int) func(string, ...any) {
	return func(format string, args ...any) {
		n.mu.Lock()
		defer n.mu.Unlock()
		if n.logs == nil {
			n.logs = map[int][]string{}
		}
		l := append(n.logs[i], fmt.Sprintf(format, args...))
		n.logs[i] = l[max(0, len(l)-40):]
	}
}

// tail is what every node said and last logged, for a failure's message.
func (n *notes) tail() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var b strings.Builder
	for _, i := range slices.Sorted(maps.Keys(n.said)) {
		fmt.Fprintf(&b, "\nnode %d said %q", i, n.said[i])
	}
	for _, i := range slices.Sorted(maps.Keys(n.logs)) {
		fmt.Fprintf(&b, "\nnode %d logged:\n  %s", i, strings.Join(n.logs[i], "\n  "))
	}
	return b.String()
}

func (n *notes) of(i int) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.said[i])
}

// waitFor blocks until node i has said something that holds every piece, and returns it.
func (n *notes) waitFor(ctx context.Context, i int, pieces ...string) (string, error) {
	for {
		for _, s := range n.of(i) {
			all := true
			for _, p := range pieces {
				all = all && strings.Contains(s, p)
			}
			if all {
				return s, nil
			}
		}
		select {
		case <-n.changed:
		case <-ctx.Done():
			return "", fmt.Errorf("node %d never said %q (it said %q): %w", i, pieces, n.of(i), ctx.Err())
		}
	}
}

// byTable groups runs by the table they played (the outcome's id).
func byTable(runs []nodeRun) map[string][]nodeRun {
	out := map[string][]nodeRun{}
	for _, r := range runs {
		if r.out != nil {
			out[r.out.ID] = append(out[r.out.ID], r)
		}
	}
	return out
}

// archived lists the logs a node's data directory holds beside its current one, by name.
func archived(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "tables", "t", "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		out = append(out, filepath.Base(f))
	}
	return out
}

// checkDissolved checks that every table a node left before it started (an archive
// <id>.dissolved.log) blames nobody: no verdict, no note.
func checkDissolved(t *testing.T, runs []nodeRun) (dissolved int) {
	t.Helper()
	for i, r := range runs {
		for _, name := range archived(t, r.dir) {
			if !strings.HasSuffix(name, ".dissolved.log") {
				t.Errorf("node %d keeps %s: a table of this run that is not its own and did not dissolve", i, name)
				continue
			}
			dissolved++
			f, err := os.Open(filepath.Join(r.dir, "tables", "t", name))
			if err != nil {
				t.Fatal(err)
			}
			_, ns, err := protocol.ReadLogNotes(f)
			f.Close()
			if err != nil || len(ns) > 0 {
				t.Errorf("node %d's dissolved table %s holds %d notes (%v)", i, name, len(ns), err)
			}
			b, err := os.ReadFile(filepath.Join(r.dir, "tables", "t", name))
			if err != nil {
				t.Fatal(err)
			}
			if rep := auditBytes(t, b); rep.Verdict != nil || rep.Blamed != -1 {
				t.Errorf("node %d's dissolved table %s audits to %+v: it blames a seat", i, name, rep)
			}
		}
	}
	return dissolved
}

// TestFormTwoTables: eight nodes want a table of one name for four: they form two tables, each
// of four, and both complete with identical logs per table that audit; no two geneses seat one
// node for good, and a table that dissolved on the way blames nobody.
func TestFormTwoTables(t *testing.T) {
	t.Parallel()
	for _, faults := range []memnet.Faults{{}, {Drop: 0.05, Duplicate: 0.05, Reorder: 0.1, MaxDelay: time.Millisecond}} {
		t.Run(fmt.Sprintf("drop=%v", faults.Drop), func(t *testing.T) {
			net := memnet.New(81, faults)
			defer net.Close()
			spec := toySpec(4)
			spec.nodes = 8
			runs := playNodes(t, net, spec)
			for i, r := range runs {
				if r.err != nil {
					t.Fatalf("node %d: %v", i, r.err)
				}
			}
			tables := byTable(runs)
			if len(tables) != 2 {
				t.Fatalf("eight nodes for four seats sat at %d tables: %v", len(tables), slices.Collect(maps.Keys(tables)))
			}
			for id, rs := range tables {
				if len(rs) != 4 {
					t.Fatalf("table %s seats %d nodes", id, len(rs))
				}
				checkSame(t, rs)
			}
			t.Logf("two tables of four; %d tables dissolved on the way", checkDissolved(t, runs))
		})
	}
}

// lossyGeneses loses each genesis broadcast its node would hear with probability p, so that
// nodes sit at tables knowing different geneses: a node that missed one may sit at a table the
// others know cannot start, or hold every key of a table its other players left.
type lossyGeneses struct {
	*memnet.Endpoint
	rng *rand.Rand // Next's alone: one goroutine reads a node's network
	p   float64
}

func (l *lossyGeneses) Next(ctx context.Context) (string, []byte, error) {
	for {
		from, data, err := l.Endpoint.Next(ctx)
		if err == nil && len(data) > 0 && data[0] == 'e' {
			if e, perr := protocol.ParseEntry(data[1:]); perr == nil && e.Seq == 0 && l.rng.Float64() < l.p {
				continue
			}
		}
		return from, data, err
	}
}

// TestFormLostGeneses: eight nodes want a table of one name for four, and half the geneses
// broadcast are lost at each node that would hear them. Nodes then sit at tables that others
// of their players left for a lower one, or hold every key of one whose seat due to write next
// left it: each such table must dissolve on every node of it (the left notices, the wait for
// every seat's keys before the first entry past them), blaming nobody, and all eight must end
// at two complete tables, not wait out their timeouts alone.
func TestFormLostGeneses(t *testing.T) {
	t.Parallel()
	runs := 8
	switch {
	case protocol.RaceDetectorForTest:
		runs = 1
	case testing.Short():
		runs = 3
	}
	for seed := range runs {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			net := memnet.New(uint64(90+seed), memnet.Faults{})
			defer net.Close()
			spec := toySpec(4)
			spec.nodes = 8
			spec.net = func(i int, ep *memnet.Endpoint) protocol.Network {
				return &lossyGeneses{Endpoint: ep, rng: rand.New(rand.NewPCG(uint64(seed), uint64(i))), p: 0.5}
			}
			said := newNotes()
			spec.adjust = func(i int, cfg *protocol.NodeConfig) { cfg.Notef, cfg.Logf = said.notef(i), said.logf(i) }
			nodes := playNodes(t, net, spec)
			for i, r := range nodes {
				if r.err != nil {
					t.Fatalf("node %d: %v%s", i, r.err, said.tail())
				}
			}
			tables := byTable(nodes)
			if len(tables) != 2 {
				t.Fatalf("eight nodes for four seats sat at %d tables", len(tables))
			}
			for id, rs := range tables {
				if len(rs) != 4 {
					t.Fatalf("table %s seats %d nodes", id, len(rs))
				}
				checkSame(t, rs)
			}
			t.Logf("two tables of four; %d tables dissolved on the way", checkDissolved(t, nodes))
		})
	}
}

// TestFormFifthNode: a fifth node that wants a four-seat table does not disturb the table the
// four others form: they complete; it waits, says why (the other table of the name is full),
// and ends with a *FormError when its FormTimeout passes on the fake clock, not before.
func TestFormFifthNode(t *testing.T) {
	net := memnet.New(82, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	startPump(t, clock, 10*time.Millisecond)
	said := newNotes()
	spec := toySpec(4)
	spec.nodes, spec.clock, spec.timeout = 5, clock, time.Minute
	const formTimeout = 24 * time.Hour // the game takes minutes of the pumped clock
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.FormTimeout = formTimeout
		cfg.Notef, cfg.Logf = said.notef(i), said.logf(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res := runNodes(ctx, net, spec, t.TempDir())
	var four []nodeRun
	seated := map[int]bool{}
	for range 4 {
		x := <-res
		four = append(four, x.nodeRun)
		seated[x.i] = true
	}
	checkSame(t, four)
	fifth := 0
	for seated[fifth] {
		fifth++
	}
	if _, err := said.waitFor(ctx, fifth, "waits for players: 1 of 4 heard", "1 other table(s) of that name are full"); err != nil {
		t.Fatalf("%v%s", err, said.tail())
	}
	select {
	case x := <-res:
		t.Fatalf("node %d ended before its FormTimeout: %v", x.i, x.err)
	default:
	}
	clock.Advance(formTimeout)
	var x endedRun
	select {
	case x = <-res:
	case <-ctx.Done():
		t.Fatal("the fifth node does not end when its FormTimeout has passed")
	}
	var fe *protocol.FormError
	if !errors.As(x.err, &fe) {
		t.Fatalf("the fifth node ends with %v, want a *FormError", x.err)
	}
	if fe.Table != "t" || fe.Players != 4 || fe.Full != 1 || fe.Wait != formTimeout || !slices.Equal(fe.Heard, []string{fmt.Sprintf("n%d", fifth)}) {
		t.Errorf("the fifth node's FormError: %+v", fe)
	}
	if x.out == nil || x.out.Verdict != nil || x.out.Seat != -1 {
		t.Errorf("the fifth node's outcome: %+v", x.out)
	}
	t.Logf("the fifth node: %v", x.err)
}

// gatedNet holds back a node's entries and heads (not hellos) until it has heard two geneses:
// the node sits, knowing both, before any table it could sit at has all its keys.
type gatedNet struct {
	*memnet.Endpoint
	geneses map[[32]byte]bool
	held    [][2]any // from, data
}

func (g *gatedNet) Next(ctx context.Context) (string, []byte, error) {
	for {
		if len(g.geneses) >= 2 && len(g.held) > 0 {
			m := g.held[0]
			g.held = g.held[1:]
			return m[0].(string), m[1].([]byte), nil
		}
		from, data, err := g.Endpoint.Next(ctx)
		if err != nil || len(data) == 0 || len(g.geneses) >= 2 {
			return from, data, err
		}
		switch data[0] {
		case 'e':
			e, perr := protocol.ParseEntry(data[1:])
			if perr == nil && e.Seq == 0 {
				g.geneses[e.Table] = true
				return from, data, nil
			}
			g.held = append(g.held, [2]any{from, data})
		case 'a':
			g.held = append(g.held, [2]any{from, data})
		default:
			return from, data, nil
		}
	}
}

// TestFormTwoGeneses: two geneses seat one node. Nodes a < b < c < d (by key) want a table of
// three; a hears c and d only, b hears c and d only, c and d hear everyone: a writes the genesis
// {a, c, d}, b the genesis {b, c, d}, both on d's first hello. They resolve to one table, the
// one with the lower id, which completes; the other dissolves on every node that sat at it,
// blaming nobody (no verdict, no note), and its creator waits, says so, and ends with a
// *FormError. (d, last in both rosters, hears nothing of either table but the geneses until it
// has both: no table can start before every node knows both.)
func TestFormTwoGeneses(t *testing.T) {
	net := memnet.New(83, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	startPump(t, clock, 10*time.Millisecond)
	said := newNotes()
	watch := newWatcher()
	spec := toySpec(3)
	spec.clock, spec.timeout, spec.onChange = clock, time.Minute, watch.onChange
	const formTimeout = 24 * time.Hour
	// The nodes' identities come from a seeded stream, so that the test knows their order.
	keys := make([]ed25519.PublicKey, 4)
	for i := range keys {
		var seed [32]byte
		newStream("two geneses %d", i).Read(seed[:])
		keys[i] = ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
	}
	rank := []int{0, 1, 2, 3} // rank[k]: the node with the k-th lowest key
	slices.SortFunc(rank, func(x, y int) int { return strings.Compare(string(keys[x]), string(keys[y])) })
	a, b, c, d := rank[0], rank[1], rank[2], rank[3]
	id := func(i int) string { return fmt.Sprintf("n%d", i) }
	net.Partition([]string{id(a), id(c), id(d)}, []string{id(b), id(c), id(d)})
	spec.store = func(i int, s *protocol.Store) { s.Rand = newStream("two geneses %d", i) }
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.FormTimeout = formTimeout
		cfg.Notef = said.notef(i)
	}
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network {
		if i == d {
			return &gatedNet{Endpoint: ep, geneses: map[[32]byte]bool{}}
		}
		return ep
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	base := t.TempDir()
	res := make(chan endedRun, 4)
	start := func(i int) {
		go func() {
			r := nodeRun{dir: filepath.Join(base, fmt.Sprint(i))}
			r.out, r.err = startNode(ctx, net, r.dir, spec, i)
			res <- endedRun{i, r}
		}()
	}
	// a and b run; then c, and once a and b have heard it, d.
	start(a)
	start(b)
	heard := func(who ...int) func(map[int]protocol.Status) bool {
		return func(st map[int]protocol.Status) bool {
			for _, i := range []int{a, b} {
				s, ok := st[i]
				for _, w := range who {
					ok = ok && slices.Contains(s.Members, id(w))
				}
				if !ok {
					return false
				}
			}
			return true
		}
	}
	if err := watch.wait(ctx, func(st map[int]protocol.Status) bool { return len(st) == 2 }); err != nil {
		t.Fatal("a and b never run")
	}
	start(c)
	if err := watch.wait(ctx, heard(c)); err != nil {
		t.Fatal("a and b never hear c")
	}
	start(d)
	runs := make([]nodeRun, 4)
	var winners []nodeRun
	for range 3 {
		x := <-res
		runs[x.i] = x.nodeRun
		winners = append(winners, x.nodeRun)
	}
	checkSame(t, winners)
	loser := -1
	for _, i := range []int{a, b} {
		if runs[i].out == nil {
			loser = i
		}
	}
	if loser < 0 || runs[c].out == nil || runs[d].out == nil {
		t.Fatalf("the three that ended are not c, d and one creator")
	}
	// The loser hears first either the lower table (its players sit there) or the word of one
	// of its players that it left for it: both dissolve its table.
	if _, err := said.waitFor(ctx, loser, "did not form", "forming again"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(formTimeout)
	x := <-res
	runs[x.i] = x.nodeRun
	var fe *protocol.FormError
	if !errors.As(x.err, &fe) || x.out.Verdict != nil {
		t.Fatalf("the creator of the dissolved table ends with %v (verdict %v), want a *FormError", x.err, x.out.Verdict)
	}
	// The loser's table is archived as dissolved, and its id is the higher.
	gone := archived(t, runs[loser].dir)
	if len(gone) != 1 || !strings.HasSuffix(gone[0], ".dissolved.log") {
		t.Fatalf("the creator of the dissolved table keeps %v", gone)
	}
	won := winners[0].out.ID
	if lost := strings.TrimSuffix(gone[0], ".dissolved.log"); lost <= won {
		t.Errorf("the table of id %s dissolved, the one of id %s played: the lower must play", lost, won)
	}
	checkDissolved(t, runs)
	t.Logf("table %s played; the creator of the other said: %q", won, said.of(loser))
}

// TestFormSettings: nodes that want a table of one name with other settings (game, players,
// configuration) never sit together, and each says once, through Notef, which node wants what.
func TestFormSettings(t *testing.T) {
	net := memnet.New(84, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	startPump(t, clock, 10*time.Millisecond)
	said := newNotes()
	std, stud := corruption.EncodeConfig(corruption.Standard, false), corruption.EncodeConfig(corruption.FreeStud, false)
	wants := []struct {
		game    string
		config  []byte
		players int
	}{{"corruption", std, 3}, {"corruption", stud, 3}, {"corruption", std, 4}, {toyID, []byte{1}, 3}}
	spec := corruptionSpec(3, corruption.Standard, false, 1)
	spec.nodes, spec.clock = len(wants), clock
	const formTimeout = 24 * time.Hour
	spec.player = func(int) engine.Player { return toyBot{} } // never asked
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Game, cfg.Config, cfg.Players = wants[i].game, wants[i].config, wants[i].players
		cfg.FormTimeout = formTimeout
		cfg.Notef = said.notef(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res := runNodes(ctx, net, spec, t.TempDir())
	// What node 0 (Corruption, standard, 3 players) must say of each other node, and the other
	// way round.
	for _, w := range []struct {
		who    int
		pieces []string
	}{
		{0, []string{`"n1" also wants table "t"`, "free stud (we want standard)"}},
		{0, []string{`"n2" also wants table "t"`, "4 players (we want 3)"}},
		{0, []string{`"n3" also wants table "t"`, `the game "toy" (we play "corruption")`}},
		{1, []string{`"n0"`, "standard (we want free stud)"}},
		{1, []string{`"n2"`, "4 players (we want 3) and standard (we want free stud)"}},
		{2, []string{`"n0"`, "3 players (we want 4)"}},
		{3, []string{`"n2"`, `the game "corruption" (we play "toy") and 4 players (we want 3)`}},
	} {
		if _, err := said.waitFor(ctx, w.who, w.pieces...); err != nil {
			t.Fatal(err)
		}
	}
	// Many hellos later, each has said it once of each other node, and nothing else.
	if err := clock.Pass(ctx, 10*time.Second, passStep); err != nil {
		t.Fatal(err)
	}
	for i := range wants {
		got := said.of(i)
		for j := range wants {
			count := 0
			for _, s := range got {
				if strings.Contains(s, fmt.Sprintf("%q also wants", fmt.Sprintf("n%d", j))) {
					count++
				}
			}
			if want := min(1, max(0, i-j)+max(0, j-i)); count != want {
				t.Errorf("node %d said %d times that node %d wants other settings: %q", i, count, j, got)
			}
		}
		if len(got) != len(wants)-1 {
			t.Errorf("node %d said %q", i, got)
		}
	}
	clock.Advance(formTimeout)
	for range wants {
		x := <-res
		var fe *protocol.FormError
		if !errors.As(x.err, &fe) || len(fe.Heard) != 1 {
			t.Errorf("node %d ends with %v, want a *FormError having heard only itself", x.i, x.err)
		}
	}
}

// TestFormWithout: three nodes that play without a fourth (NodeConfig.Exclude: it was caught
// cheating at their last table, and their people play again without it) form the table among
// themselves, whichever key is lowest; the fourth, which wants the same table, sits at none.
func TestFormWithout(t *testing.T) {
	t.Parallel()
	for _, lowest := range []bool{true, false} {
		t.Run(fmt.Sprintf("excluded key lowest %v", lowest), func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			keys := make([]ed25519.PrivateKey, 4)
			for i := range keys {
				keys[i] = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(10*i + 1)}, 32))
			}
			slices.SortFunc(keys, func(a, b ed25519.PrivateKey) int {
				return bytes.Compare(a.Public().(ed25519.PublicKey), b.Public().(ed25519.PublicKey))
			})
			if !lowest {
				keys[0], keys[3] = keys[3], keys[0]
			}
			// Node 3 is the excluded one: with the lowest key of the four, or not.
			for i, k := range keys {
				dir := filepath.Join(base, fmt.Sprint(i))
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "identity"), k.Seed(), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			excluded := keys[3].Public().(ed25519.PublicKey)
			spec := toySpec(3)
			spec.nodes = 4
			spec.adjust = func(i int, cfg *protocol.NodeConfig) {
				if i == 3 {
					cfg.FormTimeout = 3 * time.Second
					return
				}
				cfg.Exclude = []ed25519.PublicKey{excluded}
			}
			net := memnet.New(86, memnet.Faults{})
			defer net.Close()
			runs := playNodesIn(t, net, spec, base)
			for i, r := range runs[:3] {
				if r.err != nil || !r.out.Finished {
					t.Fatalf("node %d: %v, %+v; want the game played among the three", i, r.err, r.out)
				}
				for _, m := range readLog(t, r.dir)[0:1] {
					g, err := protocol.GenesisOf(m)
					if err != nil {
						t.Fatal(err)
					}
					if g.SeatOf(excluded) >= 0 {
						t.Fatalf("node %d's table seats the player it plays without", i)
					}
				}
			}
			if r := runs[3]; r.err == nil || r.out != nil && r.out.Entries > 0 {
				t.Fatalf("the excluded node: %v, %+v; want it seated nowhere", r.err, r.out)
			}
		})
	}
}
