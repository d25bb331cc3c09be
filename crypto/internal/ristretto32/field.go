package ristretto32

import (
	"crypto/subtle"
	"encoding/binary"
)

// fe is an element of the field GF(p), p = 2^255 − 19, in radix 2^25.5 (as in ref10):
// the value Σ l[i]·2^⌈25.5·i⌉, ten limbs at bit offsets 0, 26, 51, 77, 102, 128, 153,
// 179, 204, 230, of 26 bits (even i) and 25 bits (odd i).
//
// Every function here returns "carried" values: each limb below 2^26 (even i) or 2^25
// (odd i), except limb 1, which may exceed 2^25 by less than 2^16. A carried value is below
// 2p but not necessarily below p; bytes reduces it fully. mul, square, add and sub also
// accept "loose" inputs, the sums addLoose makes of two carried values (each limb below
// 2^27): every product of two limbs, even scaled by 2·2·19 = 76, is then below 2^61, and
// each output limb of mul sums ten of them (of square, six): below 2^64, so uint64 never
// overflows; add's and sub's limbs stay below 2^29 before their carries. Every other
// function (bytes and what is built on it) takes carried values only.
//
// Every operation ends with the same carry chain (limb 0 into 1, …, 8 into 9, 9 into 0
// times 19 since 2^255 = 19 mod p, then 0 into 1 again), written out in each function:
// a call costs much in Go's WebAssembly, where a shared helper took a sixth of a
// scalar multiplication's time.
//
// Nothing here branches on or indexes memory by the value of an element: these
// functions are constant time whatever the inputs.
type fe [10]uint32

var (
	feZero = fe{}
	feOne  = fe{1}
)

// add sets v = a + b.
func (v *fe) add(a, b *fe) *fe {
	h0 := a[0] + b[0]
	h1 := a[1] + b[1]
	h2 := a[2] + b[2]
	h3 := a[3] + b[3]
	h4 := a[4] + b[4]
	h5 := a[5] + b[5]
	h6 := a[6] + b[6]
	h7 := a[7] + b[7]
	h8 := a[8] + b[8]
	h9 := a[9] + b[9]
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	h2 += h1 >> 25
	h1 &= 1<<25 - 1
	h3 += h2 >> 26
	h2 &= 1<<26 - 1
	h4 += h3 >> 25
	h3 &= 1<<25 - 1
	h5 += h4 >> 26
	h4 &= 1<<26 - 1
	h6 += h5 >> 25
	h5 &= 1<<25 - 1
	h7 += h6 >> 26
	h6 &= 1<<26 - 1
	h8 += h7 >> 25
	h7 &= 1<<25 - 1
	h9 += h8 >> 26
	h8 &= 1<<26 - 1
	h0 += 19 * (h9 >> 25)
	h9 &= 1<<25 - 1
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	*v = fe{h0, h1, h2, h3, h4, h5, h6, h7, h8, h9}
	return v
}

// addLoose sets v = a + b for carried a and b without carrying: a loose value, for
// mul, square, add and sub only. It saves a carry chain where a sum is multiplied next.
func (v *fe) addLoose(a, b *fe) *fe {
	for i := range v {
		v[i] = a[i] + b[i]
	}
	return v
}

// fourP is 4p in radix 2^25.5: each limb of it exceeds the same limb of any loose value.
var fourP = [10]uint32{
	4 * (1<<26 - 19), 4 * (1<<25 - 1), 4 * (1<<26 - 1), 4 * (1<<25 - 1), 4 * (1<<26 - 1),
	4 * (1<<25 - 1), 4 * (1<<26 - 1), 4 * (1<<25 - 1), 4 * (1<<26 - 1), 4 * (1<<25 - 1),
}

