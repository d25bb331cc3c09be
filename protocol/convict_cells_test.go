package protocol_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	advcheat "corruption/protocol/cheat"
	"corruption/protocol/memnet"
)

// Cells of the conviction matrix at tables of another kind than TestConvictionLive's open ones
// (issue 40): a private table, and a paused table resumed. Each plays Corruption at four seats
// with escrow, node 1 cheating as protocol/cheat says (its first decryption shares that decode
// to nothing: the cheat the golden log corruption-4-shares pins, in play, so always convicted),
// and checks what TestConvictionLive checks of an open table, plus what the kind of table
// promises.

// convictCellSpec is the table of these cells: Corruption at four seats, escrowed, of bots.
func convictCellSpec(seed uint64) gameSpec {
	return corruptionSpec(4, corruption.Standard, false, seed)
}

const cellCheat = "garbage-shares"

// identities opens the stores of n nodes under base (base/0, base/1...) and returns their
// identity keys, which the nodes then draw again from the same stores.
func identities(t *testing.T, base string, n int) []ed25519.PrivateKey {
	t.Helper()
	keys := make([]ed25519.PrivateKey, n)
	for i := range keys {
		s, err := protocol.OpenStore(filepath.Join(base, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		if keys[i], err = s.Identity(); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	return keys
}

// lastStatus keeps each node's last status (a watcher keeps the same, but this one also keeps
// the largest Pause.Resumed each node said).
type lastStatus struct {
	mu      sync.Mutex
	st      map[int]protocol.Status
	resumed map[int]int
}

func newLastStatus() *lastStatus {
	return &lastStatus{st: map[int]protocol.Status{}, resumed: map[int]int{}}
}

func (l *lastStatus) onChange(i int) func(protocol.Status) {
	return func(s protocol.Status) {
		l.mu.Lock()
		l.st[i] = s
		l.resumed[i] = max(l.resumed[i], s.Pause.Resumed)
		l.mu.Unlock()
	}
}

// checkConvictedRuns checks the honest nodes' ends (every node but cheater): each finished the
// game, no verdict, with the cheater's seat convicted at entry at and open, in its outcome and
// in its last status; every log is the same (read by logOf); the log audits valid and reports
// the conviction. It returns the log.
func checkConvictedRuns(t *testing.T, runs []nodeRun, cheater int, at uint64, st *lastStatus, logOf func(dir string) []byte) []byte {
	t.Helper()
	seat := runs[cheater].out.Seat
	var ref []byte
	var want protocol.Conviction
	for i, r := range runs {
		if i == cheater {
			continue
		}
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		o := r.out
		if !o.Finished || o.Verdict != nil || len(o.Convicted) != 1 || o.Convicted[0].Seat != seat || o.Convicted[0].Seq != at ||
			!slices.Contains(o.Open, seat) {
			t.Fatalf("node %d: finished %v, verdict %v, convicted %v, open %v; want the game played to its end, seat %d convicted at entry %d",
				i, o.Finished, o.Verdict, o.Convicted, o.Open, seat, at)
		}
		if want == (protocol.Conviction{}) {
			want = o.Convicted[0]
		} else if o.Convicted[0] != want {
			t.Fatalf("node %d: convicted %v; node before it: %v", i, o.Convicted[0], want)
		}
		st.mu.Lock()
		s, ok := st.st[i]
		st.mu.Unlock()
		if c, convicted := protocol.ConvictionOf(s.Convicted, seat); !ok || !s.Done || !convicted || c != want || !slices.Contains(s.Open, seat) {
			t.Fatalf("node %d's last status: done %v, convicted %v, open %v; want the game done and %v", i, s.Done, s.Convicted, s.Open, want)
		}
		b := logOf(r.dir)
		if ref == nil {
			ref = b
		} else if !bytes.Equal(ref, b) {
			t.Fatalf("node %d's log differs from the first honest node's", i)
		}
	}
	rep, err := protocol.Audit(bytes.NewReader(ref), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Valid || len(rep.Convicted) != 1 || rep.Convicted[0] != want || !slices.Contains(rep.Open, seat) {
		t.Fatalf("audit: valid %v (%s), convicted %v, open %v; want valid with %v", rep.Valid, rep.Problem, rep.Convicted, rep.Open, want)
	}
	return ref
}

// TestConvictionPrivate: a private table of four (private.go: the creator's genesis, every
// message sealed under the table's key), formed by the join code, escrowed; node 1, admitted
// like the others, cheats in play. The three honest nodes convict it and play on to one log,
// the conviction in each one's outcome and last status, and the audit of that log reports it;
// the cheat and everything after it stayed sealed: a stranger on the table's channel read none
// of the broadcasts it heard.
func TestConvictionPrivate(t *testing.T) {
	t.Parallel()
	const players, cheater = 4, 1
	base := t.TempDir()
	keys := identities(t, base, players)
	spec := convictCellSpec(81)
	tables := formPrivate(t, keys, spec.game, spec.config)
	table := tables[0]

	ch, err := advcheat.Parse(cellCheat)
	if err != nil {
		t.Fatal(err)
	}
	net := memnet.New(181, memnet.Faults{})
	defer net.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spy := net.Node("spy")
	var heard [][]byte
	spyDone := make(chan struct{})
	go func() {
		defer close(spyDone)
		for {
			_, data, err := spy.Next(ctx)
			if err != nil {
				return
			}
			heard = append(heard, data)
		}
	}()
	st := newLastStatus()
	spec.onChange = st.onChange
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network { return tables[i].Wrap(ep) }
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Table, cfg.Private, cfg.Escrow = tables[i].Name(), tables[i], true
		if i == cheater {
			cfg.Tamper = ch.Tamper(cfg.Identity)
		}
	}
	runs := playNodesIn(t, net, spec, base)
	cancel()
	<-spyDone
	fired, at := ch.Fired()
	if !fired {
		t.Fatalf("node %d never wrote decryption shares: the cheat %s was never played", cheater, cellCheat)
	}
	ref := checkConvictedRuns(t, runs, cheater, at, st, func(dir string) []byte { return privateLog(t, dir, table.Name()) })
	if es, err := protocol.ReadLog(bytes.NewReader(ref)); err != nil || !es[0].Verify(table.Creator) || es[0].Seq != 0 {
		t.Fatalf("the log played is not the creator's table (%v)", err)
	}
	if len(heard) < 100 {
		t.Fatalf("the stranger on the channel heard only %d broadcasts", len(heard))
	}
	for _, b := range heard {
		if protocol.Check(b) {
			t.Fatalf("a broadcast the stranger can read: %x", b[:min(len(b), 16)])
		}
	}
	t.Logf("seat %d convicted at entry %d of %d; the stranger heard %d broadcasts, none readable",
		runs[cheater].out.Seat, at, runs[0].out.Entries, len(heard))
}

// TestConvictionAfterResume: a table of four, escrowed, every seat honest, is paused by every
// seat (pause.go) once the game is in play (its first shuffle due or done), every node stopping
// at the same entry L. Started again from the same data directories, node 1 now cheating: it
// cheats at its first chance after the resume (its first decryption shares), the honest nodes
// convict it (the rewind replays a log that crossed a pause) and play on to one log, each
// saying it resumed the pause at L, the conviction in its outcome and last status, and the
// audit of the log reports it.
//
// Why the cheat comes after the resume rather than the pause during the conviction's release
// phase: a pause needs every seat's vote, the convicted seat's too (TestConvictionThenPause
// tries the staying seats alone), so the pause before the cheat is the one a table always can
// reach, and the resume is what a conviction must survive: the node's table rebuilt from the
// log and the record of the pause, then rewound on the cheat.
func TestConvictionAfterResume(t *testing.T) {
	t.Parallel()
	const players, cheater = 4, 1
	base := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()

	// The first run: everyone honest; once the game is in play, every seat asks to pause.
	net := memnet.New(182, memnet.Faults{})
	defer net.Close()
	spec := convictCellSpec(82)
	watch := newWatcher()
	spec.onChange = watch.onChange
	var mu sync.Mutex
	nodes := make([]*protocol.Node, players)
	spec.onNode = func(i int, n *protocol.Node) { mu.Lock(); nodes[i] = n; mu.Unlock() }
	spec.adjust = func(_ int, cfg *protocol.NodeConfig) { cfg.Escrow = true }
	res := runNodes(ctx, net, spec, base)
	// In play: the keys, the escrow and the seat order done, every node waits for a shuffle or
	// what comes after it.
	underWay := func(st map[int]protocol.Status) bool {
		for i := range players {
			s, ok := st[i]
			if !ok || s.State == nil || s.Due < 0 {
				return false
			}
			for _, before := range []string{"its key", "escrow", "random reveal", "complaint"} {
				if strings.Contains(s.DueWhat, before) {
					return false
				}
			}
		}
		return true
	}
	if err := watch.wait(ctx, underWay); err != nil {
		t.Fatalf("the table never got under way: %v", err)
	}
	mu.Lock()
	asking := slices.Clone(nodes)
	mu.Unlock()
	for _, n := range asking {
		if err := n.Pause(ctx); err != nil {
			t.Fatal(err)
		}
	}
	first := make([]nodeRun, players)
	for range players {
		r := <-res
		first[r.i] = r.nodeRun
	}
	L := first[0].out.Entries
	for i, r := range first {
		if r.err != nil || !r.out.Paused || r.out.Finished || r.out.Verdict != nil || r.out.Entries != L {
			t.Fatalf("node %d: %+v %v; want paused at entry %d as node 0", i, r.out, r.err, L)
		}
	}
	pausedLog := readLog(t, first[0].dir)
	if !slices.ContainsFunc(pausedLog, func(e *protocol.Entry) bool { return e.Kind == protocol.KindShuffle }) {
		t.Fatalf("the table paused at entry %d, before the game was in play (no shuffle in its log)", L)
	}
	paused := logBytes(t, pausedLog)

	// The resume: the same data directories, a new network, node 1 cheating from now on.
	ch, err := advcheat.Parse(cellCheat)
	if err != nil {
		t.Fatal(err)
	}
	net2 := memnet.New(183, memnet.Faults{})
	defer net2.Close()
	spec2 := convictCellSpec(82)
	st := newLastStatus()
	spec2.onChange = st.onChange
	spec2.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Escrow = true
		if i == cheater {
			cfg.Tamper = ch.Tamper(cfg.Identity)
		}
	}
	runs := playNodesIn(t, net2, spec2, base)
	fired, at := ch.Fired()
	if !fired {
		t.Fatalf("node %d never wrote decryption shares after the resume: the cheat was never played", cheater)
	}
	if at < uint64(L) {
		t.Fatalf("the cheat is at entry %d, before the pause at %d", at, L)
	}
	ref := checkConvictedRuns(t, runs, cheater, at, st, func(dir string) []byte { return logBytes(t, readLog(t, dir)) })
	es, err := protocol.ReadLog(bytes.NewReader(ref))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(logBytes(t, es[:L]), paused) {
		t.Fatalf("the finished log's first %d entries are not the paused log", L)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for i := range players {
		if i != cheater && st.resumed[i] != L {
			t.Errorf("node %d says it resumed a pause at entry %d, want %d", i, st.resumed[i], L)
		}
	}
	t.Logf("paused at entry %d (after %s, %s); seat %d convicted at entry %d after the resume; %d entries in all",
		L, es[L-2].Kind, es[L-1].Kind, runs[cheater].out.Seat, at, len(es))
}

// TestConvictionThenPause: at a table of four, escrowed, node 1 cheats in play and is
// convicted; once every honest node holds its seat open, the three seats that stay ask to pause.
// The convicted seat is played by the stand-in, whom every node computes, and its player (a
// cheater, or one that left) has no say: the staying seats' votes must pause the table. Each
// honest node must then stop paused at one entry, and resumed, play on to one log with the
// conviction in it. What fails this test: a node that reports every staying seat agreeing to
// pause the log as it stands, yet does not pause (it waits for the open seat's vote, which
// never comes: the pause of pause.go counts every seat of the table, open or not). It fails so
// until pause.go counts the seats that are not open alone (issue 40's pause cell; the report of
// branch matrix describes the fix).
func TestConvictionThenPause(t *testing.T) {
	t.Parallel()
	const players, cheater = 4, 1
	base := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	ch, err := advcheat.Parse(cellCheat)
	if err != nil {
		t.Fatal(err)
	}
	net := memnet.New(184, memnet.Faults{})
	defer net.Close()
	spec := convictCellSpec(84)
	watch := newWatcher()
	spec.onChange = watch.onChange
	var mu sync.Mutex
	nodes := make([]*protocol.Node, players)
	spec.onNode = func(i int, n *protocol.Node) { mu.Lock(); nodes[i] = n; mu.Unlock() }
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Escrow = true
		if i == cheater {
			cfg.Tamper = ch.Tamper(cfg.Identity)
		}
	}
	res := runNodes(ctx, net, spec, base)
	honest := []int{0, 2, 3}
	var seat int
	opened := func(st map[int]protocol.Status) bool {
		s, ok := st[cheater]
		if !ok || s.Seat < 0 {
			return false
		}
		seat = s.Seat
		for _, i := range honest {
			s, ok := st[i]
			if !ok || s.Done || s.Verdict != nil || !slices.Contains(s.Open, seat) {
				return false
			}
			if _, convicted := protocol.ConvictionOf(s.Convicted, seat); !convicted {
				return false
			}
		}
		return true
	}
	if err := watch.wait(ctx, opened); err != nil {
		t.Fatalf("the honest nodes never all hold the cheater's seat open and play on: %v", err)
	}
	var staying []int
	watch.mu.Lock()
	for _, i := range honest {
		staying = append(staying, watch.st[i].Seat)
	}
	watch.mu.Unlock()
	slices.Sort(staying)
	mu.Lock()
	asking := []*protocol.Node{nodes[0], nodes[2], nodes[3]}
	mu.Unlock()
	for _, n := range asking {
		if err := n.Pause(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// A node's status is reported after the message or tick it took: once it says every
	// staying seat agrees to the log as it stands, it has taken every vote and decided.
	var stuck string
	pausedOrStuck := func(st map[int]protocol.Status) bool {
		all := true
		for _, i := range honest {
			p := st[i].Pause
			if !p.Paused && slices.Equal(p.Agreed, staying) {
				stuck = fmt.Sprintf("node %d holds every staying seat's (%v) vote for its log of %d entries and does not pause (the open seat %d never votes)", i, staying, st[i].Entries, seat)
				return true
			}
			all = all && p.Paused
		}
		return all
	}
	if err := watch.wait(ctx, pausedOrStuck); err != nil {
		t.Fatalf("the honest nodes neither paused nor agreed: %v", err)
	}
	if stuck != "" {
		cancel() // stop every node: the test is over
		for range players {
			<-res
		}
		t.Fatal(stuck)
	}
	first := map[int]nodeRun{}
	for range players {
		r := <-res
		first[r.i] = r.nodeRun
	}
	L := first[0].out.Entries
	for _, i := range honest {
		if r := first[i]; r.err != nil || !r.out.Paused || r.out.Entries != L {
			t.Fatalf("node %d: %+v %v; want paused at entry %d as node 0", i, r.out, r.err, L)
		}
	}
	_, at := ch.Fired()
	net2 := memnet.New(185, memnet.Faults{})
	defer net2.Close()
	spec2 := convictCellSpec(84)
	st := newLastStatus()
	spec2.onChange = st.onChange
	spec2.adjust = func(_ int, cfg *protocol.NodeConfig) { cfg.Escrow = true }
	checkConvictedRuns(t, playNodesIn(t, net2, spec2, base), cheater, at, st, func(dir string) []byte { return logBytes(t, readLog(t, dir)) })
}
