// Package ristretto32 is the prime-order group ristretto255 (RFC 9496) on field
// arithmetic whose limb products fit 64 bits: ten limbs of 26 and 25 bits (radix 2^25.5,
// as in ref10 and curve25519-dalek's u32 backend). It is written for WebAssembly, where
// Go has no 64×64→128-bit multiply and filippo.io/edwards25519's 51-bit limbs are
// multiplied by software; it builds and is tested on every architecture, and
// crypto/internal/group selects it for GOARCH=wasm only.
//
// Element has the method set of github.com/gtank/ristretto255's Element (the one crypto
// uses) and takes its Scalar, so that the two are interchangeable behind
// crypto/internal/group; every byte either writes is the same, which the tests check
// against the native implementation and RFC 9496's vectors.
//
// Constant time: encoding, decoding, equality, addition, ScalarMult, ScalarBaseMult and
// MultiScalarMult neither branch on nor index memory by secret values (field operations
// are straight-line code, selections use masks, table lookups read every entry).
// Functions named VarTime branch on their scalars and must only see public values.
package ristretto32

import (
	"errors"

	"github.com/gtank/ristretto255"
)

// Scalar is the scalar type this package multiplies by: gtank/ristretto255's.
type Scalar = ristretto255.Scalar

// Element is an element of ristretto255, held as one of its edwards25519
// representatives. Its zero value is not a valid element: start from NewElement,
// NewIdentityElement, NewGeneratorElement or a decoder. An Element may be copied.
type Element struct{ r point }

// NewElement returns a new Element set to the identity.
func NewElement() *Element { return NewIdentityElement() }

// NewIdentityElement returns a new Element set to the identity.
func NewIdentityElement() *Element {
	e := &Element{}
	e.r.setIdentity()
	return e
}

// NewGeneratorElement returns a new Element set to the generator of RFC 9496.
func NewGeneratorElement() *Element {
	e := &Element{}
	return e.Set(&generator)
}

// generator is the ristretto255 generator, decoded from its encoding at start-up.
var generator = func() Element {
	var e Element
	if _, err := e.SetCanonicalBytes(generatorEncoded[:]); err != nil {
		panic("ristretto32: the generator does not decode")
	}
	return e
}()

// Set sets e = x and returns e.
func (e *Element) Set(x *Element) *Element {
	*e = *x
	return e
}

// Zero sets e to the identity and returns e.
func (e *Element) Zero() *Element {
	e.r.setIdentity()
	return e
}

// Base sets e to the generator and returns e.
func (e *Element) Base() *Element { return e.Set(&generator) }

// Equal returns 1 if e and x are the same element, 0 otherwise (RFC 9496 section 4.3.3:
// X1·Y2 == Y1·X2 or Y1·Y2 == X1·X2).
func (e *Element) Equal(x *Element) int {
	var a, b, c, d fe
	a.mul(&e.r.x, &x.r.y)
	b.mul(&e.r.y, &x.r.x)
	c.mul(&e.r.y, &x.r.y)
	d.mul(&e.r.x, &x.r.x)
	return a.equal(&b) | c.equal(&d)
}

// errNotCanonical is every decoding failure (crypto reports its own error, naming the input).
var errNotCanonical = errors.New("ristretto32: invalid element encoding")

// SetCanonicalBytes sets e to the element encoded by b (DECODE, RFC 9496 section
// 4.3.1) and returns e. It fails, leaving e unchanged, unless b is 32 bytes and the
// canonical encoding of an element.
func (e *Element) SetCanonicalBytes(b []byte) (*Element, error) {
	if len(b) != 32 {
		return nil, errNotCanonical
	}
	var in [32]byte
	copy(in[:], b)
	var s fe
	s.setBytes(&in)
	// s must be below p (bytes() gives back in, its top bit clear) and non-negative.
	if back := s.bytes(); back != in || s.isNegative() == 1 {
		return nil, errNotCanonical
	}
	var ss, u1, u2, u2sq, v, t, invSqrt, denX, denY, x, y, tt fe
	ss.square(&s)
	u1.sub(&feOne, &ss)
	u2.add(&feOne, &ss)
	u2sq.square(&u2)
	v.square(&u1)
	v.mul(&v, &feD)
	v.neg(&v)
	v.sub(&v, &u2sq) // v = −(D·u1²) − u2²
	t.mul(&v, &u2sq)
	wasSquare := invSqrt.sqrtRatioM1(&feOne, &t)
	denX.mul(&invSqrt, &u2)
	denY.mul(&invSqrt, &denX)
	denY.mul(&denY, &v)
	x.add(&s, &s)
	x.mul(&x, &denX)
	x.abs(&x)
	y.mul(&u1, &denY)
	tt.mul(&x, &y)
	if wasSquare == 0 || tt.isNegative() == 1 || y.isZero() == 1 {
		return nil, errNotCanonical
	}
	e.r = point{x: x, y: y, z: feOne, t: tt}
	return e, nil
}