// sub sets v = a − b, computed as a + 4p − b so that no limb goes below zero.
func (v *fe) sub(a, b *fe) *fe {
	h0 := a[0] + fourP[0] - b[0]
	h1 := a[1] + fourP[1] - b[1]
	h2 := a[2] + fourP[2] - b[2]
	h3 := a[3] + fourP[3] - b[3]
	h4 := a[4] + fourP[4] - b[4]
	h5 := a[5] + fourP[5] - b[5]
	h6 := a[6] + fourP[6] - b[6]
	h7 := a[7] + fourP[7] - b[7]
	h8 := a[8] + fourP[8] - b[8]
	h9 := a[9] + fourP[9] - b[9]
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	h2 += h1 >> 25
	h1 &= 1<<25 - 1
	h3 += h2 >> 26
	h2 &= 1<<26 - 1
	h4 += h3 >> 25
	h3 &= 1<<25 - 1
	h5 += h4 >> 26
	h4 &= 1<<26 - 1
	h6 += h5 >> 25
	h5 &= 1<<25 - 1
	h7 += h6 >> 26
	h6 &= 1<<26 - 1
	h8 += h7 >> 25
	h7 &= 1<<25 - 1
	h9 += h8 >> 26
	h8 &= 1<<26 - 1
	h0 += 19 * (h9 >> 25)
	h9 &= 1<<25 - 1
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	*v = fe{h0, h1, h2, h3, h4, h5, h6, h7, h8, h9}
	return v
}

// neg sets v = −a.
func (v *fe) neg(a *fe) *fe { return v.sub(&feZero, a) }

