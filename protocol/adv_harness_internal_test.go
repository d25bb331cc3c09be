package protocol

// The live cheater harness (docs/SECURITY.md): real Nodes with bots play on memnet, and one of
// them cheats. The cheater is an honest Node whose network endpoint is wrapped: the wrapper
// sees every entry the node publishes and every batch it serves, and sends forged entries
// instead, signed with the cheater's identity key (the test made every key). Cheats that need
// the cheater's secrets (a commitment to a card it does not hold, a lying sealed answer, a
// wrong share) are forged here, inside the package, with its body encoders and the cheater's
// Self (adv_cheats_internal_test.go). Every honest node must then either complete identically,
// or halt with one verdict naming the cheater's seat, keep its log, and have its log audit to
// that same verdict (adv_scenarios_internal_test.go).
//
// The nodes run on a fake clock (memnet.Clock) that a pump moves five times faster than real
// time, with a table timeout of a minute: no honest node is ever named for a pause of a busy
// machine. When the cheater goes silent, the harness waits until the honest nodes all wait for
// the entry it withheld, then moves the clock to just short of the timeout (past half of it, so
// that they fetch from every peer); when every honest node has reached the expected verdict it
// moves the clock past their linger (adv_clock_internal_test.go).

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol/memnet"
)

const (
	advTable   = "t"
	advTimeout = time.Minute      // the table's timeout, on the fake clock
	advLinger  = 90 * time.Second // longer than the timeout: a node that saw a proof serves it while the others fetch
	advTick    = 20 * time.Millisecond
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

// advKeys makes n identity keys sorted by public key: a genesis lists the nodes in key order,
// so the node given keys[i] is roster index i (and seat i until the seat order is drawn; then
// it sits where the draw puts it).
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
	if err := os.MkdirAll(dir, 0o700); err != nil {
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

// advPlayer makes a seat's decisions: steer first (if it says so), else the bot.
type advPlayer struct {
	p     engine.Player
	steer func(g *corruption.Game, seat int) (corruption.Move, bool)
}

func (p advPlayer) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if cg, ok := g.(*corruption.Game); ok && p.steer != nil {
		if m, ok := p.steer(cg, seat); ok {
			return cg.Action(m)
		}
	}
	return p.p.Decide(ctx, g, seat)
}

// advToyPlayer plays the toy (registered by toy_test.go, whose bot this package cannot see)
// through the engine's interfaces only: it bids and hides the first card it may choose, and
// calls from odd seats.
type advToyPlayer struct{}

func (advToyPlayer) Decide(_ context.Context, g engine.Game, seat int) (engine.Action, error) {
	card := func() ([]byte, error) {
		cc, ok := g.(engine.ChoiceChecker)
		for v := 0; ok && v < 10; v++ {
			if cc.CheckChoice(seat, []byte{byte(v)}) == nil {
				return []byte{byte(v)}, nil
			}
		}
		return nil, fmt.Errorf("seat %d holds no card", seat)
	}
	switch d := g.Due(); {
	case d.Kind == engine.StepChoose:
		v, err := card()
		return engine.Action{Hidden: [][]byte{v}}, err
	case d.Respond && seat%2 == 1:
		return engine.Action{Move: []byte("call")}, nil
	case d.Respond:
		return engine.Action{}, nil
	default:
		v, err := card()
		return engine.Action{Move: []byte("hide"), Hidden: [][]byte{v}}, err
	}
}

// advScenario is one cheat, played live.
type advScenario struct {
	name    string
	players int
	// cheater is the cheating node, n<cheater>, roster index cheater: it sits at the seat the
	// draw gives it, and the verdicts name that seat.
	cheater  int
	toy      bool
	variant  corruption.Variant
	lbb      bool
	faults   memnet.Faults
	complete bool // the honest nodes must complete the game (else: a verdict naming the cheater)
	// playsOn: the cheat is caught where the table can open the cheater's seat (version 4,
	// convict.go): the honest nodes must complete the game, the cheater convicted and its seat
	// played by the stand-in, rather than halt.
	playsOn bool
	forge   func(c *advCheater, e *Entry) ([]advSend, error)
	setup   func(c *advCheater) // more wrapping (heads, poison) before the game
	// steer steers the cheater's player (seat) towards the situation its cheat needs.
	steer func(c *advCheater) func(g *corruption.Game, seat int) (corruption.Move, bool)
	// honest steers the honest players (a legal choice, e.g. peeking at the cheater's cards).
	honest func(c *advCheater) func(g *corruption.Game, seat int) (corruption.Move, bool)
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
	key ed25519.PublicKey
}

// advPlay plays the scenario; it returns each node's run and the cheater.
func advPlay(t *testing.T, sc advScenario, seed uint64) ([]advRun, *advCheater) {
	net := memnet.New(seed, sc.faults)
	defer net.Close()
	keys := advKeys(sc.players, seed)
	// Real time: a seat silent in mid-game is opened and the game played to its end (the race
	// detector on a loaded machine makes that slow), so the bound is generous; it catches hangs
	// (the harness moves its clock past timeouts and lingers: the game itself takes seconds).
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cheatCtx, stopCheater := context.WithCancel(ctx)
	defer stopCheater()
	clock := NewTickClockForTest()
	watch := &advWatch{st: map[int]Status{}, changed: make(chan struct{}, 1)}
	base := t.TempDir()
	runs := make([]advRun, sc.players)
	var cheater *advCheater
	var honest, all sync.WaitGroup
	game, config := "corruption", corruption.EncodeConfig(sc.variant, sc.lbb)
	if sc.toy {
		game, config = "toy", []byte{1}
	}
	// The cheater first: the honest players' steering may ask it its seat.
	cheater = &advCheater{net: net, key: keys[sc.cheater], idx: sc.cheater, forge: sc.forge,
		sent: map[uint64][]advSend{}, subAll: map[uint64]*Entry{}, subTo: map[string]map[uint64]*Entry{},
		state: map[string]int{}, poke: watch.poke}
	cheater.seatNow.Store(-1)
	for i := range sc.players {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		runs[i].key = keys[i].Public().(ed25519.PublicKey)
		var tseed [32]byte
		advRand(seed+uint64(i), "table seed").Read(tseed[:])
		store := advStore(t, runs[i].dir, keys[i], tseed)
		id := fmt.Sprintf("n%d", i)
		tap := &advTap{ep: net.Node(id), id: id}
		b, _ := bot.New("heuristic", seed*16+uint64(i))
		player := advPlayer{p: bot.Player(b)}
		if sc.toy {
			player.p = advToyPlayer{}
		}
		if i == sc.cheater {
			cheater.ep = tap.ep
			tap.cheat = cheater
			if sc.steer != nil {
				player.steer = sc.steer(cheater)
			}
			if sc.setup != nil {
				sc.setup(cheater)
			}
		} else if sc.honest != nil {
			player.steer = sc.honest(cheater)
		}
		node, err := NewNode(NodeConfig{Table: advTable, Game: game, Config: config, Players: sc.players,
			Name: id, Timeout: advTimeout, Identity: keys[i], Store: store, Player: player, Net: tap,
			Tick: advTick, Linger: advLinger, Logf: advLogf(t, id), Clock: clock, OnChange: watch.onChange(i),
			Escrow: true}) // every cheat at a table with escrow (at 3 seats and more), the escrow's own among them
		if err != nil {
			t.Fatal(err)
		}
		runCtx := ctx
		wg := &honest
		if i == sc.cheater {
			cheater.node, runCtx, wg = node, cheatCtx, &all
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i].out, runs[i].err = node.Run(runCtx)
		}()
	}
	stopPump := advPump(clock.Clock)
	drove := make(chan struct{})
	go func() { defer close(drove); advDrive(ctx, sc, clock, watch, cheater) }()
	honest.Wait()
	cancel() // ends the driver, if it still waits
	<-drove
	stopCheater()
	all.Wait()
	stopPump()
	cheater.mu.Lock()
	for _, tm := range cheater.timers {
		tm.Stop()
	}
	cheater.mu.Unlock()
	return runs, cheater
}
