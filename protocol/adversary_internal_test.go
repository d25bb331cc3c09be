package protocol

// The live cheater harness (docs/SECURITY.md): real Nodes with bots play on memnet, and one of
// them cheats. The cheater is an honest Node whose network endpoint is wrapped: the wrapper
// sees every entry the node publishes and every batch it serves, and sends forged entries
// instead, signed with the cheater's identity key (the test made every key). Cheats that need
// the cheater's secrets (a commitment to a card it does not hold, a lying sealed answer, a
// wrong share) are forged here, inside the package, with its body encoders and the cheater's
// Self. Every honest node must then either complete identically, or halt with one verdict
// naming the cheater's seat, keep its log, and have its log audit to that same verdict.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/crypto"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol/memnet"
)

// advRand is a deterministic reader for keys, seeds and forged randomness.
func advRand(seed uint64, label string) *rand.ChaCha8 {
	var s [32]byte
	copy(s[:], label)
	for i := range 8 {
		s[24+i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}

// advKeys makes n identity keys sorted by public key: a genesis seats the nodes in key order,
// so the node given keys[i] sits at seat i.
func advKeys(n int, seed uint64) []ed25519.PrivateKey {
	r := advRand(seed, "identity")
	keys := make([]ed25519.PrivateKey, n)
	for i := range keys {
		var s [32]byte
		r.Read(s[:])
		keys[i] = ed25519.NewKeyFromSeed(s[:])
	}
	sort.Slice(keys, func(a, b int) bool {
		return bytes.Compare(keys[a].Public().(ed25519.PublicKey), keys[b].Public().(ed25519.PublicKey)) < 0
	})
	return keys
}

// advStore makes a data directory holding the given identity and table seed.
func advStore(t testing.TB, dir string, key ed25519.PrivateKey, seed [32]byte) *Store {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "tables", "t"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "identity"), key.Seed(), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Rand = bytes.NewReader(seed[:]) // the table seed, drawn when the log starts
	return s
}

// A unicast envelope: the network delivers the payload to one node only. Gossip has no such
// thing, but a peer can send different bytes to each of its direct neighbours; the envelope
// lets memnet (broadcast only) model that. advTap unwraps it before its node sees it.
const advUnicast = "\x00adv-unicast\x00"

func advWrap(to string, data []byte) []byte {
	b := append([]byte(advUnicast), byte(len(to)))
	return append(append(b, to...), data...)
}

func advUnwrap(data []byte) (to string, payload []byte, ok bool) {
	if !bytes.HasPrefix(data, []byte(advUnicast)) || len(data) < len(advUnicast)+1 {
		return "", nil, false
	}
	rest := data[len(advUnicast):]
	n := int(rest[0])
	if len(rest) < 1+n {
		return "", nil, false
	}
	return string(rest[1 : 1+n]), rest[1+n:], true
}

// advTap is a node's Network: a memnet endpoint, with the cheater's wrapper if it cheats.
type advTap struct {
	ep    *memnet.Endpoint
	id    string
	cheat *advCheater
}

func (a *advTap) Publish(ctx context.Context, data []byte) error {
	if a.cheat != nil {
		return a.cheat.publish(ctx, data)
	}
	return a.ep.Publish(ctx, data)
}

func (a *advTap) Next(ctx context.Context) (string, []byte, error) {
	for {
		from, data, err := a.ep.Next(ctx)
		if err != nil {
			return from, data, err
		}
		if to, payload, ok := advUnwrap(data); ok {
			if to != a.id {
				continue
			}
			data = payload
		}
		return from, data, nil
	}
}

func (a *advTap) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	return a.ep.Request(ctx, peer, req)
}

func (a *advTap) Serve(h func(from string, req []byte) ([]byte, error)) {
	if a.cheat != nil && h == nil && a.cheat.poison != nil {
		return // a poisoner keeps answering when its node has left the table
	}
	if a.cheat != nil && h != nil {
		h = a.cheat.serve(h)
	}
	a.ep.Serve(h)
}

func (a *advTap) Peers() []string { return a.ep.Peers() }

// advSend is one message the cheater sends: to everyone (to == nil) or to some nodes only.
type advSend struct {
	to   []string
	data []byte
}

func advAll(e *Entry) advSend { return advSend{data: append([]byte{msgEntry}, e.Marshal()...)} }

// advCheater wraps the cheating node's endpoint. forge is called (on the node's goroutine,
// from Publish, just after the node applied e) for each entry the node writes, and says what
// to send instead; it may read and patch the node's table.
type advCheater struct {
	ep    *memnet.Endpoint
	net   *memnet.Net
	key   ed25519.PrivateKey
	seat  int
	node  *Node
	forge func(c *advCheater, e *Entry) ([]advSend, error)
	// heads, if set, rewrites the cheater's head announcements.
	heads func(h *head)
	// poison, if set, replaces every batch the cheater serves.
	poison func(req []byte, batch []*Entry) []*Entry

	mu      sync.Mutex
	sent    map[uint64][]advSend
	subAll  map[uint64]*Entry            // served in place of the node's entry at seq
	subTo   map[string]map[uint64]*Entry // the same, for one requester
	silent  bool                         // publishes nothing any more
	cut     uint64                       // when silent: serves nothing from this seq on
	fired   int                          // how many times the cheat was played
	expect  *Verdict                     // what the honest nodes must conclude (nil: complete)
	errs    []error
	state   map[string]int // scratch for multi-step cheats
	pending *advPending
	timers  []*time.Timer // fault timers the cheat started, stopped when the game ends
	oracleA [][]byte      // the points an oracle answer asked the peeker to multiply
}

// advPending is a forged face-down commitment waiting for its reveal.
type advPending struct {
	index, round, pos int
	card              corruption.Card
}

