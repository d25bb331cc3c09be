package ristretto32

import (
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/gtank/ristretto255"

	"corruption/crypto/internal/rfc9496"
)

func TestRFC9496Multiples(t *testing.T) {
	acc := NewIdentityElement()
	g := NewGeneratorElement()
	for i, want := range rfc9496.Multiples {
		if got := hex.EncodeToString(acc.Bytes()); got != want {
			t.Errorf("%d·G encodes to %s, want %s", i, got, want)
		}
		var p Element
		if _, err := p.SetCanonicalBytes(rfc9496.Hex(t, want)); err != nil {
			t.Errorf("%d·G: decoding %s: %v", i, want, err)
		} else if p.Equal(acc) != 1 {
			t.Errorf("%d·G: decodes to another element", i)
		}
		var s [32]byte
		s[0] = byte(i)
		sc, _ := ristretto255.NewScalar().SetCanonicalBytes(s[:])
		for name, q := range map[string]*Element{
			"ScalarBaseMult":         NewElement().ScalarBaseMult(sc),
			"ScalarMult":             NewElement().ScalarMult(sc, g),
			"VarTimeMultiScalarMult": NewElement().VarTimeMultiScalarMult([]*Scalar{sc}, []*Element{g}),
		} {
			if got := hex.EncodeToString(q.Bytes()); got != want {
				t.Errorf("%s(%d, G) encodes to %s, want %s", name, i, got, want)
			}
		}
		acc.Add(acc, g)
	}
}

func TestRFC9496Invalid(t *testing.T) {
	for i, enc := range rfc9496.Invalid {
		p := NewGeneratorElement()
		if q, err := p.SetCanonicalBytes(rfc9496.Hex(t, enc)); err == nil || q != nil {
			t.Errorf("invalid encoding %d (%s) accepted", i, enc)
		}
		if p.Equal(NewGeneratorElement()) != 1 {
			t.Errorf("invalid encoding %d (%s) changed the receiver", i, enc)
		}
	}
	for _, n := range []int{0, 31, 33, 64} {
		if _, err := NewElement().SetCanonicalBytes(make([]byte, n)); err == nil {
			t.Errorf("an encoding of %d bytes accepted", n)
		}
	}
}

