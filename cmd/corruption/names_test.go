package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/protocol"
)

// TestNameFlags: a --name or --table that holds a control, format or bidi character is refused
// at once, before any node starts, as a usage error naming the character; the error itself
// holds none of them.
func TestNameFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"demo", "--text", "--name", "\x1b[2J\x1b]0;owned\x07"}, "--name: \"\\x1b[2J\\x1b]0;owned\\a\" holds U+001B, a control character"},
		{[]string{"play", "--name", "ann\u202e001", "--table", "t", "--players", "2", "--no-open"}, "holds U+202E, a bidi control"},
		{[]string{"bot", "--name", "tag\U000e0041", "--table", "t", "--players", "3"}, "--name: "},
		{[]string{"bot", "--name", "ann", "--table", "friday\u2066", "--players", "3"}, "--table: \"friday\\u2066\" holds U+2066"},
	} {
		res := runCLI(t, tc.args...)
		if res.code != 2 || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("%q: exit %d, want 2 and %q\n%v", tc.args, res.code, tc.want, res)
		}
		if strings.ContainsAny(res.stdout+res.stderr, "\x1b\u202e\u2066") {
			t.Errorf("%q: the output holds the raw character\n%q", tc.args, res.stderr)
		}
	}
}

// chatRecord is a chat message of member (signed by key) framed as a chat file's record
// (protocol/chat.go's layout, written here independently).
func chatRecord(key ed25519.PrivateKey, table [32]byte, member int, counter uint64, text string) []byte {
	var b []byte
	b = append(b, table[:]...)
	b = append(b, byte(member))
	b = binary.BigEndian.AppendUint64(b, counter)
	b = binary.BigEndian.AppendUint64(b, 1700000000000)
	b = binary.BigEndian.AppendUint32(b, uint32(len(text)))
	b = append(b, text...)
	sig := ed25519.Sign(key, append([]byte("corruption/chat/v1\x00"), b...))
	msg := append(append([]byte{'c'}, b...), sig...)
	rec := binary.BigEndian.AppendUint32(nil, uint32(len(msg)))
	rec = append(rec, msg...)
	return binary.BigEndian.AppendUint32(rec, crc32.Checksum(msg, crc32.MakeTable(crc32.Castagnoli)))
}

// chatTable writes the log of a table of version v, as far as its genesis, with these names,
// and a chat file of its members' lines (member, counter, text); it returns their paths.
func chatTable(t *testing.T, v uint8, table string, names []string, lines []chatLine) (logPath, chatPath string) {
	t.Helper()
	g := &protocol.Genesis{Name: table, Game: "corruption", Config: corruption.EncodeConfig(corruption.Standard, false),
		Timeout: time.Minute, Version: v}
	var keys []ed25519.PrivateKey
	for i, n := range names {
		keys = append(keys, ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i + 1)}, 32)))
		g.Roster = append(g.Roster, protocol.Member{Name: n, Key: keys[i].Public().(ed25519.PublicKey)})
	}
	e, err := protocol.NewGenesis(bytes.NewReader(make([]byte, 16)), keys[0], g)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	logPath, chatPath = filepath.Join(dir, "table.log"), filepath.Join(dir, "table.log.chat")
	var lb bytes.Buffer
	if err := protocol.WriteLog(&lb, []*protocol.Entry{e}); err != nil {
		t.Fatal(err)
	}
	chat := []byte(protocol.ChatMagic)
	for _, l := range lines {
		chat = append(chat, chatRecord(keys[l.member], e.Table, l.member, l.counter, l.text)...)
	}
	if os.WriteFile(logPath, lb.Bytes(), 0o644) != nil || os.WriteFile(chatPath, chat, 0o644) != nil {
		t.Fatal("cannot write the table's files")
	}
	return logPath, chatPath
}

type chatLine struct {
	member  int
	counter uint64
	text    string
}

