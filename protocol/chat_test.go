package protocol_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// chatBytes is an independent encoding of a chat message (chat.go's layout): the bytes signed
// (with the domain) and the message (with the kind byte and the signature).
func chatBytes(key ed25519.PrivateKey, table [32]byte, member int, counter uint64, ms int64, text string) (msg []byte) {
	var b []byte
	b = append(b, table[:]...)
	b = append(b, byte(member))
	b = binary.BigEndian.AppendUint64(b, counter)
	b = binary.BigEndian.AppendUint64(b, uint64(ms))
	b = binary.BigEndian.AppendUint32(b, uint32(len(text)))
	b = append(b, text...)
	sig := ed25519.Sign(key, append([]byte("corruption/chat/v1\x00"), b...))
	return append(append([]byte{'c'}, b...), sig...)
}

// chatGenesis is a genesis of a 3-seat Corruptia table, with its keys.
func chatGenesis(t *testing.T) (*protocol.Genesis, []ed25519.PrivateKey) {
	w := newWorld(t, corruptiaWorld("chat", "", 3), "")
	g, err := protocol.ParseGenesis(w.genesis.Body)
	if err != nil {
		t.Fatal(err)
	}
	return g, w.keys
}

// TestChatMessage: a message decodes to what was signed, re-encodes to the same bytes, and
// verifies against its table's roster only; every change to it, another table or another key
// fails, and a text that is not one line of UTF-8 within the bound does not decode.
func TestChatMessage(t *testing.T) {
	g, keys := chatGenesis(t)
	id := g.ID()
	good := chatBytes(keys[1], id, 1, 7, 1700000000123, "I vote yes if you offer an employee")
	m, err := protocol.ParseChat(good)
	if err != nil {
		t.Fatal(err)
	}
	if m.Member != 1 || m.Counter != 7 || m.Time.UnixMilli() != 1700000000123 || m.Text != "I vote yes if you offer an employee" {
		t.Fatalf("decoded %+v", m)
	}
	if !bytes.Equal(m.Marshal(), good) || !protocol.Check(good) {
		t.Fatal("the message does not re-encode to its bytes, or Check refuses it")
	}
	if err := m.Verify(g); err != nil || m.Name != g.Roster[1].Name {
		t.Fatalf("verify: %v (name %q)", err, m.Name)
	}
	other := *g
	other.Nonce[0] ^= 1
	bad := map[string][]byte{
		"another member's key": chatBytes(keys[2], id, 1, 7, 1700000000123, "I vote yes"),
		"a member not seated":  chatBytes(keys[1], id, 3, 7, 1700000000123, "I vote yes"),
		"another table":        chatBytes(keys[1], other.ID(), 1, 7, 1700000000123, "I vote yes"),
	}
	for i := 1; i < len(good)-1; i++ {
		if i <= 32+1+8+8+4 || i >= len(good)-64 { // every header byte and every signature byte
			b := bytes.Clone(good)
			b[i] ^= 0x01
			if i > 32+1+8+8 && i <= 32+1+8+8+4 {
				continue // the text's length: it no longer decodes (below)
			}
			bad[fmt.Sprintf("byte %d changed", i)] = b
		}
	}
	changedText := bytes.Clone(good)
	changedText[len(good)-64-1] = 'X'
	bad["a letter of the text changed"] = changedText
	for what, b := range bad {
		m, err := protocol.ParseChat(b)
		if err == nil {
			err = m.Verify(g)
		}
		if err == nil {
			t.Errorf("%s: the message verifies", what)
		}
	}
	for what, b := range map[string][]byte{
		"empty":               chatBytes(keys[0], id, 0, 1, 0, ""),
		"a newline":           chatBytes(keys[0], id, 0, 1, 0, "yes\nno"),
		"an escape sequence":  chatBytes(keys[0], id, 0, 1, 0, "\x1b[2J"),
		"not UTF-8":           chatBytes(keys[0], id, 0, 1, 0, "\xff\xfe"),
		"too long":            chatBytes(keys[0], id, 0, 1, 0, strings.Repeat("a", protocol.MaxChatText+1)),
		"counter 0":           chatBytes(keys[0], id, 0, 0, 0, "hello"),
		"trailing bytes":      append(bytes.Clone(good), 0),
		"cut short":           good[:len(good)-1],
		"another kind":        append([]byte{'e'}, good[1:]...),
		"length past the end": func() []byte { b := bytes.Clone(good); b[1+32+1+8+8] = 0xff; return b }(),
	} {
		if _, err := protocol.ParseChat(b); err == nil {
			t.Errorf("%s: ParseChat accepts it", what)
		}
		if b[0] == 'c' && protocol.Check(b) {
			t.Errorf("%s: Check accepts it", what)
		}
	}
	if _, err := protocol.ParseChat(chatBytes(keys[0], id, 0, 1, 0, strings.Repeat("é", protocol.MaxChatText/2))); err != nil {
		t.Errorf("a message of %d bytes: %v", protocol.MaxChatText, err)
	}
}

