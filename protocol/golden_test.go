package protocol_test

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol"
)

// Golden logs: whole tables played by heuristic bots in lockstep from fixed keys and seeds,
// saved with protocol.WriteLog under testdata/. TestGoldenLogs plays each table again, with the
// decisions read back from its own log (so a change to the bots does not matter, but any change
// to the wire format, the encodings or a node's derived secrets does), and compares bytes;
// TestGoldenAudit audits each file against its NAME.expect.
//
// Regenerate the golden and bad logs with: go test ./protocol/ -run 'TestGolden|TestBadLogs' -update

var update = flag.Bool("update", false, "rewrite the golden and bad logs under testdata/")

// goldSpec is one golden table.
type goldSpec struct {
	name    string // file stem under testdata/
	about   string
	players int
	variant corruption.Variant
	lbb     bool
}

var goldSpecs = []goldSpec{
	{"standard-3", "3 players, standard variant", 3, corruption.Standard, false},
	{"freestud-lbb-4", "4 players, free stud, little black book", 4, corruption.FreeStud, true},
	{"closed-5", "5 players, closed variant", 5, corruption.Closed, false},
}

func goldSpecNamed(t testing.TB, name string) goldSpec {
	for _, s := range goldSpecs {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("no golden table %q", name)
	return goldSpec{}
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

// goldWorld is one table in lockstep: every seat's node (a Table with its secrets), an observer
// (no secrets) that referees, and the log so far.
type goldWorld struct {
	spec    goldSpec
	keys    []ed25519.PrivateKey
	selves  []*protocol.Self
	genesis *protocol.Entry
	tables  []*protocol.Table // tables[i] is seat i's node
	obs     *protocol.Table
	bots    []bot.Bot
	log     []*protocol.Entry
	// honest[i] is false for a seat whose node the test has taken over: its table is fed every
	// entry but what it answers is not checked.
	honest []bool
}

// newGoldWorld seats spec's players with keys and table seeds derived from spec's name. nonce
// names the genesis nonce: two worlds with the same spec and another nonce are two tables of
// the very same players (same identity keys, same table seeds).
func newGoldWorld(t testing.TB, spec goldSpec, nonce string) *goldWorld {
	t.Helper()
	w := &goldWorld{spec: spec}
	g := &protocol.Genesis{Name: "golden " + spec.name, Variant: spec.variant, LBB: spec.lbb, Timeout: time.Minute}
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
	w.log = []*protocol.Entry{gen}
	w.obs, err = protocol.NewTable(gen, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range w.keys {
		var seed [32]byte
		newStream("golden %s table seed %d", spec.name, i).Read(seed[:])
		s := protocol.NewSelf(w.keys[i], seed)
		tb, err := protocol.NewTable(gen, s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := bot.New("heuristic", uint64(1000*spec.players+i))
		if err != nil {
			t.Fatal(err)
		}
		w.selves = append(w.selves, s)
		w.tables = append(w.tables, tb)
		w.bots = append(w.bots, b)
		w.honest = append(w.honest, true)
	}
	return w
}

// decider makes the players' decisions: the move for the entry at seq by seat.
type decider func(seq uint64, seat int, v corruption.View) (corruption.Move, bool)

// botDecider lets the world's bots decide.
func (w *goldWorld) botDecider(seq uint64, seat int, v corruption.View) (corruption.Move, bool) {
	return w.bots[seat].Decide(v), true
}

// scriptDecider replays decisions read from a log (see scriptOf), and fails for any other.
func scriptDecider(t testing.TB, script map[uint64]corruption.Move) decider {
	return func(seq uint64, seat int, v corruption.View) (corruption.Move, bool) {
		m, ok := script[seq]
		if !ok {
			t.Fatalf("the script has no decision for entry %d (seat %d, %s)", seq, seat, v.Next())
		}
		return m, true
	}
}

// write has the due seat's node write its next entry.
func (w *goldWorld) write(t testing.TB, dec decider) *protocol.Entry {
	t.Helper()
	seat, _ := w.obs.Due()
	seq := w.obs.Len()
	e, err := w.tables[seat].NextEntry(func(v corruption.View) (corruption.Move, bool) { return dec(seq, seat, v) })
	if err != nil || e == nil {
		t.Fatalf("seat %d cannot write entry %d (%s): %v", seat, seq, w.obs.DueString(), err)
	}
	return e
}

// feed gives an entry to the observer and every node, and checks that the honest nodes agree
// with the observer, and have the same digest (what a node knows alone, such as the card a peek
// showed it, stays out of it). It returns the observer's verdict, if any.
func (w *goldWorld) feed(t testing.TB, e *protocol.Entry) *protocol.Verdict {
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
		if g := tb.Game(); g != nil && g.Digest() != w.obs.Game().Digest() {
			t.Fatalf("after %s, seat %d's node and the observer have different digests", e, i)
		}
	}
	w.log = append(w.log, e)
	return v
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
type hook func(w *goldWorld, seat int, kinds []protocol.Kind) *protocol.Entry

// play runs the table in lockstep until it is complete or halted.
func (w *goldWorld) play(t testing.TB, dec decider, h hook) *protocol.Verdict {
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
func (w *goldWorld) sign(seat int, kind protocol.Kind, body []byte) *protocol.Entry {
	e := &protocol.Entry{Table: w.obs.ID(), Seq: w.obs.Len(), Prev: w.obs.Head(), Seat: seat, Kind: kind, Body: body}
	e.Sign(w.keys[seat])
	return e
}

// scriptOf reads the players' decisions back from a log: placements (with the face-down cards
// their reveals showed), peeks, free-stud choices and awarding decisions, by seq.
func scriptOf(t testing.TB, entries []*protocol.Entry) map[uint64]corruption.Move {
	t.Helper()
	var evs []corruption.Event
	obs, err := protocol.NewTable(entries[0], nil, corruption.WithEvents(func(ev corruption.Event) { evs = append(evs, ev) }))
	if err != nil {
		t.Fatal(err)
	}
	type place struct{ round, index int }
	script := map[uint64]corruption.Move{}
	hidden := map[place]uint64{} // face-down placements waiting for their reveal
	for _, e := range entries[1:] {
		evs = evs[:0]
		if err := obs.Append(e); err != nil {
			t.Fatalf("script: %v", err)
		}
		for _, ev := range evs {
			var m corruption.Move
			switch ev.Kind {
			case corruption.EventFaceUp:
				m = corruption.Move{Kind: corruption.MoveFaceUp, Positions: ev.Positions}
			case corruption.EventPeeked:
				m = corruption.Move{Kind: corruption.MovePeek, Index: ev.Index}
			case corruption.EventPlaced:
				m = corruption.Move{Kind: corruption.MovePlace, Card: ev.Card, Spot: ev.Spot}
				if ev.Card == corruption.CardUnknown {
					hidden[place{ev.Round, ev.Index}] = e.Seq
				}
			case corruption.EventAssigned:
				m = corruption.Move{Kind: corruption.MoveAssign, Contract: ev.Contract}
			case corruption.EventKilled:
				m = corruption.Move{Kind: corruption.MoveKill, Index: ev.Target}
			case corruption.EventRemoved:
				m = corruption.Move{Kind: corruption.MoveRemove, Index: ev.Target}
			case corruption.EventPassed:
				m = corruption.Move{Kind: corruption.MovePass}
			case corruption.EventRevealed:
				if seq, ok := hidden[place{ev.Round, ev.Index}]; ok {
					m := script[seq]
					m.Card = ev.Card
					script[seq] = m
					delete(hidden, place{ev.Round, ev.Index})
				}
				continue
			default:
				continue
			}
			if _, dup := script[e.Seq]; !dup { // the entry's decision is its first event
				m.Seat = e.Seat
				script[e.Seq] = m
			}
		}
	}
	if len(hidden) > 0 {
		t.Fatalf("script: %d face-down cards are never revealed", len(hidden))
	}
	return script
}

func logBytes(t testing.TB, entries []*protocol.Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := protocol.WriteLog(&buf, entries); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func goldPath(name string) string { return filepath.Join("testdata", name+".log") }

// readGolden reads a golden log's entries.
func readGolden(t testing.TB, name string) []*protocol.Entry {
	t.Helper()
	b, err := os.ReadFile(goldPath(name))
	if err != nil {
		t.Fatalf("%v (run with -update to make it)", err)
	}
	entries, err := protocol.ReadLog(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return entries
}

// expectFile is a NAME.expect file: '#' comment lines, then "key: value" lines.
type expectFile struct {
	comment []string
	keys    []string
	vals    map[string]string
}

func (x *expectFile) set(k, v string) {
	if x.vals == nil {
		x.vals = map[string]string{}
	}
	if _, ok := x.vals[k]; !ok {
		x.keys = append(x.keys, k)
	}
	x.vals[k] = v
}

func (x *expectFile) bytes() []byte {
	var b strings.Builder
	for _, c := range x.comment {
		fmt.Fprintf(&b, "# %s\n", c)
	}
	for _, k := range x.keys {
		fmt.Fprintf(&b, "%s: %s\n", k, x.vals[k])
	}
	return []byte(b.String())
}

func readExpect(t testing.TB, path string) *expectFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run with -update to make it)", err)
	}
	defer f.Close()
	x := &expectFile{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		switch {
		case strings.HasPrefix(s, "#"):
			x.comment = append(x.comment, strings.TrimSpace(s[1:]))
		case strings.TrimSpace(s) == "":
		default:
			k, v, ok := strings.Cut(s, ": ")
			if !ok {
				t.Fatalf("%s:%d: want \"key: value\", got %q", path, line, s)
			}
			x.set(k, v)
		}
	}
	return x
}

func (x *expectFile) get(t testing.TB, path, k string) string {
	t.Helper()
	v, ok := x.vals[k]
	if !ok {
		t.Fatalf("%s: no %q line", path, k)
	}
	return v
}

// playGolden plays spec's table: with its bots, or with the decisions of script.
func playGolden(t testing.TB, spec goldSpec, script map[uint64]corruption.Move) []*protocol.Entry {
	t.Helper()
	w := newGoldWorld(t, spec, "")
	dec := w.botDecider
	if script != nil {
		dec = scriptDecider(t, script)
	}
	if v := w.play(t, dec, nil); v != nil {
		t.Fatalf("%s: an honest table halts: %v", spec.name, v)
	}
	for i, tb := range w.tables {
		if !tb.Done() || tb.Game().Digest() != w.obs.Game().Digest() {
			t.Fatalf("%s: seat %d's node ends elsewhere", spec.name, i)
		}
	}
	return w.log
}

func countKinds(entries []*protocol.Entry) map[protocol.Kind]int {
	n := map[protocol.Kind]int{}
	for _, e := range entries {
		n[e.Kind]++
	}
	return n
}

// TestGoldenLogs plays every golden table again and compares the log with the saved bytes.
func TestGoldenLogs(t *testing.T) {
	for _, spec := range goldSpecs {
		t.Run(spec.name, func(t *testing.T) {
			if *update {
				updateGolden(t, spec)
			}
			want, err := os.ReadFile(goldPath(spec.name))
			if err != nil {
				t.Fatalf("%v (run with -update to make it)", err)
			}
			saved, err := protocol.ReadLog(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			got := playGolden(t, spec, scriptOf(t, saved))
			if b := logBytes(t, got); !bytes.Equal(b, want) {
				for i := range min(len(got), len(saved)) {
					if !bytes.Equal(got[i].Marshal(), saved[i].Marshal()) {
						t.Fatalf("the log differs from %s from %s on (now %s)", goldPath(spec.name), saved[i], got[i])
					}
				}
				t.Fatalf("the log has %d entries, %s has %d", len(got), goldPath(spec.name), len(saved))
			}
			if spec.lbb {
				if n := countKinds(saved); n[protocol.KindPeek] == 0 || n[protocol.KindAnswer] == 0 {
					t.Errorf("%s has %d peeks and %d answers: want a game with both", spec.name, n[protocol.KindPeek], n[protocol.KindAnswer])
				}
			}
		})
	}
}

// goldUpdated says which golden logs this run has rewritten.
var goldUpdated = map[string]bool{}

// updateGolden plays spec's table with its bots and rewrites its files, once a run (the bad logs
// are made from the new ones, whichever test runs first).
func updateGolden(t testing.TB, spec goldSpec) {
	if !goldUpdated[spec.name] {
		writeGolden(t, spec, playGolden(t, spec, nil))
		goldUpdated[spec.name] = true
	}
}

func writeGolden(t testing.TB, spec goldSpec, entries []*protocol.Entry) {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	b := logBytes(t, entries)
	if err := os.WriteFile(goldPath(spec.name), b, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := protocol.Audit(bytes.NewReader(b))
	if err != nil || !rep.Valid {
		t.Fatalf("%s: the audit of a fresh golden log: %v %+v", spec.name, err, rep)
	}
	x := &expectFile{comment: []string{spec.about + ", heuristic bots; made by TestGoldenLogs -update"}}
	x.set("expect", "valid")
	x.set("entries", fmt.Sprint(rep.Entries))
	x.set("winners", fmt.Sprint(rep.Winners))
	x.set("scores", fmt.Sprint(rep.Scores))
	x.set("digest", rep.Digest)
	if err := os.WriteFile(filepath.Join("testdata", spec.name+".expect"), x.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoldenAudit audits every golden log: valid, with the outcome its .expect records.
func TestGoldenAudit(t *testing.T) {
	for _, spec := range goldSpecs {
		t.Run(spec.name, func(t *testing.T) {
			path := filepath.Join("testdata", spec.name+".expect")
			x := readExpect(t, path)
			f, err := os.Open(goldPath(spec.name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rep, err := protocol.Audit(f)
			if err != nil {
				t.Fatal(err)
			}
			if x.get(t, path, "expect") != "valid" || !rep.Valid {
				t.Fatalf("audit: valid %v (%s), %s wants %s", rep.Valid, rep.Problem, path, x.get(t, path, "expect"))
			}
			if rep.Blamed != -1 || rep.At != -1 || rep.WaitingFor != -1 || rep.Problem != "" || !rep.Finished || rep.Verdict != nil {
				t.Errorf("a valid log's report: %+v", rep)
			}
			for k, got := range map[string]string{
				"entries": fmt.Sprint(rep.Entries),
				"winners": fmt.Sprint(rep.Winners),
				"scores":  fmt.Sprint(rep.Scores),
				"digest":  rep.Digest,
			} {
				if want := x.get(t, path, k); got != want {
					t.Errorf("%s: audit says %s, want %s", k, got, want)
				}
			}
		})
	}
}
