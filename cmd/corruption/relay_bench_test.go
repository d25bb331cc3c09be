package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	corruptia "corruption/engine/corruptia"
	corruption "corruption/engine/corruption"
	kingdoms "corruption/engine/kingdoms"
	"corruption/p2p"
	"corruption/protocol"
	"corruption/ui"
)

// BenchmarkRelayedTables plays each game's largest table of heuristic bot nodes in this process,
// every node listening nowhere and reaching the others only through a relay on loopback (as
// behind NATs nobody can dial through), and measures what the relay's circuits carry: the most
// bytes one circuit carried one way over the whole table, and the table's time, from the first
// circuit's opening to the last node's end; and, while the first player holds its first decision for
// relayIdleWindow, the bytes per second a circuit carries with nobody moving (every node
// announces its head each tick): the figures the relay's default limits are sized from
// (docs/PERFORMANCE.md, "Relayed tables").
//
//	go test -run='^$' -bench=RelayedTables -benchtime=1x ./cmd/corruption/
func BenchmarkRelayedTables(b *testing.B) {
	corruptiaConfig, err := corruptia.EncodeConfig(corruptia.DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		game    *game
		players int
		config  []byte
	}{
		{games["corruption"], corruption.MaxPlayers, corruption.EncodeConfig(corruption.Standard, false)},
		{games["kingdoms"], kingdoms.MaxPlayers, kingdoms.EncodeConfig(kingdoms.Advanced)},
		{games["corruptia"], corruptia.MaxPlayers, corruptiaConfig},
	} {
		b.Run(fmt.Sprintf("%s-%d", tc.game.ID, tc.players), func(b *testing.B) {
			for b.Loop() {
				m := playRelayed(b, tc.game, tc.players, tc.config)
				b.ReportMetric(float64(m.most), "circuit-max-B")
				b.ReportMetric(m.played.Seconds(), "table-s")
				b.ReportMetric(float64(m.most)/m.played.Seconds(), "circuit-max-B/s")
				b.ReportMetric(m.idle, "idle-max-B/s")
				b.ReportMetric(float64(m.decisions), "decisions")
				b.ReportMetric(float64(m.circuits), "circuits")
			}
		})
	}
}

// relayIdleWindow is how long the first player holds its first decision; the idle rate is
// measured over it, less relayIdleSettle at its start (the moves under way).
const (
	relayIdleWindow = 20 * time.Second
	relayIdleSettle = 2 * time.Second
)

type relayedMeasure struct {
	most      int64         // bytes, one circuit one way, the idle window's left out
	played    time.Duration // the table, the idle window left out
	idle      float64       // bytes a second, one circuit one way, the most, nobody moving
	decisions int
	circuits  int
}

func playRelayed(b *testing.B, g *game, n int, config []byte) relayedMeasure {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	relay, err := p2p.New(ctx, p2p.Config{Identity: key, RelayService: true, Exchange: true})
	if err != nil {
		b.Fatal(err)
	}
	defer relay.Close()
	var nonce [4]byte
	rand.Read(nonce[:])
	choice := ui.TableChoice{Table: fmt.Sprintf("relayed-%x", nonce), Game: g.ID, Players: n, Config: config}
	results := make(chan *played, n)
	hold := &holdingPlayer{holding: make(chan struct{}), release: make(chan struct{})}
	for i := range n {
		s, err := openSession(ctx, sessionConfig{listen: []string{"none"}, relays: []string{relay.Addrs()[0]}})
		if err != nil {
			b.Fatal(err)
		}
		defer s.close()
		player, err := botPlayer(g, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			hold.Player = player
			player = hold
		}
		st := seat{choice: choice, name: fmt.Sprint(i), clock: tableClock{timeout: time.Minute, wait: 2 * time.Minute}, player: player}
		go func() {
			r, err := s.play(ctx, st)
			if err != nil {
				r = &played{err: err}
			}
			results <- r
		}()
	}
	key2 := func(c p2p.Circuit) string { return c.From + c.To + c.Opened.String() }
	select {
	case <-hold.holding:
	case <-ctx.Done():
		b.Fatal("the first player was never asked to decide")
	}
	held := time.Now()
	time.Sleep(relayIdleSettle) // the measurement's window, not a synchronisation
	before := map[string]p2p.Circuit{}
	for _, c := range relay.Circuits() {
		before[key2(c)] = c
	}
	from := time.Now()
	time.Sleep(relayIdleWindow - relayIdleSettle)
	window := time.Since(from)
	var idle float64
	inWindow := map[string]p2p.Circuit{} // bytes each circuit carried while the player held
	for _, c := range relay.Circuits() {
		if a, ok := before[key2(c)]; ok {
			d := p2p.Circuit{Sent: c.Sent - a.Sent, Back: c.Back - a.Back}
			inWindow[key2(c)] = d
			idle = max(idle, float64(max(d.Sent, d.Back))/window.Seconds())
		}
	}
	close(hold.release)
	heldFor := time.Since(held)
	var runs []*played
	for range n {
		r := <-results
		if r.err != nil || !r.out.Finished {
			b.Fatalf("node: %v %+v", r.err, r.out)
		}
		runs = append(runs, r)
	}
	// Every node is done and still connected: the circuits are open, with what they carried.
	m := relayedMeasure{idle: idle}
	circuits := relay.Circuits()
	m.circuits = len(circuits)
	var first time.Time
	for _, c := range circuits {
		d := inWindow[key2(c)]
		m.most = max(m.most, c.Sent-d.Sent, c.Back-d.Back)
		if first.IsZero() || c.Opened.Before(first) {
			first = c.Opened
		}
	}
	m.played = time.Since(first) - heldFor
	for _, e := range runs[0].node.Table().Entries(0) {
		if e.Kind == protocol.KindMove || e.Kind == protocol.KindCommit {
			m.decisions++
		}
	}
	slices.SortFunc(circuits, func(a, b p2p.Circuit) int { return int(max(b.Sent, b.Back) - max(a.Sent, a.Back)) })
	for _, c := range circuits {
		b.Logf("circuit %.8s→%.8s: %d bytes sent, %d back, open %v", c.From[len(c.From)-8:], c.To[len(c.To)-8:], c.Sent, c.Back, time.Since(c.Opened).Round(time.Millisecond))
	}
	return m
}
