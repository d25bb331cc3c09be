package protocol_test

import (
	"bytes"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/protocol"
)

// lockstepLog plays a whole table in lockstep and returns its log file and, per node, the time
// it spent on the table's work (validating every entry, writing its own).
func lockstepLog(b testing.TB, n int, v corruption.Variant) ([]byte, []time.Duration) {
	f, gen := newFixture(b, n, v, false, 99)
	log := []*protocol.Entry{gen}
	spent := make([]time.Duration, n)
	for {
		seat, _ := f.tables[0].Due()
		if seat < 0 {
			break
		}
		start := time.Now()
		e, err := f.tables[seat].NextEntry(func(v corruption.View) (corruption.Move, bool) { return f.bots[seat].Decide(v), true })
		spent[seat] += time.Since(start)
		if err != nil || e == nil {
			b.Fatalf("seat %d cannot write: %v", seat, err)
		}
		for i, tb := range f.tables {
			start := time.Now()
			if err := tb.Append(e); err != nil {
				b.Fatal(err)
			}
			spent[i] += time.Since(start)
		}
		log = append(log, e)
	}
	var buf bytes.Buffer
	if err := protocol.WriteLog(&buf, log); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes(), spent
}

// BenchmarkAudit7 audits the log of a whole 7-player standard table: every signature, proof,
// commitment and rule.
// Run: go test -run='^$' -bench=BenchmarkAudit7 -benchtime=10x -cpu=1 ./protocol/
func BenchmarkAudit7(b *testing.B) {
	log, _ := lockstepLog(b, 7, corruption.Standard)
	b.SetBytes(int64(len(log)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := protocol.Audit(bytes.NewReader(log))
		if err != nil || !rep.Valid {
			b.Fatalf("audit: %v %+v", err, rep)
		}
	}
}

// BenchmarkNodeCPU7 measures the table work of one node of a 7-player standard game (all of
// its cryptography: keys, shuffle, shares, commitments, and verifying everyone else's), as the
// mean over the seven nodes, in ms/node.
// Run: go test -run='^$' -bench=BenchmarkNodeCPU7 -benchtime=3x -cpu=1 ./protocol/
func BenchmarkNodeCPU7(b *testing.B) {
	var total time.Duration
	var entries int
	for i := 0; i < b.N; i++ {
		log, spent := lockstepLog(b, 7, corruption.Standard)
		for _, d := range spent {
			total += d
		}
		entries = len(log)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(7*b.N), "ms/node")
	b.ReportMetric(float64(entries), "log-bytes")
}
