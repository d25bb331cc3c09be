package ristretto32

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

var bigP = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))

// feToBig is the integer v's limbs stand for (not reduced).
func feToBig(v *fe) *big.Int {
	n := new(big.Int)
	for i := range v {
		n.Add(n, new(big.Int).Lsh(big.NewInt(int64(v[i])), limbOffsets[i]))
	}
	return n
}

func modP(n *big.Int) *big.Int { return new(big.Int).Mod(n, bigP) }

// limbMax is the largest value each limb of a carried fe may hold.
var limbMax = fe{1<<26 - 1, 1<<25 + 1<<16 - 1, 1<<26 - 1, 1<<25 - 1, 1<<26 - 1,
	1<<25 - 1, 1<<26 - 1, 1<<25 - 1, 1<<26 - 1, 1<<25 - 1}

// testElements returns field elements at and near the limbs' bounds, small values,
// p − 1, p, p + 1 and 2^255 − 1 as loaded by setBytes, and random carried values.
func testElements(r *rand.Rand) []fe {
	var out []fe
	out = append(out, feZero, feOne, limbMax)
	var alt fe
	for i := range alt {
		if i%2 == 0 {
			alt[i] = limbMax[i]
		}
	}
	out = append(out, alt)
	for _, n := range []*big.Int{
		new(big.Int).Sub(bigP, big.NewInt(1)), bigP, new(big.Int).Add(bigP, big.NewInt(1)),
		new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(1)),
	} {
		var b [32]byte
		n.FillBytes(b[:])
		for i := 0; i < 16; i++ {
			b[i], b[31-i] = b[31-i], b[i]
		}
		var v fe
		out = append(out, *v.setBytes(&b))
	}
	for k := 0; k < 200; k++ {
		var v fe
		for i := range v {
			switch r.IntN(4) {
			case 0:
				v[i] = limbMax[i]
			case 1:
				v[i] = 0
			default:
				v[i] = uint32(r.Uint64N(uint64(limbMax[i]) + 1))
			}
		}
		out = append(out, v)
	}
	return out
}

// isCarried reports whether v's limbs are within the bounds fe promises.
func isCarried(v *fe) bool {
	for i := range v {
		if v[i] > limbMax[i] {
			return false
		}
	}
	return true
}

func TestFieldAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	els := testElements(r)
	for i := range els {
		a := &els[i]
		b := &els[(i*7+3)%len(els)]
		A, B := feToBig(a), feToBig(b)
		check := func(op string, got *fe, want *big.Int) {
			t.Helper()
			if !isCarried(got) {
				t.Fatalf("%s(%v, %v) = %v: limbs out of bounds", op, a, b, got)
			}
			if modP(feToBig(got)).Cmp(modP(want)) != 0 {
				t.Fatalf("%s(%v, %v) = %v, want %v mod p", op, a, b, feToBig(got), modP(want))
			}
		}
		var v fe
		check("mul", v.mul(a, b), new(big.Int).Mul(A, B))
		check("square", v.square(a), new(big.Int).Mul(A, A))
		check("add", v.add(a, b), new(big.Int).Add(A, B))
		check("sub", v.sub(a, b), new(big.Int).Sub(A, B))
		check("neg", v.neg(a), new(big.Int).Neg(A))
		// bytes is canonical: the value mod p, little-endian.
		got := a.bytes()
		want := modP(A).FillBytes(make([]byte, 32))
		for j := 0; j < 32; j++ {
			if got[j] != want[31-j] {
				t.Fatalf("bytes(%v) = %x, want %v", a, got, modP(A))
			}
		}
		if i < 40 { // inversions are slow; the edge values come first
			inv := new(big.Int).ModInverse(modP(A), bigP)
			if inv == nil {
				inv = new(big.Int)
			}
			check("invert", v.invert(a), inv)
		}
		if wantEq := modP(A).Cmp(modP(B)) == 0; (a.equal(b) == 1) != wantEq {
			t.Fatalf("equal(%v, %v) = %d", a, b, a.equal(b))
		}
	}
}

func TestSetBytesIgnoresTopBit(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 100; k++ {
		var b [32]byte
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		var v, w fe
		v.setBytes(&b)
		b[31] ^= 0x80
		w.setBytes(&b)
		if v != w {
			t.Fatalf("setBytes(%x) depends on bit 255", b)
		}
		b[31] &= 0x7f
		n := new(big.Int)
		for i := 31; i >= 0; i-- {
			n.Lsh(n, 8).Or(n, big.NewInt(int64(b[i])))
		}
		if feToBig(&v).Cmp(n) != 0 || !isCarried(&v) {
			t.Fatalf("setBytes(%x) = %v, want %v", b, feToBig(&v), n)
		}
	}
}

