package protocol_test

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"testing"
	"time"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// The escrow of the seats' root secrets (protocol/escrow.go, docs/PROTOCOL.md "Escrow"): the
// genesis setting, honest tables, each cheat with its one verdict, and what the recorded log
// tells a coalition of fewer than all the other seats.

func escrowToy(n int) worldSpec {
	return worldSpec{name: fmt.Sprintf("escrow-toy-%d", n), about: fmt.Sprintf("%d players of the toy, escrow", n),
		game: toyID, config: []byte{1}, players: n, escrow: true, bot: func(int) engine.Player { return toyBot{} }}
}

// The golden log of an escrow table pins the deals' encoding (TestGoldenLogs, TestGoldenAudit).
func init() { goldSpecs = append(goldSpecs, escrowToy(4)) }

// TestEscrowGenesis: the setting travels in the genesis, absent when off (a table without
// escrow encodes as before), and a table of two seats cannot have it.
func TestEscrowGenesis(t *testing.T) {
	g := &protocol.Genesis{Name: "t", Game: toyID, Config: []byte{1}, Timeout: time.Minute}
	for i := range 3 {
		g.Roster = append(g.Roster, protocol.Member{Name: fmt.Sprint(i), Key: bytes.Repeat([]byte{byte(i + 1)}, ed25519.PublicKeySize)})
	}
	off := g.Marshal()
	g.Escrow = true
	on := g.Marshal()
	if !bytes.Equal(on[:len(off)], off) || len(on) != len(off)+1 || on[len(off)] != 1 {
		t.Fatalf("escrow is not one options byte after the roster: %x / %x", off, on)
	}
	for _, b := range [][]byte{off, on} {
		back, err := protocol.ParseGenesis(b)
		if err != nil || !bytes.Equal(back.Marshal(), b) {
			t.Fatalf("the genesis does not parse back: %v", err)
		}
	}
	if back, _ := protocol.ParseGenesis(on); !back.Escrow {
		t.Fatal("escrow lost in parsing")
	}
	for _, opt := range []byte{0, 2, 3, 0x80} {
		if _, err := protocol.ParseGenesis(append(bytes.Clone(off), opt)); err == nil {
			t.Errorf("options byte %#x accepted (0 is written as no byte, other bits are unknown)", opt)
		}
	}
	g.Roster = g.Roster[:2]
	if err := g.Check(); err == nil {
		t.Fatal("a two-seat table with escrow passes its check")
	}
}

// TestEscrowHonest: at 3 and 5 seats, each seat deals once its key is in; the table plays to
// the end; every other node holds a share of each key that checks, all of them together
// rebuild it, and one fewer cannot.
func TestEscrowHonest(t *testing.T) {
	for _, n := range []int{3, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			spec := escrowToy(n)
			w := newWorld(t, spec, "")
			if v := w.play(t, w.botDecider(t), nil); v != nil {
				t.Fatalf("an honest escrow table halts: %v", v)
			}
			for i := 1; i <= n; i++ {
				if e := w.log[n+i]; e.Kind != protocol.KindEscrow || e.Seat != i-1 {
					t.Fatalf("entry %d is %s, want seat %d's escrow", n+i, e, i-1)
				}
			}
			if c := countKinds(w.log)[protocol.KindComplaint]; c != 0 {
				t.Fatalf("%d complaints at an honest table", c)
			}
			rep, err := protocol.Audit(bytes.NewReader(logBytes(t, w.log)), engine.Options{})
			if err != nil || !rep.Valid {
				t.Fatalf("audit: %v %+v", err, rep)
			}
			checkRebuild(t, w)
		})
	}
}

// byRoster is the world's nodes in roster order.
func byRoster(w *world) []*protocol.Table {
	out := make([]*protocol.Table, len(w.tables))
	for i, tb := range w.tables {
		out[tb.Genesis().SeatOf(w.selves[i].Public())] = tb
	}
	return out
}