func (c *advCheater) publish(ctx context.Context, data []byte) error {
	c.mu.Lock()
	silent := c.silent
	c.mu.Unlock()
	if silent {
		return nil
	}
	if len(data) > 0 && data[0] == msgHead && c.heads != nil {
		if h, err := parseHead(data[1:]); err == nil {
			c.heads(h)
			data = h.marshal()
		}
	}
	if len(data) > 0 && data[0] == msgEntry {
		if e, err := ParseEntry(data[1:]); err == nil && e.Seat == c.seat && e.Kind != KindGenesis {
			c.mu.Lock()
			sends, ok := c.sent[e.Seq]
			c.mu.Unlock()
			if !ok {
				var err error
				if sends, err = c.forge(c, e); err != nil {
					c.fail(fmt.Errorf("forging over %s: %w", e, err))
					sends = []advSend{advAll(e)}
				}
				c.mu.Lock()
				c.sent[e.Seq] = sends
				c.mu.Unlock()
			}
			for _, s := range sends {
				c.send(ctx, s)
			}
			return nil
		}
	}
	return c.ep.Publish(ctx, data)
}

func (c *advCheater) send(ctx context.Context, s advSend) {
	if s.to == nil {
		c.ep.Publish(ctx, s.data)
		return
	}
	for _, p := range s.to {
		c.ep.Publish(ctx, advWrap(p, s.data))
	}
}

func (c *advCheater) serve(h func(string, []byte) ([]byte, error)) func(string, []byte) ([]byte, error) {
	return func(from string, req []byte) ([]byte, error) {
		resp, err := h(from, req)
		if err != nil {
			return resp, err
		}
		batch, perr := parseBatch(resp)
		if perr != nil {
			return resp, nil
		}
		c.mu.Lock()
		var out []*Entry
		for _, e := range batch {
			if c.silent && e.Seq >= c.cut {
				break
			}
			if _, forged := c.sent[e.Seq]; e.Seat == c.seat && e.Kind != KindGenesis && !forged {
				// The node wrote it, but the cheat has not yet decided what to send in its
				// place: serving it now would hand out both versions.
				break
			}
			if f := c.subTo[from][e.Seq]; f != nil {
				e = f
			} else if f := c.subAll[e.Seq]; f != nil {
				e = f
			}
			out = append(out, e)
		}
		poison := c.poison
		c.mu.Unlock()
		if poison != nil {
			out = poison(req, out)
		}
		return marshalBatch(out), nil
	}
}

func (c *advCheater) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.errs = append(c.errs, err)
}

// resign signs a copy of e, with its body replaced, as the cheater.
func (c *advCheater) resign(e *Entry, kind Kind, body []byte) *Entry {
	f := &Entry{Table: e.Table, Seq: e.Seq, Prev: e.Prev, Seat: e.Seat, Kind: kind, Body: body}
	f.Sign(c.key)
	return f
}

// play records that the cheat was played and what the honest nodes must conclude.
func (c *advCheater) play(v *Verdict) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fired++
	if v != nil && c.expect == nil {
		c.expect = v
	}
}

// silence makes the cheater go quiet: it publishes nothing more and serves nothing from seq
// on, except what it substituted (sub, at seq) for its real entry there.
func (c *advCheater) silence(seq uint64, sub *Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.silent, c.cut = true, seq
	if sub != nil {
		c.subAll[seq] = sub
		c.cut = seq + 1
	}
}

func (c *advCheater) substitute(f *Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subAll[f.Seq] = f
}

// patch makes the cheater's own table hold f in place of its last entry, so that the node
// carries on from the entry the others received (it keeps its own idea of the card behind).
func (c *advCheater) patch(f *Entry) error {
	t := c.node.table
	if f.Seq+1 != t.Len() {
		return fmt.Errorf("patch of entry %d, but the log has %d", f.Seq, t.Len())
	}
	t.entries = append(t.entries[:f.Seq:f.Seq], f)
	t.head = f.Hash()
	c.node.share()
	return nil
}

// before replays the cheater's log up to (not including) e: the table as it was when the
// node wrote e, with the cheater's own secrets.
func (c *advCheater) before(e *Entry) (*Table, error) {
	t := c.node.table
	pre, err := NewTable(t.entries[0], NewSelf(c.key, c.node.self.Seed))
	if err != nil {
		return nil, err
	}
	for _, x := range t.entries[1:e.Seq] {
		if err := pre.Append(x); err != nil {
			return nil, err
		}
	}
	return pre, nil
}

// advPlayer makes a seat's decisions: steer first (if it says so), else the bot.
type advPlayer struct {
	b     bot.Bot
	steer func(v corruption.View) (corruption.Move, bool)
}

func (p advPlayer) Decide(_ context.Context, v corruption.View) (corruption.Move, error) {
	if p.steer != nil {
		if m, ok := p.steer(v); ok {
			return m, nil
		}
	}
	return p.b.Decide(v), nil
}

// advScenario is one cheat, played live.
type advScenario struct {
	name     string
	players  int
	cheater  int // the cheating seat (-1: none, e.g. a junk flood from outside the table)
	variant  corruption.Variant
	lbb      bool
	timeout  time.Duration // the table's timeout (short when a silence is expected)
	faults   memnet.Faults
	complete bool // the honest nodes must complete the game (else: a verdict naming the cheater)
	forge    func(c *advCheater, e *Entry) ([]advSend, error)
	setup    func(c *advCheater) // more wrapping (heads, poison) before the game
	// steer steers the cheater's player (seat) towards the situation its cheat needs.
	steer func(c *advCheater) func(v corruption.View) (corruption.Move, bool)
	// honest steers the honest players (a legal choice, e.g. peeking at the cheater's cards).
	honest func(cheater int) func(v corruption.View) (corruption.Move, bool)
}

