package ristretto32

import (
	"crypto/subtle"
	"encoding/binary"
)

// fe is an element of the field GF(p), p = 2^255 − 19, in radix 2^25.5 (as in ref10):
// the value Σ l[i]·2^⌈25.5·i⌉, ten limbs at bit offsets 0, 26, 51, 77, 102, 128, 153,
// 179, 204, 230, of 26 bits (even i) and 25 bits (odd i).
//
// Every function here takes "carried" inputs and returns carried outputs: each limb below
// 2^26 (even i) or 2^25 (odd i), except limb 1, which may exceed 2^25 by less than 2^16.
// A carried value is below 2p but not necessarily below p; bytes reduces it fully.
// With carried inputs every product of two limbs, even scaled by 2·19, is below 2^58,
// and each output limb of mul sums ten of them: below 2^62, so uint64 never overflows.
//
// Nothing here branches on or indexes memory by the value of an element: these
// functions are constant time whatever the inputs.
type fe [10]uint32

var (
	feZero = fe{}
	feOne  = fe{1}
)

// carry propagates h (limbs below 2^62) into a carried fe.
func (v *fe) carry(h *[10]uint64) {
	h[1] += h[0] >> 26
	h[0] &= 1<<26 - 1
	h[2] += h[1] >> 25
	h[1] &= 1<<25 - 1
	h[3] += h[2] >> 26
	h[2] &= 1<<26 - 1
	h[4] += h[3] >> 25
	h[3] &= 1<<25 - 1
	h[5] += h[4] >> 26
	h[4] &= 1<<26 - 1
	h[6] += h[5] >> 25
	h[5] &= 1<<25 - 1
	h[7] += h[6] >> 26
	h[6] &= 1<<26 - 1
	h[8] += h[7] >> 25
	h[7] &= 1<<25 - 1
	h[9] += h[8] >> 26
	h[8] &= 1<<26 - 1
	h[0] += 19 * (h[9] >> 25) // 2^255 = 19 mod p
	h[9] &= 1<<25 - 1
	h[1] += h[0] >> 26 // below 2^16: limb 1 stays under 2^25 + 2^16
	h[0] &= 1<<26 - 1
	for i := range v {
		v[i] = uint32(h[i])
	}
}

// carry32 is carry for limbs below 2^31 (sums and differences of carried values).
func (v *fe) carry32(h *[10]uint32) {
	var w [10]uint64
	for i := range h {
		w[i] = uint64(h[i])
	}
	v.carry(&w)
}

// add sets v = a + b.
func (v *fe) add(a, b *fe) *fe {
	var h [10]uint32
	for i := range h {
		h[i] = a[i] + b[i]
	}
	v.carry32(&h)
	return v
}

// fourP is 4p in radix 2^25.5: each limb of it exceeds the same limb of any carried value.
var fourP = [10]uint32{
	4 * (1<<26 - 19), 4 * (1<<25 - 1), 4 * (1<<26 - 1), 4 * (1<<25 - 1), 4 * (1<<26 - 1),
	4 * (1<<25 - 1), 4 * (1<<26 - 1), 4 * (1<<25 - 1), 4 * (1<<26 - 1), 4 * (1<<25 - 1),
}

// sub sets v = a − b, computed as a + 4p − b so that no limb goes below zero.
func (v *fe) sub(a, b *fe) *fe {
	var h [10]uint32
	for i := range h {
		h[i] = a[i] + fourP[i] - b[i]
	}
	v.carry32(&h)
	return v
}

// neg sets v = −a.
func (v *fe) neg(a *fe) *fe { return v.sub(&feZero, a) }

