package protocol_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/protocol"
)

// kingdomsLockstep plays a whole Corrupted Kingdoms table (the advanced rules, heuristic bots)
// in a lockstep world and returns its log file and the time the world's n+1 tables (every
// seat's node and the observer) spent on the table's work: writing the entries and validating
// every one, the bots' thinking left out.
func kingdomsLockstep(b testing.TB, n int, run int) ([]byte, time.Duration) {
	w := newWorld(b, kingdomsWorld(fmt.Sprintf("bench kingdoms %d %d", n, run), "", n, kingdoms.Advanced), "")
	bots := w.botDecider(b)
	var thinking time.Duration
	dec := func(seq uint64, seat int, g engine.Game) engine.Action {
		start := time.Now()
		defer func() { thinking += time.Since(start) }()
		return bots(seq, seat, g)
	}
	start := time.Now()
	if v := w.play(b, dec, nil); v != nil {
		b.Fatalf("the table halts: %v", v)
	}
	return logBytes(b, w.log), time.Since(start) - thinking
}

// BenchmarkKingdomsNodeCPU4 measures the table work of one node of a 4-player Corrupted
// Kingdoms game with the advanced rules (its keys, its shuffles of the twelve decks, its shares
// of every deal, its commitments, and verifying everyone else's): the lockstep world's work
// shared by its five tables (four nodes and an observer, which verifies as a node does), in
// ms/node, with the log's size and entries.
//
//	go test -run='^$' -bench=BenchmarkKingdomsNodeCPU4 -benchtime=3x -cpu=1 ./protocol/
func BenchmarkKingdomsNodeCPU4(b *testing.B) {
	var total time.Duration
	var size, runs, entries int
	for b.Loop() {
		log, spent := kingdomsLockstep(b, 4, runs)
		total += spent
		es, err := protocol.ReadLog(bytes.NewReader(log))
		if err != nil {
			b.Fatal(err)
		}
		size, entries, runs = size+len(log), entries+len(es), runs+1
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(5*runs), "ms/node")
	b.ReportMetric(float64(size)/float64(runs), "log-bytes")
	b.ReportMetric(float64(entries)/float64(runs), "entries")
}

// BenchmarkKingdomsAudit4 audits the log of a whole 4-player Corrupted Kingdoms table: every
// signature, proof, commitment and rule.
//
//	go test -run='^$' -bench=BenchmarkKingdomsAudit4 -benchtime=5x -cpu=1 ./protocol/
func BenchmarkKingdomsAudit4(b *testing.B) {
	log, _ := kingdomsLockstep(b, 4, 0)
	b.SetBytes(int64(len(log)))
	b.ResetTimer()
	for b.Loop() {
		rep, err := protocol.Audit(bytes.NewReader(log), engine.Options{})
		if err != nil || !rep.Valid {
			b.Fatalf("audit: %v %+v", err, rep)
		}
	}
}
