package main

import (
	"crypto/rand"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"corruption/protocol"
)

// BenchmarkFormLibp2p measures the time to form a table: from the nodes' start (bot nodes in
// this process, over libp2p on loopback, the first one's address given to the others) to the
// genesis adopted by the last of them; p50 and max over the runs, in ms.
// Run: go test -run='^$' -bench=FormLibp2p -benchtime=10x ./cmd/corruption/
func BenchmarkFormLibp2p(b *testing.B) {
	for _, n := range []int{5, 7} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var forms []time.Duration
			for b.Loop() {
				var mu sync.Mutex
				formed := map[int]time.Time{}
				var nonce [4]byte
				rand.Read(nonce[:])
				began := time.Now()
				playLibp2pWith(b, n, fmt.Sprintf("form-%x", nonce), nil, func(i int) func(protocol.Status) {
					return func(s protocol.Status) {
						if s.Entries > 0 {
							mu.Lock()
							if _, ok := formed[i]; !ok {
								formed[i] = time.Now()
							}
							mu.Unlock()
						}
					}
				})
				last := began
				for _, t := range formed {
					if t.After(last) {
						last = t
					}
				}
				forms = append(forms, last.Sub(began))
			}
			slices.Sort(forms)
			b.ReportMetric(float64(forms[len(forms)/2].Microseconds())/1000, "p50-form-ms")
			b.ReportMetric(float64(forms[len(forms)-1].Microseconds())/1000, "max-form-ms")
		})
	}
}
