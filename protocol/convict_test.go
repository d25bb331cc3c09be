package protocol_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/kingdoms"
	"corruption/protocol"
)

// Convictions in lockstep (convict.go, docs/PROTOCOL.md "Convictions"): a seat's own signed
// entry that breaks a rule, at a table that escrows its seats' secrets, convicts the seat and
// opens it; the others play on, the stand-in in its place.

// cheatOnce has seat write, the first time it is due an entry of kind, the entry forge makes
// (signed with its key) instead of its own; its node is taken over from then on. at is set to
// the seq of the forged entry.
func cheatOnce(seat int, kind protocol.Kind, forge func(w *world, seat int) *protocol.Entry, at *uint64) hook {
	done := false
	return func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
		if w.obs.OpenDue() {
			return w.obs.OpenEntry()
		}
		if done || due != seat || kinds[0] != kind {
			return nil
		}
		done = true
		w.honest[seat] = false
		*at = w.obs.Len()
		return forge(w, seat)
	}
}

// garbage is an entry of the kind due whose body decodes to nothing.
func garbage(kind protocol.Kind) func(w *world, seat int) *protocol.Entry {
	return func(w *world, seat int) *protocol.Entry { return w.sign(seat, kind, []byte{0xde, 0xad}) }
}

// TestConvictionPlaysOn: at a toy table of four that escrows, one seat cheats once, in its own
// entry, in each of several ways; every node convicts it at that entry, the staying seats
// release its key, the stand-in plays it to the end, and the log audits valid, the conviction
// in the report. The log replays to the same table.
func TestConvictionPlaysOn(t *testing.T) {
	for _, c := range []struct {
		name  string
		kind  protocol.Kind // the entry due that the cheater replaces
		forge func(w *world, seat int) *protocol.Entry
		what  string // the conviction's What
		says  string // a piece of its reason
	}{
		{"shuffle not proven", protocol.KindShuffle, garbage(protocol.KindShuffle), "shuffle", "shuffle"},
		{"shares that do not decode", protocol.KindShares, garbage(protocol.KindShares), "shares", "share"},
		{"an entry out of place", protocol.KindShares, garbage(protocol.KindSignOff), "turn", "signoff entry when the table waits for its decryption shares"},
		{"a signoff of another digest", protocol.KindSignOff, func(w *world, seat int) *protocol.Entry {
			return w.sign(seat, protocol.KindSignOff, bytes.Repeat([]byte{7}, 32))
		}, "signoff", "signed off digest"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, escrowToy(4), "")
			const cheater = 2
			var at uint64
			if v := w.play(t, w.botDecider(t), cheatOnce(cheater, c.kind, c.forge, &at)); v != nil {
				t.Fatalf("the table halted: %v", v)
			}
			if at == 0 {
				t.Fatalf("seat %d was never due a %s entry", cheater, c.kind)
			}
			if !w.obs.Done() || w.obs.Verdict() != nil {
				t.Fatalf("the table ended with verdict %v, done %v; want it played to its end", w.obs.Verdict(), w.obs.Done())
			}
			cs := w.obs.Convictions()
			if len(cs) != 1 || cs[0].Seat != cheater || cs[0].Seq != at || cs[0].What != c.what || !strings.Contains(cs[0].Reason, c.says) {
				t.Fatalf("convictions %v; want seat %d at entry %d, what %q, for %q", cs, cheater, at, c.what, c.says)
			}
			if !w.obs.IsOpen(cheater) || !w.obs.Convicted(cheater) {
				t.Fatalf("seat %d: open %v, convicted %v", cheater, w.obs.IsOpen(cheater), w.obs.Convicted(cheater))
			}
			if e := w.log[at]; e.Seat != cheater || !e.Verify(w.keys[cheater].Public().(ed25519.PublicKey)) {
				t.Fatalf("entry %d is %s; want the cheater's own signed entry, kept as the proof", at, e)
			}
			// The staying seats' shares follow the proof at once.
			for s := at + 1; s < at+4; s++ {
				if w.log[s].Kind != protocol.KindRelease {
					t.Fatalf("entry %d is %s; want the staying seats' releases after the proof", s, w.log[s])
				}
			}
			rep, err := protocol.Audit(bytes.NewReader(logBytes(t, w.log)), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Valid || len(rep.Convicted) != 1 || rep.Convicted[0] != cs[0] {
				t.Fatalf("audit: valid %v (%s), convicted %v; want valid with %v", rep.Valid, rep.Problem, rep.Convicted, cs[0])
			}
			if obs := replayed(t, w.log); obs.Digest() != w.obs.Digest() || len(obs.Convictions()) != 1 {
				t.Fatal("the log replays to another table")
			}
		})
	}
}