// checkRebuild: every dealer's key is rebuilt by the shares of all the other nodes, and not
// by any n−2 of them.
func checkRebuild(t *testing.T, w *world) {
	t.Helper()
	nodes := byRoster(w)
	keys := protocol.EscrowKeysForTest(w.obs)
	for d := range nodes {
		deal := protocol.EscrowDealForTest(w.obs, d)
		var shares []*crypto.EscrowShare
		for r, tb := range nodes {
			if r == d {
				continue
			}
			sh := protocol.EscrowShareForTest(tb, d)
			if sh == nil {
				t.Fatalf("node %d holds no share of %d's key", r, d)
			}
			shares = append(shares, sh)
		}
		for skip := range shares {
			fewer := append(append([]*crypto.EscrowShare(nil), shares[:skip]...), shares[skip+1:]...)
			if _, err := crypto.RecoverKey(deal, d, keys[d], fewer); err == nil {
				t.Fatalf("%d shares rebuild %d's key", len(fewer), d)
			}
		}
		priv, err := crypto.RecoverKey(deal, d, keys[d], shares)
		if err != nil {
			t.Fatalf("the other seats do not rebuild %d's key: %v", d, err)
		}
		own, err := protocol.ElGamalKeyForTest(w.selvesByRoster()[d])
		if err != nil || !bytes.Equal(priv.Bytes(), own.Bytes()) {
			t.Fatalf("the rebuilt key of %d is not its root secret", d)
		}
	}
}

// selvesByRoster is the world's selves in roster order.
func (w *world) selvesByRoster() []*protocol.Self {
	out := make([]*protocol.Self, len(w.selves))
	for _, s := range w.selves {
		out[w.genesisOf().SeatOf(s.Public())] = s
	}
	return out
}

func (w *world) genesisOf() *protocol.Genesis { return w.obs.Genesis() }

// escrowDealHook has the seat at roster index dealer write the deal made by deal in place of
// its own.
func escrowDealHook(dealer int, deal func(w *world) []byte) hook {
	return func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if seat != dealer || kinds[0] != protocol.KindEscrow {
			return nil
		}
		w.honest[dealer] = false
		return w.sign(seat, protocol.KindEscrow, deal(w))
	}
}

// escrowComplainHook has who complain of about's share in place of its reveal for the seat
// order, with change applied to the complaint's body.
func escrowComplainHook(t testing.TB, who, about int, change func([]byte)) hook {
	return func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry {
		if seat != who || kinds[0] != protocol.KindRandom || w.obs.Ordered() {
			return nil
		}
		b, err := protocol.ComplaintForTest(w.tables[seat], about)
		if err != nil {
			t.Fatal(err)
		}
		change(b)
		w.honest[who] = false
		return w.sign(seat, protocol.KindComplaint, b)
	}
}

// The escrow's cheats at a 4-seat table: seat 1 deals, seat 3 is its victim.
const escrowN, escrowDealer, escrowVictim = 4, 1, 3

// escrowOrderSeq is the seq of seat's reveal for the seat order (or its complaint).
func escrowOrderSeq(seat int) uint64 { return uint64(2*escrowN + 1 + seat) }

type escrowCheat struct {
	name, about string
	h           func(t testing.TB) hook
	blamed      int
	seq         uint64
	problem     string
}