// advLogf is a node's log: shown with -v when ADVLOG is set (the nodes say a lot).
func advLogf(t *testing.T, id string) func(string, ...any) {
	if os.Getenv("ADVLOG") == "" {
		return nil
	}
	start := time.Now()
	return func(format string, args ...any) {
		t.Logf("%s %v: %s", id, time.Since(start).Round(time.Millisecond), fmt.Sprintf(format, args...))
	}
}

// advRun is how one node ended.
type advRun struct {
	out *Outcome
	err error
	dir string
}

const advTable = "t"

// advPlay plays the scenario; it returns each seat's run and the cheater (nil if none).
func advPlay(t *testing.T, sc advScenario, seed uint64) ([]advRun, *advCheater) {
	net := memnet.New(seed, sc.faults)
	defer net.Close()
	keys := advKeys(sc.players, seed)
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Second)
	defer cancel()
	cheatCtx, stopCheater := context.WithCancel(ctx)
	defer stopCheater()
	base := t.TempDir()
	runs := make([]advRun, sc.players)
	var cheater *advCheater
	var honest, all sync.WaitGroup
	for seat := range sc.players {
		runs[seat].dir = filepath.Join(base, fmt.Sprint(seat))
		var tseed [32]byte
		advRand(seed+uint64(seat), "table seed").Read(tseed[:])
		store := advStore(t, runs[seat].dir, keys[seat], tseed)
		id := fmt.Sprintf("n%d", seat)
		tap := &advTap{ep: net.Node(id), id: id}
		b, _ := bot.New("heuristic", seed*16+uint64(seat))
		player := advPlayer{b: b}
		if seat == sc.cheater {
			cheater = &advCheater{ep: tap.ep, net: net, key: keys[seat], seat: seat, forge: sc.forge,
				sent: map[uint64][]advSend{}, subAll: map[uint64]*Entry{}, subTo: map[string]map[uint64]*Entry{},
				state: map[string]int{}}
			tap.cheat = cheater
			if sc.steer != nil {
				player.steer = sc.steer(cheater)
			}
			if sc.setup != nil {
				sc.setup(cheater)
			}
		} else if sc.honest != nil {
			player.steer = sc.honest(sc.cheater)
		}
		node, err := NewNode(NodeConfig{Table: advTable, Players: sc.players, Variant: sc.variant, LBB: sc.lbb,
			Name: id, Timeout: sc.timeout, Identity: keys[seat], Store: store, Player: player, Net: tap,
			Tick: 20 * time.Millisecond, Linger: 1500 * time.Millisecond, Logf: advLogf(t, id)})
		if err != nil {
			t.Fatal(err)
		}
		runCtx := ctx
		wg := &honest
		if seat == sc.cheater {
			cheater.node, runCtx, wg = node, cheatCtx, &all
		}
		wg.Add(1)
		go func(seat int) {
			defer wg.Done()
			runs[seat].out, runs[seat].err = node.Run(runCtx)
		}(seat)
	}
	honest.Wait()
	stopCheater()
	all.Wait()
	if cheater != nil {
		cheater.mu.Lock()
		for _, tm := range cheater.timers {
			tm.Stop()
		}
		cheater.mu.Unlock()
	}
	return runs, cheater
}

// advAudit audits a node's saved log.
func advAudit(t *testing.T, dir string) (*Report, []*Entry) {
	t.Helper()
	path := filepath.Join(dir, "tables", advTable, "log")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the node lost its log: %v", err)
	}
	entries, err := ReadLog(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the node's log is damaged: %v", err)
	}
	rep, err := Audit(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("audit: %v", err)
	}
	return rep, entries
}

// advReportKind is the verdict kind an audit report names.
func advReportKind(rep *Report) VerdictKind {
	switch {
	case strings.Contains(rep.Problem, "equivocated"):
		return VerdictEquivocation
	case strings.Contains(rep.Problem, "cheated"):
		return VerdictCheat
	case strings.Contains(rep.Problem, "abandoned"), strings.Contains(rep.Problem, "incomplete"):
		return VerdictAbandoned
	}
	return 0
}

// advCheck checks the honest nodes' ends against the scenario: identical complete games, or
// one verdict (kind, seq, seat) naming the cheater, on every node and in every saved log.
func advCheck(t *testing.T, sc advScenario, runs []advRun, c *advCheater) {
	t.Helper()
	var want *Verdict
	if c != nil {
		c.mu.Lock()
		expect, fired, errs := c.expect, c.fired, c.errs
		c.mu.Unlock()
		for _, err := range errs {
			t.Errorf("cheater: %v", err)
		}
		if fired == 0 {
			t.Fatalf("the cheat was never played (the game never offered the chance)")
		}
		if !sc.complete && expect == nil {
			t.Fatalf("the cheat was played but set no expected verdict")
		}
		t.Logf("cheat played %d times; the honest nodes must conclude: %v", fired, expect)
		advNoOracleShare(t, runs, c)
		if !sc.complete {
			want = expect
		}
	}
	var ref []*Entry
	for seat, r := range runs {
		if seat == sc.cheater {
			continue
		}
		if r.err != nil {
			t.Errorf("seat %d: Run: %v (a hang or a crash)", seat, r.err)
			continue
		}
		if r.out.Seat != seat {
			t.Errorf("seat %d sat at seat %d", seat, r.out.Seat)
		}
		rep, log := advAudit(t, r.dir)
		v := r.out.Verdict
		if want == nil {
			if !r.out.Finished || v != nil {
				t.Errorf("seat %d: finished %v, verdict %v; want a complete game", seat, r.out.Finished, v)
				continue
			}
			if !rep.Valid {
				t.Errorf("seat %d: audit of its log: %s", seat, rep.Problem)
			}
			if ref == nil {
				ref = log
			} else if !advSameLog(ref, log) {
				t.Errorf("seat %d's log differs from the first honest seat's", seat)
			}
			continue
		}
		if v == nil || v.Kind != want.Kind || v.Seq != want.Seq || v.Seat != want.Seat {
			t.Errorf("seat %d: verdict %v (finished %v); want %s at entry %d naming seat %d", seat, v, r.out.Finished, want.Kind, want.Seq, want.Seat)
			continue
		}
		// An abandonment: the log stops where the seat was due, and either names it through
		// the node's signed note at its end, or (a copy without the note) names the seat it
		// waits for and blames nobody, since a log cut short proves nothing.
		named := rep.Blamed
		if want.Kind == VerdictAbandoned && rep.Blamed == -1 {
			named = rep.WaitingFor
		}
		if rep.Valid || named != want.Seat || rep.At != int64(want.Seq) || advReportKind(rep) != want.Kind {
			t.Errorf("seat %d: audit of its log says %q (blamed %d, waiting for %d, at %d); want %s at entry %d naming seat %d",
				seat, rep.Problem, rep.Blamed, rep.WaitingFor, rep.At, want.Kind, want.Seq, want.Seat)
		}
		if uint64(len(log)) < want.Seq {
			t.Errorf("seat %d: its log holds %d entries, fewer than the %d before the verdict", seat, len(log), want.Seq)
		}
	}
}