// RFC 9496 appendix A.3: the seven labels' SHA-512 images, then four inputs that map to
// one element (they differ in bits MAP ignores and in values MAP reduces).
func TestRFC9496FromUniformBytes(t *testing.T) {
	vectors := []struct{ label, input, want string }{
		{"Ristretto is traditionally a short shot of espresso coffee", "", "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"},
		{"made with the normal amount of ground coffee but extracted with", "", "f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b"},
		{"about half the amount of water in the same amount of time", "", "006ccd2a9e6867e6a2c5cea83d3302cc9de128dd2a9a57dd8ee7b9d7ffe02826"},
		{"by using a finer grind.", "", "f8f0c87cf237953c5890aec3998169005dae3eca1fbb04548c635953c817f92a"},
		{"This produces a concentrated shot of coffee per volume.", "", "ae81e7dedf20a497e10c304a765c1767a42d6e06029758d2d7e8ef7cc4c41179"},
		{"Just pulling a normal shot short will produce a weaker shot", "", "e2705652ff9f5e44d3e841bf1c251cf7dddb77d140870d1ab2ed64f1a9ce8628"},
		{"and is not a Ristretto as some believe.", "", "80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065"},
		{"", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff1200000000000000000000000000000000000000000000000000000000000000",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
		{"", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
		{"", "0000000000000000000000000000000000000000000000000000000000000080ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
		{"", "00000000000000000000000000000000000000000000000000000000000000001200000000000000000000000000000000000000000000000000000000000080",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
	}
	for i, v := range vectors {
		in := rfc9496.Hex(t, v.input)
		if v.label != "" {
			h := sha512.Sum512([]byte(v.label))
			in = h[:]
		}
		e, err := NewElement().SetUniformBytes(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(e.Bytes()); got != v.want {
			t.Errorf("A.3 vector %d: got %s, want %s", i, got, v.want)
		}
	}
	if _, err := NewElement().SetUniformBytes(make([]byte, 63)); err == nil {
		t.Error("SetUniformBytes accepted 63 bytes")
	}
}

// pair is one element in both implementations.
type pair struct {
	a *Element
	n *ristretto255.Element
}

func (p pair) check(t testing.TB, what string) {
	t.Helper()
	if got, want := p.a.Bytes(), p.n.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("%s: ristretto32 gives %x, gtank/ristretto255 %x", what, got, want)
	}
}

func randomPair(t testing.TB, r *rand.Rand) pair {
	var b [64]byte
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	a, _ := NewElement().SetUniformBytes(b[:])
	n, _ := ristretto255.NewIdentityElement().SetUniformBytes(b[:])
	p := pair{a, n}
	p.check(t, "SetUniformBytes")
	return p
}

// edgeScalars are 0, 1, 2, 15, 16, ℓ − 1, ℓ − 2, 2^252 and scalars with every nibble 8 or
// 15 (the radix-16 recodings' carries), as canonical scalars.
func edgeScalars(t testing.TB) []*Scalar {
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	var out []*Scalar
	add := func(n *big.Int) {
		n = new(big.Int).Mod(n, l)
		b := n.FillBytes(make([]byte, 32))
		for i := 0; i < 16; i++ {
			b[i], b[31-i] = b[31-i], b[i]
		}
		s, err := ristretto255.NewScalar().SetCanonicalBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	for _, k := range []int64{0, 1, 2, 15, 16} {
		add(big.NewInt(k))
	}
	add(new(big.Int).Sub(l, big.NewInt(1)))
	add(new(big.Int).Sub(l, big.NewInt(2)))
	add(new(big.Int).Lsh(big.NewInt(1), 252))
	eights, fifteens := new(big.Int), new(big.Int)
	for i := 0; i < 63; i++ {
		eights.Lsh(eights, 4).Or(eights, big.NewInt(8))
		fifteens.Lsh(fifteens, 4).Or(fifteens, big.NewInt(15))
	}
	add(eights)
	add(fifteens)
	return out
}

func randomScalar(r *rand.Rand) *Scalar {
	var b [64]byte
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	s, _ := ristretto255.NewScalar().SetUniformBytes(b[:])
	return s
}

func TestDifferentialGroupLaw(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	id := pair{NewIdentityElement(), ristretto255.NewIdentityElement()}
	gen := pair{NewGeneratorElement(), ristretto255.NewGeneratorElement()}
	id.check(t, "identity")
	gen.check(t, "generator")
	for k := 0; k < 50; k++ {
		p, q := randomPair(t, r), randomPair(t, r)
		pair{NewElement().Add(p.a, q.a), ristretto255.NewIdentityElement().Add(p.n, q.n)}.check(t, "Add")
		pair{NewElement().Subtract(p.a, q.a), ristretto255.NewIdentityElement().Subtract(p.n, q.n)}.check(t, "Subtract")
		pair{NewElement().Negate(p.a), ristretto255.NewIdentityElement().Negate(p.n)}.check(t, "Negate")
		pair{NewElement().Add(p.a, id.a), p.n}.check(t, "P + O")
		pair{NewElement().Add(p.a, p.a), ristretto255.NewIdentityElement().Add(p.n, p.n)}.check(t, "P + P")
		if NewElement().Subtract(p.a, p.a).Equal(id.a) != 1 {
			t.Fatal("P − P is not the identity")
		}
		if p.a.Equal(q.a) != p.n.Equal(q.n) || p.a.Equal(p.a) != 1 {
			t.Fatal("Equal disagrees")
		}
		// Decoding the encoding gives the element back, equal to the original.
		var d Element
		if _, err := d.SetCanonicalBytes(p.n.Bytes()); err != nil || d.Equal(p.a) != 1 {
			t.Fatalf("decoding %x: %v", p.n.Bytes(), err)
		}
	}
}

func TestDifferentialScalarMult(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	scalars := edgeScalars(t)
	for k := 0; k < 20; k++ {
		scalars = append(scalars, randomScalar(r))
	}
	id := pair{NewIdentityElement(), ristretto255.NewIdentityElement()}
	for i, s := range scalars {
		p, q := randomPair(t, r), randomPair(t, r)
		if i%5 == 0 {
			p = id // the identity as the point
		}
		s2 := scalars[(i*3+1)%len(scalars)]
		pair{NewElement().ScalarMult(s, p.a), ristretto255.NewIdentityElement().ScalarMult(s, p.n)}.check(t, "ScalarMult")
		pair{NewElement().ScalarBaseMult(s), ristretto255.NewIdentityElement().ScalarBaseMult(s)}.check(t, "ScalarBaseMult")
		pair{NewElement().MultiScalarMult([]*Scalar{s, s2}, []*Element{p.a, q.a}),
			ristretto255.NewIdentityElement().MultiScalarMult([]*Scalar{s, s2}, []*ristretto255.Element{p.n, q.n})}.check(t, "MultiScalarMult")
		pair{NewElement().VarTimeMultiScalarMult([]*Scalar{s, s2}, []*Element{p.a, q.a}),
			ristretto255.NewIdentityElement().VarTimeMultiScalarMult([]*Scalar{s, s2}, []*ristretto255.Element{p.n, q.n})}.check(t, "VarTimeMultiScalarMult")
		pair{NewElement().VarTimeDoubleScalarBaseMult(s, p.a, s2),
			ristretto255.NewIdentityElement().VarTimeDoubleScalarBaseMult(s, p.n, s2)}.check(t, "VarTimeDoubleScalarBaseMult")
		// The generator takes the precomputed width-8 table, once: a second generator in the
		// same call goes the general way.
		g, gn := NewGeneratorElement(), ristretto255.NewGeneratorElement()
		pair{NewElement().VarTimeMultiScalarMult([]*Scalar{s, s2, s2}, []*Element{g, p.a, g}),
			ristretto255.NewIdentityElement().VarTimeMultiScalarMult([]*Scalar{s, s2, s2}, []*ristretto255.Element{gn, p.n, gn})}.check(t, "VarTimeMultiScalarMult with the generator twice")
		pair{NewElement().VarTimeMultiScalarMult([]*Scalar{s}, []*Element{g}),
			ristretto255.NewIdentityElement().ScalarBaseMult(s)}.check(t, "VarTimeMultiScalarMult of the generator alone")
		tp, tq := NewTable(p.a), NewTable(q.a)
		pair{NewElement().VarTimeTablesMult([]*Scalar{s, s2}, []*Table{tp, BaseTable()}),
			ristretto255.NewIdentityElement().VarTimeDoubleScalarBaseMult(s, p.n, s2)}.check(t, "VarTimeTablesMult with the base table")
		pair{NewElement().VarTimeTablesMult([]*Scalar{s2, s}, []*Table{tp, tq}),
			ristretto255.NewIdentityElement().VarTimeMultiScalarMult([]*Scalar{s2, s}, []*ristretto255.Element{p.n, q.n})}.check(t, "VarTimeTablesMult")
		pair{NewElement().VarTimeTablesMult([]*Scalar{s}, []*Table{tq}),
			ristretto255.NewIdentityElement().ScalarMult(s, q.n)}.check(t, "VarTimeTablesMult of one table")
	}
	pair{NewElement().VarTimeTablesMult(nil, nil), ristretto255.NewIdentityElement()}.check(t, "empty VarTimeTablesMult")
	pair{NewElement().MultiScalarMult(nil, nil), ristretto255.NewIdentityElement().MultiScalarMult(nil, nil)}.check(t, "empty MultiScalarMult")
	pair{NewElement().VarTimeMultiScalarMult(nil, nil), ristretto255.NewIdentityElement().VarTimeMultiScalarMult(nil, nil)}.check(t, "empty VarTimeMultiScalarMult")
}

// TestDifferentialDecode feeds both decoders random strings, random valid encodings
// with single bits flipped, and valid encodings plus p (non-canonical): they must
// accept exactly the same strings and agree on what they decode to.
func TestDifferentialDecode(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var inputs [][]byte
	for k := 0; k < 300; k++ {
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		inputs = append(inputs, b)
	}
	for k := 0; k < 100; k++ {
		enc := randomPair(t, r).n.Bytes()
		inputs = append(inputs, enc)
		flipped := bytes.Clone(enc)
		flipped[r.IntN(32)] ^= 1 << r.IntN(8)
		inputs = append(inputs, flipped)
		// enc + p, when it fits in 255 bits: the same field element, not canonical.
		n := new(big.Int)
		for i := 31; i >= 0; i-- {
			n.Lsh(n, 8).Or(n, big.NewInt(int64(enc[i])))
		}
		if n.Add(n, bigP).BitLen() <= 255 {
			b := n.FillBytes(make([]byte, 32))
			for i := 0; i < 16; i++ {
				b[i], b[31-i] = b[31-i], b[i]
			}
			inputs = append(inputs, b)
		}
	}
	accepted := 0
	for _, in := range inputs {
		accepted += compareDecode(t, in)
	}
	if accepted < 100 || accepted == len(inputs) {
		t.Fatalf("%d of %d inputs accepted: the test did not exercise both outcomes", accepted, len(inputs))
	}
}

// compareDecode decodes in with both implementations, fails the test if they disagree,
// and returns 1 if the encoding was accepted.
func compareDecode(t testing.TB, in []byte) int {
	t.Helper()
	a, errA := NewElement().SetCanonicalBytes(in)
	n, errN := ristretto255.NewIdentityElement().SetCanonicalBytes(in)
	if (errA == nil) != (errN == nil) {
		t.Fatalf("decoding %x: ristretto32 says %v, gtank/ristretto255 %v", in, errA, errN)
	}
	if errA != nil {
		return 0
	}
	pair{a, n}.check(t, "decode then encode")
	if !bytes.Equal(a.Bytes(), in) {
		t.Fatalf("decoding %x encodes back to %x", in, a.Bytes())
	}
	return 1
}
