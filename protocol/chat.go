package protocol

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"corruption/protocol/internal/wire"
)

// The table's chat: what the players say to each other, beside the log and outside it. A chat
// message is signed by its speaker's identity key and gossiped on the table's channel; every
// node checks it against the table's roster, keeps it once, and appends it to a file beside
// the table's log, so that a player can later show what another promised (the signature proves
// who said it, at which table). Nothing said there binds anyone: the log stays linear, one
// writer at a time, and the game never reads the chat.
//
// What it promises: a message a node keeps was signed by the identity key of the roster member
// it names, for this table, and (at a table of version 3 or later) its text holds no control
// character, bidi control or line separator (CheckChatText); the node keeps each message once,
// whatever the network duplicates or reorders, and never more than maxChatPerMember messages of
// one member nor maxChatRecords in all; a message a node missed (it was offline) is not fetched
// again. A member that signs two different messages with one counter has both kept, the later
// marked Conflict: it said two things under one number, and every node that hears both shows
// it, rather than each keeping whichever came first. The speaker is named by its place in the
// genesis roster, which the genesis alone gives (the game's seats are drawn later).

// msgChat is a chat message on a table's broadcast channel.
const msgChat byte = 'c'

// Bounds on the chat.
const (
	MaxChatText      = 500  // bytes of text in one message
	maxChatPerMember = 1000 // messages kept of one member
	maxChatRecords   = 8192 // messages kept in all (and records read from a chat file)
)

const chatDomain = "corruption/chat/v1\x00"

// ChatMagic opens every chat file.
const ChatMagic = "corruption chat v1\n"

// ChatMessage is one message of a table's chat.
type ChatMessage struct {
	Table   [32]byte
	Member  int       // the speaker's place in the genesis roster
	Counter uint64    // the speaker's count of its messages at this table, from 1
	Time    time.Time // when the speaker says it spoke (milliseconds)
	Text    string    // one line, at most MaxChatText bytes
	Sig     [ed25519.SignatureSize]byte
	// Name is the speaker's name in the roster, filled in by Verify (not part of the message).
	Name string
	// Conflict, filled in as the message is kept (not part of the message): the speaker had
	// signed another message with the same counter, kept before this one. Both are kept.
	Conflict bool
}

func (m *ChatMessage) unsigned() []byte {
	w := wire.Writer{B: []byte(chatDomain)}
	w.Fixed(m.Table[:])
	w.U8(uint8(m.Member))
	w.U64(m.Counter)
	w.U64(uint64(m.Time.UnixMilli()))
	w.Str(m.Text)
	return w.B
}

// Marshal is the message as it is broadcast and kept: 'c' ‖ table ‖ u8 member ‖ u64 counter ‖
// u64 unix milliseconds ‖ bytes(text) ‖ signature over the domain and those fields.
func (m *ChatMessage) Marshal() []byte {
	b := append([]byte{msgChat}, m.unsigned()[len(chatDomain):]...)
	return append(b, m.Sig[:]...)
}

// ParseChat decodes a chat message (with its kind byte) and checks its form: a counter from 1
// and a text of any version (checkChatForm). Its signature, and its text by the rules of its
// table's version, are checked against the table's genesis by Verify.
func ParseChat(msg []byte) (*ChatMessage, error) {
	if len(msg) < 1 || msg[0] != msgChat {
		return nil, errors.New("not a chat message")
	}
	r := wire.Reader{B: msg[1:]}
	m := &ChatMessage{}
	r.Fixed(m.Table[:])
	m.Member = int(r.U8())
	m.Counter = r.U64()
	m.Time = time.UnixMilli(int64(r.U64()))
	m.Text = r.Str(MaxChatText, "chat text")
	r.Fixed(m.Sig[:])
	if err := r.Done("chat message"); err != nil {
		return nil, err
	}
	if m.Counter == 0 {
		return nil, errors.New("chat message: counter 0 (counters start at 1)")
	}
	if err := checkChatForm(m.Text); err != nil {
		return nil, fmt.Errorf("chat message: %w", err)
	}
	return m, nil
}