// chatNet is a table of Corruptia bots whose players each say a line at their first decision.
type chatNet struct {
	mu    sync.Mutex
	nodes []*protocol.Node
	heard [][]protocol.ChatMessage // by node, in the order OnChat was told
	said  []error                  // by node: Say's error
}

// talker says its line on its first decision, then plays as p.
type talker struct {
	p    engine.Player
	c    *chatNet
	i    int
	once *sync.Once
}

func (t talker) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	t.once.Do(func() {
		t.c.mu.Lock()
		node := t.c.nodes[t.i]
		t.c.mu.Unlock()
		_, err := node.Say(ctx, fmt.Sprintf("node %d: I vote yes if you offer an employee", t.i))
		t.c.mu.Lock()
		t.c.said[t.i] = err
		t.c.mu.Unlock()
	})
	return t.p.Decide(ctx, g, seat)
}

// playChat plays a table of n Corruptia heuristic bots that talk, on net, with the nodes' data
// in base; each node's Say is tried before Run (it must fail: no table yet).
func playChat(t *testing.T, net *memnet.Net, n int, base string) (*chatNet, []nodeRun) {
	c := &chatNet{nodes: make([]*protocol.Node, n), heard: make([][]protocol.ChatMessage, n), said: make([]error, n)}
	spec := corruptiaSpec(n, "heuristic", 3)
	bots := spec.player
	spec.player = func(i int) engine.Player { return talker{bots(i), c, i, &sync.Once{}} }
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	runs := make([]nodeRun, n)
	var wg sync.WaitGroup
	for i := range n {
		dir := filepath.Join(base, fmt.Sprint(i))
		store, err := protocol.OpenStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		key, err := store.Identity()
		if err != nil {
			t.Fatal(err)
		}
		node, err := protocol.NewNode(protocol.NodeConfig{Table: "t", Game: spec.game, Config: spec.config, Players: n,
			Name: fmt.Sprintf("n%d", i), Timeout: 20 * time.Second, Identity: key, Store: store, Player: spec.player(i),
			Net: net.Node(fmt.Sprintf("n%d", i)), Tick: 20 * time.Millisecond, Linger: 2 * time.Second,
			OnChat: func(m protocol.ChatMessage) {
				c.mu.Lock()
				c.heard[i] = append(c.heard[i], m)
				c.mu.Unlock()
			}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := node.Say(ctx, "too early"); !errors.Is(err, protocol.ErrNoTable) {
			t.Errorf("node %d says something before its table forms: %v", i, err)
		}
		c.nodes[i] = node
		runs[i].dir = dir
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i].out, runs[i].err = node.Run(ctx)
		}()
	}
	wg.Wait()
	return c, runs
}