// Bytes returns the canonical 32-byte encoding of e (ENCODE, RFC 9496 section 4.3.2).
func (e *Element) Bytes() []byte {
	b := e.encode()
	return b[:]
}

// encode is ENCODE of RFC 9496 section 4.3.2, step by step, with masked selections.
func (e *Element) encode() [32]byte {
	p := &e.r
	var u1, u2, t, invSqrt, den1, den2, zInv, ix, iy, enchanted, x, y, denInv, s fe
	t.add(&p.z, &p.y)
	u1.sub(&p.z, &p.y)
	u1.mul(&u1, &t) // (z0 + y0)·(z0 − y0)
	u2.mul(&p.x, &p.y)
	t.square(&u2)
	t.mul(&t, &u1)
	invSqrt.sqrtRatioM1(&feOne, &t)
	den1.mul(&invSqrt, &u1)
	den2.mul(&invSqrt, &u2)
	zInv.mul(&den1, &den2)
	zInv.mul(&zInv, &p.t)
	ix.mul(&p.x, &sqrtM1)
	iy.mul(&p.y, &sqrtM1)
	enchanted.mul(&den1, &invSqrtAMinusD)
	t.mul(&p.t, &zInv)
	rotate := t.isNegative()
	x.selectFe(&iy, &p.x, rotate)
	y.selectFe(&ix, &p.y, rotate)
	denInv.selectFe(&enchanted, &den2, rotate)
	t.mul(&x, &zInv)
	y.condNeg(&y, t.isNegative())
	s.sub(&p.z, &y)
	s.mul(&s, &denInv)
	s.abs(&s)
	return s.bytes()
}

// String returns the hexadecimal encoding of e.
func (e *Element) String() string {
	const digits = "0123456789abcdef"
	b := e.encode()
	out := make([]byte, 64)
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// SetUniformBytes sets e to the element derived from 64 uniformly random bytes
// (FROM_UNIFORM_BYTES, RFC 9496 section 4.3.4) and returns e; it fails unless b is 64
// bytes long.
func (e *Element) SetUniformBytes(b []byte) (*Element, error) {
	if len(b) != 64 {
		return nil, errors.New("ristretto32: SetUniformBytes input is not 64 bytes long")
	}
	var r0, r1 [32]byte
	copy(r0[:], b[:32])
	copy(r1[:], b[32:])
	var t0, t1 fe
	t0.setBytes(&r0) // setBytes masks bit 255, as the RFC asks
	t1.setBytes(&r1)
	var p0, p1 point
	mapToPoint(&p0, &t0)
	mapToPoint(&p1, &t1)
	var c cached
	e.r.addCached(&p0, c.fromPoint(&p1))
	return e, nil
}

// mapToPoint is MAP of RFC 9496 section 4.3.4.
func mapToPoint(out *point, t *fe) {
	var r, u, v, tmp, s, sPrime, c, n, w0, w1, w2, w3, ss, minusOne fe
	r.square(t)
	r.mul(&r, &sqrtM1)
	u.add(&r, &feOne)
	u.mul(&u, &oneMinusDSq)
	minusOne.neg(&feOne)
	tmp.mul(&r, &feD)
	v.sub(&minusOne, &tmp) // −1 − r·D
	tmp.add(&r, &feD)
	v.mul(&v, &tmp)
	wasSquare := s.sqrtRatioM1(&u, &v)
	sPrime.mul(&s, t)
	sPrime.abs(&sPrime)
	sPrime.neg(&sPrime)
	s.selectFe(&s, &sPrime, wasSquare)
	c.selectFe(&minusOne, &r, wasSquare)
	tmp.sub(&r, &feOne)
	n.mul(&c, &tmp)
	n.mul(&n, &dMinusOneSq)
	n.sub(&n, &v)
	w0.add(&s, &s)
	w0.mul(&w0, &v)
	w1.mul(&n, &sqrtADMinusOne)
	ss.square(&s)
	w2.sub(&feOne, &ss)
	w3.add(&feOne, &ss)
	out.x.mul(&w0, &w3)
	out.y.mul(&w2, &w1)
	out.z.mul(&w1, &w3)
	out.t.mul(&w0, &w2)
}

// Add sets e = p + q and returns e.
func (e *Element) Add(p, q *Element) *Element {
	var c cached
	e.r.addCached(&p.r, c.fromPoint(&q.r))
	return e
}

// Subtract sets e = p − q and returns e.
func (e *Element) Subtract(p, q *Element) *Element {
	var c cached
	e.r.subCached(&p.r, c.fromPoint(&q.r))
	return e
}

// Negate sets e = −p and returns e.
func (e *Element) Negate(p *Element) *Element {
	e.r.negate(&p.r)
	return e
}
