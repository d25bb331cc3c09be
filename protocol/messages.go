package protocol

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"corruption/protocol/internal/wire"
)

// Messages on a table's broadcast channel. The first byte says which.
const (
	msgHello byte = 'h' // a node that wants a seat at the table (before the genesis)
	msgEntry byte = 'e' // a log entry
	msgHead  byte = 'a' // a node's head: how long its log is
	msgNote  byte = 'n' // a node's signed note that the seat due went silent (note.go)
	msgLeft  byte = 'l' // a node's signed word that it left a table before its game started (form.go)
)

// Request kinds.
const reqEntries byte = 'f' // entries of a table from a seq on

const helloDomain = "corruption/hello/v2\x00"

// hello is a node's wish to sit at a table with the given game and configuration. A hello of
// version 3 or later carries a table name and a player name that CheckName accepts (names.go);
// any other does not parse.
//
// From version 3 on, the game field on the wire carries the node's protocol version after an @
// ("corruption@3"); a hello without one is a node of version 2. So a node of version 2, which
// reads the field as the game's id, hears a newer node as one that wants another game, and says
// so at the hello ("but with the game \"corruption@3\""), instead of sitting down at a table
// it cannot read; and a newer node tells an older one apart and says that it runs an older
// release.
type hello struct {
	version uint8
	table   string
	game    string
	config  []byte
	players int
	name    string
	key     ed25519.PublicKey
	sig     []byte
}

func (h *hello) unsigned() []byte {
	w := wire.Writer{B: []byte(helloDomain)}
	w.Str(h.table)
	w.Str(helloGame(h.game, h.version))
	w.Bytes(h.config)
	w.U8(uint8(h.players))
	w.Str(h.name)
	w.Fixed(h.key)
	return w.B
}

func (h *hello) marshal() []byte {
	b := append([]byte{msgHello}, h.unsigned()[len(helloDomain):]...)
	return append(b, h.sig...)
}

// helloGame is the game field of a hello of that version.
func helloGame(game string, version uint8) string {
	if version <= 2 {
		return game
	}
	return fmt.Sprintf("%s@%d", game, version)
}

func parseHello(p []byte) (*hello, error) {
	r := wire.Reader{B: p}
	h := &hello{table: r.Str(MaxNameSize, "table name"), game: r.Str(maxGameID, "game id"),
		config: r.Bytes(maxConfigSize, "game configuration"), players: int(r.U8()),
		name: r.Str(MaxNameSize, "player name"), key: make([]byte, ed25519.PublicKeySize),
		sig: make([]byte, ed25519.SignatureSize)}
	r.Fixed(h.key)
	r.Fixed(h.sig)
	if err := r.Done("hello"); err != nil {
		return nil, err
	}
	h.version = 2
	if i := strings.LastIndexByte(h.game, '@'); i >= 0 {
		v, err := strconv.ParseUint(h.game[i+1:], 10, 8)
		if err != nil || v < 3 || helloGame(h.game[:i], uint8(v)) != h.game {
			return nil, fmt.Errorf("malformed hello: game %q", h.game)
		}
		h.game, h.version = h.game[:i], uint8(v)
	}
	if h.version >= 3 {
		// Version 3's names: nothing a screen would take as a command (names.go).
		if err := CheckName(h.table); err != nil {
			return nil, fmt.Errorf("malformed hello: table name: %w", err)
		}
		if err := CheckName(h.name); err != nil {
			return nil, fmt.Errorf("malformed hello: player name: %w", err)
		}
	}
	if !helloSigs.verify(h.key, h.unsigned(), h.sig) {
		return nil, fmt.Errorf("hello from %q: bad signature", h.name)
	}
	return h, nil
}

// helloSigs remembers the last hellos whose signature verified. A hello is parsed twice where
// it arrives: on a table's channel by the channel's validator (Check) and by the node
// (Node.handle), in the lobby by its validator and by the lobby's list (ParseAnnouncement
// both); the second parse finds it here and skips the signature check. Only a verified
// signature is remembered, under the SHA-256 of the whole signed message and the signature,
// so a hello that differs in any byte is checked, and a forged one refused, every time.
var helloSigs = sigMemo{check: ed25519.Verify}

// helloMemoSize bounds helloSigs: a few tables' worth of hellos, said again every few seconds.
const helloMemoSize = 256

