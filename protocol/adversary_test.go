package protocol_test

// Strangers on the table's channel, and a partition longer than the timeout (docs/SECURITY.md).
// The messages the outsider forges are built from docs/PROTOCOL.md's layouts, not from the
// package's encoders. Faults at scale are in faults_test.go.

import (
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
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

// specHelloMsg is a validly signed hello from key for table name: table name, game id,
// bytes(configuration), u8 players, player name, identity key, and the signature over
// "corruption/hello/v2\x00" and those fields.
func specHelloMsg(name, game string, config []byte, players int, player string, key ed25519.PrivateKey) []byte {
	var f []byte
	f = specBytes(f, []byte(name))
	f = specBytes(f, []byte(game))
	f = specBytes(f, config)
	f = append(f, byte(players))
	f = specBytes(f, []byte(player))
	f = append(f, key.Public().(ed25519.PublicKey)...)
	sig := ed25519.Sign(key, append([]byte("corruption/hello/v2\x00"), f...))
	return append(append([]byte{specHello}, f...), sig...)
}

// TestSpecHello: the hello the outsider forges from docs/PROTOCOL.md is one a node reads (else
// the flood's hellos would test nothing).
func TestSpecHello(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(newStream("spec hello"))
	a, err := protocol.ParseAnnouncement(specHelloMsg("t", "corruption", []byte{0, 1}, 4, "stranger", key))
	if err != nil || a.Table != "t" || a.Game != "corruption" || a.Players != 4 || a.Name != "stranger" {
		t.Fatalf("the hello of docs/PROTOCOL.md's layout reads as %+v, %v", a, err)
	}
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
	// hellos: it sends only hellos from strangers, a fresh key each, and counts the geneses
	// shown to them (reshown) from the first it heard (first) to the last message (last).
	hellos      bool
	reshown     int
	first, last time.Time
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
		j.last = time.Now()
		if len(data) > 1 && data[0] == specEntry {
			e, err := protocol.ParseEntry(data[1:])
			if err == nil && (len(j.seen) == 0 || e.Seq > j.seen[len(j.seen)-1].Seq) {
				j.seen = append(j.seen, e)
			}
			if err == nil && e.Seq == 0 {
				if j.first.IsZero() {
					j.first = j.last
				} else {
					j.reshown++
				}
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
	if j.hellos {
		_, key, _ := ed25519.GenerateKey(j)
		return "hello from a stranger", specHelloMsg("t", "corruption", corruption.EncodeConfig(corruption.Standard, true), 4, "stranger", key)
	}
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
		return "hello from a stranger", specHelloMsg("t", "corruption", corruption.EncodeConfig(corruption.Standard, true), 4, "stranger", key)
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
			Kind: protocol.KindMove, Body: j.random(34)}
		e.Sign(key)
		return "next entry, forged", entryMsg(e)
	}
}

func (j *junk) Read(p []byte) (int, error) { copy(p, j.random(len(p))); return len(p), nil }

// playWithOutsider plays a 4-seat Corruption table with an outsider running alongside.
func playWithOutsider(t *testing.T, j *junk, timeout time.Duration, seed uint64) []nodeRun {
	net := memnet.New(seed, memnet.Faults{})
	defer net.Close()
	ctx, cancel := context.WithCancel(context.Background())
	j.ep = net.Node("outsider")
	var jw sync.WaitGroup
	jw.Add(1)
	go func() { defer jw.Done(); j.run(ctx) }()
	defer func() {
		cancel()
		if j.stall != nil {
			close(j.stall)
		}
		jw.Wait()
	}()
	spec := corruptionSpec(4, corruption.Standard, true, seed)
	spec.timeout, spec.linger = timeout, time.Second
	return playNodes(t, net, spec)
}

// TestJunkFlood: an outsider answers every message on the table's channel with five junk
// messages (random bytes, truncated and bit-flipped entries, another table's validly signed
// entries, entries and heads ahead of the log, hellos, oversize messages, replays, forged next
// entries) and every fetch with a lying batch. The game must complete identically.
func TestJunkFlood(t *testing.T) {
	t.Parallel()
	other := newWorld(t, corruptionWorld("junk", "another table", 4, corruption.Standard, true), "")
	if v := other.play(t, other.botDecider(t), nil); v != nil {
		t.Fatal(v)
	}
	j := &junk{rng: rand.New(rand.NewPCG(5, 6)), other: other.log, perMsg: 5}
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

// TestStrangersHellos: an outsider answers every message on the table's channel with five
// hellos for the table's name and settings, each from a fresh key, as a latecomer's. The table
// shows itself to latecomers (its genesis on the channel, docs/PROTOCOL.md "Formation"), but
// at most once a second a node in all: so the flood costs the table a few messages a second,
// not two a tick a node (which let a flood like TestJunkFlood's crawl a game on a busy
// machine), and the game completes.
func TestStrangersHellos(t *testing.T) {
	t.Parallel()
	j := &junk{rng: rand.New(rand.NewPCG(9, 10)), perMsg: 5, hellos: true}
	if protocol.RaceDetectorForTest {
		j.perMsg = 1 // a fresh key and its signature a hello: the detector makes them slow
	}
	runs := playWithOutsider(t, j, 20*time.Second, 41)
	checkSame(t, runs)
	if j.first.IsZero() || j.sent["hello from a stranger"] < 100 {
		t.Fatalf("the outsider heard no genesis or sent %d hellos: nothing was tested", j.sent["hello from a stranger"])
	}
	// 4 nodes, once a second each at most over the time the outsider heard the table; the
	// bound has slack (twice that, and four more a node) for the genesis a node sends again to
	// a seated player that missed it, while the keys come in. Once a tick is fifty a second.
	secs := j.last.Sub(j.first).Seconds()
	if most := 4 * (2*int(secs) + 4); j.reshown > most {
		t.Fatalf("the table showed its genesis %d times in %.1f s to %d strangers' hellos: more than once a second a node (%d)", j.reshown, secs, j.sent["hello from a stranger"], most)
	}
	t.Logf("%d strangers' hellos; the genesis shown %d times in %.1f s", j.sent["hello from a stranger"], j.reshown, secs)
}

// TestStallingPeer: an outsider (anyone who joins the table's topic) announces heads ahead of
// everyone, and never answers the fetches they cause. The game must still complete: an
// unsigned head from a stranger must not stall the honest nodes.
func TestStallingPeer(t *testing.T) {
	j := &junk{rng: rand.New(rand.NewPCG(7, 8)), perMsg: 1, stall: make(chan struct{})}
	runs := playWithOutsider(t, j, 5*time.Second, 50)
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

// TestLongPartition documents a limit (docs/SECURITY.md): a partition that outlasts the
// table's timeout cannot end in one agreed verdict, since each side sees a seat of the other
// side fall silent, and no vote can settle which. What must hold is safety: no node hangs,
// every node names a seat it could not hear (one across the partition), and no two logs
// disagree on any entry: one is a prefix of the other. The nodes run on a fake clock: once both
// sides wait for a seat across, the test moves the clock past the timeout.
func TestLongPartition(t *testing.T) {
	net := memnet.New(11, memnet.Faults{})
	defer net.Close()
	const n = 4
	clock := protocol.NewTickClockForTest()
	watch := newWatcher()
	spec := corruptionSpec(n, corruption.Standard, false, 11)
	spec.clock, spec.timeout, spec.onChange = clock, time.Minute, watch.onChange
	sides := [][]string{{"n0", "n1"}, {"n2", "n3"}}
	cut := make(chan struct{})
	var once sync.Once
	spec.onEvent = func(int) func(engine.Event) {
		events := 0
		return func(engine.Event) {
			if events++; events == 40 {
				once.Do(func() { net.Partition(sides...); close(cut) })
			}
		}
	}
	startPump(t, clock, 10*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan []nodeRun, 1)
	go func() { done <- playNodes(t, net, spec) }()
	select {
	case <-cut:
	case <-ctx.Done():
		t.Fatal("the table never reached the partition")
	}
	// Both sides wait for a seat across, for good: the clock moves on to near the timeout.
	both := func(st map[int]protocol.Status) bool {
		return stalled([]int{0, 1}, sides[1]...)(st) && stalled([]int{2, 3}, sides[0]...)(st)
	}
	if err := watch.wait(ctx, both); err != nil {
		t.Fatalf("the two sides never both wait for a seat across: %v", err)
	}
	if err := nearTimeout(ctx, clock, spec.timeout); err != nil {
		t.Fatal(err)
	}
	runs := <-done
	seats := make([]int, n)
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
