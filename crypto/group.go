package crypto

import (
	"bytes"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

// The group is ristretto255 (RFC 9496) built on the edwards25519 arithmetic of
// filippo.io/edwards25519. Ristretto gives a group of prime order
// ℓ = 2^252 + 27742317777372353535851937790883648493 with a canonical encoding: every
// 32-byte string decodes to at most one element, there is no torsion to strip and no
// cofactor to clear. We chose it over "edwards25519 plus a [ℓ]P == 0 check" because the
// check costs a full scalar multiplication per received point (about 55 µs here; a
// shuffle proof carries about a hundred points), while a ristretto decode costs one
// inverse square root, the same as a plain edwards25519 decode.
//
// Internally an element is an edwards25519.Point that represents its coset modulo the
// 4-torsion, so two representatives of one element may differ as edwards points: they
// must only be compared with ristrettoEqual and only leave the package through
// ristrettoEncode.

// Point is an element of the prime-order group ristretto255. Its zero value is not a
// valid element; use the values this package returns or SetBytes. A Point may be
// copied.
type Point struct {
	e edwards25519.Point
}

// PointSize is the length of an encoded Point.
const PointSize = 32

// Bytes returns the canonical 32-byte encoding of p.
func (p *Point) Bytes() []byte {
	var out [PointSize]byte
	ristrettoEncode(&out, &p.e)
	return out[:]
}

// SetBytes sets p to the element encoded by b and returns p. It fails, wrapping
// ErrNonCanonical, unless b is exactly the canonical encoding of an element. The
// identity (32 zero bytes) is accepted here; the types built on Point reject it where
// it does not belong.
func (p *Point) SetBytes(b []byte) (*Point, error) {
	if err := ristrettoDecode(&p.e, b); err != nil {
		return nil, err
	}
	return p, nil
}

// Equal reports whether p and q are the same element.
func (p *Point) Equal(q *Point) bool { return ristrettoEqual(&p.e, &q.e) }

// IsIdentity reports whether p is the identity element.
func (p *Point) IsIdentity() bool { return ristrettoEqual(&p.e, identity) }

// String returns the hexadecimal encoding of p, for logs and test failures.
func (p *Point) String() string { return fmt.Sprintf("%x", p.Bytes()) }

var (
	identity  = edwards25519.NewIdentityPoint()
	generator = edwards25519.NewGeneratorPoint() // also the ristretto255 generator

	feOne          = new(field.Element).One()
	feMinusOne     = new(field.Element).Negate(feOne)
	curveD         = feDecimal("37095705934669439343138083508754565189542113879843219016388785533085940283555")
	sqrtM1         = feDecimal("19681161376707505956807079304988542015446066515923890162744021073123829784752")
	sqrtADMinusOne = feDecimal("25063068953384623474111414158702152701244531502492656460079210482610430750235")
	invSqrtAMinusD = feDecimal("54469307008909316920995813868745141605393597292927456921205312896311721017578")
	oneMinusDSq    = feDecimal("1159843021668779879193775521855586647937357759715417654439879720876111806838")
	dMinusOneSq    = feDecimal("40440834346308536858101042469323190826248399146238708352240133220865137265952")
)

// feDecimal parses a constant of RFC 9496 section 4.1, written in decimal there. The
// tests check each constant against its definition.
func feDecimal(s string) *field.Element {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("crypto: bad field constant " + s)
	}
	var le [32]byte
	n.FillBytes(le[:])
	for i := 0; i < 16; i++ {
		le[i], le[31-i] = le[31-i], le[i]
	}
	fe, err := new(field.Element).SetBytes(le[:])
	if err != nil {
		panic(err)
	}
	return fe
}

// ristrettoDecode is DECODE of RFC 9496 section 4.3.1.
func ristrettoDecode(out *edwards25519.Point, b []byte) error {
	if len(b) != PointSize {
		return fmt.Errorf("point of %d bytes, want %d: %w", len(b), PointSize, ErrNonCanonical)
	}
	s, err := new(field.Element).SetBytes(b)
	if err != nil {
		return fmt.Errorf("point: %w", ErrNonCanonical)
	}
	// SetBytes ignores the top bit and reduces values ≥ p; both are non-canonical.
	if !bytes.Equal(s.Bytes(), b) || s.IsNegative() == 1 {
		return fmt.Errorf("point %x: non-canonical field element: %w", b, ErrNonCanonical)
	}
	ss := new(field.Element).Square(s)
	u1 := new(field.Element).Subtract(feOne, ss)
	u2 := new(field.Element).Add(feOne, ss)
	u2Sq := new(field.Element).Square(u2)
	v := new(field.Element).Square(u1)
	v.Multiply(v, curveD)
	v.Negate(v)
	v.Subtract(v, u2Sq)
	invSqrt, wasSquare := new(field.Element).SqrtRatio(feOne, new(field.Element).Multiply(v, u2Sq))
	denX := new(field.Element).Multiply(invSqrt, u2)
	denY := new(field.Element).Multiply(invSqrt, denX)
	denY.Multiply(denY, v)
	x := new(field.Element).Multiply(s, denX)
	x.Add(x, x)
	x.Absolute(x)
	y := new(field.Element).Multiply(u1, denY)
	t := new(field.Element).Multiply(x, y)
	if wasSquare == 0 || t.IsNegative() == 1 || y.Equal(new(field.Element)) == 1 {
		return fmt.Errorf("point %x: not a ristretto255 encoding: %w", b, ErrNonCanonical)
	}
	if _, err := out.SetExtendedCoordinates(x, y, feOne, t); err != nil {
		return fmt.Errorf("point %x: %w", b, ErrNonCanonical)
	}
	return nil
}