func advSameLog(a, b []*Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Hash() != b[i].Hash() {
			return false
		}
	}
	return true
}

// ---- the cheats

type advForge = func(c *advCheater, e *Entry) ([]advSend, error)

func advPass(e *Entry) ([]advSend, error) { return []advSend{advAll(e)}, nil }

// advFirst plays cheat on the cheater's first entry for which when holds; every other entry
// goes out unchanged.
func advFirst(when func(c *advCheater, e *Entry) bool, cheat advForge) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		if c.state["first"] > 0 || !when(c, e) {
			return advPass(e)
		}
		c.state["first"]++
		return cheat(c, e)
	}
}

func advKind(k Kind) func(*advCheater, *Entry) bool {
	return func(_ *advCheater, e *Entry) bool { return e.Kind == k }
}

// advFaceDown holds for a face-down placement.
func advFaceDown(_ *advCheater, e *Entry) bool {
	b, err := parsePlaceBody(e.Body)
	return e.Kind == KindPlace && err == nil && !b.faceUp
}

// advDeckBefore is the deck the shuffle e started from.
func advDeckBefore(t *Table, e *Entry) (crypto.Deck, error) {
	prev := t.entries[e.Seq-1]
	if prev.Kind != KindShuffle {
		return crypto.CanonicalDeck(corruption.NumContracts)
	}
	b, err := parseShuffleBody(prev.Body)
	if err != nil {
		return nil, err
	}
	return b.deck, nil
}

// advOtherCard is a card other than c.
func advOtherCard(c corruption.Card) corruption.Card {
	if c == corruption.Bribe1000 {
		return corruption.Bribe2000
	}
	return corruption.Bribe1000
}

// advReplace sends f instead of e and serves it too; the honest nodes must convict the
// cheater at entry seq.
func (c *advCheater) advReplace(e, f *Entry, kind VerdictKind, seq uint64) []advSend {
	c.substitute(f)
	c.play(&Verdict{Kind: kind, Seq: seq, Seat: c.seat})
	return []advSend{advAll(f)}
}

// advDropped sends f instead of e, an entry that blames nobody, and goes silent: the honest
// nodes must end the table as abandoned by the cheater at e's place.
func (c *advCheater) advDropped(e, f *Entry) []advSend {
	c.silence(e.Seq, f)
	c.play(&Verdict{Kind: VerdictAbandoned, Seq: e.Seq, Seat: c.seat})
	if f == nil {
		return nil
	}
	return []advSend{advAll(f)}
}

func advEquivocateBroadcast(c *advCheater, e *Entry) ([]advSend, error) {
	t := c.node.table
	in, err := advDeckBefore(t, e)
	if err != nil {
		return nil, err
	}
	deck, proof, err := crypto.Shuffle(advRand(uint64(e.Seq), "equivocation"), t.ctx.WithStep(stepShuffle), c.seat, t.joint, in)
	if err != nil {
		return nil, err
	}
	f := c.resign(e, KindShuffle, (&shuffleBody{deck: deck, proof: proof}).marshal())
	c.play(&Verdict{Kind: VerdictEquivocation, Seq: e.Seq, Seat: c.seat})
	return []advSend{advAll(e), advAll(f)}, nil // both valid: a proof of equivocation
}

// advEquivocateSplit sends its real face-down placement to half the honest nodes and a
// different, equally valid one (a commitment to another card) to the other half, and serves
// each half its own version.
func advEquivocateSplit(c *advCheater, e *Entry) ([]advSend, error) {
	t := c.node.table
	g := t.game
	p, _ := g.PlayAt(g.NumPlays())
	cm, _, err := c.node.self.commit(t, g.Round(), p.Pos, advOtherCard(p.Card))
	if err != nil {
		return nil, err
	}
	f := c.resign(e, KindPlace, (&placeBody{spot: p.Spot, commit: cm}).marshal())
	var a, b []string
	for seat := range t.keys {
		if seat == c.seat {
			continue
		}
		if id := fmt.Sprintf("n%d", seat); len(a) <= len(b) {
			a = append(a, id)
		} else {
			b = append(b, id)
		}
	}
	c.mu.Lock()
	for _, id := range b {
		c.subTo[id] = map[uint64]*Entry{e.Seq: f}
	}
	c.mu.Unlock()
	c.play(&Verdict{Kind: VerdictEquivocation, Seq: e.Seq, Seat: c.seat})
	return []advSend{{to: a, data: advAll(e).data}, {to: b, data: advAll(f).data}}, nil
}

