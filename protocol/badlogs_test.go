package protocol_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/protocol"
)

// Bad logs: each testdata/bad/NAME.log is a golden log that a cheating seat or a tamperer
// changed, and NAME.expect the verdict an audit must give: the seat blamed (-1 for nobody),
// the seq of the first failing entry and a piece of the problem. TestBadLogs audits each one
// and, where entries reach a table, feeds the same entries to a live node of every honest seat
// in lockstep: each must reach the same verdict (or reject the same entry and carry on).
//
// The logs are made from the golden logs by the builders of badbuild_test.go (go test
// ./protocol/ -run TestBadLogs -update): by editing an entry and having its author sign it
// again (the fixture holds every key), or by playing the table again with one seat's node taken
// over by a hook.

// badWant is what the audit of a bad log must say.
type badWant struct {
	verdict string // "cheat", "equivocation", or "none" (the log is refused, nobody is blamed)
	blamed  int
	seq     int64
	problem string // a piece of the audit's problem
	// waiting is, for a log that just stops, the seat the table waits for (else -1).
	waiting int
}

// live says how live nodes meet a bad log.
type live uint8

const (
	liveNone    live = iota // no entry reaches a table (a damaged file)
	liveVerdict             // every honest node halts with the audit's verdict
	liveReject              // every node rejects the entry, blames nobody, and carries on
)

type badLog struct {
	name  string
	base  string // the golden log it is made from
	about string
	live  live
	build func(t testing.TB, k *badKit) ([]*protocol.Entry, []byte, badWant)
}

// badKit is what the builders work from: a golden log and the keys of its players.
type badKit struct {
	spec    worldSpec
	entries []*protocol.Entry
	world   *world    // a fresh world of the golden table (keys, seeds, nodes in roster order)
	order   seatOrder // the golden log's seat order
}

func newBadKit(t testing.TB, base string) *badKit {
	spec := goldSpecNamed(t, base)
	if *update {
		updateGolden(t, spec)
	}
	return kitOf(t, spec)
}

// kitOf is the kit of spec's golden log.
func kitOf(t testing.TB, spec worldSpec) *badKit {
	k := &badKit{spec: spec, entries: readGolden(t, spec.name), world: newWorld(t, spec, "")}
	if k.entries[0].Hash() != k.world.genesis.Hash() {
		t.Fatalf("%s: the golden genesis is not the fixture's (run TestGoldenLogs with -update first)", spec.name)
	}
	k.order = seatOrderOf(t, k.entries)
	return k
}

func copyEntry(e *protocol.Entry) *protocol.Entry {
	c := *e
	c.Body = append([]byte(nil), e.Body...)
	return &c
}

// resign signs e again with its author's key: the player who holds e's seat at its seq, in the
// golden log's seat order.
func (k *badKit) resign(e *protocol.Entry) *protocol.Entry {
	e.Sign(k.world.rosterKeys[k.order.rosterIndex(e.Seq, e.Seat)])
	return e
}

// at makes e the entry after prefix, signed by its author.
func (k *badKit) at(prefix []*protocol.Entry, e *protocol.Entry) *protocol.Entry {
	e.Table, e.Seq, e.Prev = prefix[0].Table, uint64(len(prefix)), prefix[len(prefix)-1].Hash()
	return k.resign(e)
}

func withEntry(prefix []*protocol.Entry, e ...*protocol.Entry) []*protocol.Entry {
	return append(append([]*protocol.Entry(nil), prefix...), e...)
}