// TestConvictionHalts: where no seat can be opened, a cheat halts the table as before, naming
// the cheater: at a table without escrow, before the game is under way, and the second cheat
// at a table of three (one seat would stay).
func TestConvictionHalts(t *testing.T) {
	for _, c := range []struct {
		name string
		spec worldSpec
		hook func(at []*uint64) hook
		want int // which cheat halts the table (0: the first)
	}{
		{"no escrow", goldSpecNamed(t, "toy-3"), func(at []*uint64) hook {
			return cheatOnce(1, protocol.KindShuffle, garbage(protocol.KindShuffle), at[0])
		}, 0},
		{"before the game", escrowToy(4), func(at []*uint64) hook {
			return cheatOnce(1, protocol.KindEscrow, garbage(protocol.KindEscrow), at[0])
		}, 0},
		{"a second cheat at three seats", escrowToy(3), func(at []*uint64) hook {
			first := cheatOnce(1, protocol.KindShuffle, garbage(protocol.KindShuffle), at[0])
			second := cheatOnce(2, protocol.KindShares, garbage(protocol.KindShares), at[1])
			return func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
				if e := first(w, due, kinds); e != nil {
					return e
				}
				return second(w, due, kinds)
			}
		}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, c.spec, "")
			var at [2]uint64
			v := w.play(t, w.botDecider(t), c.hook([]*uint64{&at[0], &at[1]}))
			cheaters := []int{1, 2}
			if v == nil || v.Kind != protocol.VerdictCheat || v.Seat != cheaters[c.want] || v.Seq != at[c.want] || at[c.want] == 0 {
				t.Fatalf("verdict %v (cheats at entries %v); want a cheat naming seat %d at entry %d", v, at, cheaters[c.want], at[c.want])
			}
			if c.want > 0 {
				if cs := w.obs.Convictions(); len(cs) != 1 || cs[0].Seat != cheaters[0] || cs[0].Seq != at[0] {
					t.Fatalf("convictions %v; want the first cheat's, which the table played on from", cs)
				}
			}
			rep, err := protocol.Audit(bytes.NewReader(logBytes(t, append(w.log, w.obs.Evidence()...))), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Valid || rep.Blamed != v.Seat || rep.At != int64(v.Seq) {
				t.Fatalf("audit: valid %v, blamed %d at %d (%s); want seat %d blamed at %d", rep.Valid, rep.Blamed, rep.At, rep.Problem, v.Seat, v.Seq)
			}
		})
	}
}

// BenchmarkConviction is the time a node takes to convict a cheat late in a game and play on:
// a Corruption table of four with escrow, a seat's malformed shares at the last deal of the
// game, appended to a node's table that holds the log before it (the rewind replays that log).
//
//	go test ./protocol/ -run '^$' -bench Conviction -benchtime 5x
func BenchmarkConviction(b *testing.B) {
	spec := corruptionWorld("convict-4", "4 players, escrow", 4, 0, false)
	spec.escrow = true
	w := newWorld(b, spec, "")
	dec := w.botDecider(b)
	var at uint64
	var last *protocol.Entry
	// Play the whole game once to find the last shares entry; then replay up to it.
	w.play(b, dec, func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
		if kinds[0] == protocol.KindShares {
			at = w.obs.Len()
		}
		return nil
	})
	if at == 0 {
		b.Fatal("no shares entry")
	}
	log := w.log[:at]
	last = w.log[at]
	bad := *last
	bad.Body = []byte{0xde, 0xad}
	bad.Sign(seatKey(w.obs, w.rosterKeys, last.Seat))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tb := replayed(b, log)
		b.StartTimer()
		if err := tb.Append(&bad); err != nil {
			b.Fatalf("the cheat halts the table: %v", err)
		}
		if len(tb.Convictions()) != 1 {
			b.Fatal("no conviction")
		}
	}
	b.ReportMetric(float64(at), "entries-before")
}

