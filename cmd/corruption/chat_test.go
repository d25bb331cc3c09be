package main

import (
	"os"
	"path/filepath"
	"testing"

	"corruption/protocol"
)

// TestSaveChat: --out saves a table's chat file beside the log, byte for byte; a table where
// nobody spoke writes none, and removes the chat an earlier table left at that place, but not a
// file that is no chat.
func TestSaveChat(t *testing.T) {
	dir := t.TempDir()
	store, err := protocol.OpenStore(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	chat := []byte(protocol.ChatMagic + "records")
	if err := os.MkdirAll(filepath.Dir(store.ChatPath("spoke")), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store.ChatPath("spoke"), chat, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "a.log")
	if err := saveChat(out, store, "spoke"); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(out + ".chat"); err != nil || string(got) != string(chat) {
		t.Fatalf("saved chat %q (%v), want the node's %q", got, err, chat)
	}
	if err := saveChat(out, store, "silent"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out + ".chat"); !os.IsNotExist(err) {
		t.Errorf("a silent table left the earlier table's chat beside its log (%v)", err)
	}
	other := filepath.Join(dir, "b.log")
	if err := os.WriteFile(other+".chat", []byte("my notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := saveChat(other, store, "silent"); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(other + ".chat"); err != nil || string(got) != "my notes" {
		t.Errorf("a file that is no chat was changed: %q (%v)", got, err)
	}
}
