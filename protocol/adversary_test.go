package protocol_test

// Strangers on the table's channel, and faults at scale (docs/SECURITY.md). The messages the
// outsider forges are built from docs/PROTOCOL.md's layouts, not from the package's encoders.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// Message kinds and layouts from docs/PROTOCOL.md ("Messages on the table's channel").
const (
	specEntry = 'e'
	specHello = 'h'
	specHead  = 'a'
)

func specHeadMsg(table [32]byte, seat int, length uint64, hash, digest [32]byte) []byte {
	b := append([]byte{specHead}, table[:]...)
	b = append(b, byte(seat))
	b = binary.BigEndian.AppendUint64(b, length)
	b = append(b, hash[:]...)
	return append(b, digest[:]...)
}

func specBytes(b, p []byte) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(p))), p...)
}

// specHelloMsg is a validly signed hello from key for table name.
func specHelloMsg(name string, players int, v corruption.Variant, lbb bool, player string, key ed25519.PrivateKey) []byte {
	var f []byte
	f = specBytes(f, []byte(name))
	f = append(f, byte(players), byte(v))
	if lbb {
		f = append(f, 1)
	} else {
		f = append(f, 0)
	}
	f = specBytes(f, []byte(player))
	f = append(f, key.Public().(ed25519.PublicKey)...)
	sig := ed25519.Sign(key, append([]byte("corruption/hello/v1\x00"), f...))
	return append(append([]byte{specHello}, f...), sig...)
}

// junk is an outsider on the table's channel: it holds no seat and no key in the roster. For
// every message it hears it sends perMsg forgeries, from what it has seen.
type junk struct {
	ep     *memnet.Endpoint
	rng    *rand.Rand
	other  []*protocol.Entry // a whole log of another table, validly signed
	perMsg int
	stall  chan struct{} // if set: it announces heads ahead of everyone and never answers a fetch
	seen   []*protocol.Entry
	sent   map[string]int
}

func (j *junk) run(ctx context.Context) {
	j.sent = map[string]int{}
	j.ep.Serve(func(string, []byte) ([]byte, error) {
		if j.stall != nil {
			<-j.stall
			return nil, errors.New("stalled")
		}
		return []byte{0, 2, 0xff, 0xff}, nil // a batch that lies about its lengths
	})
	defer j.ep.Serve(nil)
	for {
		_, data, err := j.ep.Next(ctx)
		if err != nil {
			return
		}
		if len(data) > 1 && data[0] == specEntry {
			if e, err := protocol.ParseEntry(data[1:]); err == nil && (len(j.seen) == 0 || e.Seq > j.seen[len(j.seen)-1].Seq) {
				j.seen = append(j.seen, e)
			}
		}
		if len(j.seen) == 0 {
			continue // nothing to flood before the table forms: a hello would ask for a seat
		}
		for range j.perMsg {
			kind, msg := j.forge()
			j.sent[kind]++
			j.ep.Publish(ctx, msg)
		}
	}
}

func (j *junk) random(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(j.rng.Uint32())
	}
	return b
}

func entryMsg(e *protocol.Entry) []byte { return append([]byte{specEntry}, e.Marshal()...) }

// forge makes one junk message and says what kind it is.
func (j *junk) forge() (string, []byte) {
	last := j.seen[len(j.seen)-1]
	old := j.seen[j.rng.IntN(len(j.seen))]
	if j.stall != nil {
		var hash [32]byte
		return "head ahead", specHeadMsg(last.Table, j.rng.IntN(4), last.Seq+2, hash, hash)
	}
	switch k := j.rng.IntN(14); k {
	case 0:
		return "random bytes", j.random(j.rng.IntN(300))
	case 1:
		return "random entry", append([]byte{specEntry}, j.random(j.rng.IntN(300))...)
	case 2:
		enc := entryMsg(old)
		return "truncated entry", enc[:1+j.rng.IntN(len(enc)-1)]
	case 3:
		enc := entryMsg(old)
		enc[1+j.rng.IntN(len(enc)-1)] ^= 1 << j.rng.IntN(8)
		return "bit-flipped entry", enc
	case 4:
		return "other table's entry", entryMsg(j.other[j.rng.IntN(len(j.other))])
	case 5:
		e := *j.other[1+j.rng.IntN(len(j.other)-1)]
		e.Table = last.Table
		return "other table's entry moved here", entryMsg(&e)
	case 6:
		e := *old
		e.Seq = last.Seq + 1 + uint64(j.rng.IntN(3))
		return "entry ahead", entryMsg(&e)
	case 7:
		var hash [32]byte
		copy(hash[:], j.random(32))
		return "head ahead", specHeadMsg(last.Table, j.rng.IntN(4), last.Seq+1+uint64(j.rng.IntN(1000)), hash, hash)
	case 8:
		_, key, _ := ed25519.GenerateKey(j)
		return "hello from a stranger", specHelloMsg("t", 4, corruption.Standard, true, "stranger", key)
	case 9:
		return "bad hello", append([]byte{specHello}, j.random(j.rng.IntN(200))...)
	case 10:
		return "oversize entry", append([]byte{specEntry}, j.random(protocol.MaxEntrySize+1+j.rng.IntN(100))...)
	case 11:
		return "empty or unknown", j.random(j.rng.IntN(2))
	case 12:
		return "replayed entry", entryMsg(old)
	default:
		_, key, _ := ed25519.GenerateKey(j)
		e := &protocol.Entry{Table: last.Table, Seq: last.Seq + 1, Prev: last.Hash(), Seat: j.rng.IntN(4),
			Kind: protocol.KindPlace, Body: j.random(34)}
		e.Sign(key)
		return "next entry, forged", entryMsg(e)
	}
}

