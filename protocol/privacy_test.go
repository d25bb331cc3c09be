package protocol_test

// Privacy: every byte every node sends during whole games is recorded, and searched for what
// must stay secret (docs/SECURITY.md). A face-down card must not be derivable before its
// reveal, a contract before its deal, and no node's secrets may ever be on the wire.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
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
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// wire records every byte the nodes send: broadcasts, fetch requests and fetch answers, in
// the order they were sent.
type wire struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (w *wire) add(b []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, bytes.Clone(b))
}

// tapNet is a node's endpoint that records what the node sends.
type tapNet struct {
	*memnet.Endpoint
	w *wire
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

// peeker is a bot that spends every little-black-book peek it may, on the latest card.
type peeker struct{ b bot.Bot }

func (p peeker) Decide(_ context.Context, v corruption.View) (corruption.Move, error) {
	if d := v.Next(); d.Kind == corruption.DecidePlace && d.Seat == v.Seat() && d.CanPeek {
		if ps := v.Peekable(); len(ps) > 0 {
			return corruption.Move{Kind: corruption.MovePeek, Seat: v.Seat(), Index: ps[len(ps)-1]}, nil
		}
	}
	return p.b.Decide(v), nil
}

// recordGame plays one table and returns the traffic, the nodes' data directories and the
// contracts dealt (in deal order). Keys, seeds and the genesis nonce come from seed, so the
// game (not the traffic's timing) is the same on every run.
func recordGame(t *testing.T, n int, v corruption.Variant, lbb bool, seed uint64) (*wire, []nodeRun, []corruption.Contract) {
	net := memnet.New(seed, memnet.Faults{Drop: 0.05, Duplicate: 0.05, MaxDelay: time.Millisecond})
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w := &wire{}
	base := t.TempDir()
	runs := make([]nodeRun, n)
	var dealt []corruption.Contract
	var wg sync.WaitGroup
	for i := range n {
		dir := filepath.Join(base, fmt.Sprint(i))
		runs[i].dir = dir
		r := newDetRand(seed*16 + uint64(i))
		secret := func(path string) {
			b := make([]byte, 32)
			r.Read(b)
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		secret(filepath.Join(dir, "identity"))
		store, err := protocol.OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		store.Rand = r // the table seed, drawn when the log starts
		key, err := store.Identity()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := bot.New("heuristic", seed+uint64(i))
		cfg := protocol.NodeConfig{Table: "t", Players: n, Variant: v, LBB: lbb, Name: fmt.Sprintf("p%d", i),
			Timeout: 20 * time.Second, Identity: key, Store: store, Player: peeker{b},
			Net: tapNet{Endpoint: net.Node(fmt.Sprintf("n%d", i)), w: w}, Tick: 20 * time.Millisecond,
			Linger: time.Second, Rand: newDetRand(seed)}
		if i == 0 {
			cfg.OnEvent = func(ev corruption.Event) {
				if ev.Kind == corruption.EventDealt {
					dealt = append(dealt, ev.Contract)
				}
			}
		}
		node, err := protocol.NewNode(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i].out, runs[i].err = node.Run(ctx)
		}()
	}
	wg.Wait()
	checkSame(t, runs)
	return w, runs, dealt
}

// faceDown is a face-down card as the log shows it, with the opening its reveal published,
// and the answers to the peeks at it.
type faceDown struct {
	seat, round, pos, index int
	commit                  crypto.Commitment
	reveal                  *protocol.Entry
	nonce                   []byte
	card                    []byte
	answers                 []*protocol.Entry
}

// faceDownCards reads the complete log: every face-down placement and its opening. It reads
// the bodies by docs/PROTOCOL.md's layouts.
func faceDownCards(t *testing.T, log []*protocol.Entry) []*faceDown {
	var out []*faceDown
	seats := len(logRoster(t, log))
	round, n := 0, 0
	var plays []*faceDown // this round's plays, face up ones as nil
	placed := map[int]int{}
	peeked := 0
	for _, e := range log {
		switch e.Kind {
		case protocol.KindPeek:
			peeked = int(e.Body[0]) // u8: card index in the round's play order
		case protocol.KindAnswer:
			plays[peeked-1].answers = append(plays[peeked-1].answers, e)
		case protocol.KindShares:
			if n == 0 {
				round++
				plays, placed = nil, map[int]int{}
			}
			n = (n + 1) % seats
		case protocol.KindPlace:
			placed[e.Seat]++
			// u8 spot ‖ flag face-up ‖ (u8 card, or 32-byte commitment)
			if e.Body[1] == 1 {
				plays = append(plays, nil)
				continue
			}
			fd := &faceDown{seat: e.Seat, round: round, pos: placed[e.Seat], index: len(plays) + 1}
			copy(fd.commit[:], e.Body[2:])
			plays = append(plays, fd)
			out = append(out, fd)
		case protocol.KindReveal:
			// u8 count ‖ count × (u8 index ‖ bytes(opening))
			b := e.Body[1:]
			for range int(e.Body[0]) {
				idx, size := int(b[0]), int(binary.BigEndian.Uint32(b[1:5]))
				o := b[5 : 5+size]
				b = b[5+size:]
				fd := plays[idx-1]
				fd.reveal, fd.nonce, fd.card = e, o[:32], o[32:]
			}
		}
	}
	return out
}

func logRoster(t *testing.T, log []*protocol.Entry) [][]byte {
	g, err := protocol.ParseGenesis(log[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	var ids [][]byte
	for _, m := range g.Roster {
		ids = append(ids, m.Key)
	}
	return ids
}

// commitPrefix is an independent implementation of crypto/commit.go's hash, up to the nonce
// (crypto/README.md: C = SHA-256(LP(domain) ‖ LP("commit") ‖ table ‖ roster ‖ u64(seat) ‖
// u64(round) ‖ u64(position) ‖ nonce ‖ LP(card))), as a hash state to clone for each guess.
func commitPrefix(table []byte, roster [][]byte, seat, round, pos int) []byte {
	lp := func(b, p []byte) []byte { return append(binary.BigEndian.AppendUint64(b, uint64(len(p))), p...) }
	var b []byte
	b = lp(b, []byte("corruption/crypto/v1"))
	b = lp(b, []byte("commit"))
	b = lp(b, table)
	b = binary.BigEndian.AppendUint64(b, uint64(len(roster)))
	for _, id := range roster {
		b = lp(b, id)
	}
	for _, v := range []int{seat, round, pos} {
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	return b
}

var cardNames = []string{"1000", "2000", "4000", "6000", "8000", "10000", "da", "reporter", "hitman"}

// bruteForce tries every card with every candidate nonce; it returns the card that opens c, if
// any.
func bruteForce(prefix []byte, c crypto.Commitment, nonces func(yield func([]byte) bool)) (string, bool) {
	h := sha256.New()
	h.Write(prefix)
	state, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	var tails [][]byte
	for _, card := range cardNames {
		tails = append(tails, append(binary.BigEndian.AppendUint64(nil, uint64(len(card))), card...))
	}
	var sum [32]byte
	found := ""
	for nonce := range nonces {
		for k, tail := range tails {
			h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state)
			h.Write(nonce)
			h.Write(tail)
			if h.Sum(sum[:0]); sum == c {
				found = cardNames[k]
				return found, true
			}
		}
	}
	return "", false
}

// windowIndex holds every distinct 32-byte window of the recorded messages, in the order
// they first appear, with the index of that message.
type windowIndex struct {
	wins [][32]byte
	at   []int
}

func newWindowIndex(msgs [][]byte) *windowIndex {
	x := &windowIndex{}
	seen := map[[32]byte]bool{}
	for i, m := range msgs {
		for k := 0; k+32 <= len(m); k++ {
			w := [32]byte(m[k : k+32])
			if !seen[w] {
				seen[w] = true
				x.wins, x.at = append(x.wins, w), append(x.at, i)
			}
		}
	}
	return x
}

// before yields every distinct window first sent before message end.
func (x *windowIndex) before(end int) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for i := range x.wins {
			if x.at[i] >= end || !yield(x.wins[i][:]) {
				return
			}
		}
	}
}

// first is the index of the first recorded message containing p (len(msgs) if none).
func first(msgs [][]byte, p []byte) int {
	for i, m := range msgs {
		if bytes.Contains(m, p) {
			return i
		}
	}
	return len(msgs)
}

// TestPrivacy plays whole games with every message recorded, then shows from the recording:
//   - no face-down card is derivable before its reveal: the opening's nonce first appears in
//     the message that carries the reveal entry, and before that message, no card opens the
//     commitment with any 32 bytes seen on the wire (a positive control shows the same search
//     finds the card with the true nonce); and the sealed answer to a peek has the same size
//     whatever the card;
//   - no contract is known before its deal: for each dealt ciphertext, every proper subset of
//     the seats' decryption shares decodes to no card, and all of them to the dealt contract;
//   - no node's identity seed, table seed, ElGamal key or secret random streams is ever sent.
//
// The brute force (9 cards × every distinct window: about a million hashes a card) covers the
// first face-down card of each round; -long covers them all:
//
//	go test ./protocol/ -run TestPrivacy -v -long
func TestPrivacy(t *testing.T) {
	games := []struct {
		n   int
		v   corruption.Variant
		lbb bool
	}{{3, corruption.Standard, true}, {4, corruption.DownTheRiver, true}, {4, corruption.Closed, false}}
	var mu sync.Mutex
	var cards, forced, deals, subsets, bytesSeen, answers, played int
	sizes := map[string]map[int]bool{} // answer sizes by the card they hid
	for g, gm := range games {
		t.Run(fmt.Sprintf("%d-%s", gm.n, gm.v), func(t *testing.T) {
			w, runs, dealt := recordGame(t, gm.n, gm.v, gm.lbb, uint64(30+g))
			log := readLog(t, runs[0].dir)
			roster := logRoster(t, log)
			table := log[0].Table
			fds := faceDownCards(t, log)
			mu.Lock()
			played++
			for _, m := range w.msgs {
				bytesSeen += len(m)
			}
			for _, fd := range fds {
				for _, a := range fd.answers {
					if sizes[string(fd.card)] == nil {
						sizes[string(fd.card)] = map[int]bool{}
					}
					sizes[string(fd.card)][len(a.Body)] = true
					answers++
				}
			}
			mu.Unlock()
			t.Run("face-down", func(t *testing.T) {
				n, f := checkFaceDown(t, w, table, roster, fds)
				mu.Lock()
				cards, forced = cards+n, forced+f
				mu.Unlock()
			})
			t.Run("deal", func(t *testing.T) {
				d, sub := checkDeal(t, w, log, gm.n, dealt)
				mu.Lock()
				deals, subsets = deals+d, subsets+sub
				mu.Unlock()
			})
			t.Run("secrets", func(t *testing.T) { checkSecrets(t, w, runs, log) })
		})
	}
	// Every answer to a peek, whatever card it hides, must look the same on the wire.
	t.Run("answer-size", func(t *testing.T) {
		if played == 0 {
			t.Skip("no game was played (filtered out by -run)")
		}
		lengths := map[int]bool{}
		kinds := map[int]bool{}
		var desc []string
		for card, ls := range sizes {
			kinds[len(card)] = true
			for l := range ls {
				lengths[l] = true
				desc = append(desc, fmt.Sprintf("%s: %d bytes", card, l))
			}
		}
		if len(kinds) < 2 {
			t.Fatalf("the peeks saw too few kinds of card to tell (%v)", desc)
		}
		if len(lengths) > 1 {
			sort.Strings(desc)
			t.Errorf("the size of a sealed answer tells which card it hides, to anyone on the channel, before the reveal: %s", strings.Join(desc, ", "))
		}
	})
	t.Logf("recorded %d bytes; %d face-down cards: no nonce before its reveal; %d brute-forced over the 9 cards with every 32-byte window sent before the reveal, none opened; %d answers to peeks; %d dealt contracts: %d proper subsets of shares decode to no card, all shares to the dealt contract; no identity seed, table seed, ElGamal key or secret stream sent",
		bytesSeen, cards, forced, answers, deals, subsets)
}

// checkFaceDown checks that no face-down card can be found before its reveal.
func checkFaceDown(t *testing.T, w *wire, table [32]byte, roster [][]byte, fds []*faceDown) (cards, forced int) {
	if len(fds) == 0 {
		t.Fatal("no face-down card in the game")
	}
	index := newWindowIndex(w.msgs)
	for k, fd := range fds {
		if fd.reveal == nil {
			t.Fatalf("card %d of round %d (seat %d) was never revealed", fd.index, fd.round, fd.seat)
		}
		o, err := crypto.ParseOpening(append(append([]byte(nil), fd.nonce...), fd.card...))
		if err != nil {
			t.Fatal(err)
		}
		ctx := crypto.Context{Table: table[:], Roster: roster}
		if _, err := crypto.VerifyOpening(ctx, fd.seat, fd.round, fd.pos, fd.commit, o); err != nil {
			t.Fatalf("the log's reveal does not open card %d of round %d: %v", fd.index, fd.round, err)
		}
		revealAt := first(w.msgs, fd.reveal.Marshal())
		nonceAt := first(w.msgs, fd.nonce)
		if revealAt == len(w.msgs) {
			t.Fatalf("the reveal of card %d of round %d is not in the traffic", fd.index, fd.round)
		}
		if nonceAt < revealAt {
			t.Fatalf("the nonce of card %d of round %d (seat %d) was sent in message %d, before its reveal (message %d)", fd.index, fd.round, fd.seat, nonceAt, revealAt)
		}
		cards++
		if k > 0 && fds[k-1].round == fd.round && !*long {
			continue
		}
		prefix := commitPrefix(table[:], roster, fd.seat, fd.round, fd.pos)
		// Positive control: the search finds the card given the true nonce.
		if got, ok := bruteForce(prefix, fd.commit, func(y func([]byte) bool) { y(fd.nonce) }); !ok || got != string(fd.card) {
			t.Fatalf("the brute force does not find card %q with its own nonce (got %q): it cannot find anything", fd.card, got)
		}
		if got, ok := bruteForce(prefix, fd.commit, index.before(revealAt)); ok {
			t.Fatalf("card %d of round %d (seat %d) opens to %s with bytes sent before its reveal", fd.index, fd.round, fd.seat, got)
		}
		forced++
	}
	t.Logf("%d messages, %d distinct windows, %d face-down cards", len(w.msgs), len(index.wins), len(fds))
	return cards, forced
}

// checkDeal checks that every proper subset of the decryption shares of each dealt contract
// decodes to no card, and all of them to the contract dealt.
func checkDeal(t *testing.T, w *wire, log []*protocol.Entry, n int, dealt []corruption.Contract) (deals, subsets int) {
	var deck crypto.Deck
	var shares [][][]*crypto.Share // [round][seat][k]
	for _, e := range log {
		switch e.Kind {
		case protocol.KindShuffle:
			// bytes(deck) ‖ bytes(proof)
			size := binary.BigEndian.Uint32(e.Body)
			var err error
			if deck, err = crypto.ParseDeck(e.Body[4 : 4+size]); err != nil {
				t.Fatal(err)
			}
		case protocol.KindShares:
			if e.Seat == 0 {
				shares = append(shares, nil)
			}
			// u8 = 6, then 6 × bytes(share)
			var row []*crypto.Share
			b := e.Body[1:]
			for range int(e.Body[0]) {
				size := binary.BigEndian.Uint32(b)
				sh, err := crypto.ParseShare(b[4 : 4+size])
				if err != nil {
					t.Fatal(err)
				}
				row = append(row, sh)
				b = b[4+size:]
			}
			shares[len(shares)-1] = append(shares[len(shares)-1], row)
			if first(w.msgs, e.Marshal()) == len(w.msgs) {
				t.Fatalf("shares entry %d is not in the traffic", e.Seq)
			}
		}
	}
	if len(dealt) != len(shares)*corruption.ContractsPerDeal {
		t.Fatalf("%d contracts dealt, %d rounds of shares", len(dealt), len(shares))
	}
	for r, round := range shares {
		for k := range corruption.ContractsPerDeal {
			c := &deck[r*corruption.ContractsPerDeal+k]
			want := dealt[r*corruption.ContractsPerDeal+k]
			for mask := 0; mask < 1<<n; mask++ {
				var some []*crypto.Share
				for seat := range n {
					if mask&(1<<seat) != 0 {
						some = append(some, round[seat][k])
					}
				}
				i, err := crypto.DecodeCard(crypto.CombineShares(c, some), corruption.NumContracts)
				if mask == 1<<n-1 {
					if err != nil || corruption.Contract(i) != want {
						t.Fatalf("round %d, contract %d: all shares decode to %d (%v), dealt %v", r+1, k+1, i, err, want)
					}
					deals++
					continue
				}
				if !errors.Is(err, crypto.ErrNotACard) {
					t.Fatalf("round %d, contract %d: the shares of seats %b alone decode to contract %d", r+1, k+1, mask, i)
				}
				subsets++
			}
		}
	}
	return deals, subsets
}

// checkSecrets checks that no node's secrets were ever sent.
func checkSecrets(t *testing.T, w *wire, runs []nodeRun, log []*protocol.Entry) {
	for i, r := range runs {
		id, err1 := os.ReadFile(filepath.Join(r.dir, "identity"))
		seed, err2 := os.ReadFile(filepath.Join(r.dir, "tables", "t", "seed"))
		if err1 != nil || err2 != nil || len(id) != 32 || len(seed) != 32 {
			t.Fatalf("node %d's secrets: %v %v", i, err1, err2)
		}
		key := ed25519.NewKeyFromSeed(id)
		secrets, pub, err := protocol.AdvSecrets(log[0], key, [32]byte(seed))
		if err != nil {
			t.Fatal(err)
		}
		// The derivation is the node's: its ElGamal public key is the one its key entry
		// published (body: bytes(Y ‖ c ‖ s) ‖ commitment).
		g, _ := protocol.ParseGenesis(log[0].Body)
		seat := g.SeatOf(key.Public().(ed25519.PublicKey))
		if k := log[1+seat]; k.Kind != protocol.KindKey || k.Seat != seat || !bytes.Equal(k.Body[4:36], pub) {
			t.Fatalf("node %d: the secrets derived here are not the node's (its key entry has another key)", i)
		}
		secrets["identity seed"], secrets["table seed"] = id, seed
		for what, s := range secrets {
			if at := first(w.msgs, s); at < len(w.msgs) {
				t.Fatalf("node %d's %s was sent in message %d", i, what, at)
			}
		}
	}
}
