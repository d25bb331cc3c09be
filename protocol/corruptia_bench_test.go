package protocol_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// Benchmarks of Corruptia tables (docs/PERFORMANCE.md, "Corruptia"):
//
//	go test -run='^$' -bench='Corruptia' -benchtime=3x -cpu=1 ./protocol/

// BenchmarkCorruptiaAudit4 audits the golden log of a whole 4-senator table: every signature,
// proof, commitment and rule.
func BenchmarkCorruptiaAudit4(b *testing.B) {
	log, err := os.ReadFile(goldPath(corruptiaGold.name))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		rep, err := protocol.Audit(bytes.NewReader(log), engine.Options{})
		if err != nil || !rep.Valid {
			b.Fatalf("audit: %v %+v", err, rep)
		}
	}
}

// BenchmarkCorruptiaNodeCPU4 measures the table work of one node of a 4-senator table in
// lockstep (its own entries, and verifying everyone else's; the bots' thinking left out), as
// the mean over the four nodes, in ms/node.
func BenchmarkCorruptiaNodeCPU4(b *testing.B) {
	var total time.Duration
	var size, entries, runs int
	for b.Loop() {
		runs++
		w := newWorld(b, corruptiaWorld(fmt.Sprintf("bench corruptia %d", runs), "", 4), "")
		dec := w.botDecider(b)
		for {
			seat, _ := w.obs.Due()
			if seat < 0 {
				break
			}
			tb := w.tables[seat]
			var act engine.Action
			if tb.NeedsDecision() {
				act = dec(tb.Len(), seat, tb.Game())
			}
			start := time.Now()
			e, err := tb.NextEntry(act)
			if err != nil {
				b.Fatalf("seat %d cannot write: %v", seat, err)
			}
			for _, other := range w.tables {
				if err := other.Append(e); err != nil {
					b.Fatal(err)
				}
			}
			total += time.Since(start)
			if err := w.obs.Append(e); err != nil {
				b.Fatal(err)
			}
			w.log = append(w.log, e)
			w.reseat() // once the seats are drawn, w.tables[seat] is the node that sits there
		}
		size, entries = len(logBytes(b, w.log)), len(w.log)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(4*runs), "ms/node")
	b.ReportMetric(float64(size), "log-bytes")
	b.ReportMetric(float64(entries), "entries")
}

// BenchmarkCorruptiaMoveLatency4 plays 4-node Corruptia tables on a perfect in-memory network
// and measures, for every decision (a move or a vote), the time from the bot handing it to its
// node to the entry being applied on every node: median and 99th percentile, in ms.
func BenchmarkCorruptiaMoveLatency4(b *testing.B) {
	var lat []time.Duration
	seed := uint64(0)
	for b.Loop() {
		seed++
		lat = append(lat, corruptiaLatencies(b, 4, seed)...)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(lat))/float64(seed), "decisions/game")
}

func corruptiaLatencies(b *testing.B, n int, seed uint64) []time.Duration {
	net := memnet.New(seed, memnet.Faults{})
	defer net.Close()
	var mu sync.Mutex
	decided := make([][]time.Time, n)
	applied := make([][]time.Time, n)
	spec := corruptiaSpec(n, "heuristic", seed)
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
		k := 0
		for _, e := range log {
			if e.Seat != r.out.Seat || (e.Kind != protocol.KindMove && e.Kind != protocol.KindCommit) {
				continue
			}
			if k >= len(decided[i]) {
				b.Fatalf("node %d wrote more decisions than its player made", i)
			}
			all := decided[i][k]
			for j := range runs {
				all = later(all, applied[j][e.Seq])
			}
			out = append(out, all.Sub(decided[i][k]))
			k++
		}
	}
	return out
}
