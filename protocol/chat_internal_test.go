package protocol

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestChatConflict: a speaker that signs two messages with one counter has both kept by every
// node, whichever it hears first, the later marked Conflict (it said two things under one
// number), rather than each node keeping the first it heard; the same message heard again is
// kept once; a chat file read back marks the same conflict (MarkChatConflicts).
func TestChatConflict(t *testing.T) {
	var keys []ed25519.PrivateKey
	g := &Genesis{Name: "t", Game: "corruption", Timeout: time.Minute}
	for i := range 3 {
		seed := make([]byte, 32)
		seed[0] = byte(i + 1)
		keys = append(keys, ed25519.NewKeyFromSeed(seed))
		g.Roster = append(g.Roster, Member{Name: "ann", Key: keys[i].Public().(ed25519.PublicKey)})
	}
	id := g.ID()
	now := time.UnixMilli(1700000000000)
	a := signChat(keys[1], id, 1, 5, now, "I pay you 100 if you vote yes")
	b := signChat(keys[1], id, 1, 5, now, "I pay you 1 if you vote yes")
	other := signChat(keys[2], id, 2, 5, now, "no deal")
	dir := t.TempDir()
	bk, err := NewDirBackend(dir)
	if err != nil {
		t.Fatal(err)
	}
	room := func(name string) *chatRoom {
		return &chatRoom{open: true, g: g, id: id, path: filepath.Join(dir, name), store: bk, file: name, seen: map[[2]uint64][]int{}, counts: map[int]int{}}
	}
	for _, order := range [][]*ChatMessage{{a, other, b}, {b, other, a}} {
		c := room(order[0].Text)
		for i, m := range order {
			cp := *m
			fresh, err := c.add(&cp)
			if err != nil || !fresh {
				t.Fatalf("message %d (%q): fresh %v, %v", i, m.Text, fresh, err)
			}
			if want := i == 2; cp.Conflict != want {
				t.Errorf("message %d (%q): conflict %v, want %v", i, m.Text, cp.Conflict, want)
			}
		}
		again := *order[0]
		if fresh, err := c.add(&again); fresh || err != nil {
			t.Errorf("the first message heard again: fresh %v, %v", fresh, err)
		}
		if len(c.kept) != 3 {
			t.Fatalf("the room keeps %d messages, want 3", len(c.kept))
		}
		f, err := os.Open(c.path)
		if err != nil {
			t.Fatal(err)
		}
		file, err := ReadChat(f)
		f.Close()
		if err != nil || len(file) != 3 {
			t.Fatalf("the chat file reads %d messages, %v", len(file), err)
		}
		if n := MarkChatConflicts(file); n != 1 || file[0].Conflict || file[1].Conflict || !file[2].Conflict {
			t.Errorf("the file read back: %d conflicts, marks %v %v %v; want 1, on the third", n, file[0].Conflict, file[1].Conflict, file[2].Conflict)
		}
	}
}