// mul sets v = a·b. A limb product a_i·b_j weighs 2^(⌈25.5i⌉+⌈25.5j⌉), which is twice
// the weight of limb i+j when i and j are both odd; past limb 9 it wraps with 2^255 = 19.
//
// Each column h_k is summed in one expression from a and b as they lie in memory and
// stored before the next begins: the store orders the loads, so the compiler cannot hoist
// all hundred products ahead of the sums and spill them. Go's WebAssembly backend has 16
// integer registers; the form with 34 local variables (the limbs, 2·a_i and 19·b_j) spilled
// to the stack and ran two to five times slower there (BenchmarkFieldMul).
func (v *fe) mul(a, b *fe) *fe {
	var h [10]uint64
	h[0] = uint64(a[0])*uint64(b[0]) + uint64(a[1])*(uint64(b[9])*38) + uint64(a[2])*(uint64(b[8])*19) + uint64(a[3])*(uint64(b[7])*38) + uint64(a[4])*(uint64(b[6])*19) + uint64(a[5])*(uint64(b[5])*38) + uint64(a[6])*(uint64(b[4])*19) + uint64(a[7])*(uint64(b[3])*38) + uint64(a[8])*(uint64(b[2])*19) + uint64(a[9])*(uint64(b[1])*38)
	h[1] = uint64(a[0])*uint64(b[1]) + uint64(a[1])*uint64(b[0]) + uint64(a[2])*(uint64(b[9])*19) + uint64(a[3])*(uint64(b[8])*19) + uint64(a[4])*(uint64(b[7])*19) + uint64(a[5])*(uint64(b[6])*19) + uint64(a[6])*(uint64(b[5])*19) + uint64(a[7])*(uint64(b[4])*19) + uint64(a[8])*(uint64(b[3])*19) + uint64(a[9])*(uint64(b[2])*19)
	h[2] = uint64(a[0])*uint64(b[2]) + uint64(a[1])*(uint64(b[1])*2) + uint64(a[2])*uint64(b[0]) + uint64(a[3])*(uint64(b[9])*38) + uint64(a[4])*(uint64(b[8])*19) + uint64(a[5])*(uint64(b[7])*38) + uint64(a[6])*(uint64(b[6])*19) + uint64(a[7])*(uint64(b[5])*38) + uint64(a[8])*(uint64(b[4])*19) + uint64(a[9])*(uint64(b[3])*38)
	h[3] = uint64(a[0])*uint64(b[3]) + uint64(a[1])*uint64(b[2]) + uint64(a[2])*uint64(b[1]) + uint64(a[3])*uint64(b[0]) + uint64(a[4])*(uint64(b[9])*19) + uint64(a[5])*(uint64(b[8])*19) + uint64(a[6])*(uint64(b[7])*19) + uint64(a[7])*(uint64(b[6])*19) + uint64(a[8])*(uint64(b[5])*19) + uint64(a[9])*(uint64(b[4])*19)
	h[4] = uint64(a[0])*uint64(b[4]) + uint64(a[1])*(uint64(b[3])*2) + uint64(a[2])*uint64(b[2]) + uint64(a[3])*(uint64(b[1])*2) + uint64(a[4])*uint64(b[0]) + uint64(a[5])*(uint64(b[9])*38) + uint64(a[6])*(uint64(b[8])*19) + uint64(a[7])*(uint64(b[7])*38) + uint64(a[8])*(uint64(b[6])*19) + uint64(a[9])*(uint64(b[5])*38)
	h[5] = uint64(a[0])*uint64(b[5]) + uint64(a[1])*uint64(b[4]) + uint64(a[2])*uint64(b[3]) + uint64(a[3])*uint64(b[2]) + uint64(a[4])*uint64(b[1]) + uint64(a[5])*uint64(b[0]) + uint64(a[6])*(uint64(b[9])*19) + uint64(a[7])*(uint64(b[8])*19) + uint64(a[8])*(uint64(b[7])*19) + uint64(a[9])*(uint64(b[6])*19)
	h[6] = uint64(a[0])*uint64(b[6]) + uint64(a[1])*(uint64(b[5])*2) + uint64(a[2])*uint64(b[4]) + uint64(a[3])*(uint64(b[3])*2) + uint64(a[4])*uint64(b[2]) + uint64(a[5])*(uint64(b[1])*2) + uint64(a[6])*uint64(b[0]) + uint64(a[7])*(uint64(b[9])*38) + uint64(a[8])*(uint64(b[8])*19) + uint64(a[9])*(uint64(b[7])*38)
	h[7] = uint64(a[0])*uint64(b[7]) + uint64(a[1])*uint64(b[6]) + uint64(a[2])*uint64(b[5]) + uint64(a[3])*uint64(b[4]) + uint64(a[4])*uint64(b[3]) + uint64(a[5])*uint64(b[2]) + uint64(a[6])*uint64(b[1]) + uint64(a[7])*uint64(b[0]) + uint64(a[8])*(uint64(b[9])*19) + uint64(a[9])*(uint64(b[8])*19)
	h[8] = uint64(a[0])*uint64(b[8]) + uint64(a[1])*(uint64(b[7])*2) + uint64(a[2])*uint64(b[6]) + uint64(a[3])*(uint64(b[5])*2) + uint64(a[4])*uint64(b[4]) + uint64(a[5])*(uint64(b[3])*2) + uint64(a[6])*uint64(b[2]) + uint64(a[7])*(uint64(b[1])*2) + uint64(a[8])*uint64(b[0]) + uint64(a[9])*(uint64(b[9])*38)
	h[9] = uint64(a[0])*uint64(b[9]) + uint64(a[1])*uint64(b[8]) + uint64(a[2])*uint64(b[7]) + uint64(a[3])*uint64(b[6]) + uint64(a[4])*uint64(b[5]) + uint64(a[5])*uint64(b[4]) + uint64(a[6])*uint64(b[3]) + uint64(a[7])*uint64(b[2]) + uint64(a[8])*uint64(b[1]) + uint64(a[9])*uint64(b[0])
	h0, h1, h2, h3, h4, h5, h6, h7, h8, h9 := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9]
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	h2 += h1 >> 25
	h1 &= 1<<25 - 1
	h3 += h2 >> 26
	h2 &= 1<<26 - 1
	h4 += h3 >> 25
	h3 &= 1<<25 - 1
	h5 += h4 >> 26
	h4 &= 1<<26 - 1
	h6 += h5 >> 25
	h5 &= 1<<25 - 1
	h7 += h6 >> 26
	h6 &= 1<<26 - 1
	h8 += h7 >> 25
	h7 &= 1<<25 - 1
	h9 += h8 >> 26
	h8 &= 1<<26 - 1
	h0 += 19 * (h9 >> 25)
	h9 &= 1<<25 - 1
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	*v = fe{uint32(h0), uint32(h1), uint32(h2), uint32(h3), uint32(h4), uint32(h5), uint32(h6), uint32(h7), uint32(h8), uint32(h9)}
	return v
}

