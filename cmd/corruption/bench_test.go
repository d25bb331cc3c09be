package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/p2p"
	"corruption/protocol"
	"corruption/ui"
)

// playLibp2p plays one standard table of n heuristic bot nodes in this process, each a session
// as corruption bot runs it, over real libp2p on loopback (the first node's address given to
// the others as --peer would).
func playLibp2p(b *testing.B, n int, table string) []*played {
	return playLibp2pWith(b, n, table, nil, nil)
}

// playLibp2pWith is playLibp2p with node i's player wrapped by wrap and its status changes
// told to onChange (either may be nil).
func playLibp2pWith(b *testing.B, n int, table string, wrap func(int, engine.Player) engine.Player, onChange func(int) func(protocol.Status)) []*played {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	choice := ui.TableChoice{Table: table, Game: "corruption", Players: n, Config: rules.EncodeConfig(rules.Standard, false)}
	results := make(chan *played, n)
	var first string
	for i := 0; i < n; i++ {
		cfg := sessionConfig{listen: []string{p2p.DefaultListen}}
		if i > 0 {
			cfg.peers = []string{first}
		}
		s, err := openSession(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer s.close()
		if i == 0 {
			first = s.host.Addrs()[0]
		}
		player, err := botPlayer(games["corruption"], uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		st := seat{choice: choice, name: fmt.Sprint(i), clock: tableClock{timeout: 30 * time.Second, wait: time.Minute}, player: player}
		if wrap != nil {
			st.player = wrap(i, player)
		}
		if onChange != nil {
			st.onChange = onChange(i)
		}
		go func() {
			r, err := s.play(ctx, st)
			if err != nil {
				r = &played{err: err}
			}
			results <- r
		}()
	}
	var digest string
	var out []*played
	for i := 0; i < n; i++ {
		r := <-results
		out = append(out, r)
		if r.err != nil || !r.out.Finished {
			b.Fatalf("node: %v %+v", r.err, r.out)
		}
		if digest == "" {
			digest = r.out.Digest
		} else if r.out.Digest != digest {
			b.Fatal("nodes disagree on the final digest")
		}
	}
	return out
}

func benchLibp2p(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		var nonce [4]byte
		rand.Read(nonce[:])
		playLibp2p(b, n, fmt.Sprintf("bench-%x", nonce))
	}
}

// BenchmarkGame5Libp2p is one whole 5-player standard table among bot nodes in one process,
// over real libp2p on loopback, with all the cryptography: wall time per game.
// Run: go test -run='^$' -bench=Libp2p -benchtime=3x ./cmd/corruption/
func BenchmarkGame5Libp2p(b *testing.B) { benchLibp2p(b, 5) }

// BenchmarkGame7Libp2p is the same with seven players.
func BenchmarkGame7Libp2p(b *testing.B) { benchLibp2p(b, 7) }

// BenchmarkMoveLatencyLibp2p measures, over real libp2p on loopback, for every decision of
// 5- and 7-player tables of bot nodes in one process, the time from the player handing it to
// its node to the entry being applied on every node: median and 99th percentile, in ms.
// Run: go test -run='^$' -bench=MoveLatencyLibp2p -benchtime=3x ./cmd/corruption/
func BenchmarkMoveLatencyLibp2p(b *testing.B) {
	for _, n := range []int{5, 7} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var lat []time.Duration
			games := 0
			for b.Loop() {
				games++
				lat = append(lat, libp2pLatencies(b, n)...)
			}
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
			b.ReportMetric(pct(0.5), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(len(lat))/float64(games), "moves/game")
		})
	}
}

// timedPlayer notes when each of its decisions is handed to the node.
type timedPlayer struct {
	engine.Player
	mu   *sync.Mutex
	when *[]time.Time
}

func (p timedPlayer) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	a, err := p.Player.Decide(ctx, g, seat)
	p.mu.Lock()
	*p.when = append(*p.when, time.Now())
	p.mu.Unlock()
	return a, err
}

func libp2pLatencies(b *testing.B, n int) []time.Duration {
	var mu sync.Mutex
	decided := make([][]time.Time, n)
	applied := make([][]time.Time, n)
	var nonce [4]byte
	rand.Read(nonce[:])
	runs := playLibp2pWith(b, n, fmt.Sprintf("lat-%x", nonce),
		func(i int, p engine.Player) engine.Player { return timedPlayer{p, &mu, &decided[i]} },
		func(i int) func(protocol.Status) {
			return func(s protocol.Status) {
				now := time.Now()
				mu.Lock()
				defer mu.Unlock()
				for len(applied[i]) < s.Entries {
					applied[i] = append(applied[i], now)
				}
			}
		})
	mu.Lock()
	defer mu.Unlock()
	log := runs[0].node.Table().Entries(0)
	// runs arrive in the order the nodes finished: find each one's index by its player's seat.
	var out []time.Duration
	for i := range n {
		k := 0
		seatOf := -1
		for _, r := range runs {
			if r.seat.name == strconv.Itoa(i) {
				seatOf = r.out.Seat
			}
		}
		for _, e := range log {
			if e.Seat != seatOf || (e.Kind != protocol.KindMove && e.Kind != protocol.KindCommit) {
				continue
			}
			if k >= len(decided[i]) {
				b.Fatalf("node %d wrote more decisions than its player made", i)
			}
			all := decided[i][k]
			for j := range n {
				if int(e.Seq) >= len(applied[j]) {
					b.Fatalf("node %d never reported entry %d applied", j, e.Seq)
				}
				if applied[j][e.Seq].After(all) {
					all = applied[j][e.Seq]
				}
			}
			out = append(out, all.Sub(decided[i][k]))
			k++
		}
	}
	return out
}
