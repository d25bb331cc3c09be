package protocol_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol"
)

// Golden logs: whole tables played by bots in lockstep worlds from fixed keys and seeds, saved
// with protocol.WriteLog under testdata/. TestGoldenLogs plays each table again, with the
// decisions protocol.Decisions reads back from its own log (so a change to the bots does not
// matter, but any change to the wire format, the encodings or a node's derived secrets does),
// and compares bytes; TestGoldenAudit audits each file against its NAME.expect.
//
// Regenerate the golden and bad logs with: go test ./protocol/ -run 'TestGolden|TestBadLogs' -update

var update = flag.Bool("update", false, "rewrite the golden and bad logs under testdata/")

// parallelUnlessUpdating runs t beside the package's other parallel tests, but alone under
// -update, which rewrites testdata/ one test at a time.
func parallelUnlessUpdating(t *testing.T) {
	if !*update {
		t.Parallel()
	}
}

// corruptionWorld is a Corruption table of heuristic bots, for golden logs.
func corruptionWorld(name, about string, n int, v corruption.Variant, lbb bool) worldSpec {
	return worldSpec{name: name, about: about, game: "corruption", config: corruption.EncodeConfig(v, lbb), players: n,
		bot: func(seat int) engine.Player {
			b, err := bot.New("heuristic", uint64(1000*n+seat))
			if err != nil {
				panic(err)
			}
			return bot.Player(b)
		}}
}

var goldSpecs = []worldSpec{
	corruptionWorld("standard-3", "3 players, standard variant", 3, corruption.Standard, false),
	corruptionWorld("freestud-lbb-4", "4 players, free stud, little black book", 4, corruption.FreeStud, true),
	corruptionWorld("closed-5", "5 players, closed variant", 5, corruption.Closed, false),
	{name: "toy-3", about: "3 players of the toy (every service of the kit)", game: toyID, config: []byte{1}, players: 3,
		bot: func(int) engine.Player { return toyBot{} }},
}

func goldSpecNamed(t testing.TB, name string) worldSpec {
	for _, s := range goldSpecs {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("no golden table %q", name)
	return worldSpec{}
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

// goldScript is the decisions of a golden log.
func goldScript(t testing.TB, entries []*protocol.Entry) map[uint64]engine.Action {
	t.Helper()
	script, err := protocol.Decisions(entries)
	if err != nil {
		t.Fatalf("decisions: %v", err)
	}
	return script
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
func playGolden(t testing.TB, spec worldSpec, script map[uint64]engine.Action) []*protocol.Entry {
	t.Helper()
	w := newWorld(t, spec, "")
	dec := w.botDecider(t)
	if script != nil {
		dec = scriptDecider(t, script)
	}
	if v := w.play(t, dec, nil); v != nil {
		t.Fatalf("%s: an honest table halts: %v", spec.name, v)
	}
	for i, tb := range w.tables {
		if !tb.Done() || tb.Digest() != w.obs.Digest() {
			t.Fatalf("%s: seat %d's node ends elsewhere", spec.name, i)
		}
	}
	return w.log
}

// peeks counts a Corruption log's peeks: move entries whose move is a peek (code 2), each of
// which the kit follows with an answer entry.
func peeks(t testing.TB, entries []*protocol.Entry) (peeks, answered int) {
	for i, e := range entries {
		if e.Kind != protocol.KindMove {
			continue
		}
		move, _, err := protocol.ParseMoveBodyForTest(e.Body)
		if err != nil {
			t.Fatal(err)
		}
		if len(move) == 2 && move[0] == 2 {
			peeks++
			if i+1 < len(entries) && entries[i+1].Kind == protocol.KindAnswer {
				answered++
			}
		}
	}
	return peeks, answered
}

// TestGoldenLogs plays every golden table again and compares the log with the saved bytes.
func TestGoldenLogs(t *testing.T) {
	parallelUnlessUpdating(t)
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
			got := playGolden(t, spec, goldScript(t, saved))
			if b := logBytes(t, got); !bytes.Equal(b, want) {
				for i := range min(len(got), len(saved)) {
					if !bytes.Equal(got[i].Marshal(), saved[i].Marshal()) {
						t.Fatalf("the log differs from %s from %s on (now %s)", goldPath(spec.name), saved[i], got[i])
					}
				}
				t.Fatalf("the log has %d entries, %s has %d", len(got), goldPath(spec.name), len(saved))
			}
			n := countKinds(saved)
			switch spec.name {
			case "freestud-lbb-4":
				if p, a := peeks(t, saved); p == 0 || a != p || n[protocol.KindAnswer] != p {
					t.Errorf("%s has %d peeks, %d of them answered at once, and %d answers: want a game with peeks, each answered", spec.name, p, a, n[protocol.KindAnswer])
				}
			case "toy-3":
				for _, k := range []protocol.Kind{protocol.KindRandom, protocol.KindShuffle, protocol.KindShares, protocol.KindMove,
					protocol.KindOpen, protocol.KindAnswer, protocol.KindCommit, protocol.KindSignOff} {
					if n[k] == 0 {
						t.Errorf("%s has no %s entry: the toy must use every service", spec.name, k)
					}
				}
			}
		})
	}
}

// goldUpdated says which golden logs this run has rewritten.
var goldUpdated = map[string]bool{}

// updateGolden plays spec's table with its bots and rewrites its files, once a run (the bad logs
// are made from the new ones, whichever test runs first).
func updateGolden(t testing.TB, spec worldSpec) {
	if !goldUpdated[spec.name] {
		writeGolden(t, spec, playGolden(t, spec, nil))
		goldUpdated[spec.name] = true
	}
}

func writeGolden(t testing.TB, spec worldSpec, entries []*protocol.Entry) {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	b := logBytes(t, entries)
	if err := os.WriteFile(goldPath(spec.name), b, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := protocol.Audit(bytes.NewReader(b), engine.Options{})
	if err != nil || !rep.Valid {
		t.Fatalf("%s: the audit of a fresh golden log: %v %+v", spec.name, err, rep)
	}
	x := &expectFile{comment: []string{spec.about + ", bots; made by TestGoldenLogs -update"}}
	x.set("expect", "valid")
	x.set("game", rep.Game)
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
			rep, err := protocol.Audit(f, engine.Options{})
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
				"game":    rep.Game,
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