var escrowCheats = []escrowCheat{
	{"escrow-bad-share", "seat 1 seals a made-up share to seat 3 in an otherwise honest deal; seat 3 complains in place of its reveal for the seat order",
		func(t testing.TB) hook {
			return escrowDealHook(escrowDealer, func(w *world) []byte { return escrowBadShare(t, w, escrowDealer, escrowVictim) })
		}, escrowDealer, escrowOrderSeq(escrowVictim), "does not check against its commitments"},
	{"escrow-other-secret", "seat 1 deals shares of another key than the one it published",
		func(t testing.TB) hook {
			return escrowDealHook(escrowDealer, func(w *world) []byte { return escrowOtherSecret(t, w, escrowDealer) })
		}, escrowDealer, uint64(escrowN + 1 + escrowDealer), "shares another secret"},
	{"escrow-withheld-share", "seat 1's deal has no share for seat 3",
		func(t testing.TB) hook {
			return escrowDealHook(escrowDealer, func(w *world) []byte { return escrowWithheld(t, w, escrowDealer, escrowVictim) })
		}, escrowDealer, uint64(escrowN + 1 + escrowDealer), "has no share for seat 3"},
	{"escrow-foreign-box", "seat 1 seals seat 3's share in a box built on another seat's key, whose logarithm it does not know",
		func(t testing.TB) hook {
			return escrowDealHook(escrowDealer, func(w *world) []byte { return escrowForeignBox(t, w, escrowDealer, escrowVictim) })
		}, escrowDealer, uint64(escrowN + 1 + escrowDealer), "escrow of seat 1, share of seat 3"},
	{"escrow-false-complaint", "seat 2 complains of seat 1's honest share",
		func(t testing.TB) hook { return escrowComplainHook(t, 2, escrowDealer, func([]byte) {}) },
		2, escrowOrderSeq(2), "which checks"},
	{"escrow-complaint-bad-proof", "seat 2 complains of seat 1's honest share with a proof that does not verify",
		func(t testing.TB) hook {
			return escrowComplainHook(t, 2, escrowDealer, func(b []byte) { b[1+crypto.PointSize] ^= 1 })
		}, 2, escrowOrderSeq(2), "does not verify"},
	{"escrow-complaint-of-itself", "seat 1 complains of a share of its own key",
		func(t testing.TB) hook {
			return escrowComplainHook(t, escrowDealer, 0, func(b []byte) { b[0] = escrowDealer })
		}, escrowDealer, escrowOrderSeq(escrowDealer), "holds none"},
}

// The escrow's cheats are bad logs too (TestBadLogs: the audit of the file, and live nodes of
// every other seat in lockstep), made from the escrow table's golden log.
func init() {
	for _, c := range escrowCheats {
		badLogs = append(badLogs, badLog{c.name, "escrow-toy-4", c.about, liveVerdict,
			func(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant) {
				w := newWorld(t, k.spec, "")
				if v := w.play(t, w.botDecider(t), c.h(t)); v == nil {
					t.Fatalf("%s ends without a verdict", c.name)
				}
				return w.log, nil, cheat(c.blamed, c.seq, c.problem)
			}})
	}
}

// TestEscrowCheats: each cheat at the escrow ends the table with one verdict, on the observer,
// on every honest node (w.feed checks it) and in the audit of the log.
func TestEscrowCheats(t *testing.T) {
	for _, c := range escrowCheats {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, escrowToy(escrowN), "")
			v := w.play(t, w.botDecider(t), c.h(t))
			if v == nil || v.Kind != protocol.VerdictCheat || v.Seat != c.blamed || v.Seq != c.seq {
				t.Fatalf("verdict %v, want a cheat by seat %d at entry %d", v, c.blamed, c.seq)
			}
			// The world's log ends with the entry of the verdict, as a node's log file does.
			rep, err := protocol.Audit(bytes.NewReader(logBytes(t, w.log)), engine.Options{})
			if err != nil || rep.Valid || rep.Verdict == nil || rep.Blamed != c.blamed || rep.At != int64(c.seq) ||
				!bytes.Contains([]byte(rep.Problem), []byte(c.problem)) {
				t.Fatalf("audit: %v %+v, want seat %d blamed at %d for %q", err, rep, c.blamed, c.seq, c.problem)
			}
		})
	}
}