// mul sets v = a·b. A limb product a_i·b_j weighs 2^(⌈25.5i⌉+⌈25.5j⌉), which is twice
// the weight of limb i+j when i and j are both odd; past limb 9 it wraps with 2^255 = 19.
func (v *fe) mul(a, b *fe) *fe {
	a0, b0 := uint64(a[0]), uint64(b[0])
	a1, b1 := uint64(a[1]), uint64(b[1])
	a2, b2 := uint64(a[2]), uint64(b[2])
	a3, b3 := uint64(a[3]), uint64(b[3])
	a4, b4 := uint64(a[4]), uint64(b[4])
	a5, b5 := uint64(a[5]), uint64(b[5])
	a6, b6 := uint64(a[6]), uint64(b[6])
	a7, b7 := uint64(a[7]), uint64(b[7])
	a8, b8 := uint64(a[8]), uint64(b[8])
	a9, b9 := uint64(a[9]), uint64(b[9])
	a1_2 := 2 * a1
	a3_2 := 2 * a3
	a5_2 := 2 * a5
	a7_2 := 2 * a7
	a9_2 := 2 * a9
	b1_19 := 19 * b1
	b2_19 := 19 * b2
	b3_19 := 19 * b3
	b4_19 := 19 * b4
	b5_19 := 19 * b5
	b6_19 := 19 * b6
	b7_19 := 19 * b7
	b8_19 := 19 * b8
	b9_19 := 19 * b9
	h0 := a0*b0 + a1_2*b9_19 + a2*b8_19 + a3_2*b7_19 + a4*b6_19 + a5_2*b5_19 + a6*b4_19 + a7_2*b3_19 + a8*b2_19 + a9_2*b1_19
	h1 := a0*b1 + a1*b0 + a2*b9_19 + a3*b8_19 + a4*b7_19 + a5*b6_19 + a6*b5_19 + a7*b4_19 + a8*b3_19 + a9*b2_19
	h2 := a0*b2 + a1_2*b1 + a2*b0 + a3_2*b9_19 + a4*b8_19 + a5_2*b7_19 + a6*b6_19 + a7_2*b5_19 + a8*b4_19 + a9_2*b3_19
	h3 := a0*b3 + a1*b2 + a2*b1 + a3*b0 + a4*b9_19 + a5*b8_19 + a6*b7_19 + a7*b6_19 + a8*b5_19 + a9*b4_19
	h4 := a0*b4 + a1_2*b3 + a2*b2 + a3_2*b1 + a4*b0 + a5_2*b9_19 + a6*b8_19 + a7_2*b7_19 + a8*b6_19 + a9_2*b5_19
	h5 := a0*b5 + a1*b4 + a2*b3 + a3*b2 + a4*b1 + a5*b0 + a6*b9_19 + a7*b8_19 + a8*b7_19 + a9*b6_19
	h6 := a0*b6 + a1_2*b5 + a2*b4 + a3_2*b3 + a4*b2 + a5_2*b1 + a6*b0 + a7_2*b9_19 + a8*b8_19 + a9_2*b7_19
	h7 := a0*b7 + a1*b6 + a2*b5 + a3*b4 + a4*b3 + a5*b2 + a6*b1 + a7*b0 + a8*b9_19 + a9*b8_19
	h8 := a0*b8 + a1_2*b7 + a2*b6 + a3_2*b5 + a4*b4 + a5_2*b3 + a6*b2 + a7_2*b1 + a8*b0 + a9_2*b9_19
	h9 := a0*b9 + a1*b8 + a2*b7 + a3*b6 + a4*b5 + a5*b4 + a6*b3 + a7*b2 + a8*b1 + a9*b0
	h := [10]uint64{h0, h1, h2, h3, h4, h5, h6, h7, h8, h9}
	v.carry(&h)
	return v
}

