package protocol

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol/memnet"
)

// TestStoreLock: one process at a time uses a data directory; a second opener fails at once,
// naming the directory, until the first closes it.
func TestStoreLock(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(dir); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("a second OpenStore on a directory in use: %v, want ErrLocked naming %s", err, dir)
	}
	a.Close()
	b, err := OpenStore(dir)
	if err != nil {
		t.Fatalf("after Close the directory cannot be opened again: %v", err)
	}
	b.Close()
}

// TestWriteFileSyncConcurrent: two writers of one secret file never fail on each other's
// temporary file (they used to share "identity.tmp").
func TestWriteFileSyncConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "identity")
	errs := make(chan error, 16)
	for i := range 16 {
		go func() { errs <- writeFileSync(path, bytes.Repeat([]byte{byte(i)}, 32), 0o600) }()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Errorf("concurrent write: %v", err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestNewLogNewSeed: a node that starts a new log draws a new table seed, even when an old
// seed for a table of that name is on disk (a replayed genesis must not give the old secrets).
func TestNewLogNewSeed(t *testing.T) {
	dir := t.TempDir()
	old := bytes.Repeat([]byte{7}, 32)
	if err := os.MkdirAll(filepath.Join(dir, "tables", "t"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tables", "t", "seed"), old, 0o600); err != nil {
		t.Fatal(err)
	}
	n := storeTestNode(t, dir)
	if err := n.resume(); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(n.self.Seed[:], old) {
		t.Fatal("a node with no log of table t took the old seed of table t")
	}
	onDisk, err := n.cfg.Store.TableSeed("t")
	if err != nil || onDisk != n.self.Seed {
		t.Fatalf("the new seed is not the one on disk (%v)", err)
	}
}

// TestReplayedGenesisRefused: a node that sat at a table and lost its log never sits at that
// table again: it would derive that game's secrets again, and its old reveals published some.
func TestReplayedGenesisRefused(t *testing.T) {
	dir := t.TempDir()
	n := storeTestNode(t, dir)
	var notes []string
	n.cfg.Notef = func(f string, a ...any) { notes = append(notes, f) }
	if err := n.resume(); err != nil {
		t.Fatal(err)
	}
	if err := n.cfg.Store.OpenLog("t"); err != nil {
		t.Fatal(err)
	}
	g := &Genesis{Name: "t", Game: "corruption", Config: corruption.EncodeConfig(corruption.Standard, false), Timeout: 60e9}
	g.Roster = append(g.Roster, Member{Name: "me", Key: n.self.Public()})
	for i := range 2 {
		_, k, _ := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{byte(i + 1)}, 32)))
		g.Roster = append(g.Roster, Member{Name: "other", Key: k.Public().(ed25519.PublicKey)})
	}
	// The creator is seat 0: this node.
	genesis, err := NewGenesis(bytes.NewReader(make([]byte, 16)), n.cfg.Identity, g)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	n.adopt(ctx, genesis)
	if n.table == nil {
		t.Fatal("the node does not sit at a new table")
	}
	// The log is lost; the directory (identity, played) stays.
	n.cfg.Store.Close()
	if err := os.Remove(n.cfg.Store.LogPath("t")); err != nil {
		t.Fatal(err)
	}
	m := storeTestNode(t, dir)
	m.cfg.Notef = n.cfg.Notef
	if err := m.resume(); err != nil {
		t.Fatal(err)
	}
	if err := m.cfg.Store.OpenLog("t"); err != nil {
		t.Fatal(err)
	}
	m.adopt(ctx, genesis)
	if m.table != nil {
		t.Fatal("the node sat again at a table it had played, after losing its log")
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "sat at it before") {
		t.Errorf("the refusal is not said in words: %q", notes)
	}
}

func storeTestNode(t *testing.T, dir string) *Node {
	t.Helper()
	store, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	key, err := store.Identity()
	if err != nil {
		t.Fatal(err)
	}
	net := memnet.New(1, memnet.Faults{})
	t.Cleanup(net.Close)
	b, _ := bot.New("heuristic", 1)
	n, err := NewNode(NodeConfig{Table: "t", Game: "corruption", Config: corruption.EncodeConfig(corruption.Standard, false),
		Players: 3, Name: "me", Identity: key, Store: store, Player: bot.Player(b), Net: net.Node("me")})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLogReaderBounds: a log reader stops at its bounds with an error, whatever the file holds,
// instead of growing without end.
func TestLogReaderBounds(t *testing.T) {
	e := &Entry{Seq: 1, Kind: KindMove, Body: []byte{0, 0, 0, 1, 3, 0}}
	rec := AppendRecord(nil, e)
	var b bytes.Buffer
	b.WriteString(LogMagic)
	for range MaxLogEntries + 1 {
		b.Write(rec)
	}
	entries, err := ReadLog(&b)
	var le *LogError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("a log of %d records: %d entries and %v, want a LogError past %d", MaxLogEntries+1, len(entries), err, MaxLogEntries)
	}
	large := AppendRecord(nil, &Entry{Seq: 1, Kind: KindShuffle, Body: make([]byte, MaxBodySize)})
	big := bytes.NewReader(append([]byte(LogMagic), bytes.Repeat(large, MaxLogBytes/len(large)+1)...))
	if _, err := ReadLog(big); err == nil || !strings.Contains(err.Error(), "MiB") {
		t.Errorf("a log over %d MiB: %v, want an error saying so", MaxLogBytes>>20, err)
	}
}
