// Package backendtest checks that a protocol.Backend keeps protocol.Backend's promises, and
// that a protocol.Store works on it. The disk's backend (protocol's tests) and the browser's
// (protocol/browserstore's, under Node) run the same checks.
package backendtest

import (
	"bytes"
	"errors"
	"io/fs"
	"slices"
	"testing"

	"corruption/protocol"
)

// Run checks the backends that open returns: each call opens the same storage anew, as
// another process (or tab) would.
func Run(t *testing.T, open func() protocol.Backend) {
	b := open()
	if err := b.Lock(); err != nil {
		t.Fatalf("Lock: %v", err)
	}
	defer b.Unlock()
	t.Run("files", func(t *testing.T) { files(t, b) })
	t.Run("append", func(t *testing.T) { appends(t, b) })
	t.Run("names", func(t *testing.T) { names(t, b) })
	t.Run("lock", func(t *testing.T) {
		o := open()
		err := o.Lock()
		if !errors.Is(err, protocol.ErrLocked) {
			o.Unlock()
			t.Fatalf("a second Lock while the first holds: %v, want ErrLocked", err)
		}
		b.Unlock()
		if err := o.Lock(); err != nil {
			t.Fatalf("Lock once the first released it: %v", err)
		}
		o.Unlock()
		if err := b.Lock(); err != nil {
			t.Fatalf("Lock again: %v", err)
		}
	})
}

func read(t *testing.T, b protocol.Backend, name string, want []byte) {
	t.Helper()
	got, err := b.ReadFile(name)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadFile(%q) = %q, %v; want %q", name, got, err, want)
	}
}

func missing(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s: %v, want fs.ErrNotExist", what, err)
	}
}

func files(t *testing.T, b protocol.Backend) {
	_, err := b.ReadFile("f/none")
	missing(t, "ReadFile of a missing file", err)
	if err := b.WriteFile("f/a/one", []byte("first")); err != nil {
		t.Fatal(err)
	}
	read(t, b, "f/a/one", []byte("first"))
	if err := b.WriteFile("f/a/one", []byte("2nd")); err != nil {
		t.Fatal(err)
	}
	read(t, b, "f/a/one", []byte("2nd"))
	if err := b.WriteFile("f/a/two", nil); err != nil {
		t.Fatal(err)
	}
	read(t, b, "f/a/two", []byte{})
	if err := b.WriteFile("f/b", []byte("b")); err != nil {
		t.Fatal(err)
	}
	if got, err := b.List("f"); err != nil || !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("List(f) = %q, %v; want [a b]", got, err)
	}
	if got, err := b.List("f/a"); err != nil || !slices.Equal(got, []string{"one", "two"}) {
		t.Fatalf("List(f/a) = %q, %v; want [one two]", got, err)
	}
	if got, err := b.List("nowhere"); err != nil || len(got) != 0 {
		t.Fatalf("List(nowhere) = %q, %v; want nothing", got, err)
	}
	if got, err := b.List(""); err != nil || !slices.Contains(got, "f") {
		t.Fatalf("List of the root = %q, %v; want f in it", got, err)
	}
	if err := b.Rename("f/a/one", "f/a/two"); err != nil {
		t.Fatal(err)
	}
	read(t, b, "f/a/two", []byte("2nd"))
	_, err = b.ReadFile("f/a/one")
	missing(t, "ReadFile after Rename", err)
	missing(t, "Rename of a missing file", b.Rename("f/a/one", "f/a/three"))
	if err := b.Rename("f/a/two", "f/c/moved"); err != nil {
		t.Fatalf("Rename into a new folder: %v", err)
	}
	read(t, b, "f/c/moved", []byte("2nd"))
	if err := b.Remove("f/c/moved"); err != nil {
		t.Fatal(err)
	}
	missing(t, "Remove of a removed file", b.Remove("f/c/moved"))
	_, err = b.ReadFile("f/c/moved")
	missing(t, "ReadFile after Remove", err)
}