// escrowDealOf is the escrow deal of priv (the key of the roster seat dealer) that w's table
// expects, or of another key.
func escrowDealOf(t testing.TB, w *world, dealer int, priv *crypto.PrivateKey) *crypto.EscrowDeal {
	keys := protocol.EscrowKeysForTest(w.obs)
	keys[dealer] = priv.Public()
	d, err := crypto.DealEscrow(newStream("forged deal"), protocol.EscrowContextForTest(w.obs), dealer, priv, keys, len(keys)-1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// escrowBox is the offset of seat to's box in an encoded deal (after its flag).
func escrowBox(d []byte, to int) (off, size int) {
	t := int(d[0])
	off = 1 + t*crypto.PointSize + 1
	n := int(d[off-1])
	size = (len(d) - off - n) / (n - 1)
	for i := 0; i < to; i++ {
		off++
		if d[off-1] == 1 {
			off += size
		}
	}
	return off + 1, size
}

// escrowBadShare is the dealer's honest deal with victim's share replaced by a made-up one,
// honestly sealed: every node accepts the deal, and only the victim can tell.
func escrowBadShare(t testing.TB, w *world, dealer, victim int) []byte {
	priv, err := protocol.ElGamalKeyForTest(w.selvesByRoster()[dealer])
	if err != nil {
		t.Fatal(err)
	}
	d := escrowDealOf(t, w, dealer, priv).Bytes()
	bad := make([]byte, crypto.ScalarSize)
	bad[0] = 7
	box, err := crypto.Seal(newStream("bad share"), protocol.EscrowContextForTest(w.obs), dealer, victim,
		protocol.EscrowKeysForTest(w.obs)[victim], bad)
	if err != nil {
		t.Fatal(err)
	}
	off, size := escrowBox(d, victim)
	if size != len(box.Bytes()) {
		t.Fatalf("a share's box is %d bytes, the deal's %d", len(box.Bytes()), size)
	}
	copy(d[off:], box.Bytes())
	return d
}

// escrowOtherSecret deals another key than the dealer's published one.
func escrowOtherSecret(t testing.TB, w *world, dealer int) []byte {
	other, err := crypto.GenerateKey(newStream("other secret"))
	if err != nil {
		t.Fatal(err)
	}
	return escrowDealOf(t, w, dealer, other).Bytes()
}

// escrowWithheld is the dealer's deal with no box for victim.
func escrowWithheld(t testing.TB, w *world, dealer, victim int) []byte {
	priv, err := protocol.ElGamalKeyForTest(w.selvesByRoster()[dealer])
	if err != nil {
		t.Fatal(err)
	}
	d := escrowDealOf(t, w, dealer, priv).Bytes()
	off, size := escrowBox(d, victim)
	d[off-1] = 0
	return append(d[:off:off], d[off+size:]...)
}

// escrowForeignBox is the dealer's deal with victim's box built on another seat's key (whose
// discrete log the dealer does not know): were the victim to complain of it, its complaint
// would publish its decryption share of that point. The box's proof fails on every node.
func escrowForeignBox(t testing.TB, w *world, dealer, victim int) []byte {
	priv, err := protocol.ElGamalKeyForTest(w.selvesByRoster()[dealer])
	if err != nil {
		t.Fatal(err)
	}
	d := escrowDealOf(t, w, dealer, priv).Bytes()
	off, _ := escrowBox(d, victim)
	other := (victim + 1) % len(w.tables)
	if other == dealer {
		other = (other + 1) % len(w.tables)
	}
	copy(d[off:], protocol.EscrowKeysForTest(w.obs)[other].Bytes())
	return d
}

// TestEscrowPrivacy: at 3 and 5 seats, from the whole recorded log, every coalition of all the
// other seats but one opens exactly its own boxes of a seat's deal; neither the seat's secret
// nor the share it sealed to the one left out appears anywhere; and that one share added is
// what rebuilds the secret. (Feldman's commitments a_j·G hide the coefficients as the published
// key x·G hides x: n−2 shares and the commitments are consistent with every secret.)
func TestEscrowPrivacy(t *testing.T) {
	for _, n := range []int{3, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w := newWorld(t, escrowToy(n), "")
			if v := w.play(t, w.botDecider(t), nil); v != nil {
				t.Fatal(v)
			}
			traffic := logBytes(t, w.log)
			selves := w.selvesByRoster()
			nodes := byRoster(w)
			keys := protocol.EscrowKeysForTest(w.obs)
			ctx := protocol.EscrowContextForTest(w.obs)
			privs := make([]*crypto.PrivateKey, n)
			for r, s := range selves {
				var err error
				if privs[r], err = protocol.ElGamalKeyForTest(s); err != nil {
					t.Fatal(err)
				}
			}
			for d := range n {
				if bytes.Contains(traffic, privs[d].Bytes()) {
					t.Fatalf("seat %d's secret is in the log", d)
				}
				deal := protocol.EscrowDealForTest(w.obs, d)
				for out := range n {
					if out == d {
						continue
					}
					// The coalition: every seat but d and out.
					var shares []*crypto.EscrowShare
					for r := range n {
						if r == d || r == out {
							continue
						}
						for to := range n {
							if to == d {
								continue
							}
							box, err := deal.EscrowBox(to)
							if err != nil {
								t.Fatal(err)
							}
							_, err = crypto.Unseal(ctx, d, to, privs[r], box)
							if (err == nil) != (to == r) {
								t.Fatalf("seat %d opens seat %d's box of %d's deal: %v", r, to, d, err)
							}
						}
						shares = append(shares, protocol.EscrowShareForTest(nodes[r], d))
					}
					missing := protocol.EscrowShareForTest(nodes[out], d)
					if bytes.Contains(traffic, missing.Bytes()) {
						t.Fatalf("the share of %d's key sealed to %d is in the log", d, out)
					}
					if _, err := crypto.RecoverKey(deal, d, keys[d], shares); err == nil {
						t.Fatalf("%d seats rebuild %d's key", len(shares), d)
					}
					if _, err := crypto.RecoverKey(deal, d, keys[d], append(shares, missing)); err != nil {
						t.Fatalf("with %d's share, the others do not rebuild %d's key: %v", out, d, err)
					}
				}
			}
		})
	}
}

