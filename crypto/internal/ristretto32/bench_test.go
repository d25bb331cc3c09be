package ristretto32

import (
	"math/rand/v2"
	"testing"

	"github.com/gtank/ristretto255"
)

// Benchmarks of each operation in both implementations, so that one run (native, or
// GOOS=js GOARCH=wasm under Node) compares them side by side:
//
//	go test -run '^$' -bench . -cpu 1 ./crypto/internal/ristretto32/

func BenchmarkFieldMul(b *testing.B) {
	x, y := limbMax, feFromHex("a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352")
	for b.Loop() {
		x.mul(&x, &y)
	}
}

func BenchmarkFieldSquare(b *testing.B) {
	x := limbMax
	for b.Loop() {
		x.square(&x)
	}
}

func BenchmarkScalarMultiply(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	x, y := randomScalar(r), randomScalar(r)
	for b.Loop() {
		x.Multiply(x, y)
	}
}

type benchOps struct {
	decode, encode                        func()
	scalarMult, scalarBaseMult, varTime16 func()
}

func benchPairs(b *testing.B) map[string]benchOps {
	r := rand.New(rand.NewPCG(2, 2))
	s := randomScalar(r)
	p := randomPair(b, r)
	enc := p.n.Bytes()
	var ss []*Scalar
	var pa []*Element
	var pn []*ristretto255.Element
	for i := 0; i < 16; i++ {
		q := randomPair(b, r)
		ss, pa, pn = append(ss, randomScalar(r)), append(pa, q.a), append(pn, q.n)
	}
	var a Element
	var n ristretto255.Element
	return map[string]benchOps{
		"ristretto32": {
			decode:         func() { a.SetCanonicalBytes(enc) },
			encode:         func() { p.a.Bytes() },
			scalarMult:     func() { a.ScalarMult(s, p.a) },
			scalarBaseMult: func() { a.ScalarBaseMult(s) },
			varTime16:      func() { a.VarTimeMultiScalarMult(ss, pa) },
		},
		"gtank": {
			decode:         func() { n.SetCanonicalBytes(enc) },
			encode:         func() { p.n.Bytes() },
			scalarMult:     func() { n.ScalarMult(s, p.n) },
			scalarBaseMult: func() { n.ScalarBaseMult(s) },
			varTime16:      func() { n.VarTimeMultiScalarMult(ss, pn) },
		},
	}
}

func benchEach(b *testing.B, op func(benchOps) func()) {
	for name, ops := range benchPairs(b) {
		f := op(ops)
		f() // builds any table outside the measurement
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
	}
}

func BenchmarkDecode(b *testing.B)     { benchEach(b, func(o benchOps) func() { return o.decode }) }
func BenchmarkEncode(b *testing.B)     { benchEach(b, func(o benchOps) func() { return o.encode }) }
func BenchmarkScalarMult(b *testing.B) { benchEach(b, func(o benchOps) func() { return o.scalarMult }) }
func BenchmarkScalarBaseMult(b *testing.B) {
	benchEach(b, func(o benchOps) func() { return o.scalarBaseMult })
}
func BenchmarkVarTimeMultiScalarMult16(b *testing.B) {
	benchEach(b, func(o benchOps) func() { return o.varTime16 })
}