func (j *junk) Read(p []byte) (int, error) { copy(p, j.random(len(p))); return len(p), nil }

// playWithOutsider plays a 4-seat table with an outsider running alongside.
func playWithOutsider(t *testing.T, j *junk, timeout time.Duration, seed uint64) []nodeRun {
	net := memnet.New(seed, memnet.Faults{})
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	jctx, stop := context.WithCancel(ctx)
	j.ep = net.Node("outsider")
	var jw sync.WaitGroup
	jw.Add(1)
	go func() { defer jw.Done(); j.run(jctx) }()
	defer func() {
		stop()
		if j.stall != nil {
			close(j.stall)
		}
		jw.Wait()
	}()
	const n = 4
	base := t.TempDir()
	runs := make([]nodeRun, n)
	var wg sync.WaitGroup
	for i := range n {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i].out, runs[i].err = runFaultNode(ctx, net.Node(fmt.Sprintf("n%d", i)), runs[i].dir, n, corruption.Standard, true, timeout, seed+uint64(i), nil)
		}()
	}
	wg.Wait()
	return runs
}

func runFaultNode(ctx context.Context, nw protocol.Network, dir string, n int, v corruption.Variant, lbb bool, timeout time.Duration, seed uint64, onEvent func(corruption.Event)) (*protocol.Outcome, error) {
	store, err := protocol.OpenStore(dir)
	if err != nil {
		return nil, err
	}
	key, err := store.Identity()
	if err != nil {
		return nil, err
	}
	b, _ := bot.New("heuristic", seed)
	node, err := protocol.NewNode(protocol.NodeConfig{
		Table: "t", Players: n, Variant: v, LBB: lbb, Name: filepath.Base(dir), Timeout: timeout,
		Identity: key, Store: store, Player: protocol.BotPlayer(b), Net: nw,
		Tick: 20 * time.Millisecond, Linger: time.Second, OnEvent: onEvent,
	})
	if err != nil {
		return nil, err
	}
	return node.Run(ctx)
}

// TestJunkFlood: an outsider answers every message on the table's channel with five junk
// messages (random bytes, truncated and bit-flipped entries, another table's validly signed
// entries, entries and heads ahead of the log, hellos, oversize messages, replays, forged next
// entries) and every fetch with a lying batch. The game must complete identically.
func TestJunkFlood(t *testing.T) {
	f, _ := newFixture(t, 4, corruption.Standard, true, 77)
	j := &junk{rng: rand.New(rand.NewPCG(5, 6)), other: f.run(t), perMsg: 5}
	runs := playWithOutsider(t, j, 20*time.Second, 40)
	checkSame(t, runs)
	total := 0
	var kinds []string
	for k, c := range j.sent {
		total += c
		kinds = append(kinds, fmt.Sprintf("%s %d", k, c))
	}
	if total == 0 || len(j.sent) < 14 {
		t.Fatalf("the outsider sent %d junk messages of %d kinds", total, len(j.sent))
	}
	t.Logf("the game completed through %d junk messages: %s", total, strings.Join(kinds, ", "))
}