// TestEscrowLive: tables of real nodes over memnet, with loss, duplication and reordering, at 3
// and 5 seats: with Escrow set, every node ends with the same log, which audits, and holds the
// escrow entries; by default the creator's genesis has none.
func TestEscrowLive(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			net := memnet.New(uint64(1200+n), memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1, MaxDelay: time.Millisecond})
			defer net.Close()
			runs := playNodes(t, net, escrowSpec(n))
			checkSame(t, runs)
			log := readLog(t, runs[0].dir)
			g, err := protocol.ParseGenesis(log[0].Body)
			if err != nil || !g.Escrow {
				t.Fatalf("the table has no escrow: %v", err)
			}
			if c := countKinds(log)[protocol.KindEscrow]; c != n {
				t.Fatalf("%d escrow entries, want %d", c, n)
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		net := memnet.New(1299, memnet.Faults{})
		defer net.Close()
		runs := playNodes(t, net, toySpec(3))
		checkSame(t, runs)
		log := readLog(t, runs[0].dir)
		if g, err := protocol.ParseGenesis(log[0].Body); err != nil || g.Escrow || countKinds(log)[protocol.KindEscrow] != 0 {
			t.Fatalf("a table without escrow: %v, escrow entries %d", err, countKinds(log)[protocol.KindEscrow])
		}
	})
}

