package protocol_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// TestArchivedLogs audits every log of an earlier protocol version kept under testdata/vN
// (version 2's and version 3's, good and bad, never regenerated) and checks the report against
// its .expect: a build of a later version still audits an older log by that version's rules.
func TestArchivedLogs(t *testing.T) {
	t.Parallel()
	for v := uint8(2); v < protocol.EntryVersion; v++ {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) {
			t.Parallel()
			auditArchive(t, v)
		})
	}
}

func auditArchive(t *testing.T, version uint8) {
	dir := filepath.Join("testdata", fmt.Sprintf("v%d", version))
	var logs []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".log") {
			logs = append(logs, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) < 40 {
		t.Fatalf("%s holds %d logs: the version %d archive is missing", dir, len(logs), version)
	}
	for _, path := range logs {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(path, dir+string(filepath.Separator)), ".log"), func(t *testing.T) {
			xpath := strings.TrimSuffix(path, ".log") + ".expect"
			x := readExpect(t, xpath)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if entries, err := protocol.ReadLog(bytes.NewReader(b)); err == nil && len(entries) > 0 && entries[0].Version != version {
				t.Fatalf("%s opens with an entry of version %d: the archive holds version %d only", path, entries[0].Version, version)
			}
			rep, err := protocol.Audit(bytes.NewReader(b), engine.Options{})
			if err != nil {
				t.Fatalf("audit: %v", err)
			}
			if x.get(t, xpath, "expect") == "valid" {
				if !rep.Valid {
					t.Fatalf("audit: not valid (%s at %d, seat %d blamed)", rep.Problem, rep.At, rep.Blamed)
				}
				got := map[string]string{"entries": fmt.Sprint(rep.Entries), "digest": rep.Digest}
				if _, ok := x.vals["convicted"]; ok {
					// A log that played on past a cheat (made by TestConvictedGolden): its conviction.
					got["convicted"] = "none"
					if len(rep.Convicted) == 1 {
						c := rep.Convicted[0]
						got["convicted"] = fmt.Sprintf("seat %d at entry %d (%s)", c.Seat, c.Seq, c.What)
					}
				} else {
					got["game"], got["winners"], got["scores"] = rep.Game, fmt.Sprint(rep.Winners), fmt.Sprint(rep.Scores)
				}
				for k, got := range got {
					if want := x.get(t, xpath, k); got != want {
						t.Errorf("%s: audit says %s, want %s", k, got, want)
					}
				}
				return
			}
			verdict := "none"
			if rep.Verdict != nil {
				verdict = rep.Verdict.Kind.String()
			}
			blamed, err1 := strconv.Atoi(x.get(t, xpath, "blamed"))
			seq, err2 := strconv.ParseInt(x.get(t, xpath, "seq"), 10, 64)
			waiting, err3 := strconv.Atoi(x.get(t, xpath, "waiting"))
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("%s: %v %v %v", xpath, err1, err2, err3)
			}
			want := x.get(t, xpath, "expect")
			if rep.Valid || verdict != want || rep.Blamed != blamed || rep.At != seq || rep.WaitingFor != waiting ||
				!strings.Contains(rep.Problem, x.get(t, xpath, "problem")) {
				t.Fatalf("audit: valid %v, verdict %s, blamed %d, at %d, waiting for %d, problem %q; %s wants %s, %d, %d, %d, %q",
					rep.Valid, verdict, rep.Blamed, rep.At, rep.WaitingFor, rep.Problem,
					xpath, want, blamed, seq, waiting, x.get(t, xpath, "problem"))
			}
		})
	}
}

// TestHelloVersions: a hello of version 3 carries its version after the game's id, which a node
// of version 2 reads as another game's id (so it says at the hello that the other node wants
// another game); a hello without one is version 2's; any other suffix is malformed.
func TestHelloVersions(t *testing.T) {
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	cfg := corruption.EncodeConfig(corruption.Standard, false)
	for _, v := range []uint8{2, 3} {
		msg := protocol.HelloForTest(v, "t", "corruption", cfg, 3, "ann", key)
		a, err := protocol.ParseAnnouncement(msg)
		if err != nil || a.Version != v || a.Game != "corruption" {
			t.Fatalf("version %d: %+v, %v", v, a, err)
		}
		if has := bytes.Contains(msg, []byte("corruption@")); has != (v >= 3) {
			t.Errorf("version %d: the game field with a version is %v", v, has)
		}
	}
	for _, game := range []string{"corruption@", "corruption@2", "corruption@03", "corruption@x", "corruption@300"} {
		msg := protocol.HelloForTest(2, "t", game, cfg, 3, "ann", key) // version 2 writes the field as given
		if _, err := protocol.ParseAnnouncement(msg); err == nil {
			t.Errorf("a hello with game %q parses", game)
		}
	}
}

// TestFormOlderRelease: a node of version 2 that wants the same table is told apart at its
// hello, said once to be of an older release, and never seated.
func TestFormOlderRelease(t *testing.T) {
	net := memnet.New(85, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	startPump(t, clock, 10*time.Millisecond)
	said := newNotes()
	spec := corruptionSpec(3, corruption.Standard, false, 1)
	spec.nodes, spec.clock = 1, clock
	const formTimeout = 24 * time.Hour
	spec.player = func(int) engine.Player { return toyBot{} } // never asked
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.FormTimeout = formTimeout
		cfg.Notef = said.notef(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res := runNodes(ctx, net, spec, t.TempDir())
	old := net.Node("old")
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	hello := protocol.HelloForTest(2, "t", "corruption", corruption.EncodeConfig(corruption.Standard, false), 3, "olga", key)
	found := make(chan error, 1)
	go func() {
		_, err := said.waitFor(ctx, 0, `"olga" also wants table "t"`, fmt.Sprintf("an older release of corruption (protocol 2; this one is %d)", protocol.EntryVersion))
		found <- err
	}()
	for done := false; !done; {
		if err := old.Publish(ctx, hello); err != nil {
			t.Fatal(err)
		}
		if err := clock.Pass(ctx, passStep, passStep); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-found:
			if err != nil {
				t.Fatal(err)
			}
			done = true
		default:
		}
	}
	for range 8 {
		if err := old.Publish(ctx, hello); err != nil {
			t.Fatal(err)
		}
	}
	if err := clock.Pass(ctx, 5*time.Second, passStep); err != nil {
		t.Fatal(err)
	}
	if got := said.of(0); len(got) != 1 {
		t.Errorf("node 0 said %q, want the older release once", got)
	}
	clock.Advance(formTimeout)
	x := <-res
	var fe *protocol.FormError
	if !errors.As(x.err, &fe) || len(fe.Heard) != 1 {
		t.Errorf("node 0 ends with %v, want a *FormError having heard only itself", x.err)
	}
}

// TestVersionMixed: every entry of a table carries its genesis's version; an entry of another
// version is rejected before any other check, naming both.
func TestVersionMixed(t *testing.T) {
	entries := readGolden(t, "standard-3")
	if entries[0].Version != protocol.EntryVersion {
		t.Fatalf("the golden log is of version %d, want %d (run TestGoldenLogs with -update)", entries[0].Version, protocol.EntryVersion)
	}
	tb, err := protocol.NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := *entries[1]
	e.Version = 2
	err = tb.Append(&e)
	if want := fmt.Sprintf("protocol version 2, at a table of version %d", protocol.EntryVersion); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("an entry of version 2 at a table of version %d: %v", protocol.EntryVersion, err)
	}
	if err := tb.Append(entries[1]); err != nil {
		t.Fatalf("the entry itself, after: %v", err)
	}
}