func advForgedSig(c *advCheater, e *Entry) ([]advSend, error) {
	f := *e
	_, other, _ := ed25519.GenerateKey(advRand(e.Seq, "forger"))
	f.Sign(other) // the right bytes, signed by a key that is not the seat's
	return c.advDropped(e, &f), nil
}

func advMissingSig(c *advCheater, e *Entry) ([]advSend, error) {
	f := *e
	f.Sig = [64]byte{}
	return c.advDropped(e, &f), nil
}

// advImpersonate follows each of the cheater's entries with one for the next seat's turn,
// signed by the cheater in that seat's name.
func advImpersonate(c *advCheater, e *Entry) ([]advSend, error) {
	seat, kinds := c.node.table.Due()
	if seat < 0 || seat == c.seat {
		return advPass(e)
	}
	f := &Entry{Table: e.Table, Seq: e.Seq + 1, Prev: e.Hash(), Seat: seat, Kind: kinds[0], Body: e.Body}
	f.Sign(c.key)
	c.play(nil)
	return []advSend{advAll(e), advAll(f)}, nil
}

// advOutOfTurn follows each of the cheater's entries with another, validly signed by the
// cheater, when another seat is due.
func advOutOfTurn(c *advCheater, e *Entry) ([]advSend, error) {
	seat, _ := c.node.table.Due()
	if seat < 0 || seat == c.seat {
		return advPass(e)
	}
	f := &Entry{Table: e.Table, Seq: e.Seq + 1, Prev: e.Hash(), Seat: c.seat, Kind: e.Kind, Body: e.Body}
	f.Sign(c.key)
	c.play(nil)
	return []advSend{advAll(e), advAll(f)}, nil
}

// advReplayOther sends, instead of its key entry, its key entry at another table of the same
// players (the cheater sits at seat 0 and writes both geneses), byte for byte.
func advReplayOther(c *advCheater, e *Entry) ([]advSend, error) {
	t := c.node.table
	g := *t.g
	g.Roster = append([]Member(nil), t.g.Roster...)
	gen, err := NewGenesis(advRand(1, "other table"), c.key, &g)
	if err != nil {
		return nil, err
	}
	other, err := NewTable(gen, NewSelf(c.key, c.node.self.Seed))
	if err != nil {
		return nil, err
	}
	f, err := other.NextEntry(nil)
	if err != nil || f == nil || f.Seq != e.Seq || f.Kind != e.Kind {
		return nil, fmt.Errorf("the other table's key entry: %v, %v", f, err)
	}
	return c.advDropped(e, f), nil
}

func advShuffleChange(change func(crypto.Deck)) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		b, err := parseShuffleBody(e.Body)
		if err != nil {
			return nil, err
		}
		change(b.deck)
		return c.advReplace(e, c.resign(e, KindShuffle, b.marshal()), VerdictCheat, e.Seq), nil
	}
}

// advShuffleOtherTable proves its shuffle, of this very deck under this joint key, for
// another table id: the best a replay of another table's shuffle proof could be.
func advShuffleOtherTable(c *advCheater, e *Entry) ([]advSend, error) {
	t := c.node.table
	in, err := advDeckBefore(t, e)
	if err != nil {
		return nil, err
	}
	ctx := t.ctx.WithStep(stepShuffle)
	ctx.Table = bytes.Repeat([]byte{0x5a}, 32)
	deck, proof, err := crypto.Shuffle(advRand(2, "other table"), ctx, c.seat, t.joint, in)
	if err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindShuffle, (&shuffleBody{deck: deck, proof: proof}).marshal()), VerdictCheat, e.Seq), nil
}

// advWrongShare replaces one decryption share by another point (which would decrypt the
// contract to something else), keeping its proof.
func advWrongShare(c *advCheater, e *Entry) ([]advSend, error) {
	shares, err := parseShares(e.Body)
	if err != nil {
		return nil, err
	}
	pt, err := crypto.CardPoint(3)
	if err != nil {
		return nil, err
	}
	raw := shares[2].Bytes()
	copy(raw, pt.Bytes())
	if shares[2], err = crypto.ParseShare(raw); err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindShares, marshalShares(shares)), VerdictCheat, e.Seq), nil
}

// advShareToOne sends its wrong share to one honest node only and goes silent, and the
// network loses everything for a moment just then (a burst of loss): the one node that saw
// the proof must still get it to the others.
func advShareToOne(c *advCheater, e *Entry) ([]advSend, error) {
	sends, err := advWrongShare(c, e)
	if err != nil {
		return nil, err
	}
	c.silence(e.Seq, nil)
	c.send(context.Background(), advSend{to: []string{"n0"}, data: sends[0].data})
	c.net.SetFaults(memnet.Faults{Drop: 1})
	c.mu.Lock()
	c.timers = append(c.timers, time.AfterFunc(300*time.Millisecond, func() { c.net.SetFaults(memnet.Faults{}) }))
	c.mu.Unlock()
	return nil, nil
}

// advOpenOther opens its first face-down card of the reveal to another card.
func advOpenOther(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	b, err := parseRevealBody(e.Body)
	if err != nil {
		return nil, err
	}
	p, _ := pre.game.PlayAt(b.indexes[0])
	if _, b.openings[0], err = pre.self.commit(pre, pre.game.Round(), p.Pos, advOtherCard(p.Card)); err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindReveal, b.marshal()), VerdictCheat, e.Seq), nil
}

