package protocol

import (
	"crypto/ed25519"
	"fmt"

	"corruption/engine/corruption"
)

// Messages on a table's broadcast channel. The first byte says which.
const (
	msgHello byte = 'h' // a node that wants a seat at the table (before the genesis)
	msgEntry byte = 'e' // a log entry
	msgHead  byte = 'a' // a node's head: how long its log is
)

// Request kinds.
const reqEntries byte = 'f' // entries of a table from a seq on

const helloDomain = "corruption/hello/v1\x00"

// hello is a node's wish to sit at a table with the given configuration.
type hello struct {
	table   string
	players int
	variant corruption.Variant
	lbb     bool
	name    string
	key     ed25519.PublicKey
	sig     []byte
}

func (h *hello) unsigned() []byte {
	w := writer{b: []byte(helloDomain)}
	w.str(h.table)
	w.u8(uint8(h.players))
	w.u8(uint8(h.variant))
	w.flag(h.lbb)
	w.str(h.name)
	w.fixed(h.key)
	return w.b
}

func (h *hello) marshal() []byte {
	b := append([]byte{msgHello}, h.unsigned()[len(helloDomain):]...)
	return append(b, h.sig...)
}

func parseHello(p []byte) (*hello, error) {
	r := reader{b: p}
	h := &hello{table: r.str(MaxNameSize, "table name"), players: int(r.u8()), variant: corruption.Variant(r.u8()),
		lbb: r.flag("lbb"), name: r.str(MaxNameSize, "player name"), key: make([]byte, ed25519.PublicKeySize),
		sig: make([]byte, ed25519.SignatureSize)}
	r.fixed(h.key)
	r.fixed(h.sig)
	if err := r.done("hello"); err != nil {
		return nil, err
	}
	if !ed25519.Verify(h.key, h.unsigned(), h.sig) {
		return nil, fmt.Errorf("hello from %q: bad signature", h.name)
	}
	return h, nil
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
	w := writer{b: []byte{msgHead}}
	w.fixed(h.table[:])
	w.u8(uint8(h.seat))
	w.u64(h.len)
	w.fixed(h.hash[:])
	w.fixed(h.digest[:])
	return w.b
}

func parseHead(p []byte) (*head, error) {
	r := reader{b: p}
	h := &head{}
	r.fixed(h.table[:])
	h.seat = int(r.u8())
	h.len = r.u64()
	r.fixed(h.hash[:])
	r.fixed(h.digest[:])
	return h, r.done("head")
}

// entriesRequest asks for a table's entries from seq on (table zero: any table named in
// the hello the asker sent, answered with the genesis).
func entriesRequest(table [32]byte, from uint64) []byte {
	w := writer{b: []byte{reqEntries}}
	w.fixed(table[:])
	w.u64(from)
	return w.b
}

// maxBatch bounds the entries in one answer.
const maxBatch = 64

func marshalBatch(entries []*Entry) []byte {
	if len(entries) > maxBatch {
		entries = entries[:maxBatch]
	}
	w := writer{}
	w.u16(uint16(len(entries)))
	for _, e := range entries {
		w.bytes(e.Marshal())
	}
	return w.b
}

func parseBatch(p []byte) ([]*Entry, error) {
	r := reader{b: p}
	n := int(r.u16())
	if n > maxBatch {
		return nil, fmt.Errorf("batch of %d entries is more than %d", n, maxBatch)
	}
	raw := make([][]byte, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		raw = append(raw, r.bytes(MaxEntrySize, "entry"))
	}
	if err := r.done("entries answer"); err != nil {
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
	default:
		return false
	}
	return err == nil
}

// Announcement is a node's wish to sit at a table, as heard on the lobby channel.
type Announcement struct {
	Table   string
	Players int
	Variant corruption.Variant
	LBB     bool
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
	return &Announcement{Table: h.table, Players: h.players, Variant: h.variant, LBB: h.lbb, Name: h.name, Key: h.key}, nil
}
