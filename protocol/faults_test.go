package protocol_test

// Faults at scale (docs/SECURITY.md): seeded plans of network faults, partitions that heal, slow
// peers and nodes killed and restarted.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// slowNet delays every broadcast of one node (a slow peer).
type slowNet struct {
	*memnet.Endpoint
	delay time.Duration
	mu    sync.Mutex
	q     []*time.Timer
}

func (s *slowNet) Publish(ctx context.Context, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	data = bytes.Clone(data)
	s.q = append(s.q, time.AfterFunc(s.delay, func() { s.Endpoint.Publish(context.Background(), data) }))
	return nil
}

func (s *slowNet) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tm := range s.q {
		tm.Stop()
	}
}

// faultPlan is one seeded run of TestFaultsAtScale.
type faultPlan struct {
	n       int
	toy     bool // the toy instead of Corruption
	variant corruption.Variant
	lbb     bool
	faults  memnet.Faults
	// a partition starting at node 0's event partAt (0: none), healing after partFor
	partAt  int
	partFor time.Duration
	side    []string
	// a slow node (-1: none)
	slow      int
	slowDelay time.Duration
	// a node killed at its event killAt (-1: none) and restarted from its data dir; torn: a
	// record cut short at the end of its log, as a crash in the middle of a write leaves it
	kill, killAt int
	torn         bool
}

func newFaultPlan(seed uint64) faultPlan {
	r := rand.New(rand.NewPCG(seed, 0xfa017))
	pick := func(xs ...float64) float64 { return xs[r.IntN(len(xs))] }
	p := faultPlan{n: 3 + r.IntN(2), variant: corruption.Variant(r.IntN(4)), slow: -1, kill: -1}
	if r.IntN(5) == 0 {
		p.n = 5
	}
	p.toy = r.IntN(5) == 0
	p.lbb = !p.toy && p.variant != corruption.Closed && r.IntN(2) == 0
	events := 300 // about the events of a game, for the points of partitions and kills
	if p.toy {
		events = 2 * p.n
	}
	p.faults = memnet.Faults{Drop: pick(0, 0.02, 0.1, 0.2), Duplicate: pick(0, 0.05, 0.2), Reorder: pick(0, 0.1, 0.3),
		MaxDelay: time.Duration(pick(0, 1, 5)) * time.Millisecond, RequestDrop: pick(0, 0, 0.1)}
	if r.IntN(3) == 0 {
		p.partAt, p.partFor = 1+events/15+r.IntN(events), time.Duration(100+r.IntN(700))*time.Millisecond
		for i := range p.n {
			if i == 0 || r.IntN(2) == 0 {
				p.side = append(p.side, fmt.Sprintf("n%d", i))
			}
		}
		if len(p.side) == p.n {
			p.side = p.side[:p.n-1]
		}
	}
	if r.IntN(10) < 3 {
		p.slow, p.slowDelay = r.IntN(p.n), time.Duration(2+r.IntN(18))*time.Millisecond
	}
	if r.IntN(10) < 4 {
		p.kill, p.killAt, p.torn = r.IntN(p.n), 1+events/30+r.IntN(events*4/3), r.IntN(2) == 0
	}
	return p
}

func (p faultPlan) String() string {
	s := fmt.Sprintf("%d seats, %s, lbb=%v", p.n, p.variant, p.lbb)
	if p.toy {
		s = fmt.Sprintf("%d seats, the toy", p.n)
	}
	s += fmt.Sprintf(", drop %.2f dup %.2f reorder %.2f delay %v reqdrop %.1f",
		p.faults.Drop, p.faults.Duplicate, p.faults.Reorder, p.faults.MaxDelay, p.faults.RequestDrop)
	if p.partAt > 0 {
		s += fmt.Sprintf(", partition %v from event %d for %v", p.side, p.partAt, p.partFor)
	}
	if p.slow >= 0 {
		s += fmt.Sprintf(", n%d slow by %v", p.slow, p.slowDelay)
	}
	if p.kill >= 0 {
		s += fmt.Sprintf(", n%d killed at event %d (torn record %v)", p.kill, p.killAt, p.torn)
	}
	return s
}