// walk replays the golden log on an observer and calls fn with the state before each entry.
func (k *badKit) walk(t testing.TB, fn func(obs *protocol.Table, e *protocol.Entry)) {
	obs, err := protocol.NewTable(k.entries[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range k.entries[1:] {
		fn(obs, e)
		if err := obs.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

// first is the seq of the first entry of the golden log for which ok holds.
func (k *badKit) first(t testing.TB, what string, ok func(e *protocol.Entry) bool) int {
	for i, e := range k.entries {
		if ok(e) {
			return i
		}
	}
	t.Fatalf("%s: no %s in the golden log", k.spec.name, what)
	return 0
}

func cheat(seat int, seq uint64, problem string) badWant {
	return badWant{"cheat", seat, int64(seq), problem, -1}
}

func refused(seq uint64, problem string) badWant { return badWant{"none", -1, int64(seq), problem, -1} }

func lastEntry(entries []*protocol.Entry) *protocol.Entry { return entries[len(entries)-1] }

func badPath(name, ext string) string { return filepath.Join("testdata", "bad", name+ext) }

func writeBad(t testing.TB, bl badLog, b []byte, want badWant) {
	if err := os.MkdirAll(filepath.Join("testdata", "bad"), 0o755); err != nil {
		t.Fatal(err)
	}
	x := &expectFile{comment: []string{bl.about, "made by TestBadLogs -update from ../" + bl.base + ".log"}}
	x.set("base", bl.base)
	x.set("expect", want.verdict)
	x.set("blamed", fmt.Sprint(want.blamed))
	x.set("seq", fmt.Sprint(want.seq))
	x.set("problem", want.problem)
	x.set("waiting", fmt.Sprint(want.waiting))
	if err := os.WriteFile(badPath(bl.name, ".log"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badPath(bl.name, ".expect"), x.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readBadWant(t testing.TB, name string) badWant {
	path := badPath(name, ".expect")
	x := readExpect(t, path)
	var w badWant
	var err1, err2, err3 error
	w.verdict = x.get(t, path, "expect")
	w.blamed, err1 = strconv.Atoi(x.get(t, path, "blamed"))
	w.seq, err2 = strconv.ParseInt(x.get(t, path, "seq"), 10, 64)
	w.problem = x.get(t, path, "problem")
	w.waiting, err3 = strconv.Atoi(x.get(t, path, "waiting"))
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return w
}

// TestBadLogs audits every bad log, and feeds its entries to live nodes.
func TestBadLogs(t *testing.T) {
	parallelUnlessUpdating(t)
	kits := map[string]*badKit{}
	for _, bl := range badLogs {
		t.Run(bl.name, func(t *testing.T) {
			if *update {
				if kits[bl.base] == nil {
					kits[bl.base] = newBadKit(t, bl.base)
				}
				entries, b, want := bl.build(t, kits[bl.base])
				if b == nil {
					b = logBytes(t, entries)
				}
				writeBad(t, bl, b, want)
			}
			want := readBadWant(t, bl.name)
			b, err := os.ReadFile(badPath(bl.name, ".log"))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := protocol.Audit(bytes.NewReader(b), engine.Options{})
			if err != nil {
				t.Fatalf("audit: %v", err)
			}
			verdict := "none"
			if rep.Verdict != nil {
				verdict = rep.Verdict.Kind.String()
			}
			if rep.Valid || verdict != want.verdict || rep.Blamed != want.blamed || rep.At != want.seq ||
				!strings.Contains(rep.Problem, want.problem) || rep.WaitingFor != want.waiting {
				t.Fatalf("audit: valid %v, verdict %s, blamed %d, at %d, waiting for %d, problem %q\n"+
					"want: verdict %s, blamed %d, at %d, waiting for %d, problem containing %q",
					rep.Valid, verdict, rep.Blamed, rep.At, rep.WaitingFor, rep.Problem,
					want.verdict, want.blamed, want.seq, want.waiting, want.problem)
			}
			if bl.live == liveNone {
				return
			}
			entries, err := protocol.ReadLog(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			checkLive(t, goldSpecNamed(t, bl.base), entries, want, bl.live)
		})
	}
}

// TestBadLogsComplete: every file under testdata/bad/ is a case of badLogs, and the other way
// round (a stale file would be a test that cannot fail).
func TestBadLogsComplete(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "bad", "*"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, bl := range badLogs {
		want[bl.name+".log"], want[bl.name+".expect"] = true, true
	}
	for _, f := range files {
		if !want[filepath.Base(f)] {
			t.Errorf("%s is no case of TestBadLogs", f)
		}
		delete(want, filepath.Base(f))
	}
	for _, f := range slices.Sorted(maps.Keys(want)) {
		t.Errorf("testdata/bad/%s is missing (run TestBadLogs with -update)", f)
	}
}

// checkLive feeds entries in lockstep to a node of every seat but the blamed one, and checks that
// each reaches want: the same verdict, or the same rejection after which it carries on.
func checkLive(t *testing.T, spec worldSpec, entries []*protocol.Entry, want badWant, how live) {
	w := newWorld(t, spec, "")
	if entries[0].Hash() != w.genesis.Hash() {
		t.Fatal("the bad log's genesis is not the fixture's")
	}
	golden := readGolden(t, spec.name)
	// The world is not fed: its nodes stay in roster order, and each node's seat is its Self's.
	blamed := -1
	if want.blamed >= 0 {
		blamed = seatOrderOf(t, golden).rosterIndex(uint64(want.seq), want.blamed)
	}
	for node, tb := range w.tables {
		if node == blamed {
			continue
		}
		for _, e := range entries[1:] {
			seat := w.selves[node].Seat()
			if e.Kind == protocol.KindBlame && e.Seat == seat {
				// The peeker's own node writes this very blame, with no decision.
				if tb.NeedsDecision() {
					t.Fatalf("seat %d's node asks for a decision where it must blame", seat)
				}
				mine, err := tb.NextEntry(engine.Action{})
				if err != nil || mine == nil || !bytes.Equal(mine.Marshal(), e.Marshal()) {
					t.Fatalf("seat %d's node does not write the blame %s itself: %v %v", seat, e, mine, err)
				}
			}
			len0, head0 := tb.Len(), tb.Head()
			err := tb.Append(e)
			var v *protocol.Verdict
			switch {
			case err == nil:
				continue
			case errors.As(err, &v):
				if how != liveVerdict || v.Kind.String() != want.verdict || v.Seat != want.blamed || int64(v.Seq) != want.seq {
					t.Fatalf("seat %d's node: %v; want %s of seat %d at %d", w.selves[node].Seat(), v, want.verdict, want.blamed, want.seq)
				}
			default:
				var gap *protocol.GapError
				if errors.As(err, &gap) && int64(gap.Have) == want.seq {
					e = golden[want.seq] // the missing entry
				}
				if how != liveReject || int64(e.Seq) != want.seq || tb.Verdict() != nil || tb.Len() != len0 || tb.Head() != head0 {
					t.Fatalf("seat %d's node refuses %s: %v (verdict %v, len %d -> %d); want the audit's %+v", w.selves[node].Seat(), e, err, tb.Verdict(), len0, tb.Len(), want)
				}
				// It carries on with the honest entry.
				if err := tb.Append(golden[tb.Len()]); err != nil {
					t.Fatalf("seat %d's node does not carry on after refusing %s: %v", w.selves[node].Seat(), e, err)
				}
			}
			break
		}
		if v := tb.Verdict(); (how == liveVerdict) != (v != nil) {
			t.Fatalf("seat %d's node ends with verdict %v", w.selves[node].Seat(), v)
		}
	}
}

// TestEquivocationDelivery has a seat sign two entries for one seq and delivers them to the
// honest nodes in both orders (each node relays what halted it, so every node sees both).
// Every node must end with the same verdict, whichever twin it saw first. From version 5 a
// second entry after another entry (off the chain) is no twin: nobody is blamed, whatever the
// order, and the log goes on from the original (cut.go).
func TestEquivocationDelivery(t *testing.T) {
	k := newBadKit(t, "standard-3")
	seq := k.faceDown(t, 60)
	orig := k.entries[seq]
	move, hidden, err := protocol.ParseMoveBodyForTest(orig.Body)
	if err != nil || len(hidden) != 1 {
		t.Fatalf("%s is not a face-down placement: %v", orig, err)
	}
	twin := func(change func(e *protocol.Entry)) *protocol.Entry {
		e := copyEntry(orig)
		change(e)
		return k.resign(e)
	}
	for _, tc := range []struct {
		name     string
		twin     *protocol.Entry
		offChain bool
	}{
		{"legal twin", twin(func(e *protocol.Entry) {
			h := bytes.Clone(hidden[0])
			h[0] ^= 1 // another commitment
			e.Body = protocol.MoveBodyForTest(move, h)
		}), false},
		{"twin off the chain", twin(func(e *protocol.Entry) { e.Prev[0] ^= 1 }), true},
		// The card shown face up where it must be face down: a cheat if it comes first.
		{"illegal twin", twin(func(e *protocol.Entry) {
			shown := bytes.Clone(move)
			shown[2] = 1 // the $1,000 bribe
			e.Body = protocol.MoveBodyForTest(shown)
		}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var verdicts []string
			for first := range 2 {
				w := newWorld(t, k.spec, "")
				pair := []*protocol.Entry{orig, tc.twin}
				a, b := pair[first], pair[1-first]
				for node, tb := range w.tables { // not fed: in roster order
					if node == k.order.rosterIndex(orig.Seq, orig.Seat) {
						continue
					}
					for _, e := range k.entries[1:seq] {
						if err := tb.Append(e); err != nil {
							t.Fatal(err)
						}
					}
					// a, then b, then a again (relayed by a node that b halted), then the log
					// that follows the original. A halted node keeps listening for a while (its
					// linger), so it hears the twin it missed.
					for _, e := range append([]*protocol.Entry{a, b, a}, k.entries[seq+1:]...) {
						tb.Append(e)
					}
					v := tb.Verdict()
					if tc.offChain {
						if v != nil || tb.Len() != uint64(len(k.entries)) {
							t.Fatalf("seat %d's node, given the %s first, ends with verdict %v and %d entries; want no verdict and the whole log",
								w.selves[node].Seat(), []string{"original", "twin"}[first], v, tb.Len())
						}
						continue
					}
					if v == nil {
						t.Fatalf("seat %d's node, given the %s first, ends without a verdict", w.selves[node].Seat(), []string{"original", "twin"}[first])
					}
					verdicts = append(verdicts, fmt.Sprintf("%s of seat %d at %d", v.Kind, v.Seat, v.Seq))
				}
			}
			for _, v := range verdicts {
				if v != verdicts[0] || tc.offChain || !strings.Contains(v, fmt.Sprintf("seat %d at %d", orig.Seat, seq)) {
					t.Fatalf("the honest nodes' verdicts depend on which twin came first: %v (original first for the first %d)", verdicts, len(verdicts)/2)
				}
			}
		})
	}
}