// square sets v = a², with the products a_i·a_j (i ≠ j) counted once and doubled.
func (v *fe) square(a *fe) *fe {
	var s [10]uint64
	for i := range s {
		s[i] = uint64(a[i])
	}
	h0 := s[0]*s[0] + s[1]*(s[9]*76) + s[2]*(s[8]*38) + s[3]*(s[7]*76) + s[4]*(s[6]*38) + s[5]*(s[5]*38)
	h1 := s[0]*(s[1]*2) + s[2]*(s[9]*38) + s[3]*(s[8]*38) + s[4]*(s[7]*38) + s[5]*(s[6]*38)
	h2 := s[0]*(s[2]*2) + s[1]*(s[1]*2) + s[3]*(s[9]*76) + s[4]*(s[8]*38) + s[5]*(s[7]*76) + s[6]*(s[6]*19)
	h3 := s[0]*(s[3]*2) + s[1]*(s[2]*2) + s[4]*(s[9]*38) + s[5]*(s[8]*38) + s[6]*(s[7]*38)
	h4 := s[0]*(s[4]*2) + s[1]*(s[3]*4) + s[2]*s[2] + s[5]*(s[9]*76) + s[6]*(s[8]*38) + s[7]*(s[7]*38)
	h5 := s[0]*(s[5]*2) + s[1]*(s[4]*2) + s[2]*(s[3]*2) + s[6]*(s[9]*38) + s[7]*(s[8]*38)
	h6 := s[0]*(s[6]*2) + s[1]*(s[5]*4) + s[2]*(s[4]*2) + s[3]*(s[3]*2) + s[7]*(s[9]*76) + s[8]*(s[8]*19)
	h7 := s[0]*(s[7]*2) + s[1]*(s[6]*2) + s[2]*(s[5]*2) + s[3]*(s[4]*2) + s[8]*(s[9]*38)
	h8 := s[0]*(s[8]*2) + s[1]*(s[7]*4) + s[2]*(s[6]*2) + s[3]*(s[5]*4) + s[4]*s[4] + s[9]*(s[9]*38)
	h9 := s[0]*(s[9]*2) + s[1]*(s[8]*2) + s[2]*(s[7]*2) + s[3]*(s[6]*2) + s[4]*(s[5]*2)
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	h2 += h1 >> 25
	h1 &= 1<<25 - 1
	h3 += h2 >> 26
	h2 &= 1<<26 - 1
	h4 += h3 >> 25
	h3 &= 1<<25 - 1
	h5 += h4 >> 26
	h4 &= 1<<26 - 1
	h6 += h5 >> 25
	h5 &= 1<<25 - 1
	h7 += h6 >> 26
	h6 &= 1<<26 - 1
	h8 += h7 >> 25
	h7 &= 1<<25 - 1
	h9 += h8 >> 26
	h8 &= 1<<26 - 1
	h0 += 19 * (h9 >> 25)
	h9 &= 1<<25 - 1
	h1 += h0 >> 26
	h0 &= 1<<26 - 1
	*v = fe{uint32(h0), uint32(h1), uint32(h2), uint32(h3), uint32(h4), uint32(h5), uint32(h6), uint32(h7), uint32(h8), uint32(h9)}
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
