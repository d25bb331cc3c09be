package crypto

import (
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"io"

	"corruption/crypto/internal/group"
)

// The group is ristretto255 (RFC 9496), reached through crypto/internal/group, the one
// seam that names an implementation: natively github.com/gtank/ristretto255 on top of the
// edwards25519 arithmetic of filippo.io/edwards25519, in WebAssembly
// crypto/internal/ristretto32 (32-bit limbs); both write the same bytes. Ristretto gives
// a group of prime order ℓ = 2^252 + 27742317777372353535851937790883648493 with a
// canonical encoding: every 32-byte string decodes to at most one element, there is no
// torsion to strip and no cofactor to clear. We chose it over "edwards25519 plus a
// [ℓ]P == 0 check" because the check costs a full scalar multiplication per received
// point (a shuffle proof carries about a hundred points), while a ristretto decode costs
// one inverse square root, the same as a plain edwards25519 decode.
//
// Both implementations keep the representative of an element private: elements only
// leave them through their canonical encoding and are only compared with the group's
// EQUALS, so nothing in this package can observe or create a torsion component.

// Point is an element of the prime-order group ristretto255. Its zero value is not a
// valid element; use the values this package returns or SetBytes. A Point may be
// copied.
type Point struct {
	e group.Element
}

// PointSize is the length of an encoded Point.
const PointSize = 32

// Bytes returns the canonical 32-byte encoding of p.
func (p *Point) Bytes() []byte {
	return p.e.Bytes()
}

// SetBytes sets p to the element encoded by b and returns p. It fails, wrapping
// ErrNonCanonical, unless b is exactly the canonical encoding of an element. The
// identity (32 zero bytes) is accepted here; the types built on Point reject it where
// it does not belong.
func (p *Point) SetBytes(b []byte) (*Point, error) {
	if err := decodeElement(&p.e, b); err != nil {
		return nil, err
	}
	return p, nil
}

// Equal reports whether p and q are the same element.
func (p *Point) Equal(q *Point) bool { return p.e.Equal(&q.e) == 1 }

// IsIdentity reports whether p is the identity element.
func (p *Point) IsIdentity() bool { return p.e.Equal(identity) == 1 }

// String returns the hexadecimal encoding of p, for logs and test failures.
func (p *Point) String() string { return fmt.Sprintf("%x", p.Bytes()) }

var (
	identity  = group.NewIdentityElement()
	generator = group.NewGeneratorElement()
)

// decodeElement is DECODE of RFC 9496 section 4.3.1. On failure out is left as it was.
func decodeElement(out *group.Element, b []byte) error {
	if len(b) != PointSize {
		return fmt.Errorf("point of %d bytes, want %d: %w", len(b), PointSize, ErrNonCanonical)
	}
	if _, err := out.SetCanonicalBytes(b); err != nil {
		return fmt.Errorf("point %x: not the canonical encoding of a ristretto255 element: %w", b, ErrNonCanonical)
	}
	return nil
}

// fromUniformBytes is the element derivation of RFC 9496 section 4.3.4: 64 uniformly
// random bytes to an element whose discrete logarithm nobody knows.
func fromUniformBytes(out *group.Element, b *[64]byte) {
	if _, err := out.SetUniformBytes(b[:]); err != nil {
		panic(err) // unreachable: b is 64 bytes
	}
}

// hashToPoint derives the element named (label, index) under this package's domain:
// SHA-512(domain ‖ label ‖ index) mapped with fromUniformBytes.
func hashToPoint(out *group.Element, label string, index uint64) {
	h := sha512.New()
	writeLP(h, []byte(domain))
	writeLP(h, []byte(label))
	var ib [8]byte
	binary.BigEndian.PutUint64(ib[:], index)
	h.Write(ib[:])
	var sum [64]byte
	h.Sum(sum[:0])
	fromUniformBytes(out, &sum)
}

// randomScalar reads 64 bytes from rand and reduces them modulo ℓ.
func randomScalar(rand io.Reader) (*group.Scalar, error) {
	var buf [64]byte
	if _, err := io.ReadFull(rand, buf[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	return scalarFromUniform(buf[:]), nil
}

// scalarFromUniform reduces 64 bytes modulo ℓ.
func scalarFromUniform(b []byte) *group.Scalar {
	s, err := group.NewScalar().SetUniformBytes(b)
	if err != nil {
		panic(err) // unreachable: b is always 64 bytes
	}
	return s
}

// multiplyAdd sets s = x·y + z and returns s.
func multiplyAdd(s, x, y, z *group.Scalar) *group.Scalar {
	var t group.Scalar
	t.Multiply(x, y)
	return s.Add(&t, z)
}

var scalarOne = func() *group.Scalar {
	var b [ScalarSize]byte
	b[0] = 1
	s, err := group.NewScalar().SetCanonicalBytes(b[:])
	if err != nil {
		panic(err) // unreachable
	}
	return s
}()