// A sigMemo is a bounded memory of verified Ed25519 signatures; the oldest is forgotten first.
type sigMemo struct {
	check func(pub ed25519.PublicKey, msg, sig []byte) bool // ed25519.Verify; a test counts its calls
	mu    sync.Mutex
	seen  map[[sha256.Size]byte]bool
	ring  [helloMemoSize][sha256.Size]byte
	next  int // the slot of ring to fill next
}

// verify reports whether sig is pub's signature of msg, as ed25519.Verify does.
func (m *sigMemo) verify(pub ed25519.PublicKey, msg, sig []byte) bool {
	hh := sha256.New()
	var lens [16]byte // pub's and msg's lengths: no two inputs hash the same bytes
	binary.BigEndian.PutUint64(lens[:8], uint64(len(pub)))
	binary.BigEndian.PutUint64(lens[8:], uint64(len(msg)))
	hh.Write(lens[:])
	hh.Write(pub)
	hh.Write(msg)
	hh.Write(sig)
	var k [sha256.Size]byte
	hh.Sum(k[:0])
	m.mu.Lock()
	known := m.seen[k]
	m.mu.Unlock()
	if known {
		return true
	}
	if !m.check(pub, msg, sig) {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil {
		m.seen = make(map[[sha256.Size]byte]bool, helloMemoSize)
	}
	if !m.seen[k] {
		if len(m.seen) == helloMemoSize {
			delete(m.seen, m.ring[m.next])
		}
		m.seen[k] = true
		m.ring[m.next] = k
		m.next = (m.next + 1) % helloMemoSize
	}
	return true
}

// sameSettings reports whether two hellos want the same table: name, game, configuration
// (byte for byte) and number of players.
func (h *hello) sameSettings(o *hello) bool {
	return h.table == o.table && h.game == o.game && bytes.Equal(h.config, o.config) && h.players == o.players
}

const leftDomain = "corruption/left/v1\x00"

// left is a node's word, signed by its identity, that it left a table before the table's game
// started (form.go, "dissolve"): it never writes there again, so the table cannot start, and its
// other players dissolve it too instead of waiting for a seat that will never come.
type left struct {
	table [32]byte
	key   ed25519.PublicKey
	sig   []byte
}

func (l *left) unsigned() []byte {
	w := wire.Writer{B: []byte(leftDomain)}
	w.Fixed(l.table[:])
	w.Fixed(l.key)
	return w.B
}

func (l *left) marshal() []byte {
	b := append([]byte{msgLeft}, l.unsigned()[len(leftDomain):]...)
	return append(b, l.sig...)
}

// newLeft is the signed word that identity left table.
func newLeft(identity ed25519.PrivateKey, table [32]byte) *left {
	l := &left{table: table, key: identity.Public().(ed25519.PublicKey)}
	l.sig = ed25519.Sign(identity, l.unsigned())
	return l
}

// parseLeft reads a left notice and checks its signature.
func parseLeft(p []byte) (*left, error) {
	l, err := parseLeftUnverified(p)
	if err != nil {
		return nil, err
	}
	if !l.signed() {
		return nil, errors.New("left notice: bad signature")
	}
	return l, nil
}

// signed reports whether l's signature is its key's.
func (l *left) signed() bool { return ed25519.Verify(l.key, l.unsigned(), l.sig) }

// parseLeftUnverified reads a left notice without checking its signature: what a node reads
// first, to drop at no cost the notices it has no use for (a table it knows dead, or one it
// never heard of), which every node says again and again.
func parseLeftUnverified(p []byte) (*left, error) {
	r := wire.Reader{B: p}
	l := &left{key: make([]byte, ed25519.PublicKeySize), sig: make([]byte, ed25519.SignatureSize)}
	r.Fixed(l.table[:])
	r.Fixed(l.key)
	r.Fixed(l.sig)
	if err := r.Done("left notice"); err != nil {
		return nil, err
	}
	return l, nil
}

// head is a node's announcement of its log: table, length, last hash and the digest of the
// game's public state (zero before the game starts).
type head struct {
	table  [32]byte
	seat   int
	len    uint64
	hash   [32]byte
	digest [32]byte
}

func (h *head) marshal() []byte {
	w := wire.Writer{B: []byte{msgHead}}
	w.Fixed(h.table[:])
	w.U8(uint8(h.seat))
	w.U64(h.len)
	w.Fixed(h.hash[:])
	w.Fixed(h.digest[:])
	return w.B
}

func parseHead(p []byte) (*head, error) {
	r := wire.Reader{B: p}
	h := &head{}
	r.Fixed(h.table[:])
	h.seat = int(r.U8())
	h.len = r.U64()
	r.Fixed(h.hash[:])
	r.Fixed(h.digest[:])
	return h, r.Done("head")
}

// entriesRequest asks for a table's entries from seq on.
func entriesRequest(table [32]byte, from uint64) []byte {
	w := wire.Writer{B: []byte{reqEntries}}
	w.Fixed(table[:])
	w.U64(from)
	return w.B
}

// maxBatch bounds the entries in one answer.
const maxBatch = 64

func marshalBatch(entries []*Entry) []byte {
	if len(entries) > maxBatch {
		entries = entries[:maxBatch]
	}
	w := wire.Writer{}
	w.U16(uint16(len(entries)))
	for _, e := range entries {
		w.Bytes(e.Marshal())
	}
	return w.B
}

func parseBatch(p []byte) ([]*Entry, error) {
	r := wire.Reader{B: p}
	n := int(r.U16())
	if n > maxBatch {
		return nil, fmt.Errorf("batch of %d entries is more than %d", n, maxBatch)
	}
	raw := make([][]byte, 0, n)
	for i := 0; i < n && r.Err == nil; i++ {
		raw = append(raw, r.Bytes(MaxEntrySize, "entry"))
	}
	if err := r.Done("entries answer"); err != nil {
		return nil, err
	}
	out := make([]*Entry, 0, n)
	for _, b := range raw {
		e, err := ParseEntry(b)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// An answer to a request for entries is a batch, then, from a node whose table ended with a
// seat named silent, that node's note (u8 1 ‖ bytes(note)): a node that was paused or cut off
// learns from it how the table ended, and agrees if its own log says the same seat was due.
func marshalAnswer(entries []*Entry, note *Note) []byte {
	b := marshalBatch(entries)
	if note == nil {
		return b
	}
	w := wire.Writer{B: append(b, 1)}
	w.Bytes(note.Marshal())
	return w.B
}

func parseAnswer(p []byte) ([]*Entry, *Note, error) {
	r := wire.Reader{B: p}
	n := int(r.U16())
	if n > maxBatch {
		return nil, nil, fmt.Errorf("batch of %d entries is more than %d", n, maxBatch)
	}
	var raw [][]byte
	for i := 0; i < n && r.Err == nil; i++ {
		raw = append(raw, r.Bytes(MaxEntrySize, "entry"))
	}
	var note *Note
	if r.Err == nil && len(r.B) > 0 {
		if r.U8() != 1 {
			return nil, nil, errors.New("malformed entries answer: a trailing section that is not a note")
		}
		nb := r.Bytes(2048, "note")
		if r.Err == nil {
			var err error
			if note, err = ParseNote(nb); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := r.Done("entries answer"); err != nil {
		return nil, nil, err
	}
	out := make([]*Entry, 0, n)
	for _, b := range raw {
		e, err := ParseEntry(b)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, e)
	}
	return out, note, nil
}

// Check is a cheap validity check of a broadcast message, for the network's validators: the
// kind byte is known and the message decodes. Signatures and rules are checked by the table.
func Check(msg []byte) bool {
	if len(msg) < 1 || len(msg) > MaxEntrySize+1 {
		return false
	}
	var err error
	switch msg[0] {
	case msgHello:
		_, err = parseHello(msg[1:])
	case msgEntry:
		_, err = ParseEntry(msg[1:])
	case msgHead:
		_, err = parseHead(msg[1:])
	case msgChat:
		_, err = ParseChat(msg)
	case msgNote:
		_, err = ParseNote(msg[1:])
	case msgDepart:
		_, err = ParseDeparture(msg[1:])
	case msgPause:
		_, err = ParsePause(msg)
	case msgLeft:
		_, err = parseLeft(msg[1:])
	default:
		return false
	}
	return err == nil
}

// Announcement is a node's wish to sit at a table, as heard on the lobby channel.
type Announcement struct {
	Version uint8 // the node's protocol version (0: this build's); it sits only at tables of that version
	Table   string
	Game    string // the game's id
	Config  []byte // the game's canonical configuration
	Players int
	Name    string            // the player's name
	Key     ed25519.PublicKey // its identity
}

// ParseAnnouncement reads a lobby message (a signed hello).
func ParseAnnouncement(msg []byte) (*Announcement, error) {
	if len(msg) < 1 || msg[0] != msgHello {
		return nil, fmt.Errorf("not an announcement")
	}
	h, err := parseHello(msg[1:])
	if err != nil {
		return nil, err
	}
	return &Announcement{Version: h.version, Table: h.table, Game: h.game, Config: h.config, Players: h.players, Name: h.name, Key: h.key}, nil
}
