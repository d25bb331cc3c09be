package crypto

import (
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"

	"corruption/crypto/internal/group"
)

// domain prefixes every hash this package computes, so that nothing it hashes can be
// mistaken for a hash of another protocol or of another version of this one.
const domain = "corruption/crypto/v1"

// A Context names where in which game a proof, commitment or message belongs. Every
// Fiat–Shamir challenge absorbs the whole Context (table id, roster and step) together
// with a label for the kind of proof, the seat of its author and the whole statement,
// so a proof made for one table, step or seat fails everywhere else.
//
// All players must build the same Context for the same step: the same Table bytes, the
// same Roster in seat order and the same Step string.
type Context struct {
	// Table is the table's unique id. It must not be empty.
	Table []byte
	// Roster holds the players' identities (for example their libp2p peer ids) in seat
	// order; seat i is Roster[i]. It must not be empty.
	Roster [][]byte
	// Step names the step of the game, for example "keys", "shuffle", "round 2 deal 3".
	// Commitments to face-down cards do not absorb it (see Commit).
	Step string
}

// WithStep returns a copy of c for another step.
func (c Context) WithStep(step string) Context {
	c.Step = step
	return c
}

// check reports whether c can bind a proof by seat.
func (c Context) check(seat int) error {
	if len(c.Table) == 0 {
		return errors.New("context has no table id")
	}
	if len(c.Roster) == 0 {
		return errors.New("context has no roster")
	}
	if seat < 0 || seat >= len(c.Roster) {
		return fmt.Errorf("seat %d is not in the roster of %d seats", seat, len(c.Roster))
	}
	return nil
}

// writeTo writes the canonical encoding of c to h: the table, the roster (a count and
// each identity, length-prefixed) and, if withStep, the step.
func (c Context) writeTo(h io.Writer, withStep bool) {
	writeLP(h, c.Table)
	writeUint(h, uint64(len(c.Roster)))
	for _, id := range c.Roster {
		writeLP(h, id)
	}
	if withStep {
		writeLP(h, []byte(c.Step))
	}
}

// writeLP writes b prefixed with its length as a 64-bit big-endian integer.
func writeLP(h io.Writer, b []byte) {
	writeUint(h, uint64(len(b)))
	h.Write(b)
}

func writeUint(h io.Writer, v uint64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	h.Write(b[:])
}

// A transcript collects the input of a Fiat–Shamir challenge:
//
//	SHA-512( LP(domain) ‖ LP(label) ‖ context with step ‖ u64(seat) ‖ statement … )
//
// where LP is a 64-bit big-endian length prefix. Points and scalars are written as
// their 32-byte encodings, vectors after their length, byte strings length-prefixed.
type transcript struct {
	h hash.Hash
}

func newTranscript(label string, ctx Context, seat int) *transcript {
	t := &transcript{h: sha512.New()}
	writeLP(t.h, []byte(domain))
	writeLP(t.h, []byte(label))
	ctx.writeTo(t.h, true)
	writeUint(t.h, uint64(seat))
	return t
}

func (t *transcript) bytes(b []byte) { writeLP(t.h, b) }
func (t *transcript) uint(v uint64)  { writeUint(t.h, v) }
func (t *transcript) raw(b []byte)   { t.h.Write(b) }
func (t *transcript) point(p *Point) { t.element(&p.e) }

func (t *transcript) element(p *group.Element) { t.h.Write(p.Bytes()) }
func (t *transcript) scalar(s *group.Scalar)   { t.h.Write(s.Bytes()) }

// digest returns the hash of everything written so far, leaving t as it was.
func (t *transcript) digest() [64]byte {
	var d [64]byte
	t.h.Sum(d[:0])
	return d
}

// challenge returns the challenge scalar for everything written so far.
func (t *transcript) challenge() *group.Scalar {
	d := t.digest()
	return scalarFromUniform(d[:])
}

// challenges derives n further challenge scalars from everything written so far:
// u_i = SHA-512(digest ‖ "u" ‖ u64(i)) mod ℓ.
func (t *transcript) challenges(n int) []group.Scalar {
	d := t.digest()
	out := make([]group.Scalar, n)
	for i := range out {
		h := sha512.New()
		h.Write(d[:])
		h.Write([]byte("u"))
		writeUint(h, uint64(i))
		var sum [64]byte
		h.Sum(sum[:0])
		out[i].Set(scalarFromUniform(sum[:]))
	}
	return out
}

// nonce returns a hedged secret nonce for a Schnorr-type proof: a hash of the
// transcript so far, the secret and 32 bytes from rand. A broken rand then costs only
// zero knowledge, never the secret key, because a repeated nonce comes with a repeated
// statement and therefore a repeated challenge.
func (t *transcript) nonce(rand io.Reader, secret *group.Scalar) (*group.Scalar, error) {
	var r [32]byte
	if _, err := io.ReadFull(rand, r[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	d := t.digest()
	h := sha512.New()
	writeLP(h, []byte(domain+" nonce"))
	h.Write(d[:])
	h.Write(secret.Bytes())
	h.Write(r[:])
	var sum [64]byte
	h.Sum(sum[:0])
	return scalarFromUniform(sum[:]), nil
}