func appends(t *testing.T, b protocol.Backend) {
	a, err := b.OpenAppend("g/log")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := a.Size(); err != nil || n != 0 {
		t.Fatalf("Size of a new file = %d, %v", n, err)
	}
	if err := a.Append([]byte("abc"), false); err != nil {
		t.Fatal(err)
	}
	if err := a.Append([]byte("de"), true); err != nil {
		t.Fatal(err)
	}
	if n, err := a.Size(); err != nil || n != 5 {
		t.Fatalf("Size after 5 bytes = %d, %v", n, err)
	}
	a.Close()
	read(t, b, "g/log", []byte("abcde"))
	a, err = b.OpenAppend("g/log")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := a.Size(); err != nil || n != 5 {
		t.Fatalf("Size reopened = %d, %v", n, err)
	}
	if err := a.Append([]byte("f"), true); err != nil {
		t.Fatal(err)
	}
	a.Close()
	read(t, b, "g/log", []byte("abcdef"))
	if err := b.WriteFile("g/log", []byte("x")); err != nil {
		t.Fatal(err)
	}
	a, err = b.OpenAppend("g/log")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append([]byte("y"), true); err != nil {
		t.Fatal(err)
	}
	a.Close()
	read(t, b, "g/log", []byte("xy"))
}

func names(t *testing.T, b protocol.Backend) {
	for _, bad := range []string{"", "../x", "a/../b", "a//b", "/abs", "a/", ".", `a\b`, "a\x00b"} {
		if err := b.WriteFile(bad, []byte("x")); err == nil {
			t.Errorf("WriteFile(%q) succeeded", bad)
		}
		if _, err := b.ReadFile(bad); err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%q) = %v, want a bad name", bad, err)
		}
	}
}

// Store checks a protocol.Store on the backends open returns: an identity that stays, a
// table's seed and log kept and read back after a reopen, and an archived log.
func Store(t *testing.T, open func() protocol.Backend) {
	s, err := protocol.NewStore(open())
	if err != nil {
		t.Fatal(err)
	}
	id1, err := s.Identity()
	if err != nil {
		t.Fatal(err)
	}
	seed, err := s.NewTableSeed("t1")
	if err != nil {
		t.Fatal(err)
	}
	var tid [32]byte
	tid[0] = 7
	if err := s.MarkPlayed(tid); err != nil {
		t.Fatal(err)
	}
	if err := s.OpenLog("t1"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = protocol.NewStore(open())
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	id2, err := s.Identity()
	if err != nil || !id1.Equal(id2) {
		t.Fatalf("the identity changed on reopen (%v)", err)
	}
	if got, err := s.TableSeed("t1"); err != nil || got != seed {
		t.Fatalf("TableSeed after reopen: %v, changed %v", err, got != seed)
	}
	if played, err := s.Played(tid); err != nil || !played {
		t.Fatalf("Played after reopen = %v, %v", played, err)
	}
	if entries, err := s.LoadLog("t1"); err != nil || len(entries) != 0 {
		t.Fatalf("LoadLog of an empty log = %d entries, %v", len(entries), err)
	}
	if _, err := s.TableSeed("t2"); err == nil {
		t.Fatal("TableSeed of a table with no seed succeeded")
	}
	if _, err := s.ArchiveLog("t1", tid, "finished"); err != nil {
		t.Fatal(err)
	}
	if b, err := s.ReadTableFile("t1", "0700000000000000.finished.log"); err != nil || string(b) != protocol.LogMagic {
		t.Fatalf("the archived log: %q, %v", b, err)
	}
	s.Close() // as a node's run ends
	if err := s.WipeSecrets("t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TableSeed("t1"); err == nil {
		t.Fatal("the table's seed is still there after WipeSecrets")
	}
	if _, err := s.ReadTableFile("t1", "0700000000000000.finished.log"); err != nil {
		t.Fatalf("WipeSecrets took the log: %v", err)
	}
}