// TestEscrowTraffic records every byte the nodes of whole 3- and 5-seat toy tables send over
// a lossy memnet (privacy_test.go's wiretap), with escrow, and reads the deals with a
// context rebuilt from the genesis alone: every deal checks; each share opens with its
// recipient's key and no other seat's; no seat's secret and no share is ever sent in the clear;
// every set of n−2 shares rebuilds no key, and the n−1 shares of all the other seats rebuild the
// seat's secret.
func TestEscrowTraffic(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w, runs := recordGame(t, escrowSpec(n), 1300+uint64(n))
			log := readLog(t, runs[0].dir)
			g, err := protocol.ParseGenesis(log[0].Body)
			if err != nil || !g.Escrow {
				t.Fatalf("the table has no escrow: %v", err)
			}
			order := seatOrderOf(t, log)
			keys := make([]*crypto.PrivateKey, n) // by roster index
			for seat, k := range nodeKeys(t, runs, log) {
				keys[order.roster[seat]] = k
			}
			ctx := crypto.Context{Table: log[0].Table[:], Step: "escrow"}
			var pubs []*crypto.PublicKey
			for r, m := range g.Roster {
				ctx.Roster = append(ctx.Roster, []byte(m.Key))
				pubs = append(pubs, keys[r].Public())
			}
			sent := func(secret []byte) bool {
				for _, m := range w.msgs {
					if bytes.Contains(m, secret) {
						return true
					}
				}
				return false
			}
			deals := 0
			for _, e := range log {
				if e.Kind != protocol.KindEscrow {
					continue
				}
				deals++
				d := e.Seat // a deal is written before the seat order: its seat is a roster index
				deal, err := crypto.ParseEscrowDeal(e.Body)
				if err != nil {
					t.Fatal(err)
				}
				if err := crypto.VerifyEscrowDeal(ctx, d, pubs, n-1, deal); err != nil {
					t.Fatalf("%s does not check under the genesis's context: %v", e, err)
				}
				if sent(keys[d].Bytes()) {
					t.Fatalf("player %d's secret was sent", d)
				}
				var shares []*crypto.EscrowShare
				for r := range n {
					if r == d {
						continue
					}
					sh, err := crypto.OpenEscrowShare(ctx, d, r, keys[r], deal)
					if err != nil {
						t.Fatalf("player %d's share of %d's key: %v", r, d, err)
					}
					if sent(sh.Bytes()) {
						t.Fatalf("player %d's share of %d's key was sent in the clear", r, d)
					}
					box, _ := deal.EscrowBox(r)
					for o := range n {
						if o == d || o == r {
							continue
						}
						if _, err := crypto.Unseal(ctx, d, r, keys[o], box); err == nil {
							t.Fatalf("player %d opens player %d's share of %d's key", o, r, d)
						}
					}
					shares = append(shares, sh)
				}
				for skip := range shares {
					fewer := append(append([]*crypto.EscrowShare(nil), shares[:skip]...), shares[skip+1:]...)
					if _, err := crypto.RecoverKey(deal, d, pubs[d], fewer); err == nil {
						t.Fatalf("%d shares rebuild %d's key", len(fewer), d)
					}
				}
				got, err := crypto.RecoverKey(deal, d, pubs[d], shares)
				if err != nil || !bytes.Equal(got.Bytes(), keys[d].Bytes()) {
					t.Fatalf("all the other players do not rebuild %d's secret: %v", d, err)
				}
			}
			if deals != n {
				t.Fatalf("%d deals at a table of %d", deals, n)
			}
			t.Logf("%d messages, %d bytes: %d deals read; no secret, no share in the clear", len(w.msgs), func() int {
				s := 0
				for _, m := range w.msgs {
					s += len(m)
				}
				return s
			}(), deals)
		})
	}
}

// TestEscrowDealRewritten: a node restarted from its seed and its log writes the very same deal
// (every secret of the deal derives from the root secret): a crash at the escrow never turns
// into an equivocation.
func TestEscrowDealRewritten(t *testing.T) {
	w := newWorld(t, escrowToy(4), "")
	for w.obs.Len() < 7 { // the genesis, 4 keys, 2 deals: seat 2 deals next
		w.feed(t, w.write(t, nil))
	}
	seat, kinds := w.obs.Due()
	if seat != 2 || kinds[0] != protocol.KindEscrow {
		t.Fatalf("the table waits for %s", w.obs.DueString())
	}
	first := w.write(t, nil)
	again, err := protocol.NewTable(w.genesis, protocol.NewSelf(w.keys[seat], w.selves[seat].Seed), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range w.log[1:] {
		if err := again.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	second, err := again.NextEntry(engine.Action{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Marshal(), second.Marshal()) {
		t.Fatal("the restarted node deals other bytes")
	}
}

// escrowSpec is toySpec(n) at a table whose creator asks for escrow.
func escrowSpec(n int) gameSpec {
	spec := toySpec(n)
	spec.adjust = func(_ int, cfg *protocol.NodeConfig) { cfg.Escrow = true }
	return spec
}