// TestStallingPeer: an outsider (anyone who joins the table's topic) announces heads ahead of
// everyone, and never answers the fetches they cause. The game must still complete: an
// unsigned head from a stranger must not stall the honest nodes.
func TestStallingPeer(t *testing.T) {
	j := &junk{rng: rand.New(rand.NewPCG(7, 8)), perMsg: 1, stall: make(chan struct{})}
	runs := playWithOutsider(t, j, 3*time.Second, 50)
	for i, r := range runs {
		if r.err != nil {
			t.Errorf("node %d: %v", i, r.err)
		} else if !r.out.Finished {
			t.Errorf("node %d: did not complete: verdict %v", i, r.out.Verdict)
		}
	}
	if !t.Failed() {
		checkSame(t, runs)
	}
}

// slowNet delays every broadcast of one node (a slow peer).
type slowNet struct {
	*memnet.Endpoint
	delay time.Duration
	mu    sync.Mutex
	q     []*time.Timer
}

func (s *slowNet) Publish(ctx context.Context, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	data = bytes.Clone(data)
	s.q = append(s.q, time.AfterFunc(s.delay, func() { s.Endpoint.Publish(context.Background(), data) }))
	return nil
}

func (s *slowNet) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tm := range s.q {
		tm.Stop()
	}
}

// faultPlan is one seeded run of TestFaultsAtScale.
type faultPlan struct {
	n       int
	variant corruption.Variant
	lbb     bool
	faults  memnet.Faults
	// a partition starting at node 0's event partAt (0: none), healing after partFor
	partAt  int
	partFor time.Duration
	side    []string
	// a slow node (-1: none)
	slow      int
	slowDelay time.Duration
	// a node killed at its event killAt (-1: none) and restarted from its data dir; torn: a
	// record cut short at the end of its log, as a crash in the middle of a write leaves it
	kill, killAt int
	torn         bool
}

func newFaultPlan(seed uint64) faultPlan {
	r := rand.New(rand.NewPCG(seed, 0xfa017))
	pick := func(xs ...float64) float64 { return xs[r.IntN(len(xs))] }
	p := faultPlan{n: 3 + r.IntN(2), variant: corruption.Variant(r.IntN(4)), slow: -1, kill: -1}
	if r.IntN(5) == 0 {
		p.n = 5
	}
	p.lbb = p.variant != corruption.Closed && r.IntN(2) == 0
	p.faults = memnet.Faults{Drop: pick(0, 0.02, 0.1, 0.2), Duplicate: pick(0, 0.05, 0.2), Reorder: pick(0, 0.1, 0.3),
		MaxDelay: time.Duration(pick(0, 1, 5)) * time.Millisecond, RequestDrop: pick(0, 0, 0.1)}
	if r.IntN(3) == 0 {
		p.partAt, p.partFor = 20+r.IntN(300), time.Duration(100+r.IntN(700))*time.Millisecond
		for i := range p.n {
			if i == 0 || r.IntN(2) == 0 {
				p.side = append(p.side, fmt.Sprintf("n%d", i))
			}
		}
		if len(p.side) == p.n {
			p.side = p.side[:p.n-1]
		}
	}
	if r.IntN(10) < 3 {
		p.slow, p.slowDelay = r.IntN(p.n), time.Duration(2+r.IntN(18))*time.Millisecond
	}
	if r.IntN(10) < 4 {
		p.kill, p.killAt, p.torn = r.IntN(p.n), 10+r.IntN(400), r.IntN(2) == 0
	}
	return p
}

func (p faultPlan) String() string {
	s := fmt.Sprintf("%d seats, %s, lbb=%v, drop %.2f dup %.2f reorder %.2f delay %v reqdrop %.1f", p.n, p.variant, p.lbb,
		p.faults.Drop, p.faults.Duplicate, p.faults.Reorder, p.faults.MaxDelay, p.faults.RequestDrop)
	if p.partAt > 0 {
		s += fmt.Sprintf(", partition %v from event %d for %v", p.side, p.partAt, p.partFor)
	}
	if p.slow >= 0 {
		s += fmt.Sprintf(", n%d slow by %v", p.slow, p.slowDelay)
	}
	if p.kill >= 0 {
		s += fmt.Sprintf(", n%d killed at event %d (torn record %v)", p.kill, p.killAt, p.torn)
	}
	return s
}

// faultTally counts what TestFaultsAtScale injected and how the games ended.
type faultTally struct {
	runs, complete, verdict                          int
	partitions, slow, kills, torn                    int
	published, dropped, duplicated, reordered, reqFa int
}

