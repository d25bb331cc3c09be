package protocol_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// A private table over memnet (private.go): three nodes admitted by the code play the toy to
// the end; an eavesdropper records every byte (the creator's announcement, the join
// exchanges, every broadcast) and says hello in the clear, and a node that holds the table's
// secret without having passed the code is not seated. Then an offline attacker runs a
// dictionary of codes over the recording.

// recording is everything an eavesdropper saw.
type recording struct {
	mu         sync.Mutex
	ad         []byte
	exchange   [][]byte // requests and answers of the join exchanges, in order
	broadcasts [][]byte
	channel    string
}

func (r *recording) add(dst *[][]byte, b []byte) {
	r.mu.Lock()
	*dst = append(*dst, bytes.Clone(b))
	r.mu.Unlock()
}

func (r *recording) all() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([][]byte{r.ad, []byte(r.channel)}, r.exchange...)
	return append(out, r.broadcasts...)
}

// privateLog reads node dir's log of the private table name.
func privateLog(t testing.TB, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "tables", name, "log"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPrivateTable(t *testing.T) {
	net := memnet.New(161, memnet.Faults{})
	defer net.Close()
	base := t.TempDir()
	const players = 3

	// The creator is node 0; its identity comes from its data directory.
	keyOf := func(i int) ed25519.PrivateKey {
		s, err := protocol.OpenStore(filepath.Join(base, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		k, err := s.Identity()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	creator := keyOf(0).Public().(ed25519.PublicKey)
	code, err := protocol.NewJoinCode(nil)
	if err != nil {
		t.Fatal(err)
	}
	table, err := protocol.NewPrivateTable(nil, creator, toyID, []byte{1}, players)
	if err != nil {
		t.Fatal(err)
	}
	var failures []string
	adm := protocol.NewAdmission(code, table, nil, nil, func(f string, a ...any) { failures = append(failures, fmt.Sprintf(f, a...)) })
	rec := &recording{ad: protocol.JoinAd(code, creator), channel: table.Channel()}
	if np, key, err := protocol.ParseJoinAd(rec.ad); err != nil || np != code.Nameplate || !key.Equal(creator) {
		t.Fatalf("the announcement reads %q, %v", np, err)
	}

	// Nodes 1 and 2 join with the code, node 3 with a wrong one; node 3 is then given the
	// secret anyway (a leak) and tries to sit.
	tables := map[int]*protocol.PrivateTable{0: table}
	for _, i := range []int{3, 1, 2} { // 3 first: once 1 and 2 are in, the table is full
		self := keyOf(i).Public().(ed25519.PublicKey)
		c := code
		if i == 3 {
			c = wrongCode(code)
		}
		p, err := protocol.Join(context.Background(), nil, c, self, creator, func(_ context.Context, req []byte) ([]byte, error) {
			rec.add(&rec.exchange, req)
			ans, err := adm.Serve(connOf(self), req)
			rec.add(&rec.exchange, ans)
			return ans, err
		})
		if i == 3 {
			if !errors.Is(err, protocol.ErrWrongCode) {
				t.Fatalf("node 3 with a wrong code: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		tables[i] = p
	}
	leaked := *tables[1]
	tables[3] = &leaked
	if adm.Failed() != 1 || len(failures) != 3 || !strings.Contains(failures[0], "1 failed so far") {
		t.Fatalf("the creator counted %d failures and heard %q", adm.Failed(), failures)
	}

	// The eavesdropper records every broadcast, says hello in the clear and asks for entries.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	spy := net.Node("spy")
	spyDone := make(chan struct{})
	go func() {
		defer close(spyDone)
		for {
			_, data, err := spy.Next(ctx)
			if err != nil {
				return
			}
			rec.add(&rec.broadcasts, data)
		}
	}()

	spec := toySpec(players)
	spec.nodes = 4
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network { return tables[i].Wrap(ep) }
	refused := make(chan string, 1) // the creator refused the intruder's hello
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Table, cfg.Private = tables[i].Name(), tables[i]
		if i == 0 {
			cfg.Logf = func(f string, a ...any) {
				if s := fmt.Sprintf(f, a...); strings.Contains(s, "did not pass the join code") {
					select {
					case refused <- s:
					default:
					}
				}
			}
		}
	}
	intruder, stopIntruder := context.WithCancel(ctx)
	defer stopIntruder()
	res := make(chan endedRun, 4)
	start := func(i int) {
		runCtx := ctx
		if i == 3 {
			runCtx = intruder
		}
		go func() {
			r := nodeRun{dir: filepath.Join(base, fmt.Sprint(i))}
			r.out, r.err = startNode(runCtx, net, r.dir, spec, i)
			res <- endedRun{i, r}
		}()
	}
	// The creator and the intruder first: the creator must refuse the intruder's hello before
	// the friends arrive (else it might form before it heard it, and this would test nothing).
	start(0)
	start(3)
	select {
	case <-refused:
	case x := <-res:
		t.Fatalf("node %d ended: %v", x.i, x.err)
	case <-time.After(20 * time.Second):
		t.Fatal("the creator never refused the hello of the node that did not pass the code")
	}
	start(1)
	start(2)
	// A hello in the clear, for a table of the same name and settings.
	h := helloFor(t, table.Name(), players)
	if err := spy.Publish(ctx, h); err != nil {
		t.Fatal(err)
	}
	runs := map[int]nodeRun{}
	for len(runs) < players {
		x := <-res
		if x.i == 3 {
			t.Fatalf("the intruder ended before the table did: %v", x.err)
		}
		runs[x.i] = x.nodeRun
	}
	if _, err := spy.Request(ctx, "n0", []byte("f")); err == nil {
		t.Error("an outsider's request was answered")
	}
	stopIntruder()
	if x := <-res; x.i != 3 || !errors.Is(x.err, context.Canceled) || x.out == nil || x.out.ID != "" {
		t.Fatalf("the intruder: node %d, %v, %+v: it sat at a table", x.i, x.err, x.out)
	}
	cancel()
	<-spyDone

	var ref []byte
	for i := range players {
		r := runs[i]
		if r.err != nil || !r.out.Finished || r.out.Verdict != nil {
			t.Fatalf("node %d: %v, %+v", i, r.err, r.out)
		}
		log := privateLog(t, r.dir, table.Name())
		if i == 0 {
			ref = log
		} else if !bytes.Equal(log, ref) {
			t.Fatalf("node %d's log differs from node 0's", i)
		}
	}
	rep, err := protocol.Audit(bytes.NewReader(ref), engine.Options{})
	if err != nil || !rep.Valid {
		t.Fatalf("audit: %+v, %v", rep, err)
	}
	if n := len(rec.broadcasts); n < 50 {
		t.Fatalf("the eavesdropper recorded only %d broadcasts", n)
	}
	for _, b := range rec.broadcasts {
		if protocol.Check(b) && !bytes.Equal(b, h) {
			t.Fatalf("a broadcast the eavesdropper can read: %x", b[:min(len(b), 16)])
		}
	}
	t.Logf("the game completed; the eavesdropper recorded %d broadcasts, %d messages of the join exchanges and the announcement; none reads",
		len(rec.broadcasts), len(rec.exchange))

	// Offline: a dictionary of codes, the true one in it, against the recording.
	dict := []protocol.JoinCode{code}
	for range 300 {
		c, _ := protocol.NewJoinCode(nil)
		c.Nameplate = code.Nameplate // the nameplate is public
		dict = append(dict, c)
	}
	if got := offlineAttack(rec, dict, creator); len(got) != 0 {
		t.Fatalf("the recording confirms guesses %v", got)
	}
	// The same attacker against a design that derives the table from the code (the strawman
	// the issue warns of) finds the code: the attack is not vacuous.
	straw, _ := protocol.NewPrivateTable(bytes.NewReader(strawSecret(code)), creator, toyID, []byte{1}, players)
	strawRec := &recording{ad: rec.ad, channel: straw.Channel(), exchange: rec.exchange}
	strawNet := memnet.New(162, memnet.Faults{})
	defer strawNet.Close()
	a, b := straw.Wrap(strawNet.Node("a")), strawNet.Node("b")
	if err := a.Publish(ctx, h); err == nil {
		if _, data, err := b.Next(context.Background()); err == nil {
			strawRec.broadcasts = [][]byte{data}
		}
	}
	if got := offlineAttack(strawRec, dict, creator); len(got) != 1 || got[0] != code {
		t.Fatalf("against the strawman the attacker found %v, want exactly the code %v", got, code)
	}
}

// helloFor is a hello in the clear, as a stranger's node would send for the table.
func helloFor(t testing.TB, table string, players int) []byte {
	t.Helper()
	seed := sha256.Sum256([]byte("stranger"))
	key := ed25519.NewKeyFromSeed(seed[:])
	ann := []byte{'h'}
	for _, f := range [][]byte{[]byte(table), []byte(toyID), {1}} {
		ann = append(ann, byte(len(f)>>24), byte(len(f)>>16), byte(len(f)>>8), byte(len(f)))
		ann = append(ann, f...)
	}
	ann = append(ann, byte(players), 0, 0, 0, 8)
	ann = append(ann, "stranger"...)
	ann = append(ann, key.Public().(ed25519.PublicKey)...)
	sig := ed25519.Sign(key, append([]byte("corruption/hello/v2\x00"), ann[1:]...))
	msg := append(ann, sig...)
	if !protocol.Check(msg) {
		t.Fatal("the stranger's hello does not decode")
	}
	return msg
}

func strawSecret(c protocol.JoinCode) []byte {
	s := sha256.Sum256([]byte("strawman " + c.String()))
	return s[:]
}

// offlineAttack tries every code of the dictionary against the recording, with every test an
// eavesdropper can run from a guess alone, and returns the codes that pass one:
//   - the table derived from the guess (the strawman's secret): its channel name is the one
//     recorded, or a recorded broadcast opens under its key;
//   - a tag of the exchange is a MAC of the shares under a key derived from the guess, or the
//     guess (in clear or hashed) appears anywhere in the recording.
//
// CPace's shares and tags need a secret scalar to test a guess against: with the right code,
// the recording looks as it does with a wrong one.
func offlineAttack(rec *recording, dict []protocol.JoinCode, creator ed25519.PublicKey) []protocol.JoinCode {
	var hits []protocol.JoinCode
	all := rec.all()
	for _, c := range dict {
		hit := false
		p, err := protocol.NewPrivateTable(bytes.NewReader(strawSecret(c)), creator, toyID, []byte{1}, 3)
		if err != nil {
			panic(err)
		}
		hit = p.Channel() == rec.channel
		for _, b := range rec.broadcasts {
			hit = hit || p.Check(b)
		}
		sum := sha256.Sum256([]byte(c.Secret))
		for i, b := range all {
			hit = hit || bytes.Contains(b, []byte(c.Secret)) || bytes.Contains(b, sum[:]) ||
				bytes.Contains(b, []byte(hex.EncodeToString(sum[:8])))
			// A start request carries sid and Ya, its answer Yb and a tag: try the tag as an
			// HMAC of the shares under the guess.
			if i > 2 && len(b) == 1+32+32 && len(all[i-1]) == 2+2+16+32 {
				ya, yb, tag := all[i-1][20:], b[1:33], b[33:]
				m := hmac.New(sha256.New, []byte(c.Secret))
				m.Write(ya)
				m.Write(yb)
				hit = hit || hmac.Equal(m.Sum(nil), tag)
			}
		}
		if hit {
			hits = append(hits, c)
		}
	}
	return hits
}

// TestPrivateRogueGenesis: a node that holds a private table's secret (leaked) but is not its
// creator publishes, all through the game, a genesis of the table's name that seats it with the
// two admitted players. They never sit at it: the table they play is the creator's, it
// completes with identical logs, and no node had to leave a table on the way (no dissolved log).
// formPrivate forms a private table of game for the players of keys, the first its creator, each
// other one admitted by the join code: each one's PrivateTable, by index.
func formPrivate(t *testing.T, keys []ed25519.PrivateKey, game string, config []byte) map[int]*protocol.PrivateTable {
	t.Helper()
	code, err := protocol.NewJoinCode(nil)
	if err != nil {
		t.Fatal(err)
	}
	table, err := protocol.NewPrivateTable(nil, keys[0].Public().(ed25519.PublicKey), game, config, len(keys))
	if err != nil {
		t.Fatal(err)
	}
	adm := protocol.NewAdmission(code, table, nil, nil, nil)
	tables := map[int]*protocol.PrivateTable{0: table}
	for i := 1; i < len(keys); i++ {
		self := keys[i].Public().(ed25519.PublicKey)
		if tables[i], err = protocol.Join(context.Background(), nil, code, self, table.Creator,
			func(_ context.Context, req []byte) ([]byte, error) { return adm.Serve(connOf(self), req) }); err != nil {
			t.Fatalf("node %d joins: %v", i, err)
		}
	}
	return tables
}

func TestPrivateRogueGenesis(t *testing.T) {
	net := memnet.New(163, memnet.Faults{})
	defer net.Close()
	base := t.TempDir()
	const players = 3
	keys := identities(t, base, players)
	tables := formPrivate(t, keys, toyID, []byte{1})
	table := tables[0]

	// The rogue's genesis: the rogue first, then the two admitted players.
	_, rogue, _ := ed25519.GenerateKey(nil)
	g := &protocol.Genesis{Name: table.Name(), Game: toyID, Config: []byte{1}, Timeout: 20 * time.Second,
		Roster: []protocol.Member{{Name: "rogue", Key: rogue.Public().(ed25519.PublicKey)}}}
	for i := 1; i < players; i++ {
		g.Roster = append(g.Roster, protocol.Member{Name: fmt.Sprint("n", i), Key: keys[i].Public().(ed25519.PublicKey)})
	}
	e, err := protocol.NewGenesis(bytes.NewReader(make([]byte, 16)), rogue, g)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	leaked := *tables[1]
	rogueNet := leaked.Wrap(net.Node("rogue"))
	stopRogue := make(chan struct{})
	rogueDone := make(chan struct{})
	go func() {
		defer close(rogueDone)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			rogueNet.Publish(ctx, append([]byte{'e'}, e.Marshal()...))
			select {
			case <-tick.C:
			case <-stopRogue:
				return
			}
		}
	}()

	spec := toySpec(players)
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network { return tables[i].Wrap(ep) }
	spec.adjust = func(i int, cfg *protocol.NodeConfig) { cfg.Table, cfg.Private = tables[i].Name(), tables[i] }
	res := make(chan endedRun, players)
	for _, i := range []int{1, 2, 0} { // the joiners first: the rogue's genesis reaches them before any other
		go func() {
			r := nodeRun{dir: filepath.Join(base, fmt.Sprint(i))}
			r.out, r.err = startNode(ctx, net, r.dir, spec, i)
			res <- endedRun{i, r}
		}()
	}
	runs := map[int]nodeRun{}
	for range players {
		x := <-res
		runs[x.i] = x.nodeRun
	}
	close(stopRogue)
	<-rogueDone
	var ref []byte
	for i := range players {
		r := runs[i]
		if r.err != nil || !r.out.Finished || r.out.Verdict != nil {
			t.Fatalf("node %d: %v, %+v", i, r.err, r.out)
		}
		log := privateLog(t, r.dir, table.Name())
		if i == 0 {
			ref = log
		} else if !bytes.Equal(log, ref) {
			t.Fatalf("node %d's log differs from the creator's", i)
		}
		left, _ := filepath.Glob(filepath.Join(r.dir, "tables", table.Name(), "*.dissolved.log"))
		if len(left) > 0 {
			t.Errorf("node %d sat at another table first and left it: %v", i, left)
		}
	}
	if es, err := protocol.ReadLog(bytes.NewReader(ref)); err != nil || !es[0].Verify(table.Creator) {
		t.Fatalf("the table played is not the creator's (%v)", err)
	}
}