// TestAuditChatNames: audit --chat names each speaker by name and seat, escaped and isolated,
// whatever a version-2 log's names hold (control characters, bidi overrides), prints every
// text escaped and isolated, tells two players of one name apart by their seats, and shows a
// player that signed two different messages with one number as what it is: both messages,
// the later marked, and a line that says so. At a table of version 3 a chat text with a bidi
// control fails the audit, naming it.
func TestAuditChatNames(t *testing.T) {
	logPath, chatPath := chatTable(t, 2, "old\x1b[2J", []string{"\x1b[2J\x1b]0;owned\x07", "ann\u202e001\u202c", "ann"}, []chatLine{
		{0, 1, "I pay you \u202e001\u202c"},
		{1, 1, "deal"},
		{2, 1, "<img src=x onerror=alert(1)>"},
		{1, 1, "no deal"},
	})
	res := runCLI(t, "audit", "--chat", chatPath, logPath)
	if res.code != 1 || !strings.Contains(res.stderr, "the log is incomplete") {
		t.Errorf("audit of a log that stops after its genesis: want exit 1, incomplete\n%v", res)
	}
	for _, want := range []string{
		"chat: 4 messages, each signed by its speaker",
		"\u2068\\x1b[2J\\x1b]0;owned\\x07\u2069 (seat 0) #1: \u2068I pay you \\u202e001\\u202c\u2069",
		"\u2068ann\\u202e001\\u202c\u2069 (seat 1) #1: \u2068deal\u2069",
		"\u2068ann\u2069 (seat 2) #1: \u2068<img src=x onerror=alert(1)>\u2069",
		"  !! 2023-11-14 22:13:20 UTC  \u2068ann\\u202e001\\u202c\u2069 (seat 1) #1: \u2068no deal\u2069",
		"!! 1 time a player signed two different messages under one number",
		"\u2068ann\\u202e001\\u202c\u2069 (seat 1), message 1",
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("audit --chat does not print %q\n%s", want, res.stdout)
		}
	}
	if strings.ContainsAny(res.stdout+res.stderr, "\x1b\x07\u202e\u202c") {
		t.Errorf("audit --chat prints a raw control or bidi character:\n%q", res.stdout+res.stderr)
	}

	logPath, chatPath = chatTable(t, 3, "friday", []string{"ann", "ann", "bob"}, []chatLine{{2, 1, "I pay you \u202e001\u202c"}})
	if res := runCLI(t, "audit", "--chat", chatPath, logPath); res.code != 1 || !strings.Contains(res.stderr, "bidi control (U+202E)") {
		t.Errorf("audit --chat of a version-3 chat with a bidi override: want exit 1 naming U+202E\n%v", res)
	}
}

// TestAuditHostileGenesis: a log of version 3 whose genesis names a player with a control
// character is refused by audit and replay, which say so with the character escaped.
func TestAuditHostileGenesis(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, 32))
	g := &protocol.Genesis{Name: "t", Game: "corruption", Config: corruption.EncodeConfig(corruption.Standard, false), Timeout: time.Minute}
	for i, n := range []string{"ann", "\x1b[2J\x1b]0;owned\x07", "bob"} {
		k := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(i + 1)}, 32))
		g.Roster = append(g.Roster, protocol.Member{Name: n, Key: k.Public().(ed25519.PublicKey)})
	}
	e := &protocol.Entry{Version: protocol.EntryVersion, Table: g.ID(), Kind: protocol.KindGenesis, Body: g.Marshal()}
	e.Sign(key)
	var lb bytes.Buffer
	if err := protocol.WriteLog(&lb, []*protocol.Entry{e}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostile.log")
	if err := os.WriteFile(path, lb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"audit", path}, {"replay", path}} {
		res := runCLI(t, args...)
		if res.code != 1 || !strings.Contains(res.stderr, "holds U+001B, a control character") {
			t.Errorf("%s: want exit 1, the genesis refused naming U+001B\n%v", args[0], res)
		}
		if strings.ContainsAny(res.stdout+res.stderr, "\x1b\x07") {
			t.Errorf("%s prints a raw control character:\n%q", args[0], res.stdout+res.stderr)
		}
	}
}

// TestOneLine: what --verbose logs and the notes say is one line, with every control, format or
// bidi character escaped (a note may quote a name or a peer's error).
func TestOneLine(t *testing.T) {
	in := "seat 1 (\x1b[2J\x1b]0;owned\x07) is silent\n  dial \u202eerror\u202c"
	if got, want := oneLine(in), `seat 1 (\x1b[2J\x1b]0;owned\x07) is silent dial \u202eerror\u202c`; got != want {
		t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
	}
}