// CheckChatText says what is wrong with a chat message's text by the rules of this version
// (3), or nil: one line of 1 to MaxChatText bytes of UTF-8, with no control character, no bidi
// control (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C: "I pay you ‮001‬" would show
// as "I pay you 100") and no line or paragraph separator (U+2028, U+2029).
func CheckChatText(text string) error {
	if err := checkChatForm(text); err != nil {
		return err
	}
	for _, r := range text {
		switch {
		case isBidiControl(r):
			return fmt.Errorf("the message holds a bidi control (%U), which would reorder the text around it on screen", r)
		case r == 0x2028 || r == 0x2029:
			return fmt.Errorf("the message holds a line or paragraph separator (%U): one line of text only", r)
		}
	}
	return nil
}

// checkChatForm is what every version asks of a chat message's text (version 2's rule): one
// line of 1 to MaxChatText bytes of UTF-8, with no control character.
func checkChatForm(text string) error {
	switch {
	case text == "":
		return errors.New("the message is empty")
	case len(text) > MaxChatText:
		return fmt.Errorf("the message is %d bytes, more than %d", len(text), MaxChatText)
	case !utf8.ValidString(text):
		return errors.New("the message is not UTF-8")
	}
	for _, r := range text {
		if unicode.IsControl(r) {
			return fmt.Errorf("the message holds a control character (%U): one line of text only", r)
		}
	}
	return nil
}

// Verify checks that m was said at the table of g by the roster member it names, with a text
// the rules of g's version accept (CheckChatText from version 3 on), and fills in its Name.
func (m *ChatMessage) Verify(g *Genesis) error {
	if m.Table != g.ID() {
		return fmt.Errorf("chat message %d of member %d belongs to another table", m.Counter, m.Member)
	}
	if m.Member >= len(g.Roster) {
		return fmt.Errorf("chat message %d: member %d is not in the roster of %d", m.Counter, m.Member, len(g.Roster))
	}
	if g.version() >= 3 {
		if err := CheckChatText(m.Text); err != nil {
			return fmt.Errorf("chat message %d of member %d: %w", m.Counter, m.Member, err)
		}
	}
	if !ed25519.Verify(g.Roster[m.Member].Key, m.unsigned(), m.Sig[:]) {
		return fmt.Errorf("chat message %d of member %d (%q): bad signature", m.Counter, m.Member, g.Roster[m.Member].Name)
	}
	m.Name = g.Roster[m.Member].Name
	return nil
}

// signChat makes member's message number counter of the table of id, signed with key.
func signChat(key ed25519.PrivateKey, id [32]byte, member int, counter uint64, now time.Time, text string) *ChatMessage {
	m := &ChatMessage{Table: id, Member: member, Counter: counter, Time: time.UnixMilli(now.UnixMilli()), Text: text}
	copy(m.Sig[:], ed25519.Sign(key, m.unsigned()))
	return m
}

// The chat file, DIR/tables/NAME/chat: the magic line, then one record per message kept (the
// message as Marshal encodes it), framed as the log's records are.

// ChatPath is the path of a table's chat file.
func (s *Store) ChatPath(name string) string { return s.b.Path("tables/" + name + "/chat") }

