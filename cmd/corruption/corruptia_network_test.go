package main

// Corruptia network tables: corruption bot --game corruptia processes on this machine's
// loopback, and nodes of this process over real libp2p that talk in the table's chat.

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/p2p"
	"corruption/protocol"
	"corruption/ui"
)

// TestCorruptiaBots: four (and two) corruption bot --game corruptia processes find each other
// through --peer, play a whole table and agree; their logs are identical and audit as valid, and
// replay tells the game round by round to its end.
func TestCorruptiaBots(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	for _, n := range []int{4, 2} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
			defer cancel()
			ps := newPlayers(t, n)
			procs := startWithPeer(ctx, t, tableName(t), ps, []string{"--game", "corruptia", "--players", fmt.Sprint(n), "--amendments", "2"})
			out, _ := finish(t, procs, ps, n)
			if t.Failed() {
				return
			}
			r := runCLI(t, "replay", ps[n-1].log)
			if r.code != 0 {
				t.Fatalf("%v", r)
			}
			for _, want := range []string{"== Round 1 ==", "== Round 5 ==", "proposes", "the votes:", "the game is over", out.Digest} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the replay does not say %q\n%s", want, r.stdout)
				}
			}
		})
	}
}

// talkingPlayer says its line in the table's chat at its first decision, then plays as p.
type talkingPlayer struct {
	engine.Player
	chat *ui.NodeSlot
	line string
	once sync.Once
	err  error
}

func (p *talkingPlayer) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	p.once.Do(func() { p.err = p.chat.Say(p.line) })
	return p.Player.Decide(ctx, g, seat)
}