// faultTally counts what TestFaultsAtScale injected and how the games ended.
type faultTally struct {
	runs, complete, verdict, toys                    int
	partitions, slow, kills, torn                    int
	published, dropped, duplicated, reordered, reqFa int
}

func (a *faultTally) add(b faultTally) {
	a.runs, a.complete, a.verdict, a.toys = a.runs+b.runs, a.complete+b.complete, a.verdict+b.verdict, a.toys+b.toys
	a.partitions, a.slow, a.kills, a.torn = a.partitions+b.partitions, a.slow+b.slow, a.kills+b.kills, a.torn+b.torn
	a.published, a.dropped, a.duplicated = a.published+b.published, a.dropped+b.dropped, a.duplicated+b.duplicated
	a.reordered, a.reqFa = a.reordered+b.reordered, a.reqFa+b.reqFa
}

// playFaulty plays one plan; it returns each node's run and what was really injected.
func playFaulty(t *testing.T, p faultPlan, seed uint64, tally *faultTally) []nodeRun {
	net := memnet.New(seed, p.faults)
	defer net.Close()
	// A hang guard, not a time limit: a game takes a few seconds, but the race detector on a
	// busy machine made some take over a minute.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	spec := corruptionSpec(p.n, p.variant, p.lbb, seed)
	if p.toy {
		spec = toySpec(p.n)
	}
	spec.timeout, spec.linger = 10*time.Second, time.Second
	var mu sync.Mutex
	var heal *time.Timer
	var slows []*slowNet
	partitioned, killed := false, false
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network {
		if i != p.slow {
			return ep
		}
		s := &slowNet{Endpoint: ep, delay: p.slowDelay}
		mu.Lock()
		slows = append(slows, s)
		mu.Unlock()
		return s
	}
	events := make([]int, p.n) // each node's game events, counted across its restart
	kills := map[int]func(){}
	spec.onEvent = func(i int) func(engine.Event) {
		return func(engine.Event) {
			mu.Lock()
			defer mu.Unlock()
			events[i]++
			if i == 0 && events[i] == p.partAt && !partitioned {
				net.Partition(p.side, complement(p.n, p.side))
				heal, partitioned = time.AfterFunc(p.partFor, net.Heal), true
			}
			if i == p.kill && events[i] == p.killAt && kills[i] != nil {
				kills[i]()
			}
		}
	}
	base := t.TempDir()
	runs := make([]nodeRun, p.n)
	var wg sync.WaitGroup
	for i := range p.n {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == p.kill {
				kctx, kill := context.WithCancel(ctx)
				mu.Lock()
				kills[i] = kill
				mu.Unlock()
				out, err := startNode(kctx, net, runs[i].dir, spec, i)
				mu.Lock()
				kills[i] = nil
				mu.Unlock()
				kill()
				if err == nil { // the game ended before the kill point
					runs[i].out = out
					return
				}
				// Killed: the process is gone, and so is its endpoint.
				net.Remove(fmt.Sprintf("n%d", i))
				if p.torn {
					tearLog(t, runs[i].dir)
				}
				mu.Lock()
				killed = true
				mu.Unlock()
			}
			runs[i].out, runs[i].err = startNode(ctx, net, runs[i].dir, spec, i)
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if heal != nil {
		heal.Stop()
	}
	for _, s := range slows {
		s.stop()
	}
	tally.runs++
	if p.toy {
		tally.toys++
	}
	if partitioned {
		tally.partitions++
	}
	if killed {
		tally.kills++
		if p.torn {
			tally.torn++
		}
	}
	if p.slow >= 0 {
		tally.slow++
	}
	st := net.Stats()
	tally.published += st.Published
	tally.dropped += st.Dropped
	tally.duplicated += st.Duplicated
	tally.reordered += st.Reordered
	tally.reqFa += st.RequestFailures
	return runs
}

func complement(n int, side []string) []string {
	var out []string
	for i := range n {
		id := fmt.Sprintf("n%d", i)
		in := false
		for _, s := range side {
			in = in || s == id
		}
		if !in {
			out = append(out, id)
		}
	}
	return out
}

// tearLog appends the first bytes of a record to a killed node's log, as a crash in the middle
// of writing one leaves it (the record was never synced, so never published).
func tearLog(t *testing.T, dir string) {
	path := filepath.Join(dir, "tables", "t", "log")
	if _, err := os.Stat(path); err != nil {
		return // killed before the table formed
	}
	es := readLog(t, dir)
	if len(es) == 0 {
		return
	}
	rec := protocol.AppendRecord(nil, es[len(es)-1])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(rec[:len(rec)/2]); err != nil {
		t.Fatal(err)
	}
}

// checkAgreed checks the invariant of TestFaultsAtScale: every node completed the game with the
// same log, or every node stopped with the same verdict. It also checks that no two logs ever
// disagree on an entry (safety), whatever happened.
func checkAgreed(t *testing.T, runs []nodeRun) (complete bool) {
	t.Helper()
	logs := make([][]*protocol.Entry, len(runs))
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		logs[i] = readLog(t, r.dir)
		for k := range min(len(logs[i]), len(logs[0])) {
			if logs[i][k].Hash() != logs[0][k].Hash() {
				t.Fatalf("nodes 0 and %d hold different entries at seq %d", i, k)
			}
		}
	}
	if runs[0].out.Verdict == nil {
		checkSame(t, runs)
		return true
	}
	v0 := runs[0].out.Verdict
	for i, r := range runs {
		v := r.out.Verdict
		if v == nil || v.Kind != v0.Kind || v.Seq != v0.Seq || v.Seat != v0.Seat {
			t.Fatalf("node %d ends with %v, node 0 with %v", i, v, v0)
		}
	}
	t.Logf("agreed verdict: %v", v0)
	return false
}

