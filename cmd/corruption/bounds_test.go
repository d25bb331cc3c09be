package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corruption/protocol"
)

// TestAuditInputs: audit and replay end every input that is not a log with a clear error, at
// once and in bounded memory: devices that never end, a FIFO that nobody writes, a sparse file
// of gigabytes. (They used to read the whole file first: /dev/zero grew until killed, a FIFO
// blocked forever.)
func TestAuditInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.log")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil { // 2 GiB of holes: no disk, but ReadFile would take it all
		t.Fatal(err)
	}
	f.Close()
	tests := []struct {
		path string
		want string
	}{
		{"/dev/zero", "character device"},
		{"/dev/urandom", "character device"},
		{fifo, "named pipe"},
		{sparse, "not a corruption log"},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"audit", "replay"} {
			t.Run(cmd+" "+filepath.Base(tt.path), func(t *testing.T) {
				r := runCLI(t, cmd, tt.path)
				if r.code != 1 || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, tt.path) {
					t.Errorf("exit %d, want 1 with an error naming %s and %q\n%v", r.code, tt.path, tt.want, r)
				}
			})
		}
	}
}

// TestAuditJSONErrors: audit --json prints one JSON report for every error, a file that is no
// log at all included, so that a script never meets plain text on stdout.
func TestAuditJSONErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.log")
	writeFile(t, empty, "")
	notLog := filepath.Join(dir, "notes.txt")
	writeFile(t, notLog, "this is not a log\n")
	for _, path := range []string{empty, notLog, filepath.Join(dir, "missing.log"), dir, "/dev/zero"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			r := runCLI(t, "audit", "--json", path)
			if r.code != 1 {
				t.Errorf("exit %d, want 1", r.code)
			}
			var rep struct {
				Valid   bool   `json:"valid"`
				Problem string `json:"problem"`
				Blamed  int    `json:"blamed"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("stdout is not one JSON report: %v\n%v", err, r)
			}
			if rep.Valid || rep.Problem == "" || rep.Blamed != -1 {
				t.Errorf("report %+v: want valid false, a problem, nobody blamed", rep)
			}
			if !strings.Contains(r.stderr, rep.Problem) {
				t.Errorf("stderr does not say the problem %q\n%v", rep.Problem, r)
			}
		})
	}
}

// TestOutChecked: an --out that cannot be written is refused before the game, and the check
// leaves nothing behind (no empty file, no temporary file).
func TestOutChecked(t *testing.T) {
	dir := t.TempDir()
	loop := []string{"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--table", "t", "--players", "3"}
	for _, out := range []string{"/proc/version", filepath.Join(dir, "no", "such", "dir", "x.log"), dir} {
		t.Run(out, func(t *testing.T) {
			r := runCLI(t, append(append([]string{"bot"}, loop...), "--out", out)...)
			if r.code != 2 || !strings.Contains(r.stderr, "--out") {
				t.Errorf("exit %d, want 2 with an error naming --out\n%v", r.code, r)
			}
		})
	}
	path := filepath.Join(dir, "game.log")
	if err := checkOut(path); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("checking --out left %d files in its directory (%s...), want none", len(left), left[0].Name())
	}
}

// TestSaveLogLeavesNothing: a log that cannot be saved leaves no temporary file and does not
// touch what is at the path.
func TestSaveLogLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o700); err != nil { // a directory: rename fails
		t.Fatal(err)
	}
	store := newTestStore(t)
	if err := saveLog(target, store, "t"); err == nil {
		t.Fatal("saving over a non-empty directory succeeded")
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 || left[0].Name() != "out" {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("after a failed save the directory holds %v, want only out", names)
	}
}

// TestDataLocked: a second node on a data directory in use fails at once with a clear error,
// instead of running with the same peer id (logs blaming different seats) or racing on its
// files.
func TestDataLocked(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	data := t.TempDir()
	args := []string{"bot", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--table", "t", "--players", "3", "--data", data}
	first := start(ctx, t, "first", args...)
	defer first.kill(t)
	first.waitLine(t, listenLine, 20*time.Second)
	r := runCLI(t, args...)
	if r.code != 1 || !strings.Contains(r.stderr, "in use") || !strings.Contains(r.stderr, data) {
		t.Errorf("exit %d, want 1 with an error saying %s is in use\n%v", r.code, data, r)
	}
}

// newTestStore is a data directory with an empty log of table "t".
func newTestStore(t *testing.T) *protocol.Store {
	t.Helper()
	store, err := protocol.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.OpenLog("t"); err != nil {
		t.Fatal(err)
	}
	return store
}