// advCommitCheat places face down a commitment to a card chosen by choose (one the engine
// must refuse when it is revealed) instead of the card the node placed, carries on as if
// nothing happened, and opens it to that card at its reveal: the honest nodes must convict it
// at the reveal.
func advCommitCheat(choose func(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool)) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		t := c.node.table
		switch {
		case c.pending == nil && c.state["placed"] == 0 && advFaceDown(c, e):
			g := t.game
			i := g.NumPlays()
			p, _ := g.PlayAt(i)
			card, ok := choose(c, g, p)
			if !ok {
				return advPass(e)
			}
			cm, _, err := c.node.self.commit(t, g.Round(), p.Pos, card)
			if err != nil {
				return nil, err
			}
			f := c.resign(e, KindPlace, (&placeBody{spot: p.Spot, commit: cm}).marshal())
			if err := c.patch(f); err != nil {
				return nil, err
			}
			c.state["placed"]++
			c.pending = &advPending{index: i, round: g.Round(), pos: p.Pos, card: card}
			return []advSend{advAll(f)}, nil
		case c.pending != nil && e.Kind == KindReveal:
			b, err := parseRevealBody(e.Body)
			if err != nil {
				return nil, err
			}
			k := -1
			for j, idx := range b.indexes {
				if idx == c.pending.index {
					k = j
				}
			}
			if k < 0 {
				return nil, fmt.Errorf("its reveal %v lacks the forged card %d", b.indexes, c.pending.index)
			}
			pd := c.pending
			c.pending = nil
			if _, b.openings[k], err = c.node.self.commit(t, pd.round, pd.pos, pd.card); err != nil {
				return nil, err
			}
			return c.advReplace(e, c.resign(e, KindReveal, b.marshal()), VerdictCheat, e.Seq), nil
		}
		return advPass(e)
	}
}

// advPlacedTwice: a card it already placed this round.
func advPlacedTwice(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool) {
	for i := 1; i < g.NumPlays(); i++ {
		q, _ := g.PlayAt(i)
		if q.Seat == c.seat && q.Card != corruption.CardUnknown && q.Card != corruption.Reporter && q.Card != p.Card {
			return q.Card, true
		}
	}
	return 0, false
}

// advSwissCharacter: a character it holds, on the Swiss account it placed a bribe on.
func advSwissCharacter(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool) {
	if !p.Spot.IsSwiss() {
		return 0, false
	}
	for _, card := range g.Hand(c.seat) {
		if card >= corruption.DA {
			return card, true
		}
	}
	return 0, false
}

// advUsedEarlier: a district attorney or hit man it played in an earlier round.
func advUsedEarlier(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool) {
	if g.Round() < 2 {
		return 0, false
	}
	da, _, hit := g.CharactersLeft(c.seat)
	switch {
	case da == 0:
		return corruption.DA, true
	case hit == 0:
		return corruption.HitMan, true
	}
	return 0, false
}

// advSteerSwiss has the cheater put a bribe on a Swiss account whenever it holds a character.
func advSteerSwiss(*advCheater) func(corruption.View) (corruption.Move, bool) {
	return func(v corruption.View) (corruption.Move, bool) {
		d := v.Next()
		if d.Kind != corruption.DecidePlace || d.Seat != v.Seat() {
			return corruption.Move{}, false
		}
		hand := v.Hand()
		if !slicesContainsChar(hand) {
			return corruption.Move{}, false
		}
		for _, card := range hand {
			for b := corruption.Body(0); b < corruption.NumBodies; b++ {
				if card < corruption.DA && v.CanPlay(card, corruption.SwissSpot(b)) == nil {
					return corruption.Move{Kind: corruption.MovePlace, Seat: v.Seat(), Card: card, Spot: corruption.SwissSpot(b)}, true
				}
			}
		}
		return corruption.Move{}, false
	}
}

func slicesContainsChar(hand []corruption.Card) bool {
	for _, c := range hand {
		if c >= corruption.DA {
			return true
		}
	}
	return false
}

// advSteerCharacters has the cheater play its district attorney and hit man in round 1.
func advSteerCharacters(*advCheater) func(corruption.View) (corruption.Move, bool) {
	return func(v corruption.View) (corruption.Move, bool) {
		d := v.Next()
		if d.Kind != corruption.DecidePlace || d.Seat != v.Seat() || v.Round() != 1 {
			return corruption.Move{}, false
		}
		for _, card := range []corruption.Card{corruption.DA, corruption.HitMan} {
			for _, ct := range v.Table() {
				if v.CanPlay(card, corruption.ContractSpot(ct)) == nil {
					return corruption.Move{Kind: corruption.MovePlace, Seat: v.Seat(), Card: card, Spot: corruption.ContractSpot(ct)}, true
				}
			}
		}
		return corruption.Move{}, false
	}
}

// advPeekAtCheater has honest players spend their peeks on the cheater's face-down cards.
func advPeekAtCheater(cheater int) func(corruption.View) (corruption.Move, bool) {
	return func(v corruption.View) (corruption.Move, bool) {
		d := v.Next()
		if d.Kind != corruption.DecidePlace || d.Seat != v.Seat() || !d.CanPeek {
			return corruption.Move{}, false
		}
		for _, i := range v.Peekable() {
			if p, ok := v.Play(i); ok && p.Seat == cheater {
				return corruption.Move{Kind: corruption.MovePeek, Seat: v.Seat(), Index: i}, true
			}
		}
		return corruption.Move{}, false
	}
}

// advLyingAnswer answers a peek with the opening of another card (lie) or with a box that does
// not decrypt (garbage): the peeker blames it, and the blame convicts the cheater.
// The ways a peeked card's owner can lie in its sealed answer.
const (
	advAnswerLie     = iota // a well-formed box holding the opening of another card: the peeker blames
	advAnswerGarbage        // a box changed after it was sealed: its proof fails, convicted at once
	advAnswerOracle         // a box built on the A of an undealt contract, with garbage in it
)

