package protocol

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// Member is one seat of a table's roster.
type Member struct {
	Name string            // the player's chosen name (display only)
	Key  ed25519.PublicKey // the identity key that signs the seat's entries
}

// Genesis is the body of a table's first entry: the game, its configuration and the roster.
// The table id is SHA-256 of its encoding, so every entry names all of them.
type Genesis struct {
	Name   string // the table's name
	Game   string // the game's id in engine's registry ("corruption")
	Config []byte // the game's canonical configuration
	// The table's clock. Timeout is how long a seat may take over an entry its node writes by
	// itself (keys, shuffles, shares...) before the table names it silent. A decision (a move,
	// a choice) may take Allowance, and then draws on the seat's Bank for the whole game: the
	// seat is named silent only when both are spent. Allowance 0: a decision has the Timeout
	// like any entry; NoClock: decisions have no limit.
	Timeout   time.Duration
	Allowance time.Duration
	Bank      time.Duration
	Nonce     [16]byte // makes every table id unique
	// Roster lists the players in the order their keys were heard (the creator first). The
	// seats of the game are not this order: they are drawn jointly once every key is in
	// (Table.Players), so that no key can be ground to sit first or last.
	Roster []Member
	// Escrow: each seat deals shares of its root secret to the others at the start, so that all
	// of them together could rebuild it (escrow.go). It needs MinEscrowSeats seats or more.
	Escrow bool
	// Version is the protocol version of the genesis entry (not part of the body): the rules
	// the table is checked by. 0 is this build's (EntryVersion).
	Version uint8
}

// version is the table's protocol version (0 is this build's).
func (g *Genesis) version() uint8 {
	if g.Version == 0 {
		return entryVersion
	}
	return g.Version
}

// NoClock is the allowance of a table whose decisions have no clock (a person playing with
// bots alone).
const NoClock = 24 * time.Hour

// Limits on names and configurations.
const (
	MaxNameSize   = 64
	maxGameID     = 32
	maxConfigSize = 1024
)

// Marshal is the genesis's canonical encoding.
func (g *Genesis) Marshal() []byte {
	w := wire.Writer{}
	w.Str(g.Game)
	w.Bytes(g.Config)
	w.Str(g.Name)
	w.U32(uint32(g.Timeout / time.Millisecond))
	w.U32(uint32(g.Allowance / time.Millisecond))
	w.U32(uint32(g.Bank / time.Millisecond))
	w.Fixed(g.Nonce[:])
	w.U8(uint8(len(g.Roster)))
	for _, m := range g.Roster {
		w.Str(m.Name)
		w.Fixed(m.Key)
	}
	if g.Escrow { // options: absent when none, so that a table without escrow encodes as before
		w.U8(optEscrow)
	}
	return w.B
}

// ID is the table id the genesis defines.
func (g *Genesis) ID() [32]byte { return sha256.Sum256(g.Marshal()) }

// ParseGenesis decodes and checks a genesis body of this build's version. A game this build
// does not know is an error that says so.
func ParseGenesis(b []byte) (*Genesis, error) { return parseGenesis(b, entryVersion) }

// GenesisOf decodes and checks the body of a genesis entry, by the rules of the entry's version.
func GenesisOf(e *Entry) (*Genesis, error) { return parseGenesis(e.Body, e.version()) }

func parseGenesis(b []byte, version uint8) (*Genesis, error) {
	r := wire.Reader{B: b}
	g := &Genesis{Version: version}
	g.Game = r.Str(maxGameID, "game id")
	g.Config = r.Bytes(maxConfigSize, "game configuration")
	g.Name = r.Str(MaxNameSize, "table name")
	g.Timeout = time.Duration(r.U32()) * time.Millisecond
	g.Allowance = time.Duration(r.U32()) * time.Millisecond
	g.Bank = time.Duration(r.U32()) * time.Millisecond
	r.Fixed(g.Nonce[:])
	n := int(r.U8())
	if r.Err == nil && (n < 1 || n > maxSeats) {
		return nil, fmt.Errorf("malformed genesis: %d seats, want 1 to %d", n, maxSeats)
	}
	for i := 0; i < n && r.Err == nil; i++ {
		m := Member{Name: r.Str(MaxNameSize, "player name"), Key: make(ed25519.PublicKey, ed25519.PublicKeySize)}
		r.Fixed(m.Key)
		g.Roster = append(g.Roster, m)
	}
	if r.Err == nil && len(r.B) > 0 {
		if opts := r.U8(); opts != optEscrow {
			return nil, fmt.Errorf("malformed genesis: options %#x (bit 0 is escrow; no options is no byte)", opts)
		}
		g.Escrow = true
	}
	if err := r.Done("genesis"); err != nil {
		return nil, err
	}
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("malformed genesis: %w", err)
	}
	return g, nil
}