// ReadChat reads a chat file's messages in the order they were kept. A record cut short (a
// crash while writing) is an error wrapping ErrTruncated, a damaged one another error: either
// comes with the messages before it. The messages are not verified: Verify each against the
// table's genesis.
func ReadChat(r io.Reader) ([]*ChatMessage, error) {
	br := bufio.NewReader(io.LimitReader(r, maxChatRecords*(MaxChatText+256)+int64(len(ChatMagic))))
	magic := make([]byte, len(ChatMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != ChatMagic {
		return nil, errors.New("not a chat file (bad magic line)")
	}
	var out []*ChatMessage
	for rec := 1; ; rec++ {
		var hdr [4]byte
		if _, err := io.ReadFull(br, hdr[:]); err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, fmt.Errorf("chat file, record %d: %w", rec, ErrTruncated)
		}
		size := binary.BigEndian.Uint32(hdr[:])
		if size > MaxChatText+256 {
			return out, fmt.Errorf("chat file, record %d: %d bytes is more than a message can be", rec, size)
		}
		buf := make([]byte, size+4)
		if _, err := io.ReadFull(br, buf); err != nil {
			return out, fmt.Errorf("chat file, record %d: %w", rec, ErrTruncated)
		}
		if crc32.Checksum(buf[:size], wire.CRC) != binary.BigEndian.Uint32(buf[size:]) {
			return out, fmt.Errorf("chat file, record %d: checksum mismatch", rec)
		}
		m, err := ParseChat(buf[:size])
		if err != nil {
			return out, fmt.Errorf("chat file, record %d: %w", rec, err)
		}
		if len(out) == maxChatRecords {
			return out, fmt.Errorf("chat file: more than %d messages", maxChatRecords)
		}
		out = append(out, m)
	}
}

// chatRoom is a node's chat at its table: the messages it keeps, and the file they go to. It
// opens once the table has formed. Its methods are safe for concurrent use: the node's loop
// hears messages, the front end says them.
type chatRoom struct {
	mu     sync.Mutex
	open   bool
	g      *Genesis
	id     [32]byte
	me     int    // this node's place in the roster
	next   uint64 // this node's next counter
	path   string // the file, for people
	file   string // the file, in the store
	store  Backend
	kept   []ChatMessage
	seen   map[[2]uint64][]int // (member, counter): where its messages are in kept
	counts map[int]int         // messages kept, by member
}

// ErrNoTable: the table has not formed yet, so there is no chat to speak in.
var ErrNoTable = errors.New("the table has not formed yet")

// room is the node's chat, opened (and its file read back) on first use once the table has
// formed.
func (n *Node) room() (*chatRoom, error) {
	n.mu.Lock()
	var genesis *Entry
	if len(n.shared) > 0 {
		genesis = n.shared[0]
	}
	n.mu.Unlock()
	c := &n.chat
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open {
		return c, nil
	}
	if genesis == nil {
		return nil, ErrNoTable
	}
	g, err := GenesisOf(genesis)
	if err != nil {
		return nil, err
	}
	c.g, c.id, c.me, c.next = g, genesis.Table, g.SeatOf(n.self.Public()), 1
	dir, err := n.cfg.Store.tableDir(n.cfg.Table)
	if err != nil {
		return nil, err
	}
	c.store, c.file, c.path = n.cfg.Store.b, dir+"/chat", n.cfg.Store.ChatPath(n.cfg.Table)
	c.seen, c.counts = map[[2]uint64][]int{}, map[int]int{}
	f, err := c.store.ReadFile(c.file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		old, rerr := ReadChat(bytes.NewReader(f))
		for _, m := range old {
			if m.Verify(g) == nil && c.keep(m) && m.Member == c.me {
				c.next = max(c.next, m.Counter+1)
			}
		}
		if rerr != nil {
			// Rewrite the file with what it held before the damage, so that the next
			// messages follow whole records.
			n.cfg.Logf("%s: %v (keeping the %d messages before)", c.path, rerr, len(c.kept))
			b := []byte(ChatMagic)
			for i := range c.kept {
				b = wire.AppendRecord(b, c.kept[i].Marshal())
			}
			if err := c.store.WriteFile(c.file, b); err != nil {
				return nil, fmt.Errorf("cannot repair the chat file: %w", err)
			}
		}
	}
	c.open = true
	return c, nil
}

// keep takes a verified message if it is new and within the bounds. A message with the
// counter of one kept before but other words is new: it is kept too, marked Conflict.
func (c *chatRoom) keep(m *ChatMessage) bool {
	k := [2]uint64{uint64(m.Member), m.Counter}
	m.Conflict = false
	for _, i := range c.seen[k] {
		if sameWords(&c.kept[i], m) {
			return false
		}
		m.Conflict = true
	}
	if c.counts[m.Member] >= maxChatPerMember || len(c.kept) >= maxChatRecords {
		return false
	}
	c.seen[k] = append(c.seen[k], len(c.kept))
	c.counts[m.Member]++
	c.kept = append(c.kept, *m)
	return true
}

// sameWords reports whether two messages of one member and counter say the same thing at the
// same time (their signatures may differ: a signer may sign one message twice).
func sameWords(a, b *ChatMessage) bool { return a.Time.Equal(b.Time) && a.Text == b.Text }

// MarkChatConflicts marks, in msgs as a chat file holds them (in the order they were kept),
// every message whose member had signed another message with the same counter before it
// (Conflict), as the node that kept them did, and returns how many (member, counter) pairs
// carry two messages or more.
func MarkChatConflicts(msgs []*ChatMessage) int {
	seen := map[[2]uint64][]*ChatMessage{}
	pairs := map[[2]uint64]bool{}
	for _, m := range msgs {
		k := [2]uint64{uint64(m.Member), m.Counter}
		m.Conflict = false
		for _, o := range seen[k] {
			m.Conflict = m.Conflict || !sameWords(o, m)
		}
		if m.Conflict {
			pairs[k] = true
		}
		seen[k] = append(seen[k], m)
	}
	return len(pairs)
}

// add verifies m and keeps it, in memory and in the file; fresh is false for a message kept
// before (or beyond the bounds).
func (c *chatRoom) add(m *ChatMessage) (fresh bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := m.Verify(c.g); err != nil {
		return false, err
	}
	if !c.keep(m) {
		return false, nil
	}
	return true, c.write(m)
}

// write appends m to the chat file.
func (c *chatRoom) write(m *ChatMessage) error {
	f, err := c.store.OpenAppend(c.file)
	if err != nil {
		return fmt.Errorf("cannot keep the chat: %w", err)
	}
	var b []byte
	if size, err := f.Size(); err == nil && size == 0 {
		b = []byte(ChatMagic)
	}
	err = f.Append(wire.AppendRecord(b, m.Marshal()), false)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot keep the chat: %w", err)
	}
	return nil
}