// ristrettoEncode is ENCODE of RFC 9496 section 4.3.2.
func ristrettoEncode(out *[32]byte, p *edwards25519.Point) {
	x0, y0, z0, t0 := p.ExtendedCoordinates()
	u1 := new(field.Element).Add(z0, y0)
	u1.Multiply(u1, new(field.Element).Subtract(z0, y0))
	u2 := new(field.Element).Multiply(x0, y0)
	rad := new(field.Element).Square(u2)
	rad.Multiply(rad, u1)
	invSqrt, _ := new(field.Element).SqrtRatio(feOne, rad)
	den1 := new(field.Element).Multiply(invSqrt, u1)
	den2 := new(field.Element).Multiply(invSqrt, u2)
	zInv := new(field.Element).Multiply(den1, den2)
	zInv.Multiply(zInv, t0)
	ix0 := new(field.Element).Multiply(x0, sqrtM1)
	iy0 := new(field.Element).Multiply(y0, sqrtM1)
	enchanted := new(field.Element).Multiply(den1, invSqrtAMinusD)
	rotate := new(field.Element).Multiply(t0, zInv).IsNegative()
	x := new(field.Element).Select(iy0, x0, rotate)
	y := new(field.Element).Select(ix0, y0, rotate)
	denInv := new(field.Element).Select(enchanted, den2, rotate)
	negY := new(field.Element).Negate(y)
	y.Select(negY, y, new(field.Element).Multiply(x, zInv).IsNegative())
	s := new(field.Element).Subtract(z0, y)
	s.Multiply(s, denInv)
	s.Absolute(s)
	copy(out[:], s.Bytes())
}

// ristrettoEqual is EQUALS of RFC 9496 section 4.3.3.
func ristrettoEqual(p, q *edwards25519.Point) bool {
	x1, y1, _, _ := p.ExtendedCoordinates()
	x2, y2, _, _ := q.ExtendedCoordinates()
	a := new(field.Element).Multiply(x1, y2)
	b := new(field.Element).Multiply(y1, x2)
	c := new(field.Element).Multiply(y1, y2)
	d := new(field.Element).Multiply(x1, x2)
	return a.Equal(b)|c.Equal(d) == 1
}

// elligator is MAP of RFC 9496 section 4.3.4: a one-way map from 32 bytes to the group.
func elligator(out *edwards25519.Point, b []byte) {
	r0, _ := new(field.Element).SetBytes(b) // masks the top bit and reduces, as MAP wants
	r := new(field.Element).Square(r0)
	r.Multiply(r, sqrtM1)
	ns := new(field.Element).Add(r, feOne)
	ns.Multiply(ns, oneMinusDSq)
	c := new(field.Element).Set(feMinusOne)
	dd := new(field.Element).Multiply(curveD, r)
	dd.Subtract(c, dd)
	dd.Multiply(dd, new(field.Element).Add(r, curveD))
	s, wasSquare := new(field.Element).SqrtRatio(ns, dd)
	sPrime := new(field.Element).Multiply(s, r0)
	sPrime.Absolute(sPrime)
	sPrime.Negate(sPrime)
	s.Select(s, sPrime, wasSquare)
	c.Select(c, r, wasSquare)
	nt := new(field.Element).Subtract(r, feOne)
	nt.Multiply(nt, c)
	nt.Multiply(nt, dMinusOneSq)
	nt.Subtract(nt, dd)
	sSq := new(field.Element).Square(s)
	w0 := new(field.Element).Multiply(s, dd)
	w0.Add(w0, w0)
	w1 := new(field.Element).Multiply(nt, sqrtADMinusOne)
	w2 := new(field.Element).Subtract(feOne, sSq)
	w3 := new(field.Element).Add(feOne, sSq)
	X := new(field.Element).Multiply(w0, w3)
	Y := new(field.Element).Multiply(w2, w1)
	Z := new(field.Element).Multiply(w1, w3)
	T := new(field.Element).Multiply(w0, w2)
	if _, err := out.SetExtendedCoordinates(X, Y, Z, T); err != nil {
		panic("crypto: elligator produced a point off the curve") // unreachable
	}
}

// fromUniformBytes is the element derivation of RFC 9496 section 4.3.4: 64 uniformly
// random bytes to an element whose discrete logarithm nobody knows.
func fromUniformBytes(out *edwards25519.Point, b *[64]byte) {
	var p1, p2 edwards25519.Point
	elligator(&p1, b[:32])
	elligator(&p2, b[32:])
	out.Add(&p1, &p2)
}

// hashToPoint derives the element named (label, index) under this package's domain:
// SHA-512(domain ‖ label ‖ index) mapped with fromUniformBytes.
func hashToPoint(out *edwards25519.Point, label string, index uint64) {
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
func randomScalar(rand io.Reader) (*edwards25519.Scalar, error) {
	var buf [64]byte
	if _, err := io.ReadFull(rand, buf[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	return edwards25519.NewScalar().SetUniformBytes(buf[:])
}

// scalarFromUniform reduces 64 bytes modulo ℓ.
func scalarFromUniform(b []byte) *edwards25519.Scalar {
	s, err := edwards25519.NewScalar().SetUniformBytes(b)
	if err != nil {
		panic(err) // b is always 64 bytes
	}
	return s
}