// playFaulty plays one plan; it returns each node's run and what was really injected.
func playFaulty(t *testing.T, p faultPlan, seed uint64, tally *faultTally) []nodeRun {
	net := memnet.New(seed, p.faults)
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := t.TempDir()
	runs := make([]nodeRun, p.n)
	var mu sync.Mutex
	var heal *time.Timer
	partitioned, killed := false, false
	var slows []*slowNet
	var wg sync.WaitGroup
	for i := range p.n {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		id := fmt.Sprintf("n%d", i)
		endpoint := func() protocol.Network {
			if i != p.slow {
				return net.Node(id)
			}
			s := &slowNet{Endpoint: net.Node(id), delay: p.slowDelay}
			mu.Lock()
			slows = append(slows, s)
			mu.Unlock()
			return s
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			events := 0 // this node's game events, counted across its restart
			hook := func(corruption.Event) {
				events++
				mu.Lock()
				defer mu.Unlock()
				if i == 0 && events == p.partAt && !partitioned {
					net.Partition(p.side, complement(p.n, p.side))
					heal, partitioned = time.AfterFunc(p.partFor, net.Heal), true
				}
			}
			if i == p.kill {
				kctx, kill := context.WithCancel(ctx)
				out, err := runFaultNode(kctx, endpoint(), runs[i].dir, p.n, p.variant, p.lbb, 10*time.Second, seed+uint64(i), func(ev corruption.Event) {
					if hook(ev); events == p.killAt {
						kill()
					}
				})
				kill()
				if err == nil { // the game ended before the kill point
					runs[i].out = out
					return
				}
				// Killed: the process is gone, and so is its endpoint.
				net.Remove(id)
				if p.torn {
					tearLog(t, runs[i].dir)
				}
				mu.Lock()
				killed = true
				mu.Unlock()
			}
			runs[i].out, runs[i].err = runFaultNode(ctx, endpoint(), runs[i].dir, p.n, p.variant, p.lbb, 10*time.Second, seed+uint64(i), hook)
		}()
	}
	wg.Wait()
	mu.Lock()
	if heal != nil {
		heal.Stop()
	}
	for _, s := range slows {
		s.stop()
	}
	if partitioned {
		tally.partitions++
	}
	if killed {
		tally.kills++
		if p.torn {
			tally.torn++
		}
	}
	mu.Unlock()
	if p.slow >= 0 {
		tally.slow++
	}
	st := net.Stats()
	tally.published += st.Published
	tally.dropped += st.Dropped
	tally.duplicated += st.Duplicated
	tally.reordered += st.Reordered
	tally.reqFa += st.RequestFailures
	return runs
}

func complement(n int, side []string) []string {
	var out []string
	for i := range n {
		id := fmt.Sprintf("n%d", i)
		in := false
		for _, s := range side {
			in = in || s == id
		}
		if !in {
			out = append(out, id)
		}
	}
	return out
}

// tearLog appends the first bytes of a record to a killed node's log, as a crash in the middle
// of writing one leaves it (the record was never synced, so never published).
func tearLog(t *testing.T, dir string) {
	path := filepath.Join(dir, "tables", "t", "log")
	es := readLog(t, dir)
	if len(es) == 0 {
		return
	}
	rec := protocol.AppendRecord(nil, es[len(es)-1])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(rec[:len(rec)/2]); err != nil {
		t.Fatal(err)
	}
}

// checkAgreed checks the invariant of TestFaultsAtScale: every node completed the game with the
// same log, or every node stopped with the same verdict and its log audits to it. It also
// checks that no two logs ever disagree on an entry (safety), whatever happened.
func checkAgreed(t *testing.T, runs []nodeRun) (complete bool) {
	t.Helper()
	logs := make([][]*protocol.Entry, len(runs))
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		logs[i] = readLog(t, r.dir)
		for k := range min(len(logs[i]), len(logs[0])) {
			if logs[i][k].Hash() != logs[0][k].Hash() {
				t.Fatalf("nodes 0 and %d hold different entries at seq %d", i, k)
			}
		}
	}
	if runs[0].out.Verdict == nil {
		checkSame(t, runs)
		return true
	}
	v0 := runs[0].out.Verdict
	for i, r := range runs {
		v := r.out.Verdict
		if v == nil || v.Kind != v0.Kind || v.Seq != v0.Seq || v.Seat != v0.Seat {
			t.Fatalf("node %d ends with %v, node 0 with %v", i, v, v0)
		}
	}
	t.Logf("agreed verdict: %v", v0)
	return false
}