// hearChat takes a chat message from the table's channel.
func (n *Node) hearChat(data []byte) {
	m, err := ParseChat(data)
	if err != nil {
		n.cfg.Logf("dropped a chat message: %v", err)
		return
	}
	c, err := n.room()
	if err != nil {
		return // said before this node has the table: not kept
	}
	fresh, err := c.add(m)
	if err != nil {
		n.cfg.Logf("dropped a chat message: %v", err)
	}
	if fresh && n.cfg.OnChat != nil {
		n.cfg.OnChat(*m)
	}
}

// Say signs text as this node's next chat message at its table, keeps it beside the log,
// publishes it to the table and tells OnChat. It fails before the table forms, for a text
// CheckChatText refuses, and past the chat's bounds. It is safe to call from any goroutine
// while Run runs.
func (n *Node) Say(ctx context.Context, text string) (ChatMessage, error) {
	if err := CheckChatText(text); err != nil {
		return ChatMessage{}, err
	}
	c, err := n.room()
	if err != nil {
		return ChatMessage{}, err
	}
	c.mu.Lock()
	m := signChat(n.cfg.Identity, c.id, c.me, c.next, n.clock.Now(), text)
	m.Name = c.g.Roster[c.me].Name
	if !c.keep(m) {
		c.mu.Unlock()
		return ChatMessage{}, fmt.Errorf("the chat is full: at most %d messages of each player", maxChatPerMember)
	}
	c.next++
	err = c.write(m)
	c.mu.Unlock()
	if err != nil {
		return ChatMessage{}, err
	}
	if err := n.cfg.Net.Publish(ctx, m.Marshal()); err != nil {
		return *m, fmt.Errorf("the message is kept but could not be sent: %w", err)
	}
	if n.cfg.OnChat != nil {
		n.cfg.OnChat(*m)
	}
	return *m, nil
}

// Chat is the table's chat as this node kept it, in the order it came (nil before the table
// forms).
func (n *Node) Chat() []ChatMessage {
	c, err := n.room()
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ChatMessage(nil), c.kept...)
}