// square sets v = a², with the products a_i·a_j (i ≠ j) counted once and doubled.
func (v *fe) square(a *fe) *fe {
	a0 := uint64(a[0])
	a1 := uint64(a[1])
	a2 := uint64(a[2])
	a3 := uint64(a[3])
	a4 := uint64(a[4])
	a5 := uint64(a[5])
	a6 := uint64(a[6])
	a7 := uint64(a[7])
	a8 := uint64(a[8])
	a9 := uint64(a[9])
	a1_2 := 2 * a1
	a2_2 := 2 * a2
	a3_2 := 2 * a3
	a3_4 := 4 * a3
	a4_2 := 2 * a4
	a5_2 := 2 * a5
	a5_4 := 4 * a5
	a5_38 := 38 * a5
	a6_2 := 2 * a6
	a6_19 := 19 * a6
	a6_38 := 38 * a6
	a7_2 := 2 * a7
	a7_4 := 4 * a7
	a7_38 := 38 * a7
	a7_76 := 76 * a7
	a8_2 := 2 * a8
	a8_19 := 19 * a8
	a8_38 := 38 * a8
	a9_2 := 2 * a9
	a9_38 := 38 * a9
	a9_76 := 76 * a9
	h0 := a0*a0 + a1*a9_76 + a2*a8_38 + a3*a7_76 + a4*a6_38 + a5*a5_38
	h1 := a0*a1_2 + a2*a9_38 + a3*a8_38 + a4*a7_38 + a5*a6_38
	h2 := a0*a2_2 + a1*a1_2 + a3*a9_76 + a4*a8_38 + a5*a7_76 + a6*a6_19
	h3 := a0*a3_2 + a1*a2_2 + a4*a9_38 + a5*a8_38 + a6*a7_38
	h4 := a0*a4_2 + a1*a3_4 + a2*a2 + a5*a9_76 + a6*a8_38 + a7*a7_38
	h5 := a0*a5_2 + a1*a4_2 + a2*a3_2 + a6*a9_38 + a7*a8_38
	h6 := a0*a6_2 + a1*a5_4 + a2*a4_2 + a3*a3_2 + a7*a9_76 + a8*a8_19
	h7 := a0*a7_2 + a1*a6_2 + a2*a5_2 + a3*a4_2 + a8*a9_38
	h8 := a0*a8_2 + a1*a7_4 + a2*a6_2 + a3*a5_4 + a4*a4 + a9*a9_38
	h9 := a0*a9_2 + a1*a8_2 + a2*a7_2 + a3*a6_2 + a4*a5_2
	h := [10]uint64{h0, h1, h2, h3, h4, h5, h6, h7, h8, h9}
	v.carry(&h)
	return v
}

// limbOffsets are the bit offsets of the ten limbs; limbBits their widths.
var (
	limbOffsets = [10]uint{0, 26, 51, 77, 102, 128, 153, 179, 204, 230}
	limbBits    = [10]uint{26, 25, 26, 25, 26, 25, 26, 25, 26, 25}
)

