package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/p2p"
	"corruption/ui"
	board "corruption/ui/kingdoms"
)

// playKingdomsLibp2p plays one table of Corrupted Kingdoms (the advanced rules) among n
// heuristic bot nodes in this process, each a session as corruption bot runs it (its answers
// to steals and votes sent board.BotAnswerDelay after it is asked), over real libp2p on loopback. It
// returns the log's length and how many answers the bots gave.
func playKingdomsLibp2p(b *testing.B, n int) (entries, answers int) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var nonce [4]byte
	rand.Read(nonce[:])
	choice := ui.TableChoice{Table: fmt.Sprintf("bench-k-%x", nonce), Game: "kingdoms", Players: n, Config: rules.EncodeConfig(rules.Advanced)}
	results := make(chan *played, n)
	var counted atomic.Int64
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
		player, err := botPlayer(games["kingdoms"], uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		st := seat{choice: choice, name: fmt.Sprint(i), clock: tableClock{timeout: 30 * time.Second, wait: time.Minute},
			player: answerCounter{player, &counted}}
		go func() {
			r, err := s.play(ctx, st)
			if err != nil {
				r = &played{err: err}
			}
			results <- r
		}()
	}
	var digest string
	for i := 0; i < n; i++ {
		r := <-results
		if r.err != nil || !r.out.Finished {
			b.Fatalf("node: %v %+v", r.err, r.out)
		}
		if digest == "" {
			digest, entries = r.out.Digest, r.out.Entries
		} else if r.out.Digest != digest {
			b.Fatal("nodes disagree on the final digest")
		}
	}
	return entries, int(counted.Load())
}

// answerCounter counts the answers its player gives to steals and votes.
type answerCounter struct {
	engine.Player
	n *atomic.Int64
}

func (p answerCounter) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if board.Answering(g, seat) {
		p.n.Add(1)
	}
	return p.Player.Decide(ctx, g, seat)
}

// BenchmarkKingdoms4Libp2p is one whole 4-player table of Corrupted Kingdoms (the advanced
// rules) among heuristic bot nodes in one process, over real libp2p on loopback, with all the
// cryptography: wall time per game, with the log's entries and the answers in response rounds
// (each waits board.BotAnswerDelay) per game.
// Run: go test -run='^$' -bench=Kingdoms4Libp2p -benchtime=3x ./cmd/corruption/
func BenchmarkKingdoms4Libp2p(b *testing.B) {
	var entries, answers int
	for b.Loop() {
		e, a := playKingdomsLibp2p(b, 4)
		entries, answers = entries+e, answers+a
	}
	b.ReportMetric(float64(entries)/float64(b.N), "entries/game")
	b.ReportMetric(float64(answers)/float64(b.N), "answers/game")
	b.ReportMetric(float64(answers)*board.BotAnswerDelay.Seconds()/float64(b.N), "answer-delay-s/game")
}