// Check checks the genesis is a table one can play at: a known game, a configuration it
// accepts for this many seats, names (from version 3 on, names CheckName accepts), a timeout,
// distinct keys.
func (g *Genesis) Check() error {
	if g.Name == "" || !utf8.ValidString(g.Name) || len(g.Name) > MaxNameSize {
		return fmt.Errorf("table name %q is empty, too long or not UTF-8", g.Name)
	}
	if g.version() >= 3 {
		if err := CheckName(g.Name); err != nil {
			return fmt.Errorf("table name: %w", err)
		}
	}
	rules, err := g.Rules()
	if err != nil {
		return err
	}
	if lo, hi := rules.Players(); len(g.Roster) < lo || len(g.Roster) > hi {
		return fmt.Errorf("%d seats: %s is played by %d to %d", len(g.Roster), rules.Name(), lo, hi)
	}
	if err := rules.CheckConfig(g.Config, len(g.Roster)); err != nil {
		return fmt.Errorf("%s configuration: %w", rules.Name(), err)
	}
	if g.Timeout < time.Second {
		return fmt.Errorf("timeout %v is under a second", g.Timeout)
	}
	const maxClock = 24 * time.Hour // within a u32 of milliseconds
	for _, d := range []time.Duration{g.Timeout, g.Allowance, g.Bank} {
		if d < 0 || d > maxClock || d%time.Millisecond != 0 {
			return fmt.Errorf("clock setting %v is not 0 to 24h in milliseconds", d)
		}
	}
	if g.Escrow && len(g.Roster) < MinEscrowSeats {
		return fmt.Errorf("escrow at %d seats: it needs %d or more (with two, the one other seat would hold the whole secret)", len(g.Roster), MinEscrowSeats)
	}
	if g.Allowance == 0 && g.Bank != 0 {
		return fmt.Errorf("a bank of %v with no allowance: without an allowance a decision has the timeout", g.Bank)
	}
	for i, m := range g.Roster {
		if !utf8.ValidString(m.Name) || len(m.Name) > MaxNameSize {
			return fmt.Errorf("seat %d: name is too long or not UTF-8", i)
		}
		if g.version() >= 3 {
			if err := CheckName(m.Name); err != nil {
				return fmt.Errorf("seat %d: player name: %w", i, err)
			}
		}
		for j := 0; j < i; j++ {
			if bytes.Equal(g.Roster[j].Key, m.Key) {
				return fmt.Errorf("seats %d and %d have the same key", j, i)
			}
		}
	}
	return nil
}

// Rules is the genesis's game, from engine's registry.
func (g *Genesis) Rules() (engine.Rules, error) {
	r, err := engine.Lookup(g.Game)
	if err != nil {
		return nil, fmt.Errorf("this node cannot play the table: %w", err)
	}
	return r, nil
}

// SeatOf is the seat of an identity key, or -1.
func (g *Genesis) SeatOf(key ed25519.PublicKey) int {
	for i, m := range g.Roster {
		if bytes.Equal(m.Key, key) {
			return i
		}
	}
	return -1
}

// NewGenesis builds and signs the genesis entry of a new table. creator must be the key of
// g.Roster[0]; g.Nonce is filled from rand.
func NewGenesis(rand io.Reader, creator ed25519.PrivateKey, g *Genesis) (*Entry, error) {
	if _, err := io.ReadFull(rand, g.Nonce[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	if len(g.Roster) == 0 || !creator.Public().(ed25519.PublicKey).Equal(g.Roster[0].Key) {
		return nil, fmt.Errorf("the creator must sit at seat 0")
	}
	e := &Entry{Version: g.version(), Table: g.ID(), Seq: 0, Seat: 0, Kind: KindGenesis, Body: g.Marshal()}
	e.Sign(creator)
	return e, nil
}
