package protocol_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// Benchmarks of the table's hot paths. docs/PERFORMANCE.md keeps the figures; run them with
//
//	go test -run='^$' -bench='BenchmarkAudit7|BenchmarkNodeCPU7|BenchmarkMoveLatency' -benchtime=3x -cpu=1 ./protocol/

// lockstepLog plays a whole table in lockstep and returns its log file and, per seat, the time
// its node spent on the table's work (writing its own entries and validating every entry; the
// bots' thinking is left out).
func lockstepLog(b testing.TB, n int, v corruption.Variant) ([]byte, []time.Duration) {
	w, spent := lockstepWorld(b, n, v, -1)
	if !w.obs.Done() {
		b.Fatalf("the table halts: %v", w.obs.Verdict())
	}
	return logBytes(b, w.log), spent
}

// lockstepWorld plays a table in lockstep, to its end or to its entry stop (stop < 0: no stop).
func lockstepWorld(b testing.TB, n int, v corruption.Variant, stop int) (*world, []time.Duration) {
	w := newWorld(b, corruptionWorld(fmt.Sprintf("bench %d %s", n, v), "", n, v, false), "")
	dec := w.botDecider(b)
	spent := make([]time.Duration, n)
	for {
		seat, _ := w.obs.Due()
		if seat < 0 || stop >= 0 && len(w.log) >= stop {
			break
		}
		tb := w.tables[seat]
		var act engine.Action
		if tb.NeedsDecision() {
			act = dec(tb.Len(), seat, tb.Game())
		}
		start := time.Now()
		e, err := tb.NextEntry(act)
		spent[seat] += time.Since(start)
		if err != nil {
			b.Fatalf("seat %d cannot write: %v", seat, err)
		}
		if err := w.obs.Append(e); err != nil {
			b.Fatal(err)
		}
		for i, other := range w.tables {
			start := time.Now()
			if err := other.Append(e); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
		w.log = append(w.log, e)
		w.reseat() // once the seat order is drawn, w.tables[seat] is the node that sits there
	}
	return w, spent
}

// BenchmarkAudit7 audits the log of a whole 7-player standard table: every signature, proof,
// commitment and rule.
//
//	go test -run='^$' -bench=BenchmarkAudit7 -benchtime=10x -cpu=1 ./protocol/
func BenchmarkAudit7(b *testing.B) {
	log, _ := lockstepLog(b, 7, corruption.Standard)
	b.SetBytes(int64(len(log)))
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		rep, err := protocol.Audit(bytes.NewReader(log), engine.Options{})
		if err != nil || !rep.Valid {
			b.Fatalf("audit: %v %+v", err, rep)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkNodeCPU7 measures the table work of one node of a 7-player standard game (all of
// its cryptography: keys, shuffle, shares, commitments, and verifying everyone else's), as the
// mean over the seven nodes, in ms/node.
//
//	go test -run='^$' -bench=BenchmarkNodeCPU7 -benchtime=3x -cpu=1 ./protocol/
func BenchmarkNodeCPU7(b *testing.B) {
	var total time.Duration
	var size, runs int
	cpu := processCPU()
	for b.Loop() {
		log, spent := lockstepLog(b, 7, corruption.Standard)
		for _, d := range spent {
			total += d
		}
		size, runs = len(log), runs+1
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(7*runs), "ms/node")
	// The process's CPU time for the whole table (seven nodes, the lockstep world), per game.
	b.ReportMetric(float64((processCPU()-cpu).Milliseconds())/float64(runs), "cpu-ms/game")
	b.ReportMetric(float64(size), "log-bytes")
}

// timedPlayer notes when each of its node's decisions is handed to the node.
type timedPlayer struct {
	engine.Player
	mu   *sync.Mutex
	done *[]time.Time
}

func (p timedPlayer) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	a, err := p.Player.Decide(ctx, g, seat)
	p.mu.Lock()
	*p.done = append(*p.done, time.Now())
	p.mu.Unlock()
	return a, err
}

// BenchmarkMoveLatency plays Corruption tables of 5 and 7 nodes on a perfect in-memory network
// and measures, for every decision, the time from the player handing it to its node to the
// entry being applied on every node (signed, synced to disk, published, validated and applied
// by all): its median and 99th percentile, in ms. The same over libp2p on loopback is cmd/'s.
//
//	go test -run='^$' -bench=BenchmarkMoveLatency -benchtime=3x -cpu=2 ./protocol/
func BenchmarkMoveLatency(b *testing.B) {
	for _, n := range []int{5, 7} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var lat []time.Duration
			seed := uint64(0)
			for b.Loop() {
				seed++
				lat = append(lat, moveLatencies(b, n, seed)...)
			}
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.5), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(len(lat))/float64(seed), "moves/game")
		})
	}
}

// moveLatencies plays one table of n nodes and returns each decision's latency.
func moveLatencies(b *testing.B, n int, seed uint64) []time.Duration {
	net := memnet.New(seed, memnet.Faults{})
	defer net.Close()
	var mu sync.Mutex
	decided := make([][]time.Time, n) // by node: when each decision was handed over
	applied := make([][]time.Time, n) // by node: when each seq was first seen applied
	spec := corruptionSpec(n, corruption.Standard, true, seed)
	bots := spec.player
	spec.player = func(i int) engine.Player { return timedPlayer{bots(i), &mu, &decided[i]} }
	spec.onChange = func(i int) func(protocol.Status) {
		return func(s protocol.Status) {
			now := time.Now()
			mu.Lock()
			defer mu.Unlock()
			for len(applied[i]) < s.Entries {
				applied[i] = append(applied[i], now)
			}
		}
	}
	runs := playNodes(b, net, spec)
	checkSame(b, runs)
	log := readLog(b, runs[0].dir)
	mu.Lock()
	defer mu.Unlock()
	var out []time.Duration
	for i, r := range runs {
		k := 0 // the node's decisions are its seat's move and commit entries, in order
		for _, e := range log {
			if e.Seat != r.out.Seat || (e.Kind != protocol.KindMove && e.Kind != protocol.KindCommit) {
				continue
			}
			if k >= len(decided[i]) {
				b.Fatalf("node %d wrote more decisions than its player made", i)
			}
			all := decided[i][k]
			for j := range runs {
				if int(e.Seq) >= len(applied[j]) {
					b.Fatalf("node %d never reported entry %d applied", j, e.Seq)
				}
				all = later(all, applied[j][e.Seq])
			}
			out = append(out, all.Sub(decided[i][k]))
			k++
		}
	}
	return out
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