// setBytes sets v to the little-endian 32-byte b with its top bit (bit 255) ignored, as
// RFC 9496 reads field elements; values from p to 2^255 − 1 are accepted and reduced,
// so callers that need canonical input compare bytes() with b.
func (v *fe) setBytes(b *[32]byte) *fe {
	var w [5]uint64 // w[4] = 0 lets a limb's bits straddle the last word
	for i := 0; i < 4; i++ {
		w[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	w[3] &= 1<<63 - 1
	var h [10]uint32
	for i := range h {
		word, shift := limbOffsets[i]/64, limbOffsets[i]%64
		x := w[word] >> shift
		if shift+limbBits[i] > 64 {
			x |= w[word+1] << (64 - shift)
		}
		h[i] = uint32(x) & (1<<limbBits[i] - 1)
	}
	*v = h
	return v
}

// bytes returns the canonical (fully reduced, below p) little-endian encoding of v.
func (v *fe) bytes() [32]byte {
	// q = 1 exactly when v ≥ p, that is when v + 19 reaches 2^255 (v is below 2p).
	h := *v
	q := (h[0] + 19) >> 26
	for i := 1; i < 10; i++ {
		q = (h[i] + q) >> limbBits[i]
	}
	// v − q·p = v + 19q − q·2^255: add 19q, carry, drop bit 255.
	h[0] += 19 * q
	for i := 0; i < 9; i++ {
		h[i+1] += h[i] >> limbBits[i]
		h[i] &= 1<<limbBits[i] - 1
	}
	h[9] &= 1<<25 - 1
	var w [4]uint64
	for i := range h {
		word, shift := limbOffsets[i]/64, limbOffsets[i]%64
		w[word] |= uint64(h[i]) << shift
		if shift+limbBits[i] > 64 {
			w[word+1] |= uint64(h[i]) >> (64 - shift)
		}
	}
	var out [32]byte
	for i := range w {
		binary.LittleEndian.PutUint64(out[8*i:], w[i])
	}
	return out
}

// equal returns 1 if a and b are the same field element, 0 otherwise.
func (v *fe) equal(b *fe) int {
	x, y := v.bytes(), b.bytes()
	return subtle.ConstantTimeCompare(x[:], y[:])
}

// isZero returns 1 if v is zero, 0 otherwise.
func (v *fe) isZero() int { return v.equal(&feZero) }

// isNegative returns 1 if v is negative in the sense of RFC 9496 (its canonical
// encoding is odd), 0 otherwise.
func (v *fe) isNegative() int {
	b := v.bytes()
	return int(b[0] & 1)
}

// selectFe sets v = a if cond == 1, b if cond == 0, without branching on cond.
func (v *fe) selectFe(a, b *fe, cond int) *fe {
	m := -uint32(cond) // all ones or zero
	for i := range v {
		v[i] = b[i] ^ (m & (a[i] ^ b[i]))
	}
	return v
}

// condNeg sets v = −a if cond == 1, a if cond == 0.
func (v *fe) condNeg(a *fe, cond int) *fe {
	var n fe
	n.neg(a)
	return v.selectFe(&n, a, cond)
}

// abs sets v = |a|, the non-negative one of a and −a.
func (v *fe) abs(a *fe) *fe { return v.condNeg(a, a.isNegative()) }

// squareN sets v = a^(2^n), n ≥ 1.
func (v *fe) squareN(a *fe, n int) *fe {
	v.square(a)
	for i := 1; i < n; i++ {
		v.square(v)
	}
	return v
}

// pow2250 returns a^(2^250 − 1) and a^11, the common part of invert and pow22523.
func pow2250(a *fe) (z2250, z11 fe) {
	var z2, z9, z31, t, z10, z20, z50, z100 fe
	z2.square(a)
	t.squareN(&z2, 2)
	z9.mul(&t, a)
	z11.mul(&z9, &z2)
	t.square(&z11)
	z31.mul(&t, &z9) // 2^5 − 1
	t.squareN(&z31, 5)
	z10.mul(&t, &z31) // 2^10 − 1
	t.squareN(&z10, 10)
	z20.mul(&t, &z10) // 2^20 − 1
	t.squareN(&z20, 20)
	t.mul(&t, &z20) // 2^40 − 1
	t.squareN(&t, 10)
	z50.mul(&t, &z10) // 2^50 − 1
	t.squareN(&z50, 50)
	z100.mul(&t, &z50) // 2^100 − 1
	t.squareN(&z100, 100)
	t.mul(&t, &z100) // 2^200 − 1
	t.squareN(&t, 50)
	z2250.mul(&t, &z50) // 2^250 − 1
	return z2250, z11
}

// invert sets v = 1/a = a^(p−2) = a^((2^250 − 1)·2^5 + 11); the inverse of zero is zero.
func (v *fe) invert(a *fe) *fe {
	z2250, z11 := pow2250(a)
	var t fe
	t.squareN(&z2250, 5)
	return v.mul(&t, &z11)
}

// pow22523 sets v = a^((p−5)/8) = a^((2^250 − 1)·4 + 1).
func (v *fe) pow22523(a *fe) *fe {
	z2250, _ := pow2250(a)
	var t fe
	t.squareN(&z2250, 2)
	return v.mul(&t, a)
}

// sqrtRatioM1 is SQRT_RATIO_M1 of RFC 9496 section 4.2: it sets r to the non-negative
// square root of u/v if u/v is a square (and returns 1), else to the non-negative
// square root of SQRT_M1·u/v (and returns 0). With u = 0 it returns 1 and r = 0; with
// v = 0 and u ≠ 0 it returns 0 and r = 0.
func (r *fe) sqrtRatioM1(u, v *fe) int {
	var v3, v7, t, check, uNeg, uNegI, rPrime fe
	v3.square(v)
	v3.mul(&v3, v) // v³
	v7.square(&v3)
	v7.mul(&v7, v) // v⁷
	t.mul(u, &v7)
	t.pow22523(&t) // (u·v⁷)^((p−5)/8)
	t.mul(&t, &v3)
	t.mul(&t, u) // r = u·v³·(u·v⁷)^((p−5)/8)
	check.square(&t)
	check.mul(&check, v)
	uNeg.neg(u)
	uNegI.mul(&uNeg, &sqrtM1)
	correct := check.equal(u)
	flipped := check.equal(&uNeg)
	flippedI := check.equal(&uNegI)
	rPrime.mul(&t, &sqrtM1)
	t.selectFe(&rPrime, &t, flipped|flippedI)
	r.abs(&t)
	return correct | flipped
}