// TestFaultsAtScale plays seeded games (Corruption of every variant, and the toy) on a network
// with random faults: drops, duplicates, reorders, delays, failed fetches, a partition that
// heals, a slow peer, and a node killed at a random point (sometimes mid-write) and restarted
// from its data directory. Every game must complete with identical logs on all nodes, or end
// with one agreed verdict; no two nodes may ever hold different entries for one seq. 20 runs;
// -long runs 300, -short (the race pass) 6.
//
//	go test -run TestFaultsAtScale -v ./protocol/            # docs/SECURITY.md's figures
//	go test ./protocol/ -run TestFaultsAtScale -v -timeout 1h -long
func TestFaultsAtScale(t *testing.T) {
	t.Parallel()
	runs := 20
	switch {
	case *long:
		runs = 300
	case protocol.RaceDetectorForTest:
		runs = 2 // the race detector finds races in the code a faulty network runs, not in which faults
	case testing.Short():
		runs = 6
	}
	var mu sync.Mutex
	var tally faultTally
	sem := make(chan struct{}, 4) // four games at a time: they mostly wait
	var wg sync.WaitGroup
	for i := range runs {
		seed := uint64(1000 + i)
		p := newFaultPlan(seed)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t.Run(fmt.Sprint(seed), func(t *testing.T) {
				var local faultTally
				res := playFaulty(t, p, seed, &local)
				complete := checkAgreed(t, res)
				t.Logf("%s: complete %v", p, complete)
				if complete {
					local.complete++
				} else {
					local.verdict++
				}
				mu.Lock()
				defer mu.Unlock()
				tally.add(local)
			})
		}()
	}
	wg.Wait()
	t.Logf("%d runs passed the invariant of %d (%d of the toy): %d complete with identical logs, %d with one agreed verdict; injected %d partitions (healed), %d slow peers, %d kills with restart (%d with a torn record); the network dropped %d, duplicated %d and reordered %d of %d broadcasts, and failed %d fetches",
		tally.runs, runs, tally.toys, tally.complete, tally.verdict, tally.partitions, tally.slow, tally.kills, tally.torn,
		tally.dropped, tally.duplicated, tally.reordered, tally.published, tally.reqFa)
}
