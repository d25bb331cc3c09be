package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corruption/engine"
	corruption "corruption/engine/corruption"
	"corruption/p2p"
	"corruption/ui"
)

// TestRelayFlags: bad limit flags of corruption relay are usage errors that name the flag and
// what was wrong, before anything starts.
func TestRelayFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--circuit-time", "500ms"}, "--circuit-time: 500ms is too short (at least 1s)"},
		{[]string{"--circuit-data", "lots"}, `--circuit-data: "lots" is not a size`},
		{[]string{"--circuit-data", "-5MB"}, `--circuit-data: "-5MB" is not a size`},
		{[]string{"--circuit-data", "100KB"}, "--circuit-data: 100KB is too small (at least 256 KiB"},
		{[]string{"--reservations", "0"}, "--reservations: 0, want at least 1"},
		{[]string{"--reservations-per-ip", "-1"}, "--reservations-per-ip: -1, want at least 1"},
		{[]string{"--reservations-per-64", "0"}, "--reservations-per-64: 0, want at least 1"},
	} {
		r := runCLI(t, append([]string{"relay", "--listen", "/ip4/127.0.0.1/tcp/0"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("corruption relay %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"1000", 1000}, {"1.5GiB", 3 << 29}, {"500MB", 500e6}, {"64 kib", 64 << 10}, {"2KB", 2000}, {"7B", 7}} {
		if got, err := parseSize(tc.in); err != nil || got != tc.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "MB", "1.2.3KB", "NaN", "Inf GB", "1e300GB", "5 parsecs"} {
		if n, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", bad, n)
		}
	}
}

// TestRelayLimitsLine: corruption relay says the limits it runs with, its defaults or as its
// flags raise them.
func TestRelayLimitsLine(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "circuits cut after 12h0m0s or 675 MiB either way; at most 128 reservations, 4 per IP address, 4 per IPv6 /64"},
		{[]string{"--circuit-time", "24h"}, "circuits cut after 24h0m0s or 1.3 GiB either way; at most 128 reservations, 4 per IP address, 4 per IPv6 /64"},
		{[]string{"--circuit-time", "3h", "--circuit-data", "2GB", "--reservations", "10", "--reservations-per-ip", "2", "--reservations-per-64", "3"},
			"circuits cut after 3h0m0s or 1.9 GiB either way; at most 10 reservations, 2 per IP address, 3 per IPv6 /64"},
	} {
		relay := start(ctx, t, "relay", append([]string{"relay", "--listen", "/ip4/127.0.0.1/tcp/0"}, tc.args...)...)
		relay.waitLine(t, regexp.MustCompile("^"+regexp.QuoteMeta(tc.want)+"$"), 20*time.Second)
		relay.kill(t)
	}
}

// TestTableOutlivesCircuits: a relay whose circuits last a second, and three bot nodes that
// listen nowhere and reach each other only through it. The first player holds its first
// decision until the relay has cut a circuit at its time limit, so the table outlives its
// circuits whatever the machine's speed: the nodes open new circuits (and again every second)
// and the table plays on to its end, every node with the same log.
func TestTableOutlivesCircuits(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
	defer cancel()
	cut := make(chan string, 1)
	var cuts atomic.Int64
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	relay, err := p2p.New(ctx, p2p.Config{Identity: key, RelayService: true, Exchange: true,
		RelayLimits: p2p.RelayLimits{CircuitTime: time.Second},
		Logf: func(f string, a ...any) {
			if l := fmt.Sprintf(f, a...); strings.Contains(l, "at its time limit") {
				cuts.Add(1)
				select {
				case cut <- l:
				default:
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close()
	const n = 3
	choice := ui.TableChoice{Table: tableName(t), Game: "corruption", Players: n, Config: corruption.EncodeConfig(corruption.Standard, false)}
	results := make(chan *played, n)
	hold := &holdingPlayer{holding: make(chan struct{}), release: make(chan struct{})}
	for i := range n {
		s, err := openSession(ctx, sessionConfig{listen: []string{"none"}, relays: []string{relay.Addrs()[0]}})
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		player, err := botPlayer(games["corruption"], uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			hold.Player = player
			player = hold
		}
		st := seat{choice: choice, name: fmt.Sprint(i), clock: tableClock{timeout: 30 * time.Second, wait: time.Minute}, player: player}
		go func() {
			r, err := s.play(ctx, st)
			if err != nil {
				r = &played{err: err}
			}
			results <- r
		}()
	}
	select {
	case <-hold.holding:
	case <-ctx.Done():
		t.Fatal("the first player was never asked to decide")
	}
	// Drop a cut from before the table's first decision: the one that counts comes during it.
	select {
	case <-cut:
	default:
	}
	select {
	case l := <-cut:
		t.Logf("while the first player held: %s", l)
	case <-ctx.Done():
		t.Fatal("the relay cut no circuit at its time limit while the first player held")
	}
	close(hold.release)
	var first *played
	for range n {
		r := <-results
		if r.err != nil || !r.out.Finished {
			t.Fatalf("node: %v %+v", r.err, r.out)
		}
		if first == nil {
			first = r
		} else if r.out.Digest != first.out.Digest || r.out.Entries != first.out.Entries {
			t.Fatalf("the nodes disagree: %+v and %+v", first.out, r.out)
		}
	}
	t.Logf("%d entries; the relay cut %d circuits at their time limit", first.out.Entries, cuts.Load())
}

// holdingPlayer holds its first decision until released, and says when it starts holding.
type holdingPlayer struct {
	engine.Player
	once    sync.Once
	holding chan struct{}
	release chan struct{}
}

func (p *holdingPlayer) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	p.once.Do(func() {
		close(p.holding)
		select {
		case <-p.release:
		case <-ctx.Done():
		}
	})
	return p.Player.Decide(ctx, g, seat)
}