// TestFaultsAtScale plays seeded games on a network with random faults: drops, duplicates,
// reorders, delays, failed fetches, a partition that heals, a slow peer, and a node killed
// at a random point (sometimes mid-write) and restarted from its data directory. Every game
// must complete with identical logs on all nodes, or end with one agreed verdict; no two
// nodes may ever hold different entries for one seq. 20 runs; -long runs 300.
//
//	go test -run TestFaultsAtScale -v ./protocol/            # docs/SECURITY.md's figures
//	go test ./protocol/ -run TestFaultsAtScale -v -timeout 1h -long
func TestFaultsAtScale(t *testing.T) {
	runs := 20
	if *long {
		runs = 300
	}
	var mu sync.Mutex
	var tally faultTally
	sem := make(chan struct{}, 4) // four games at a time: they mostly wait
	var wg sync.WaitGroup
	for i := range runs {
		seed := uint64(1000 + i)
		p := newFaultPlan(seed)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t.Run(fmt.Sprint(seed), func(t *testing.T) {
				var local faultTally
				res := playFaulty(t, p, seed, &local)
				complete := checkAgreed(t, res)
				t.Logf("%s: complete %v", p, complete)
				mu.Lock()
				defer mu.Unlock()
				tally.runs++
				if complete {
					tally.complete++
				} else {
					tally.verdict++
				}
				tally.partitions += local.partitions
				tally.slow += local.slow
				tally.kills += local.kills
				tally.torn += local.torn
				tally.published += local.published
				tally.dropped += local.dropped
				tally.duplicated += local.duplicated
				tally.reordered += local.reordered
				tally.reqFa += local.reqFa
			})
		}()
	}
	wg.Wait()
	t.Logf("%d runs passed the invariant of %d: %d complete with identical logs, %d with one agreed verdict; injected %d partitions (healed), %d slow peers, %d kills with restart (%d with a torn record); the network dropped %d, duplicated %d and reordered %d of %d broadcasts, and failed %d fetches",
		tally.runs, runs, tally.complete, tally.verdict, tally.partitions, tally.slow, tally.kills, tally.torn,
		tally.dropped, tally.duplicated, tally.reordered, tally.published, tally.reqFa)
}

// TestLongPartition documents a limit (docs/SECURITY.md): a partition that outlasts the
// table's timeout cannot end in one agreed verdict, since each side sees a seat of the other
// side fall silent, and no vote can settle which. What must hold is safety: no node hangs,
// every node names a seat it could not hear (one across the partition), and no two logs
// disagree on any entry: one is a prefix of the other.
func TestLongPartition(t *testing.T) {
	net := memnet.New(11, memnet.Faults{})
	defer net.Close()
	const n = 4
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	base := t.TempDir()
	runs := make([]nodeRun, n)
	seats := make([]int, n)
	var once sync.Once
	var wg sync.WaitGroup
	sides := [][]string{{"n0", "n1"}, {"n2", "n3"}}
	for i := range n {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			events := 0
			runs[i].out, runs[i].err = runFaultNode(ctx, net.Node(fmt.Sprintf("n%d", i)), runs[i].dir, n, corruption.Standard, false, 1500*time.Millisecond, uint64(i), func(corruption.Event) {
				if events++; events == 40 {
					once.Do(func() { net.Partition(sides...) })
				}
			})
		}()
	}
	wg.Wait()
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		seats[i] = r.out.Seat
	}
	var verdicts []string
	for i, r := range runs {
		v := r.out.Verdict
		if v == nil || v.Kind != protocol.VerdictAbandoned {
			t.Fatalf("node %d: verdict %v, want an abandonment", i, v)
		}
		across := false
		for k := range n {
			across = across || (seats[k] == v.Seat && k/2 != i/2)
		}
		if !across {
			t.Errorf("node %d (side %d) names seat %d, which it could hear", i, i/2, v.Seat)
		}
		verdicts = append(verdicts, fmt.Sprintf("n%d: seat %d at entry %d", i, v.Seat, v.Seq))
	}
	logs := make([][]*protocol.Entry, n)
	for i, r := range runs {
		logs[i] = readLog(t, r.dir)
	}
	for i := range n {
		for k := range min(len(logs[i]), len(logs[0])) {
			if logs[i][k].Hash() != logs[0][k].Hash() {
				t.Fatalf("nodes 0 and %d hold different entries at seq %d", i, k)
			}
		}
	}
	t.Logf("safe, not agreed: %s", strings.Join(verdicts, "; "))
}