func advLyingAnswer(mode int) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		body := append([]byte(nil), e.Body...)
		convicted := e.Seq // the answer itself convicts its author
		pre, err := c.before(e)
		if err != nil {
			return nil, err
		}
		p := pre.peek
		switch mode {
		case advAnswerGarbage:
			body[len(body)-1] ^= 1
		case advAnswerOracle:
			// The attack of the outside review: were the peeker to blame this box, its blame
			// would publish x·A, its decryption share of a contract never dealt.
			undealt := pre.deck[len(pre.deck)-1].Bytes()[:crypto.PointSize]
			c.mu.Lock()
			c.oracleA = append(c.oracleA, undealt)
			c.mu.Unlock()
			body = append(append([]byte(nil), undealt...), make([]byte, 2*crypto.ScalarSize)...) // a "proof" of zeros
			body = append(body, bytes.Repeat([]byte{0x5a}, len(e.Body)-len(body))...)
		default:
			q, _ := pre.game.PlayAt(p.index)
			round := pre.game.Round()
			_, o, err := pre.self.commit(pre, round, q.Pos, advOtherCard(q.Card))
			if err != nil {
				return nil, err
			}
			box, err := crypto.Seal(advRand(3, "lie"), pre.ctx.WithStep(stepPeek(round, p.index)), c.seat, p.peeker, pre.pubs[p.peeker], padAnswer(o.Bytes()))
			if err != nil {
				return nil, err
			}
			body = box.Bytes()
			convicted = e.Seq + 1 // by the peeker's blame
		}
		f := c.resign(e, KindAnswer, body)
		if err := c.patch(f); err != nil {
			return nil, err
		}
		if box, err := crypto.ParseSealedBox(body); err == nil {
			c.node.table.peek.box = box
		}
		c.play(&Verdict{Kind: VerdictCheat, Seq: convicted, Seat: c.seat})
		return []advSend{advAll(f)}, nil
	}
}

// advSilent stops answering at its entry: it publishes and serves nothing from there on.
func advSilent(c *advCheater, e *Entry) ([]advSend, error) { return c.advDropped(e, nil), nil }

// advPoisonSync is an otherwise honest seat that claims a longer log than it has and answers
// every fetch with an entry that blames nobody (unsigned, off the chain) at the asked seq,
// followed by one beyond it. (Signed, the first would prove an equivocation.)
func advPoisonSync(c *advCheater) {
	c.heads = func(h *head) { h.len++ }
	c.poison = func(req []byte, batch []*Entry) []*Entry {
		r := reader{b: req}
		r.u8()
		var id [32]byte
		r.fixed(id[:])
		from := r.u64()
		x := &Entry{Table: id, Seq: from, Seat: c.seat, Kind: KindPlace, Body: []byte{0, 0, 1}}
		x.Prev[0] = 1
		y := &Entry{Table: id, Seq: from + 1, Prev: x.Hash(), Seat: c.seat, Kind: KindPlace, Body: []byte{0, 0, 1}}
		c.play(nil)
		return []*Entry{x, y}
	}
}

func advScenarios() []advScenario {
	std := func(name string, players, cheater int, forge advForge) advScenario {
		return advScenario{name: name, players: players, cheater: cheater, variant: corruption.Standard,
			timeout: 2 * time.Second, forge: forge}
	}
	faulty := memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1, MaxDelay: 2 * time.Millisecond}
	withFaults := func(sc advScenario) advScenario {
		sc.name += "+faults"
		sc.faults = faulty
		return sc
	}
	completes := func(sc advScenario) advScenario { sc.complete = true; return sc }
	steered := func(sc advScenario, steer func(*advCheater) func(corruption.View) (corruption.Move, bool)) advScenario {
		sc.steer = steer
		return sc
	}
	book := func(sc advScenario) advScenario {
		sc.lbb, sc.honest = true, advPeekAtCheater
		return sc
	}
	first := func(k Kind, f advForge) advForge { return advFirst(advKind(k), f) }
	list := []advScenario{
		std("equivocation-broadcast", 4, 1, first(KindShuffle, advEquivocateBroadcast)),
		std("equivocation-split", 4, 2, advFirst(advFaceDown, advEquivocateSplit)),
		std("signature-forged", 3, 1, first(KindKey, advForgedSig)),
		std("signature-missing", 3, 2, first(KindPlace, advMissingSig)),
		completes(std("signature-impersonation", 4, 1, advImpersonate)),
		completes(std("out-of-turn", 4, 3, advOutOfTurn)),
		std("replay-other-table", 3, 0, first(KindKey, advReplayOther)),
		std("shuffle-swap", 4, 2, first(KindShuffle, advShuffleChange(func(d crypto.Deck) { d[0], d[1] = d[1], d[0] }))),
		std("shuffle-duplicate", 4, 0, first(KindShuffle, advShuffleChange(func(d crypto.Deck) { d[1] = d[0] }))),
		std("shuffle-proof-from-other-table", 3, 1, first(KindShuffle, advShuffleOtherTable)),
		std("deal-wrong-share", 4, 3, first(KindShares, advWrongShare)),
		std("deal-wrong-share-to-one-then-loss", 4, 3, first(KindShares, advShareToOne)),
		std("reveal-other-card", 3, 1, first(KindReveal, advOpenOther)),
		std("place-twice-in-round", 4, 1, advCommitCheat(advPlacedTwice)),
		steered(std("place-character-on-swiss", 3, 2, advCommitCheat(advSwissCharacter)), advSteerSwiss),
		steered(std("place-character-used-earlier", 3, 0, advCommitCheat(advUsedEarlier)), advSteerCharacters),
		book(std("answer-lying", 4, 1, first(KindAnswer, advLyingAnswer(advAnswerLie)))),
		book(std("answer-garbage", 3, 2, first(KindAnswer, advLyingAnswer(advAnswerGarbage)))),
		book(std("answer-oracle", 4, 3, first(KindAnswer, advLyingAnswer(advAnswerOracle)))),
		std("silent-at-shuffle", 4, 2, first(KindShuffle, advSilent)),
		std("silent-before-reveal", 4, 1, first(KindReveal, advSilent)),
		std("silent-last-random-reveal", 3, 2, first(KindRandom, advSilent)),
	}
	poison := completes(std("sync-poisoned-answers", 4, 2, func(_ *advCheater, e *Entry) ([]advSend, error) { return advPass(e) }))
	poison.setup = advPoisonSync
	list = append(list, poison)
	for _, name := range []string{"equivocation-broadcast", "shuffle-duplicate", "place-twice-in-round", "answer-lying", "silent-before-reveal"} {
		for _, sc := range list {
			if sc.name == name {
				list = append(list, withFaults(sc))
			}
		}
	}
	return list
}

