package protocol_test

// Privacy: every byte every node sends during whole games is recorded and searched for what
// must stay secret (docs/SECURITY.md), for Corruption and for the toy, so that every service of
// the kit is covered: no hidden value (a face-down card, a committed choice, a hidden move
// value) is derivable before its opening; a sealed answer reveals nothing to anyone but its
// peeker and always has one size; a card dealt face up needs every seat's share, a card dealt
// to one seat can be read by it alone, and an undealt card by nobody; the anonymous pile does
// not show whose card is whose; and no node's secret is ever sent. The analysis (the facts read
// from the log) is in privacy_facts_test.go.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"corruption/crypto"
	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// wiretap records every byte the nodes send: broadcasts, fetch requests and fetch answers, in
// the order they were sent.
type wiretap struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (w *wiretap) add(b []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, bytes.Clone(b))
}

// frozen is a copy of what w has recorded so far, which nothing records into.
func (w *wiretap) frozen() *wiretap {
	w.mu.Lock()
	defer w.mu.Unlock()
	return &wiretap{msgs: slices.Clone(w.msgs)}
}

// tapNet is a node's endpoint that records what the node sends.
type tapNet struct {
	*memnet.Endpoint
	w *wiretap
}

func (n tapNet) Publish(ctx context.Context, data []byte) error {
	n.w.add(data)
	return n.Endpoint.Publish(ctx, data)
}

func (n tapNet) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	n.w.add(req)
	return n.Endpoint.Request(ctx, peer, req)
}

func (n tapNet) Serve(h func(string, []byte) ([]byte, error)) {
	if h == nil {
		n.Endpoint.Serve(nil)
		return
	}
	n.Endpoint.Serve(func(from string, req []byte) ([]byte, error) {
		resp, err := h(from, req)
		if err == nil {
			n.w.add(resp)
		}
		return resp, err
	})
}

// peeker is a Corruption player that spends every little-black-book peek it may, on the
// latest card, and otherwise plays as p.
type peeker struct{ p engine.Player }

func (p peeker) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	cg := g.(*corruption.Game)
	if v := cg.View(seat); v.Next().Kind == corruption.DecidePlace && v.Next().Seat == seat && v.Next().CanPeek {
		if ps := v.Peekable(); len(ps) > 0 {
			return cg.Action(corruption.Move{Kind: corruption.MovePeek, Seat: seat, Index: ps[len(ps)-1]})
		}
	}
	return p.p.Decide(ctx, g, seat)
}

// recordGame plays one table with every message recorded. Keys, table seeds and the genesis
// nonce come from seed, so the game (not the traffic's timing) is the same on every run.
func recordGame(t *testing.T, spec gameSpec, seed uint64) (*wiretap, []nodeRun) {
	net := memnet.New(seed, memnet.Faults{Drop: 0.05, Duplicate: 0.05, MaxDelay: time.Millisecond})
	defer net.Close()
	w := &wiretap{}
	spec.net = func(_ int, ep *memnet.Endpoint) protocol.Network { return tapNet{Endpoint: ep, w: w} }
	spec.store = func(i int, s *protocol.Store) { s.Rand = newStream("privacy %d node %d", seed, i) }
	adjust := spec.adjust
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		if adjust != nil {
			adjust(i, cfg)
		}
		cfg.Rand = newStream("privacy %d genesis", seed)
	}
	runs := playNodes(t, net, spec)
	checkSame(t, runs)
	return w, runs
}

// privacyGame is one game TestPrivacy records.
type privacyGame struct {
	name   string
	spec   gameSpec
	values [][]byte // every value a hidden value of the game may take
	cards  int      // the card ids are 0 to cards-1
}

var corruptionValues = func() [][]byte {
	var out [][]byte
	for c := corruption.Bribe1000; c <= corruption.HitMan; c++ {
		out = append(out, []byte(c.String()))
	}
	return out
}()

var toyValues = [][]byte{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}}

func privacyGames() []privacyGame {
	book := func(n int, v corruption.Variant, lbb bool, seed uint64) gameSpec {
		s := corruptionSpec(n, v, lbb, seed)
		bots := s.player
		s.player = func(i int) engine.Player { return peeker{bots(i)} }
		return s
	}
	return []privacyGame{
		{"corruption-3-standard", book(3, corruption.Standard, true, 30), corruptionValues, corruption.NumContracts},
		{"corruption-4-down-the-river", book(4, corruption.DownTheRiver, true, 31), corruptionValues, corruption.NumContracts},
		{"corruption-4-closed", book(4, corruption.Closed, false, 32), corruptionValues, corruption.NumContracts},
		{"toy-3", toySpec(3), toyValues, 10},
		{"toy-5", toySpec(5), toyValues, 10},
	}
}

// privacyTally is what TestPrivacy checked, over all its games.
type privacyTally struct {
	games, bytes, values, forced, answers, public, subsets, private, shown, undealt, pileShuffles int
	answerSizes, answerValues                                                                     map[string]bool
}

