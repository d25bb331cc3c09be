package crypto

import (
	"errors"
	"fmt"

	"corruption/crypto/internal/group"
)

// The errors a caller can classify with errors.Is. Any error from a Verify or Parse
// function that wraps one of them means that whoever produced the input cheated or sent
// garbage; other errors mean the call itself was wrong (a seat outside the roster, an
// empty context, decks of different lengths given by the caller) or that rand failed.
var (
	// ErrNonCanonical: an encoding of the wrong length, with trailing bytes, a scalar
	// not reduced modulo ℓ, a point that is not the canonical encoding of a group
	// element, or the identity where it is not allowed.
	ErrNonCanonical = errors.New("non-canonical encoding")
	// ErrInvalidProof: a proof, an opening or a reveal that does not verify.
	ErrInvalidProof = errors.New("invalid proof")
	// ErrNotACard: a decrypted point that is none of the deck's card points.
	ErrNotACard = errors.New("not a card")
	// ErrDecrypt: a sealed box that does not decrypt (authenticate) under its key.
	ErrDecrypt = errors.New("sealed box does not decrypt")
)

// ScalarSize is the length of an encoded scalar (little-endian, reduced modulo ℓ).
const ScalarSize = 32

// A decoder reads fixed-size fields from a byte string. The first failure sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b) < n {
		d.err = fmt.Errorf("%s: truncated: %w", what, ErrNonCanonical)
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) point(p *Point, what string) {
	b := d.take(PointSize, what)
	if d.err != nil {
		return
	}
	if err := decodeElement(&p.e, b); err != nil {
		d.err = fmt.Errorf("%s: %w", what, err)
	}
}

// nonIdentity reads a point that must not be the identity.
func (d *decoder) nonIdentity(p *Point, what string) {
	d.point(p, what)
	if d.err == nil && p.IsIdentity() {
		d.err = fmt.Errorf("%s: identity element: %w", what, ErrNonCanonical)
	}
}

func (d *decoder) scalar(s *group.Scalar, what string) {
	b := d.take(ScalarSize, what)
	if d.err != nil {
		return
	}
	if _, err := s.SetCanonicalBytes(b); err != nil {
		d.err = fmt.Errorf("%s: scalar not reduced modulo the group order: %w", what, ErrNonCanonical)
	}
}

// finish reports the first failure, or trailing bytes.
func (d *decoder) finish(what string) error {
	if d.err != nil {
		return d.err
	}
	if len(d.b) != 0 {
		return fmt.Errorf("%s: %d trailing bytes: %w", what, len(d.b), ErrNonCanonical)
	}
	return nil
}

func appendPoint(b []byte, p *group.Element) []byte {
	return append(b, p.Bytes()...)
}

func appendScalar(b []byte, s *group.Scalar) []byte {
	return append(b, s.Bytes()...)
}

// A schnorrProof is the (challenge, response) form of a sigma-protocol proof with one
// secret: 64 bytes on the wire.
type schnorrProof struct {
	c, s group.Scalar
}

func (p *schnorrProof) append(b []byte) []byte {
	return appendScalar(appendScalar(b, &p.c), &p.s)
}

func (p *schnorrProof) decode(d *decoder, what string) {
	d.scalar(&p.c, what+" challenge")
	d.scalar(&p.s, what+" response")
}