// TestChatTable: at a Corruptia table over a network that duplicates and reorders, every
// player says a line; every node tells each line once (its own included), keeps them in its
// chat file, which reads back signed by the speakers, and the log is as if nobody had spoken.
func TestChatTable(t *testing.T) {
	t.Parallel()
	const n = 3
	net := memnet.New(5, memnet.Faults{Duplicate: 0.3, Reorder: 0.2, MaxDelay: time.Millisecond})
	defer net.Close()
	c, runs := playChat(t, net, n, t.TempDir())
	checkSame(t, runs)
	g, err := protocol.ParseGenesis(readLog(t, runs[0].dir)[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if c.said[i] != nil {
			t.Fatalf("node %d cannot say its line: %v", i, c.said[i])
		}
		texts := map[string]int{}
		for _, m := range c.heard[i] {
			texts[fmt.Sprintf("%s: %s", m.Name, m.Text)]++
		}
		kept := c.nodes[i].Chat()
		if len(c.heard[i]) != n || len(texts) != n || len(kept) != n {
			t.Fatalf("node %d was told %d messages (%d distinct) and keeps %d, want %d: %v", i, len(c.heard[i]), len(texts), len(kept), n, texts)
		}
		for j := range n {
			if texts[fmt.Sprintf("n%d: node %d: I vote yes if you offer an employee", j, j)] != 1 {
				t.Errorf("node %d did not hear node %d's line once: %v", i, j, texts)
			}
		}
		f, err := os.Open(filepath.Join(runs[i].dir, "tables", "t", "chat"))
		if err != nil {
			t.Fatal(err)
		}
		file, err := protocol.ReadChat(f)
		f.Close()
		if err != nil || len(file) != n {
			t.Fatalf("node %d's chat file: %d messages, %v", i, len(file), err)
		}
		for _, m := range file {
			if err := m.Verify(g); err != nil {
				t.Errorf("node %d's chat file: %v", i, err)
			}
		}
	}
}

// TestChatResume: a node's chat opens again from its file (a node started again at its table,
// still in play): its messages are kept, its counter goes on from its last, and a file cut in
// the middle of a record is repaired before the next message.
func TestChatResume(t *testing.T) {
	t.Parallel()
	net := memnet.New(6, memnet.Faults{})
	defer net.Close()
	c, runs := playChat(t, net, 2, t.TempDir())
	checkSame(t, runs)
	path := filepath.Join(runs[0].dir, "tables", "t", "chat")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, 0, 0, 1), 0o600); err != nil { // a record cut short
		t.Fatal(err)
	}
	if _, err := protocol.ReadChat(bytes.NewReader(append(b, 0, 0, 1))); !errors.Is(err, protocol.ErrTruncated) {
		t.Fatalf("a chat file cut short reads with %v", err)
	}
	before := c.nodes[0].Chat() // read before the damage
	if len(before) != 2 {
		t.Fatalf("node 0 keeps %d messages", len(before))
	}
	// The log loses its last sign-off, so that the table is still in play (a finished table's
	// log is archived at the next start, and the node sits at a new table).
	log := readLog(t, runs[0].dir)
	var lb bytes.Buffer
	if err := protocol.WriteLog(&lb, log[:len(log)-1]); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runs[0].dir, "tables", "t", "log"), lb.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	// A fresh node of the same seat, resumed from the same data directory, reads the chat back.
	again, err := protocol.OpenStore(runs[0].dir)
	if err != nil {
		t.Fatal(err)
	}
	key, err := again.Identity()
	if err != nil {
		t.Fatal(err)
	}
	resumed := make(chan protocol.Status, 1)
	spec := corruptiaSpec(2, "heuristic", 3)
	node, err := protocol.NewNode(protocol.NodeConfig{Table: "t", Game: spec.game, Config: spec.config, Players: 2, Name: "n0",
		Identity: key, Store: again, Player: spec.player(0), Net: net.Node("n0-again"), Tick: 20 * time.Millisecond, Linger: time.Millisecond,
		OnChange: func(st protocol.Status) {
			select {
			case resumed <- st:
			default:
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ran := make(chan error, 1)
	go func() { _, err := node.Run(ctx); ran <- err }()
	select {
	case st := <-resumed:
		if st.Entries != len(log)-1 {
			t.Fatalf("the node resumed with %d entries, its log holds %d", st.Entries, len(log)-1)
		}
	case <-ctx.Done():
		t.Fatal("the node never resumed")
	}
	if got := node.Chat(); len(got) != 2 || got[0].Text != before[0].Text || got[1].Text != before[1].Text {
		t.Fatalf("the resumed node keeps %v, want %v", got, before)
	}
	m, err := node.Say(ctx, "one more thing")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-ran
	var mine uint64
	for _, k := range before {
		if k.Member == m.Member {
			mine = max(mine, k.Counter)
		}
	}
	if m.Counter != mine+1 {
		t.Errorf("the resumed node's next message is number %d, want %d", m.Counter, mine+1)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := protocol.ReadChat(f)
	if err != nil || len(file) != 3 || file[2].Text != "one more thing" {
		t.Fatalf("the repaired chat file reads %d messages, %v", len(file), err)
	}
}

// FuzzParseChat: whatever ParseChat accepts encodes back to the same bytes.
func FuzzParseChat(f *testing.F) {
	var id [32]byte
	key := ed25519.NewKeyFromSeed(make([]byte, 32))
	f.Add(chatBytes(key, id, 0, 1, 0, "hello"))
	f.Add(chatBytes(key, id, 4, 1<<40, -5, "¿vota sí?"))
	f.Add([]byte{'c'})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := protocol.ParseChat(b)
		if err != nil {
			return
		}
		if !bytes.Equal(m.Marshal(), b) {
			t.Fatalf("ParseChat(%x) re-encodes to %x", b, m.Marshal())
		}
		if !protocol.Check(b) {
			t.Fatal("Check refuses a message ParseChat accepts")
		}
	})
}

// TestChatBidi: at a table of version 3 a chat text with a bidi control or a line separator
// is refused (by Say's check and by Verify: "I pay you \u202e001\u202c" would show as "I pay
// you 100"), while it still decodes (the message's form is every version's); at a table of
// version 2 the same message verifies, so that a version-2 chat file still audits.
func TestChatBidi(t *testing.T) {
	g, keys := chatGenesis(t)
	old := *g
	old.Version = 2
	for _, r := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x2028, 0x2029} {
		text := "I pay you " + string(r) + "001"
		if err := protocol.CheckChatText(text); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U", r)) {
			t.Errorf("%U: CheckChatText says %v", r, err)
		}
		m, err := protocol.ParseChat(chatBytes(keys[1], g.ID(), 1, 1, 0, text))
		if err != nil {
			t.Fatalf("%U: the message does not decode: %v", r, err)
		}
		if err := m.Verify(g); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%U", r)) {
			t.Errorf("%U: verified at a table of version 3: %v", r, err)
		}
		if err := m.Verify(&old); err != nil {
			t.Errorf("%U: at a table of version 2: %v", r, err)
		}
	}
	for _, text := range []string{"👩\u200d💻 deal?", "می\u200cخواهم", "שלום, I vote yes", "<img src=x onerror=alert(1)>"} {
		m, err := protocol.ParseChat(chatBytes(keys[1], g.ID(), 1, 1, 0, text))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Verify(g); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}
