package protocol_test

import (
	"fmt"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/protocol"
)

// BenchmarkEscrowStart measures the escrow at the start of a Corruption table of 3, 5 and 7
// seats in a lockstep world: the time from the last key to the last deal applied, for every
// node's work (its own deal, checking everyone's, opening its shares), per node; the bytes of
// the deals (escrow entries, whole encodings) per table; and the entries of the table's start
// (docs/PERFORMANCE.md, "Escrow"):
//
//	go test -run='^$' -bench=BenchmarkEscrowStart -benchtime=20x -cpu=1 ./protocol/
func BenchmarkEscrowStart(b *testing.B) {
	for _, n := range []int{3, 5, 7} {
		b.Run(fmt.Sprintf("seats=%d", n), func(b *testing.B) {
			spec := corruptionWorld(fmt.Sprintf("escrow bench %d", n), "", n, corruption.Standard, false)
			spec.escrow = true
			var spent time.Duration
			var dealBytes, entries int
			for b.Loop() {
				w := newWorld(b, spec, "")
				step := func() {
					if v := w.feed(b, w.write(b, nil)); v != nil {
						b.Fatal(v)
					}
				}
				for w.obs.Len() <= uint64(n) { // the genesis and the keys
					step()
				}
				start := time.Now()
				for w.obs.Len() <= uint64(2*n) { // the deals
					step()
				}
				spent += time.Since(start)
				for !w.obs.Ordered() {
					step()
				}
				dealBytes, entries = 0, len(w.log)
				for _, e := range w.log {
					if e.Kind == protocol.KindEscrow {
						dealBytes += len(e.Marshal())
					}
				}
			}
			// The n nodes and the observer each do the same checks; each node also deals.
			b.ReportMetric(float64(spent.Microseconds())/float64(b.N)/float64(n+1)/1000, "escrow-ms/node")
			b.ReportMetric(float64(dealBytes), "escrow-B/table")
			b.ReportMetric(float64(entries), "start-entries")
		})
	}
}