// TestPrivacy plays whole games with every message recorded, then shows from the recording:
//   - no hidden value is derivable before its opening: the opening's nonce first appears in
//     the message that carries the open entry, and before that message no value of the game
//     opens the commitment with any 32 bytes seen on the wire (a positive control shows the same
//     search finds the value with the true nonce);
//   - a sealed answer opens with its peeker's key only, to the opening the owner later
//     publishes, and every answer has the same size whatever it hides;
//   - a card dealt face up: every proper subset of the seats' decryption shares decodes to no
//     card, all of them to a card, and no card is dealt twice;
//   - a card dealt to one seat: the others' shares (all that is published) decode to no card,
//     with the recipient's own share to a card, and that share is never sent before the seat
//     shows the card (never, if it does not);
//   - an undealt card: no seat's decryption share of it is ever sent;
//   - the anonymous pile: every shuffle re-encrypts every card (no point of its input is in
//     its output), and no card of the pile as dealt shares a point with the cards it came from;
//   - no node's identity seed, table seed, ElGamal key or secret stream is ever sent.
//
// The brute force (every value of the game × every distinct 32-byte window) covers every third
// hidden value; -long covers them all:
//
//	go test ./protocol/ -run TestPrivacy -v -long
func TestPrivacy(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	tally := privacyTally{answerSizes: map[string]bool{}, answerValues: map[string]bool{}}
	for k, g := range privacyGames() {
		if testing.Short() && k%2 == 1 {
			continue // -short (the race pass): three of the five games
		}
		t.Run(g.name, func(t *testing.T) {
			w, runs := recordGame(t, g.spec, uint64(len(g.name)))
			log := readLog(t, runs[0].dir)
			facts := readFacts(t, log)
			keys := nodeKeys(t, runs, log)
			mu.Lock()
			tally.games++
			for _, m := range w.msgs {
				tally.bytes += len(m)
			}
			mu.Unlock()
			index := newWindowIndex(w.msgs)
			t.Run("hidden", func(t *testing.T) {
				n, f := checkHidden(t, w, index, facts, g.values)
				mu.Lock()
				tally.values, tally.forced = tally.values+n, tally.forced+f
				mu.Unlock()
			})
			t.Run("answers", func(t *testing.T) {
				mu.Lock()
				defer mu.Unlock()
				tally.answers += checkAnswers(t, facts, keys, tally.answerSizes, tally.answerValues)
			})
			t.Run("deals", func(t *testing.T) {
				p, s, q, sh := checkDeals(t, w, index, facts, keys, g.cards)
				mu.Lock()
				tally.public, tally.subsets, tally.private, tally.shown = tally.public+p, tally.subsets+s, tally.private+q, tally.shown+sh
				mu.Unlock()
			})
			t.Run("undealt", func(t *testing.T) {
				u := checkUndealt(t, index, facts, keys)
				mu.Lock()
				tally.undealt += u
				mu.Unlock()
			})
			t.Run("pile", func(t *testing.T) {
				k := checkPile(t, facts)
				mu.Lock()
				tally.pileShuffles += k
				mu.Unlock()
			})
			t.Run("secrets", func(t *testing.T) { checkSecrets(t, w, runs, log) })
		})
	}
	// Every answer to a peek, whatever it hides, must look the same on the wire.
	t.Run("answer-size", func(t *testing.T) {
		if tally.games == 0 {
			t.Skip("no game was played (filtered out by -run)")
		}
		if len(tally.answerValues) < 2 {
			t.Fatalf("the peeks saw too few kinds of value to tell (%v)", slices.Sorted(mapKeys(tally.answerValues)))
		}
		if len(tally.answerSizes) != 1 {
			t.Errorf("the size of a sealed answer tells what it hides, to anyone on the channel, before the opening: sizes %v for values %v",
				slices.Sorted(mapKeys(tally.answerSizes)), slices.Sorted(mapKeys(tally.answerValues)))
		}
	})
	t.Logf("recorded %d bytes of %d games; %d hidden values: no nonce before its opening; %d brute-forced over every value of the game with every 32-byte window sent before the opening, none opened; "+
		"%d sealed answers of one size, each opened by its peeker's key only; %d cards dealt face up: %d proper subsets of shares decode to no card; "+
		"%d cards dealt to one seat: the others' shares decode to no card, the recipient's share never sent (%d shown later, after); %d undealt cards: no seat's share ever sent; "+
		"%d shuffles of the anonymous pile re-encrypt every card; no identity seed, table seed, ElGamal key or secret stream sent",
		tally.bytes, tally.games, tally.values, tally.forced, tally.answers, tally.public, tally.subsets, tally.private, tally.shown, tally.undealt, tally.pileShuffles)
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// nodeKeys reads each seat's ElGamal private key back from its node's data directory (its
// identity and table seed), and checks it against the key the seat published. The keys are by
// seat of the drawn order; the key entries, written before the draw, by roster index.
func nodeKeys(t *testing.T, runs []nodeRun, log []*protocol.Entry) []*crypto.PrivateKey {
	g, err := protocol.ParseGenesis(log[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	order := seatOrderOf(t, log)
	keys := make([]*crypto.PrivateKey, len(runs))
	for i, r := range runs {
		secrets, pub := nodeSecrets(t, r.dir, log)
		player := g.SeatOf(ed25519.NewKeyFromSeed(secrets["identity seed"]).Public().(ed25519.PublicKey))
		seat := r.out.Seat
		if player < 0 || order.drawnAt == 0 || order.roster[seat] != player {
			t.Fatalf("node %d (player %d of the roster) ends at seat %d, which the drawn order gives player %v", i, player, seat, order.roster)
		}
		// The derivation is the node's: its ElGamal public key is the one its key entry
		// published (body: bytes(Y ‖ c ‖ s) ‖ anchor).
		if k := log[1+player]; k.Kind != protocol.KindKey || k.Seat != player || !bytes.Equal(k.Body[4:36], pub) {
			t.Fatalf("node %d: the secrets derived here are not the node's (its key entry has another key)", i)
		}
		priv, err := crypto.ParsePrivateKey(secrets["elgamal key"])
		if err != nil {
			t.Fatal(err)
		}
		keys[seat] = priv
	}
	return keys
}

// nodeSecrets is every secret of the node whose data directory is dir, at the table of log.
func nodeSecrets(t *testing.T, dir string, log []*protocol.Entry) (map[string][]byte, []byte) {
	id, err1 := os.ReadFile(filepath.Join(dir, "identity"))
	seed, err2 := os.ReadFile(filepath.Join(dir, "tables", "t", "seed"))
	if err1 != nil || err2 != nil || len(id) != 32 || len(seed) != 32 {
		t.Fatalf("the node's secrets: %v %v", err1, err2)
	}
	secrets, pub, err := protocol.SecretsForTest(log, ed25519.NewKeyFromSeed(id), [32]byte(seed))
	if err != nil {
		t.Fatal(err)
	}
	secrets["identity seed"], secrets["table seed"] = id, seed
	return secrets, pub
}

// checkHidden checks that no hidden value can be found before its opening.
func checkHidden(t *testing.T, w *wiretap, index *windowIndex, f *logFacts, values [][]byte) (n, forced int) {
	if len(f.values) == 0 {
		t.Fatal("no hidden value in the game")
	}
	for k, v := range f.values {
		if v.opened == nil {
			t.Fatalf("hidden value %d (seat %d) was never opened", v.ref, v.seat)
		}
		nonce := v.opening[:32]
		openAt := first(w.msgs, v.opened.Marshal())
		if openAt == len(w.msgs) {
			t.Fatalf("the opening of hidden value %d is not in the traffic", v.ref)
		}
		if at := first(w.msgs, nonce); at < openAt {
			t.Fatalf("the nonce of hidden value %d (seat %d) was sent in message %d, before its opening (message %d)", v.ref, v.seat, at, openAt)
		}
		n++
		if k%3 != 0 && !*long {
			continue
		}
		prefix := commitPrefix(f.table[:], f.roster, v.seat, 0, v.ref)
		// Positive control: the search finds the value given the true nonce.
		if got, ok := bruteForce(prefix, v.commit, values, func(y func([]byte) bool) { y(nonce) }); !ok || !bytes.Equal(got, v.opening[32:]) {
			t.Fatalf("the brute force does not find value %q with its own nonce (got %q): it cannot find anything", v.opening[32:], got)
		}
		if got, ok := bruteForce(prefix, v.commit, values, index.before(openAt)); ok {
			t.Fatalf("hidden value %d (seat %d) opens to %q with bytes sent before its opening", v.ref, v.seat, got)
		}
		forced++
	}
	t.Logf("%d messages, %d distinct windows, %d hidden values", len(w.msgs), len(index.wins), len(f.values))
	return n, forced
}

// checkAnswers checks that each sealed answer opens with its peeker's key only, to the
// opening its author later published, and records its size and what it hid.
func checkAnswers(t *testing.T, f *logFacts, keys []*crypto.PrivateKey, sizes, hid map[string]bool) int {
	for _, a := range f.answers {
		v := f.values[a.ref]
		box, err := crypto.ParseSealedBox(a.e.Body)
		if err != nil {
			t.Fatal(err)
		}
		for seat, k := range keys {
			msg, err := crypto.Unseal(a.ctx, a.from, a.to, k, box)
			if seat != a.to {
				if err == nil {
					t.Fatalf("seat %d opens the answer to seat %d's peek", seat, a.to)
				}
				continue
			}
			if err != nil || len(msg) == 0 || int(msg[0]) > len(msg)-1 || !bytes.Equal(msg[1:1+int(msg[0])], v.opening) {
				t.Fatalf("the peeker does not read the opening of hidden value %d in its answer: %v", a.ref, err)
			}
		}
		sizes[fmt.Sprint(len(a.e.Body))] = true
		hid[string(v.opening[32:])] = true
	}
	return len(f.answers)
}