func TestSqrtRatioM1(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	els := testElements(r)
	for i := 0; i < 60; i++ {
		u, v := &els[i], &els[(i*5+1)%len(els)]
		U, V := modP(feToBig(u)), modP(feToBig(v))
		var root fe
		was := root.sqrtRatioM1(u, v)
		R := modP(feToBig(&root))
		if R.Bit(0) != 0 {
			t.Fatalf("sqrtRatioM1(%v, %v): negative root", U, V)
		}
		// was == 1: R²·V = U; was == 0: R²·V = SQRT_M1·U (or R = 0 when V = 0).
		lhs := modP(new(big.Int).Mul(new(big.Int).Mul(R, R), V))
		want := U
		if was == 0 {
			want = modP(new(big.Int).Mul(U, feToBig(&sqrtM1)))
			if V.Sign() == 0 {
				want = new(big.Int)
			}
		}
		if lhs.Cmp(want) != 0 {
			t.Fatalf("sqrtRatioM1(%v, %v) = (%d, %v): r²·v = %v, want %v", U, V, was, R, lhs, want)
		}
		isSquare := V.Sign() != 0 && new(big.Int).ModInverse(V, bigP) != nil &&
			big.Jacobi(modP(new(big.Int).Mul(U, new(big.Int).ModInverse(V, bigP))), bigP) >= 0
		if U.Sign() == 0 {
			isSquare = true
		}
		if (was == 1) != isSquare {
			t.Fatalf("sqrtRatioM1(%v, %v) says square = %d", U, V, was)
		}
	}
}

// TestConstants checks every constant against RFC 9496 section 4.1 (and the curve's d).
func TestConstants(t *testing.T) {
	dec := func(s string) *big.Int {
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatal(s)
		}
		return n
	}
	d := modP(new(big.Int).Mul(big.NewInt(-121665), new(big.Int).ModInverse(big.NewInt(121666), bigP)))
	for _, c := range []struct {
		name string
		v    *fe
		want *big.Int
	}{
		{"D", &feD, d},
		{"2D", &feD2, modP(new(big.Int).Lsh(d, 1))},
		{"SQRT_M1", &sqrtM1, dec("19681161376707505956807079304988542015446066515923890162744021073123829784752")},
		{"SQRT_AD_MINUS_ONE", &sqrtADMinusOne, dec("25063068953384623474111414158702152701244531502492656460079210482610430750235")},
		{"INVSQRT_A_MINUS_D", &invSqrtAMinusD, dec("54469307008909316920995813868745141605393597292927456921205312896311721017578")},
		{"ONE_MINUS_D_SQ", &oneMinusDSq, dec("1159843021668779879193775521855586647937357759715417654439879720876111806838")},
		{"D_MINUS_ONE_SQ", &dMinusOneSq, dec("40440834346308536858101042469323190826248399146238708352240133220865137265952")},
	} {
		if got := modP(feToBig(c.v)); got.Cmp(c.want) != 0 {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFieldLooseInputs holds mul, square, add and sub to their promise on loose inputs
// (sums of two carried values, limbMax + limbMax included): right results, carried limbs.
func TestFieldLooseInputs(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	els := testElements(r)
	for i := range els {
		var a, b fe
		a.addLoose(&els[i], &els[(i+1)%len(els)])
		b.addLoose(&els[(i*3+2)%len(els)], &els[(i*5+7)%len(els)])
		if i == 0 {
			a.addLoose(&limbMax, &limbMax)
			b = a
		}
		A, B := feToBig(&a), feToBig(&b)
		for _, c := range []struct {
			op   string
			got  fe
			want *big.Int
		}{
			{"mul", *new(fe).mul(&a, &b), new(big.Int).Mul(A, B)},
			{"square", *new(fe).square(&a), new(big.Int).Mul(A, A)},
			{"add", *new(fe).add(&a, &b), new(big.Int).Add(A, B)},
			{"sub", *new(fe).sub(&a, &b), new(big.Int).Sub(A, B)},
		} {
			if !isCarried(&c.got) {
				t.Fatalf("%s of loose %v, %v = %v: limbs out of bounds", c.op, a, b, c.got)
			}
			if modP(feToBig(&c.got)).Cmp(modP(c.want)) != 0 {
				t.Fatalf("%s of loose %v, %v is wrong", c.op, a, b)
			}
		}
	}
}