// TestForfeitAtTwo: a table of two seats cannot open a seat (it cannot escrow), so a cheat
// halts it; the other player wins by forfeit, in the node's outcome and in the audit.
func TestForfeitAtTwo(t *testing.T) {
	w := newWorld(t, worldSpec{name: "toy-2", about: "2 players of the toy", game: toyID, config: []byte{1}, players: 2,
		bot: func(int) engine.Player { return toyBot{} }}, "")
	var at uint64
	v := w.play(t, w.botDecider(t), cheatOnce(1, protocol.KindShuffle, garbage(protocol.KindShuffle), &at))
	if v == nil || v.Seat != 1 || v.Seq != at {
		t.Fatalf("verdict %v; want a cheat naming seat 1 at entry %d", v, at)
	}
	rep, err := protocol.Audit(bytes.NewReader(logBytes(t, append(w.log, w.obs.Evidence()...))), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Valid || !rep.Forfeit || len(rep.Winners) != 1 || rep.Winners[0] != 0 || rep.Blamed != 1 {
		t.Fatalf("audit: valid %v, forfeit %v, winners %v, blamed %d; want seat 0 the winner by forfeit", rep.Valid, rep.Forfeit, rep.Winners, rep.Blamed)
	}
}

// convictSpecs are the tables of the conviction matrix: each game with escrow at four seats
// (Corruption with the little black book, so that seats answer peeks), and the games that seat
// two at two, where nobody can be opened.
func convictSpecs() []worldSpec {
	withEscrow := func(s worldSpec) worldSpec { s.escrow = true; return s }
	return []worldSpec{
		withEscrow(corruptionWorld("convict-corruption-4", "4 players, free stud, little black book, escrow", 4, corruption.FreeStud, true)),
		withEscrow(corruptiaWorld("convict-corruptia-4", "4 senators, escrow", 4)),
		withEscrow(kingdomsWorld("convict-kingdoms-4", "4 players, advanced, escrow", 4, kingdoms.Advanced)),
		corruptiaWorld("convict-corruptia-2", "2 senators", 2),
		kingdomsWorld("convict-kingdoms-2", "2 players, advanced", 2, kingdoms.Advanced),
	}
}

// convictKinds are the cheats of the matrix, by the kind of entry the cheater replaces with
// one whose body decodes to nothing (turn: an entry of a kind it may not write then; signature:
// its own entry with a bad signature, which blames nobody).
var convictKinds = []string{"shuffle", "shares", "move", "open", "answer", "commit", "random", "signoff", "turn", "signature"}

// TestConvictionMatrix plays each game of convictSpecs with each cheat of convictKinds, in
// lockstep: the first seat due an entry of that kind once the game is under way cheats there.
// At four seats the table convicts it and plays on to a valid log; at two it halts, the other
// seat winning by forfeit; a bad signature is rejected and the game completes. A cell whose
// game never offers the kind is said and not counted. The test command plays a slice chosen
// by a seed it prints (CORRUPTION_CONVICT_SEED plays it again); CORRUPTION_CONVICT_MATRIX=1
// plays every cell.
func TestConvictionMatrix(t *testing.T) {
	type cell struct {
		spec worldSpec
		kind string
	}
	var cells []cell
	for _, s := range convictSpecs() {
		for _, k := range convictKinds {
			cells = append(cells, cell{s, k})
		}
	}
	cells = convictSlice(t, "lockstep matrix", cells, 4)
	var mu sync.Mutex
	var played, offered int
	t.Cleanup(func() {
		t.Logf("cells run %d; of them, %d whose game offered the cheat, each checked (the others' games never had a seat write that kind)", played, offered)
	})
	for _, c := range cells {
		t.Run(c.spec.name+"/"+c.kind, func(t *testing.T) {
			t.Parallel()
			ok := convictCell(t, c.spec, c.kind)
			mu.Lock()
			played++
			if ok {
				offered++
			}
			mu.Unlock()
		})
	}
}

// convictSlice is keep cells of a matrix, drawn by a seed it prints (CORRUPTION_CONVICT_SEED
// plays the same again), or every cell with CORRUPTION_CONVICT_MATRIX=1.
func convictSlice[C any](t *testing.T, what string, cells []C, keep int) []C {
	t.Helper()
	if os.Getenv("CORRUPTION_CONVICT_MATRIX") != "" {
		return cells
	}
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("CORRUPTION_CONVICT_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("a slice of the %s, seed %d (CORRUPTION_CONVICT_SEED=%d plays it again; CORRUPTION_CONVICT_MATRIX=1 plays every cell)", what, seed, seed)
	r := mrand.New(mrand.NewPCG(seed, 40))
	r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	return cells[:min(keep, len(cells))]
}

// convictCell plays one cell of the matrix; it reports whether the game offered the cheat.
func convictCell(t *testing.T, spec worldSpec, kind string) bool {
	w := newWorld(t, spec, "")
	cheater, at := -1, uint64(0)
	var rejected bool
	h := func(w *world, due int, kinds []protocol.Kind) *protocol.Entry {
		if w.obs.OpenDue() {
			return w.obs.OpenEntry()
		}
		if cheater >= 0 || !w.obs.Ordered() || w.obs.IsOpen(due) {
			return nil
		}
		switch kind {
		case "turn", "signature":
			if kinds[0] != protocol.KindMove && kinds[0] != protocol.KindShares {
				return nil
			}
		default:
			if kinds[0].String() != kind {
				return nil
			}
		}
		cheater, at = due, w.obs.Len()
		if kind == "signature" {
			e := w.sign(due, kinds[0], []byte{0xde, 0xad})
			e.Sig[0] ^= 1
			var rj *protocol.RejectError
			for _, tb := range append([]*protocol.Table{w.obs}, w.tables...) {
				if err := tb.Append(e); !errors.As(err, &rj) || tb.Len() != at {
					t.Fatalf("an entry with a bad signature: %v (the log at %d entries); want it rejected, blaming nobody", err, tb.Len())
				}
			}
			rejected = true
			return nil // its node writes its own entry after all
		}
		w.honest[due] = false
		written := kinds[0]
		if kind == "turn" {
			written = protocol.KindSignOff
		}
		return w.sign(due, written, []byte{0xde, 0xad})
	}
	v := w.play(t, w.botDecider(t), h)
	if cheater < 0 {
		t.Logf("the game never had a seat write a %s entry", kind)
		return false
	}
	rep, err := protocol.Audit(bytes.NewReader(logBytes(t, append(w.log, w.obs.Evidence()...))), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case rejected:
		if v != nil || !rep.Valid || len(rep.Convicted) != 0 {
			t.Fatalf("a bad signature at entry %d: verdict %v, audit valid %v (%s), convicted %v; want the game complete, nobody blamed", at, v, rep.Valid, rep.Problem, rep.Convicted)
		}
	case spec.players >= 3:
		if v != nil || !rep.Valid || len(rep.Convicted) != 1 || rep.Convicted[0].Seat != cheater || rep.Convicted[0].Seq != at || !slices.Contains(rep.Open, cheater) {
			t.Fatalf("seat %d's cheat at entry %d: verdict %v, audit valid %v (%s), convicted %v, open %v; want the seat convicted there and the game played on to a valid log",
				cheater, at, v, rep.Valid, rep.Problem, rep.Convicted, rep.Open)
		}
	default:
		if v == nil || v.Seat != cheater || v.Seq != at || rep.Valid || !rep.Forfeit || !slices.Equal(rep.Winners, []int{1 - cheater}) {
			t.Fatalf("seat %d's cheat at entry %d at a table of two: verdict %v, audit forfeit %v, winners %v (%s); want a halt naming it, the other the winner by forfeit",
				cheater, at, v, rep.Forfeit, rep.Winners, rep.Problem)
		}
	}
	return true
}

// Golden logs of version 4 that go on past a cheat (testdata/convicted/): a table that convicts a
// cheater and plays on to a valid end. TestConvictedGolden plays each again in lockstep and
// compares the bytes (the format of a conviction is pinned), and audits it against its .expect.
// Regenerate with: go test ./protocol/ -run TestConvictedGolden -update

type convictedGold struct {
	name, about string
	spec        func() worldSpec
	cheater     int
	kind        protocol.Kind
}

var convictedGolds = []convictedGold{
	{"escrow-toy-4-shuffle", "4 players of the toy with escrow; seat 2's first shuffle does not decode", func() worldSpec { return escrowToy(4) }, 2, protocol.KindShuffle},
	{"corruption-4-shares", "4 players of Corruption with escrow; seat 1's first decryption shares do not decode", func() worldSpec {
		s := corruptionWorld("convicted-corruption-4", "4 players, escrow", 4, corruption.Standard, false)
		s.escrow = true
		return s
	}, 1, protocol.KindShares},
}

func TestConvictedGolden(t *testing.T) {
	parallelUnlessUpdating(t)
	for _, g := range convictedGolds {
		t.Run(g.name, func(t *testing.T) {
			w := newWorld(t, g.spec(), "")
			var at uint64
			if v := w.play(t, w.botDecider(t), cheatOnce(g.cheater, g.kind, garbage(g.kind), &at)); v != nil {
				t.Fatalf("the table halted: %v", v)
			}
			b := logBytes(t, w.log)
			path := filepath.Join("testdata", "convicted", g.name)
			cs := w.obs.Convictions()
			if len(cs) != 1 {
				t.Fatalf("convictions %v; want one", cs)
			}
			if *update {
				x := &expectFile{comment: []string{g.about + "; made by TestConvictedGolden -update"}}
				x.set("expect", "valid")
				x.set("entries", fmt.Sprint(len(w.log)))
				x.set("convicted", fmt.Sprintf("seat %d at entry %d (%s)", cs[0].Seat, cs[0].Seq, cs[0].What))
				x.set("digest", fmt.Sprintf("%x", w.obs.Digest()))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path+".log", b, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path+".expect", x.bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path + ".log")
			if err != nil {
				t.Fatalf("%v (run with -update to make it)", err)
			}
			if !bytes.Equal(b, want) {
				t.Fatalf("the table played again writes another log than %s.log: the format of a conviction changed (run with -update if that is meant)", path)
			}
			x := readExpect(t, path+".expect")
			rep, err := protocol.Audit(bytes.NewReader(want), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := "none"
			if len(rep.Convicted) == 1 {
				c := rep.Convicted[0]
				got = fmt.Sprintf("seat %d at entry %d (%s)", c.Seat, c.Seq, c.What)
			}
			if !rep.Valid || x.get(t, path, "expect") != "valid" || fmt.Sprint(rep.Entries) != x.get(t, path, "entries") ||
				got != x.get(t, path, "convicted") || rep.Digest != x.get(t, path, "digest") {
				t.Fatalf("audit: valid %v (%s), %d entries, convicted %s, digest %s; %s.expect wants %s, %s, %s, %s",
					rep.Valid, rep.Problem, rep.Entries, got, rep.Digest, path,
					x.get(t, path, "expect"), x.get(t, path, "entries"), x.get(t, path, "convicted"), x.get(t, path, "digest"))
			}
		})
	}
}