// TestCheaters plays each cheat live (docs/SECURITY.md quotes its totals):
//
//	go test -run TestCheaters -v ./protocol/
func TestCheaters(t *testing.T) {
	var mu sync.Mutex
	var tried, caught, dropped int
	// The games mostly wait (for timeouts, lingering): run four at a time.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, sc := range advScenarios() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t.Run(sc.name, func(t *testing.T) {
				defer func() {
					mu.Lock()
					defer mu.Unlock()
					tried++
					switch {
					case t.Failed():
					case sc.complete:
						dropped++
					default:
						caught++
					}
				}()
				runs, c := advPlay(t, sc, uint64(100+i))
				advCheck(t, sc, runs, c)
			})
		}()
	}
	wg.Wait()
	t.Logf("cheats tried %d: %d convicted or named with the same verdict on every honest node and in every audit, %d dropped with the game completing identically, %d failed",
		tried, caught, dropped, tried-caught-dropped)
}

// AdvSecrets lists byte strings derived from a node's table seed that must never appear on the
// wire (privacy_test.go looks for them in the recorded traffic): its ElGamal private key, and
// the first 32 bytes of its secret random streams (the key's, its key proof's, its shuffle's,
// and its decryption shares' for the first rounds). The streams for commitment nonces and the
// random reveal are left out: their bytes are published at the reveal, by design. It also
// returns the ElGamal public key, for the caller to check against the node's key entry (a
// derivation that went wrong would make the search pointless).
func AdvSecrets(genesis *Entry, identity ed25519.PrivateKey, seed [32]byte) (map[string][]byte, []byte, error) {
	s := NewSelf(identity, seed)
	if _, err := NewTable(genesis, s); err != nil {
		return nil, nil, err
	}
	k, err := s.elgamalKey()
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]byte{"elgamal key": k.Bytes()}
	labels := []string{"elgamal key", "key proof", "shuffle"}
	for r := 1; r <= 4; r++ {
		for c := range corruption.ContractsPerDeal {
			labels = append(labels, fmt.Sprintf("share %d %d", r, c))
		}
	}
	for _, l := range labels {
		b := make([]byte, 32)
		s.rand("%s", l).Read(b)
		out["stream "+l] = b
	}
	return out, k.Public().Bytes(), nil
}

// advNoOracleShare checks that no node's log holds x·A, for any node's ElGamal key x and any
// point A an oracle answer put in a sealed box: the blame of such a box must never publish a
// decryption share of an undealt card.
func advNoOracleShare(t *testing.T, runs []advRun, c *advCheater) {
	t.Helper()
	c.mu.Lock()
	points := c.oracleA
	c.mu.Unlock()
	if len(points) == 0 {
		return
	}
	var logs [][]byte
	for _, r := range runs {
		b, err := os.ReadFile(filepath.Join(r.dir, "tables", advTable, "log"))
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, b)
	}
	for seat, r := range runs {
		entries, err := ReadLog(bytes.NewReader(logs[seat]))
		if err != nil || len(entries) == 0 {
			t.Fatalf("seat %d's log: %v", seat, err)
		}
		idSeed, err1 := os.ReadFile(filepath.Join(r.dir, "identity"))
		tseed, err2 := os.ReadFile(filepath.Join(r.dir, "tables", advTable, "seed"))
		if err1 != nil || err2 != nil {
			t.Fatalf("seat %d's secrets: %v %v", seat, err1, err2)
		}
		secrets, _, err := AdvSecrets(entries[0], ed25519.NewKeyFromSeed(idSeed), [32]byte(tseed))
		if err != nil {
			t.Fatal(err)
		}
		priv, err := crypto.ParsePrivateKey(secrets["elgamal key"])
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range points {
			ct, err := crypto.ParseCiphertext(append(append([]byte(nil), a...), a...))
			if err != nil {
				t.Fatal(err)
			}
			sh, err := crypto.DecryptShare(advRand(1, "oracle"), crypto.Context{Table: []byte("x"), Roster: [][]byte{{0}}}, 0, priv, ct)
			if err != nil {
				t.Fatal(err)
			}
			share := sh.Bytes()[:crypto.PointSize] // x·A
			for holder, b := range logs {
				if bytes.Contains(b, share) {
					t.Errorf("seat %d's log holds seat %d's decryption share x·A of the point an answer asked it to blame", holder, seat)
				}
			}
		}
	}
	for _, b := range logs {
		if entries, _ := ReadLog(bytes.NewReader(b)); len(entries) > 0 {
			for _, e := range entries {
				if e.Kind == KindBlame {
					t.Errorf("%v: a blame was published for an answer every node could convict by itself", e)
				}
			}
		}
	}
}
