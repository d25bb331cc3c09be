package protocol

import (
	"bytes"
	"context"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"corruption/crypto"
	"corruption/protocol/internal/wire"
)

// A private table is not announced in the lobby and seats only the nodes its creator admitted
// with the join code (join.go). Its creator draws a 32-byte secret; every admitted node gets
// it, sealed under the key of its own password-authenticated exchange with the creator. From
// the secret, never from the code, come the table's name, the name of its channel and the key
// that seals every message on that channel and every request and answer of its nodes
// (AES-256-GCM): an outsider that joins the channel reads nothing and can write nothing a
// member accepts. Formation changes in two ways (form.go): only the creator writes the
// genesis, with itself at seat 0 and nodes it admitted, and the others sit only at a genesis
// the creator signed.
//
// What an outsider still learns: that a private table exists (the creator announces its
// nameplate while it admits, and the channel's name is a random-looking string), which peers
// publish on it (gossipsub signs every message with its author's key), and the size and
// timing of its traffic.

// PrivateTable is what an admitted node knows of a private table: its secret, its creator
// and its settings.
type PrivateTable struct {
	Secret  [32]byte
	Creator ed25519.PublicKey
	Game    string
	Config  []byte
	Players int

	// admitted, at the creator, says whether a key passed the join code (Admission.Admitted);
	// nil at the other nodes, which take the creator's genesis as it comes.
	admitted func(ed25519.PublicKey) bool
	aead     cipher.AEAD
}

// NewPrivateTable draws the secret of a new private table whose creator has the identity key
// creator.
func NewPrivateTable(rnd io.Reader, creator ed25519.PublicKey, game string, config []byte, players int) (*PrivateTable, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	p := &PrivateTable{Creator: creator, Game: game, Config: config, Players: players}
	if _, err := io.ReadFull(rnd, p.Secret[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	return p, p.init()
}

func (p *PrivateTable) init() error {
	if len(p.Creator) != ed25519.PublicKeySize {
		return fmt.Errorf("private table: creator key of %d bytes", len(p.Creator))
	}
	var err error
	p.aead, err = crypto.AEAD(p.derive("messages"))
	return err
}

// derive is HMAC-SHA256 of the secret with a label.
func (p *PrivateTable) derive(label string) []byte {
	return crypto.KeyFor(p.Secret[:], "corruption/private/v1 "+label)
}

// Name is the table's name (in its genesis and the data directory): "private-" and 16 hex
// digits derived from the secret.
func (p *PrivateTable) Name() string { return "private-" + hex.EncodeToString(p.derive("name")[:8]) }

// Channel is the name of the table's channel, 32 hex digits derived from the secret (the
// network layer puts its prefix before it).
func (p *PrivateTable) Channel() string { return hex.EncodeToString(p.derive("channel")[:16]) }

// Creating says whether this node is the table's creator (it holds the admission).
func (p *PrivateTable) Creating() bool { return p.admitted != nil }

// may says whether key may sit at the table: the creator, or a node it admitted. A node that
// is not the creator cannot tell, and leaves it to the creator's genesis.
func (p *PrivateTable) may(key ed25519.PublicKey) bool {
	return p.admitted == nil || bytes.Equal(key, p.Creator) || p.admitted(key)
}

// Associated data of the sealed messages: a broadcast, a request and an answer cannot stand in
// for one another.
const (
	sealBroadcast = "corruption/private/v1 broadcast"
	sealRequest   = "corruption/private/v1 request"
	sealAnswer    = "corruption/private/v1 answer"
)

// seal encrypts msg under the table's key: a random 12-byte nonce, then AES-256-GCM.
func (p *PrivateTable) seal(msg []byte, ad string) []byte {
	nonce := make([]byte, p.aead.NonceSize(), p.aead.NonceSize()+len(msg)+p.aead.Overhead())
	if _, err := io.ReadFull(rand.Reader, nonce); err != nil {
		panic(err) // crypto/rand does not fail
	}
	return p.aead.Seal(nonce, nonce, msg, []byte(ad))
}

// SealOverhead is the least a sealed message holds: its nonce and its tag (for a validator
// that cannot open it, the laptop that relays a phone's private table).
const SealOverhead = 12 + 16

var errNotSealed = errors.New("not sealed with this private table's key")

func (p *PrivateTable) open(msg []byte, ad string) ([]byte, error) {
	n := p.aead.NonceSize()
	if len(msg) < n+p.aead.Overhead() {
		return nil, errNotSealed
	}
	out, err := p.aead.Open(nil, msg[:n], msg[n:], []byte(ad))
	if err != nil {
		return nil, errNotSealed
	}
	return out, nil
}

// Check is the cheap check of a message on the table's channel, for the network's validators:
// it opens under the table's key and passes Check.
func (p *PrivateTable) Check(msg []byte) bool {
	plain, err := p.open(msg, sealBroadcast)
	return err == nil && Check(plain)
}

// Wrap returns the table's view of a network: every broadcast, request and answer sealed
// under the table's key, and whatever does not open dropped (a broadcast) or refused (a
// request).
func (p *PrivateTable) Wrap(n Network) Network { return &privateNet{p: p, n: n} }

type privateNet struct {
	p *PrivateTable
	n Network
}

func (w *privateNet) Publish(ctx context.Context, data []byte) error {
	return w.n.Publish(ctx, w.p.seal(data, sealBroadcast))
}

func (w *privateNet) Next(ctx context.Context) (string, []byte, error) {
	for {
		from, data, err := w.n.Next(ctx)
		if err != nil {
			return "", nil, err
		}
		if plain, err := w.p.open(data, sealBroadcast); err == nil {
			return from, plain, nil
		}
	}
}

func (w *privateNet) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	ans, err := w.n.Request(ctx, peer, w.p.seal(req, sealRequest))
	if err != nil {
		return nil, err
	}
	return w.p.open(ans, sealAnswer)
}

func (w *privateNet) Serve(h func(from string, req []byte) ([]byte, error)) {
	if h == nil {
		w.n.Serve(nil)
		return
	}
	w.n.Serve(func(from string, req []byte) ([]byte, error) {
		plain, err := w.p.open(req, sealRequest)
		if err != nil {
			return nil, errors.New("not a member of this table")
		}
		ans, err := h(from, plain)
		if err != nil {
			return nil, err
		}
		return w.p.seal(ans, sealAnswer), nil
	})
}

func (w *privateNet) Peers() []string { return w.n.Peers() }

// The welcome, sealed to an admitted node: u8 version ‖ 32-byte secret ‖ 32-byte creator key ‖
// bytes(game) ‖ bytes(configuration) ‖ u8 players.
func (p *PrivateTable) marshal() []byte {
	w := wire.Writer{B: []byte{welcomeVersion}}
	w.Fixed(p.Secret[:])
	w.Fixed(p.Creator)
	w.Str(p.Game)
	w.Bytes(p.Config)
	w.U8(uint8(p.Players))
	return w.B
}

func parsePrivateTable(b []byte) (*PrivateTable, error) {
	r := wire.Reader{B: b}
	if v := r.U8(); r.Err == nil && v != welcomeVersion {
		return nil, fmt.Errorf("welcome of version %d, want %d", v, welcomeVersion)
	}
	p := &PrivateTable{Creator: make([]byte, ed25519.PublicKeySize)}
	r.Fixed(p.Secret[:])
	r.Fixed(p.Creator)
	p.Game = r.Str(maxGameID, "game id")
	p.Config = r.Bytes(maxConfigSize, "game configuration")
	p.Players = int(r.U8())
	if err := r.Done("welcome"); err != nil {
		return nil, err
	}
	return p, p.init()
}
