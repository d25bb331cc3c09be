package protocol_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
)

// A world is one table in lockstep, without a network: every seat's node (a Table with its
// secrets), an observer (no secrets) that referees, and the log so far. Golden logs, bad logs
// and the service tests are built in worlds.

// worldSpec is a table of a world: its game and the players' bots.
type worldSpec struct {
	name    string // names the keys, seeds and files
	about   string
	game    string
	config  []byte
	players int
	escrow  bool // the genesis escrows the seats' root secrets
	bot     func(seat int) engine.Player
}

// detStream is a deterministic io.Reader: SHA-256(label ‖ u64 counter) blocks. It depends on
// nothing but SHA-256, so the golden files do not move when math/rand does.
type detStream struct {
	label []byte
	ctr   uint64
	buf   []byte
}

func newStream(format string, args ...any) *detStream {
	return &detStream{label: []byte(fmt.Sprintf(format, args...))}
}

func (d *detStream) Read(p []byte) (int, error) {
	for n := 0; n < len(p); {
		if len(d.buf) == 0 {
			h := sha256.New()
			h.Write(d.label)
			h.Write(binary.BigEndian.AppendUint64(nil, d.ctr))
			d.ctr++
			d.buf = h.Sum(nil)
		}
		k := copy(p[n:], d.buf)
		d.buf = d.buf[k:]
		n += k
	}
	return len(p), nil
}

var goldNames = []string{"ann", "bob", "cat", "dan", "eve", "fay", "gus"}

type world struct {
	spec    worldSpec
	keys    []ed25519.PrivateKey
	selves  []*protocol.Self
	genesis *protocol.Entry
	tables  []*protocol.Table // tables[i] is seat i's node
	obs     *protocol.Table
	players []engine.Player
	log     []*protocol.Entry
	// honest[i] is false for a seat whose node the test has taken over: its table is fed every
	// entry but what it answers is not checked.
	honest []bool
	seated bool // the nodes are in the drawn seat order
	// rosterKeys are the players' keys in genesis-roster order, which reseat leaves alone.
	rosterKeys []ed25519.PrivateKey
}