// TestCorruptiaChatLibp2p: at a table of three Corruptia nodes over real libp2p (the table's
// topic checks every message with protocol.Check), each player says a line in the chat; every
// node's person is told every line once, its own included; each node keeps them beside its
// log, signed by their speakers; and the table plays on to its end.
func TestCorruptiaChatLibp2p(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	const n = 3
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	config, _ := rules.EncodeConfig(rules.DefaultConfig())
	choice := ui.TableChoice{Table: tableName(t), Game: "corruptia", Players: n, Config: config}
	var mu sync.Mutex
	heard := make([][]protocol.ChatMessage, n)
	players := make([]*talkingPlayer, n)
	sessions := make([]*session, n)
	type ended struct {
		node int
		r    *played
	}
	results := make(chan ended, n)
	var first string
	for i := range n {
		cfg := sessionConfig{listen: []string{p2p.DefaultListen}, data: filepath.Join(t.TempDir(), fmt.Sprint(i))}
		if i > 0 {
			cfg.peers = []string{first}
		}
		s, err := openSession(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		sessions[i] = s
		if i == 0 {
			first = s.host.Addrs()[0]
		}
		bot, err := botPlayer(games["corruptia"], uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		slot := &ui.NodeSlot{}
		players[i] = &talkingPlayer{Player: bot, chat: slot, line: fmt.Sprintf("player %d: yes to education, if you offer me an employee", i)}
		st := seat{choice: choice, name: fmt.Sprintf("p%d", i), player: players[i], slot: slot, onChat: func(m protocol.ChatMessage) {
			mu.Lock()
			heard[i] = append(heard[i], m)
			mu.Unlock()
		}}
		go func() {
			r, err := s.play(ctx, st)
			if err != nil {
				r = &played{err: err}
			}
			results <- ended{i, r}
		}()
	}
	var genesis *protocol.Genesis
	var last ended
	for range n {
		last = <-results
		if r := last.r; r.err != nil || !r.out.Finished {
			t.Fatalf("node: %v %+v", r.err, r.out)
		}
		genesis = last.r.node.Table().Genesis()
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range n {
		if players[i].err != nil {
			t.Fatalf("player %d cannot say its line: %v", i, players[i].err)
		}
		got := map[string]int{}
		for _, m := range heard[i] {
			got[m.Name+": "+m.Text]++
		}
		for j := range n {
			if line := fmt.Sprintf("p%d: player %d: yes to education, if you offer me an employee", j, j); got[line] != 1 {
				t.Errorf("player %d was told %q %d times: %v", i, line, got[line], got)
			}
		}
		f, err := os.Open(sessions[i].store.ChatPath(choice.Table))
		if err != nil {
			t.Fatal(err)
		}
		kept, err := protocol.ReadChat(f)
		f.Close()
		if err != nil || len(kept) != n {
			t.Fatalf("node %d keeps %d chat messages (%v), want %d", i, len(kept), err, n)
		}
		for _, m := range kept {
			if err := m.Verify(genesis); err != nil {
				t.Errorf("node %d's chat file: %v", i, err)
			}
		}
	}
	checkSavedChat(t, sessions[last.node], last.r, n)
}

// checkSavedChat: --out LOG saves the chat beside the log, as LOG.chat, and audit --chat checks
// every message against the log's players and prints it; a message changed after it was said,
// or a chat of another table, fails with the reason.
func checkSavedChat(t *testing.T, s *session, r *played, n int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "table.log")
	if err := s.saveOut(r, out); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, "audit", "--chat", out+".chat", out)
	if res.code != 0 || !strings.Contains(res.stdout, fmt.Sprintf("chat: %d messages, each signed by its speaker", n)) {
		t.Fatalf("audit --chat of the saved chat:\n%v", res)
	}
	for j := range n {
		// Each speaker by name and seat, its message's number, the text isolated.
		line := regexp.MustCompile(fmt.Sprintf(`\x{2068}p%d\x{2069} \(seat \d\) #1: \x{2068}player %d: yes to education, if you offer me an employee\x{2069}`, j, j))
		if !line.MatchString(res.stdout) {
			t.Errorf("audit --chat does not print %s\n%s", line, res.stdout)
		}
	}
	if res := runCLI(t, "audit", "--chat", out+".chat", "--json", out); res.code != 2 {
		t.Errorf("audit --chat --json: want a usage error\n%v", res)
	}
	// A message whose text was changed after it was signed, framed again with a good checksum.
	f, err := os.Open(out + ".chat")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := protocol.ReadChat(f)
	f.Close()
	if err != nil || len(kept) != n {
		t.Fatalf("the saved chat holds %d messages (%v), want %d", len(kept), err, n)
	}
	kept[1].Text = strings.Replace(kept[1].Text, "yes", "no", 1)
	forged := []byte(protocol.ChatMagic)
	for _, m := range kept {
		b := m.Marshal()
		forged = binary.BigEndian.AppendUint32(forged, uint32(len(b)))
		forged = append(forged, b...)
		forged = binary.BigEndian.AppendUint32(forged, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
	}
	if err := os.WriteFile(out+".forged", forged, 0o644); err != nil {
		t.Fatal(err)
	}
	if res := runCLI(t, "audit", "--chat", out+".forged", out); res.code != 1 || !strings.Contains(res.stderr, "bad signature") {
		t.Errorf("audit --chat of a changed message: want exit 1 and a bad signature\n%v", res)
	}
	other := filepath.Join("..", "..", "protocol", "testdata", "corruptia-4.log")
	if res := runCLI(t, "audit", "--chat", out+".chat", other); res.code != 1 || !strings.Contains(res.stderr, "belongs to another table") {
		t.Errorf("audit --chat of another table's chat: want exit 1, another table\n%v", res)
	}
}

// playCorruptiaLibp2p plays one Corruptia table of n heuristic bot nodes in this process, each
// a session as corruption bot runs it, over real libp2p on loopback; node i's player is wrapped
// by wrap and its status changes told to onChange, when they are set. It returns how each node
// ended, in the order they did.
func playCorruptiaLibp2p(b *testing.B, n int, table string, wrap func(int, engine.Player) engine.Player, onChange func(int) func(protocol.Status)) []*played {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	config, _ := rules.EncodeConfig(rules.DefaultConfig())
	choice := ui.TableChoice{Table: table, Game: "corruptia", Players: n, Config: config}
	results := make(chan *played, n)
	var first string
	for i := range n {
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
		player, err := botPlayer(games["corruptia"], uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		st := seat{choice: choice, name: fmt.Sprint(i), player: player}
		if wrap != nil {
			st.player = wrap(i, player)
		}
		if onChange != nil {
			st.onChange = onChange(i)
		}
		go func() {
			r, err := s.play(ctx, st)
			if err != nil {
				r = &played{seat: st, err: err}
			}
			results <- r
		}()
	}
	digest := ""
	var out []*played
	for range n {
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

// BenchmarkCorruptiaGame4Libp2p is one whole 4-senator Corruptia table among heuristic bot
// nodes in one process, over real libp2p on loopback, with all the cryptography: wall time per
// game.
//
//	go test -run='^$' -bench=CorruptiaGame4Libp2p -benchtime=3x ./cmd/corruption/
func BenchmarkCorruptiaGame4Libp2p(b *testing.B) {
	for b.Loop() {
		var nonce [4]byte
		rand.Read(nonce[:])
		playCorruptiaLibp2p(b, 4, fmt.Sprintf("bench-corruptia-%x", nonce), nil, nil)
	}
}

// ctiaTimed notes when each of its decisions is handed to the node.
type ctiaTimed struct {
	engine.Player
	mu   *sync.Mutex
	when *[]time.Time
}

func (p ctiaTimed) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	a, err := p.Player.Decide(ctx, g, seat)
	p.mu.Lock()
	*p.when = append(*p.when, time.Now())
	p.mu.Unlock()
	return a, err
}

// BenchmarkCorruptiaMoveLatency4Libp2p measures, over real libp2p on loopback, for every
// decision of 4-senator Corruptia tables (a move, or a vote's commitment), the time from the bot
// handing it to its node to the entry being applied on every node: median and 99th percentile.
//
//	go test -run='^$' -bench=CorruptiaMoveLatency4Libp2p -benchtime=3x ./cmd/corruption/
func BenchmarkCorruptiaMoveLatency4Libp2p(b *testing.B) {
	const n = 4
	var lat []time.Duration
	games := 0
	for b.Loop() {
		games++
		var mu sync.Mutex
		decided := make([][]time.Time, n)
		applied := make([][]time.Time, n)
		var nonce [4]byte
		rand.Read(nonce[:])
		runs := playCorruptiaLibp2p(b, n, fmt.Sprintf("lat-corruptia-%x", nonce),
			func(i int, p engine.Player) engine.Player { return ctiaTimed{p, &mu, &decided[i]} },
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
		log := runs[0].node.Table().Entries(0)
		for _, r := range runs {
			i, _ := strconv.Atoi(r.seat.name)
			k := 0
			for _, e := range log {
				if e.Seat != r.out.Seat || (e.Kind != protocol.KindMove && e.Kind != protocol.KindCommit) {
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
				lat = append(lat, all.Sub(decided[i][k]))
				k++
			}
		}
		mu.Unlock()
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(lat))/float64(games), "decisions/game")
}
