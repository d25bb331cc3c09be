package protocol

import (
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"corruption/crypto"
	"corruption/engine"
)

// Self is what a node knows that others do not: its identity key and a secret seed for its log
// of the table.
//
// One root secret a seat: the seed gives the seat's ElGamal private key, and every other secret
// of the seat at the table (its random chain, shuffle and seal randomness, proof nonces,
// commitment nonces, the key of its notes to itself) is derived from that key and a label
// naming the purpose. So a node restarted from its log and its seed recomputes every secret it
// had and, should it rewrite an entry it had written before a crash, writes the very same bytes;
// and whoever holds the ElGamal key holds everything the seat knew.
type Self struct {
	Identity ed25519.PrivateKey
	Seed     [32]byte

	seat   int      // the node's seat (its roster index until the seat order is drawn)
	roster int      // its index in the genesis roster
	table  [32]byte // the table's id: every derived secret is bound to it
	root   *crypto.PrivateKey
	chain  *crypto.RandomChain
	fresh  *crypto.RandomChain // the fresh chain committed after cut freshN (cut.go)
	freshN int
}

// NewSelf makes a Self from an identity key and a table seed (32 random bytes kept secret).
func NewSelf(identity ed25519.PrivateKey, seed [32]byte) *Self {
	return &Self{Identity: identity, Seed: seed, seat: -1}
}

// sitAt binds s to table id, where it holds roster index seat, and forgets the secrets of any
// table before.
func (s *Self) sitAt(id [32]byte, seat int) error {
	if seat < 0 {
		return errors.New("this node's key is not in the table's roster")
	}
	s.table, s.seat, s.roster = id, seat, seat
	s.root, s.chain, s.fresh = nil, nil, nil
	return nil
}

// seated moves s to its seat in the drawn order.
func (s *Self) seated(seat int) { s.seat = seat }

// Seat is the node's seat at its table (-1 before the table is known).
func (s *Self) Seat() int { return s.seat }

// Public is the identity public key.
func (s *Self) Public() ed25519.PublicKey { return s.Identity.Public().(ed25519.PublicKey) }

// elgamalKey is the seat's root secret.
func (s *Self) elgamalKey() (*crypto.PrivateKey, error) {
	if s.root == nil {
		k, err := crypto.GenerateKey(newPRF(s.Seed[:], s.table, "elgamal key"))
		if err != nil {
			return nil, err
		}
		s.root = k
	}
	return s.root, nil
}

// rand is the deterministic random stream for one purpose at this table, derived from the root
// secret: blocks HMAC-SHA256(root, u32(len(label)) ‖ label ‖ u32(counter)), where label is the
// table id followed by the purpose.
func (s *Self) rand(format string, args ...any) io.Reader {
	root, err := s.elgamalKey()
	if err != nil {
		return errReader{err}
	}
	return newPRF(root.Bytes(), s.table, fmt.Sprintf(format, args...))
}

// randomChain is the seat's chain of joint-randomness contributions, committed under the
// roster's order (ctx) and the node's roster index.
func (s *Self) randomChain(ctx crypto.Context) (*crypto.RandomChain, error) {
	if s.chain == nil {
		c, err := crypto.NewRandomChain(s.rand("random chain"), ctx, s.roster, engine.MaxRandomDraws)
		if err != nil {
			return nil, err
		}
		s.chain = c
	}
	return s.chain, nil
}

// Notes to self. A seat's hidden value travels in its move entry as a commitment that hides it
// from the others, and beside it as a note only the seat can read: AES-256-GCM under a key
// derived from the root secret, with the value's ref as nonce, of the value padded to a fixed
// size (so its length tells nothing). A restarted node reads its own hidden values back from
// its log; nobody else can.
const (
	notePlain = 1 + engine.MaxValueSize
	noteSize  = notePlain + 16
)

func (s *Self) noteAEAD() (cipher.AEAD, error) {
	key := make([]byte, 32)
	if _, err := io.ReadFull(s.rand("self note key"), key); err != nil {
		return nil, err
	}
	return crypto.AEAD(key)
}

// noteNonce is the nonce of the note of hidden value ref, committed after cut cuts (cut.go):
// the same ref committed again after a cut is sealed under another nonce.
func noteNonce(ref, cut int) []byte {
	n := make([]byte, 12)
	binary.BigEndian.PutUint32(n[:4], uint32(cut))
	binary.BigEndian.PutUint64(n[4:], uint64(ref))
	return n
}

// commitRand is the nonce stream of hidden value ref, committed after cut cuts (cut.go): the
// same ref committed again after a cut, maybe to another value, takes another nonce (the
// first may have been opened on the branch the cut dropped).
func (s *Self) commitRand(ref, cut int) io.Reader {
	if cut == 0 {
		return s.rand("commit %d", ref)
	}
	return s.rand("commit %d after cut %d", ref, cut)
}

// freshChain is the seat's fresh random chain after cut cut (cut.go), committed by seat under
// the seated order (ctx).
func (s *Self) freshChain(ctx crypto.Context, cut int) (*crypto.RandomChain, error) {
	if s.fresh == nil || s.freshN != cut {
		c, err := crypto.NewRandomChain(s.rand("random chain after cut %d", cut), ctx, s.seat, engine.MaxRandomDraws)
		if err != nil {
			return nil, err
		}
		s.fresh, s.freshN = c, cut
	}
	return s.fresh, nil
}

// sealNote writes the note of value (at most MaxValueSize bytes) under ref, after cut cuts.
func (s *Self) sealNote(ref, cut int, value []byte) ([]byte, error) {
	if len(value) > engine.MaxValueSize {
		return nil, fmt.Errorf("hidden value of %d bytes is longer than %d", len(value), engine.MaxValueSize)
	}
	aead, err := s.noteAEAD()
	if err != nil {
		return nil, err
	}
	plain := make([]byte, notePlain)
	plain[0] = byte(len(value))
	copy(plain[1:], value)
	return aead.Seal(nil, noteNonce(ref, cut), plain, nil), nil
}

// openNote reads a note of the node's own.
func (s *Self) openNote(ref, cut int, note []byte) ([]byte, error) {
	aead, err := s.noteAEAD()
	if err != nil {
		return nil, err
	}
	plain, err := aead.Open(nil, noteNonce(ref, cut), note, nil)
	if err != nil || len(plain) != notePlain || int(plain[0]) > engine.MaxValueSize {
		return nil, errors.New("a note to self does not open with this node's key")
	}
	return plain[1 : 1+int(plain[0])], nil
}

type prfReader struct {
	key, label []byte
	ctr        uint32
	buf        []byte
}

func newPRF(key []byte, table [32]byte, purpose string) *prfReader {
	return &prfReader{key: key, label: append(table[:len(table):len(table)], purpose...)}
}

func (r *prfReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.buf) == 0 {
			m := hmac.New(sha256.New, r.key)
			var c [4]byte
			binary.BigEndian.PutUint32(c[:], uint32(len(r.label)))
			m.Write(c[:])
			m.Write(r.label)
			binary.BigEndian.PutUint32(c[:], r.ctr)
			m.Write(c[:])
			r.ctr++
			r.buf = m.Sum(nil)
		}
		k := copy(p[n:], r.buf)
		r.buf = r.buf[k:]
		n += k
	}
	return n, nil
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