// newWorld seats spec's players with keys and table seeds derived from spec's name. nonce names
// the genesis nonce: two worlds with the same spec and another nonce are two tables of the very
// same players (same identity keys, same table seeds).
func newWorld(t testing.TB, spec worldSpec, nonce string) *world {
	t.Helper()
	w := &world{spec: spec}
	g := &protocol.Genesis{Name: "golden " + spec.name, Game: spec.game, Config: spec.config, Timeout: time.Minute, Escrow: spec.escrow}
	for i := 0; i < spec.players; i++ {
		var seed [32]byte
		newStream("golden %s identity %d", spec.name, i).Read(seed[:])
		w.keys = append(w.keys, ed25519.NewKeyFromSeed(seed[:]))
		g.Roster = append(g.Roster, protocol.Member{Name: goldNames[i], Key: w.keys[i].Public().(ed25519.PublicKey)})
	}
	gen, err := protocol.NewGenesis(newStream("golden %s nonce %s", spec.name, nonce), w.keys[0], g)
	if err != nil {
		t.Fatal(err)
	}
	w.genesis = gen
	w.rosterKeys = append([]ed25519.PrivateKey(nil), w.keys...)
	w.log = []*protocol.Entry{gen}
	w.obs, err = protocol.NewTable(gen, nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range w.keys {
		var seed [32]byte
		newStream("golden %s table seed %d", spec.name, i).Read(seed[:])
		s := protocol.NewSelf(w.keys[i], seed)
		tb, err := protocol.NewTable(gen, s, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w.selves = append(w.selves, s)
		w.tables = append(w.tables, tb)
		w.players = append(w.players, spec.bot(i))
		w.honest = append(w.honest, true)
	}
	return w
}

// decider makes the players' decisions: the action for the entry at seq by seat.
type decider func(seq uint64, seat int, g engine.Game) engine.Action

// botDecider lets the world's bots decide.
func (w *world) botDecider(t testing.TB) decider {
	return func(seq uint64, seat int, g engine.Game) engine.Action {
		act, err := w.players[seat].Decide(context.Background(), g.Clone(), seat)
		if err != nil {
			t.Fatalf("seat %d's bot cannot decide entry %d: %v", seat, seq, err)
		}
		return act
	}
}

// scriptDecider replays decisions read from a log (protocol.Decisions), and fails for any other.
func scriptDecider(t testing.TB, script map[uint64]engine.Action) decider {
	return func(seq uint64, seat int, g engine.Game) engine.Action {
		a, ok := script[seq]
		if !ok {
			t.Fatalf("the script has no decision for entry %d (seat %d)", seq, seat)
		}
		return a
	}
}

// write has the due seat's node write its next entry.
func (w *world) write(t testing.TB, dec decider) *protocol.Entry {
	t.Helper()
	seat, _ := w.obs.Due()
	seq := w.obs.Len()
	tb := w.tables[seat]
	var act engine.Action
	if tb.NeedsDecision() {
		act = dec(seq, seat, tb.Game())
	}
	e, err := tb.NextEntry(act)
	if err != nil || e == nil {
		t.Fatalf("seat %d cannot write entry %d (%s): %v", seat, seq, w.obs.DueString(), err)
	}
	return e
}

// feed gives an entry to the observer and every node, and checks that the honest nodes agree
// with the observer, and have the same digest (what a node knows alone stays out of it). It
// returns the observer's verdict, if any.
func (w *world) feed(t testing.TB, e *protocol.Entry) *protocol.Verdict {
	t.Helper()
	err := w.obs.Append(e)
	var v *protocol.Verdict
	if err != nil && !errors.As(err, &v) {
		t.Fatalf("the observer refuses %s: %v", e, err)
	}
	for i, tb := range w.tables {
		got := tb.Append(e)
		if !w.honest[i] {
			continue
		}
		if msg := sameOutcome(err, got); msg != "" {
			t.Fatalf("seat %d's node and the observer disagree on %s: %s", i, e, msg)
		}
		if tb.Digest() != w.obs.Digest() {
			t.Fatalf("after %s, seat %d's node and the observer have different digests", e, i)
		}
	}
	w.log = append(w.log, e)
	w.reseat()
	return v
}

// reseat puts the world's nodes in the seat order once the table has drawn it: until then
// seat i is roster index i, from then on w.tables[seat] is the node that sits there.
func (w *world) reseat() {
	if w.seated || !w.obs.Ordered() {
		return
	}
	w.seated = true
	idx := make([]int, len(w.keys))
	for seat, m := range w.obs.Players() {
		for i, k := range w.keys {
			if k.Public().(ed25519.PublicKey).Equal(m.Key) {
				idx[seat] = i
			}
		}
	}
	keys, selves, tables, players, honest := w.keys, w.selves, w.tables, w.players, w.honest
	w.keys, w.selves, w.tables, w.players, w.honest = nil, nil, nil, nil, nil
	for _, i := range idx {
		w.keys = append(w.keys, keys[i])
		w.selves = append(w.selves, selves[i])
		w.tables = append(w.tables, tables[i])
		w.players = append(w.players, players[i])
		w.honest = append(w.honest, honest[i])
	}
}

// seatOrder is a table's seat order as its log draws it: the seq of the entry that drew it (0
// while it is not drawn), and the roster index of the player at each seat from then on. Before
// the draw, seat i is roster index i.
type seatOrder struct {
	drawnAt uint64
	roster  []int // by seat
}

// seatOrderOf reads the seat order from a log (a golden one, say), as far as it goes.
func seatOrderOf(t testing.TB, entries []*protocol.Entry) seatOrder {
	t.Helper()
	obs, err := protocol.NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries[1:] {
		if err := obs.Append(e); err != nil {
			break
		}
		if obs.Ordered() {
			return seatOrder{drawnAt: e.Seq, roster: rosterOrder(obs)}
		}
	}
	return seatOrder{}
}

// rosterOrder is the roster index of the player at each seat of a table, now.
func rosterOrder(tb *protocol.Table) []int {
	var out []int
	for _, m := range tb.Players() {
		out = append(out, tb.Genesis().SeatOf(m.Key))
	}
	return out
}

// rosterIndex is the roster index of the player that holds seat when entry seq is written.
func (o seatOrder) rosterIndex(seq uint64, seat int) int {
	if o.drawnAt == 0 || seq <= o.drawnAt || seat < 0 || seat >= len(o.roster) {
		return seat
	}
	return o.roster[seat]
}

// seatKey is the identity key of the player at seat of tb now, out of keys in roster order.
func seatKey(tb *protocol.Table, keys []ed25519.PrivateKey, seat int) ed25519.PrivateKey {
	return keys[tb.Genesis().SeatOf(tb.Players()[seat].Key)]
}

// sameOutcome compares two results of Append: nil, or verdicts naming the same seat and seq
// with the same kind.
func sameOutcome(want, got error) string {
	var vw, vg *protocol.Verdict
	switch {
	case want == nil && got == nil:
		return ""
	case errors.As(want, &vw) && errors.As(got, &vg):
		if vw.Kind == vg.Kind && vw.Seat == vg.Seat && vw.Seq == vg.Seq {
			return ""
		}
	}
	return fmt.Sprintf("want %v, got %v", want, got)
}

// hook lets a test take over a seat: it returns the entry to publish instead of the node's
// own, or nil to let the node write.
type hook func(w *world, seat int, kinds []protocol.Kind) *protocol.Entry

// play runs the table in lockstep until it is complete or halted.
func (w *world) play(t testing.TB, dec decider, h hook) *protocol.Verdict {
	t.Helper()
	for steps := 0; steps < 5000; steps++ {
		seat, kinds := w.obs.Due()
		if seat < 0 {
			return w.obs.Verdict()
		}
		var e *protocol.Entry
		if h != nil {
			e = h(w, seat, kinds)
		}
		if e == nil {
			e = w.write(t, dec)
		}
		if v := w.feed(t, e); v != nil {
			return v
		}
	}
	t.Fatal("the table does not finish")
	return nil
}

// sign makes and signs an entry of seat's at the head of the world's log.
func (w *world) sign(seat int, kind protocol.Kind, body []byte) *protocol.Entry {
	e := &protocol.Entry{Table: w.obs.ID(), Seq: w.obs.Len(), Prev: w.obs.Head(), Seat: seat, Kind: kind, Body: body}
	e.Sign(w.keys[seat])
	return e
}

func logBytes(t testing.TB, entries []*protocol.Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := protocol.WriteLog(&buf, entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func countKinds(entries []*protocol.Entry) map[protocol.Kind]int {
	n := map[protocol.Kind]int{}
	for _, e := range entries {
		n[e.Kind]++
	}
	return n
}
