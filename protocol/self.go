package protocol

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"

	"corruption/crypto"
)

// Self is what a node knows that others do not: its identity key and a secret seed for the
// table. All of its randomness at the table is derived from the seed and a label, so that a
// node restarted from its log and its seed recomputes every secret it had (its ElGamal key,
// commitment openings, which card lies behind each of its face-down commitments) and, should
// it rewrite an entry it had written before a crash, writes the very same bytes.
type Self struct {
	Identity ed25519.PrivateKey
	Seed     [32]byte

	seat    int
	table   [32]byte // the table's id: every derived secret is bound to it
	elgamal *crypto.PrivateKey
}

// NewSelf makes a Self from an identity key and a table seed (32 random bytes kept secret).
func NewSelf(identity ed25519.PrivateKey, seed [32]byte) *Self {
	return &Self{Identity: identity, Seed: seed, seat: -1}
}

// Seat is the node's seat at its table (-1 before the table is known).
func (s *Self) Seat() int { return s.seat }

// Public is the identity public key.
func (s *Self) Public() ed25519.PublicKey { return s.Identity.Public().(ed25519.PublicKey) }

// rand is the deterministic random stream for one purpose at this table: blocks
// HMAC-SHA256(seed, u32(len(label)) ‖ label ‖ u32(counter)) where label is the table id
// followed by the purpose. Binding the table id means that a seed reused by mistake for another
// table (a data directory and table name used again) still gives fresh secrets.
func (s *Self) rand(format string, args ...any) io.Reader {
	return &prfReader{key: s.Seed[:], label: append(s.table[:len(s.table):len(s.table)], fmt.Sprintf(format, args...)...)}
}

func (s *Self) elgamalKey() (*crypto.PrivateKey, error) {
	if s.elgamal == nil {
		k, err := crypto.GenerateKey(s.rand("elgamal key"))
		if err != nil {
			return nil, err
		}
		s.elgamal = k
	}
	return s.elgamal, nil
}

type prfReader struct {
	key, label []byte
	ctr        uint32
	buf        []byte
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
