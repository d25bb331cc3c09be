package ristretto32

import (
	"encoding/hex"
	"testing"

	"github.com/gtank/ristretto255"

	"corruption/crypto/internal/rfc9496"
)

// FuzzDifferential compares ristretto32 with gtank/ristretto255 on arbitrary input:
// the first 32 bytes are decoded by both (same verdict, same element); 128 bytes or more
// also give two derived elements (bytes 0–63 and 64–127) and a scalar (bytes 0–63
// reduced, and bytes 64–127 reduced), on which every operation must agree.
func FuzzDifferential(f *testing.F) {
	for _, s := range append(append([]string{}, rfc9496.Multiples...), rfc9496.Invalid...) {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	long := make([]byte, 128)
	f.Add(long)
	for i := range long {
		long[i] = 0xff
	}
	f.Add(long)
	for i := range long {
		long[i] = byte(i * 37)
	}
	f.Add(long)
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) >= 32 {
			compareDecode(t, in[:32])
		}
		if len(in) < 128 {
			return
		}
		p, errA := NewElement().SetUniformBytes(in[:64])
		pn, errN := ristretto255.NewIdentityElement().SetUniformBytes(in[:64])
		q, _ := NewElement().SetUniformBytes(in[64:128])
		qn, _ := ristretto255.NewIdentityElement().SetUniformBytes(in[64:128])
		if errA != nil || errN != nil {
			t.Fatal(errA, errN)
		}
		pair{p, pn}.check(t, "SetUniformBytes")
		s, _ := ristretto255.NewScalar().SetUniformBytes(in[:64])
		s2, _ := ristretto255.NewScalar().SetUniformBytes(in[64:128])
		pair{NewElement().Add(p, q), ristretto255.NewIdentityElement().Add(pn, qn)}.check(t, "Add")
		pair{NewElement().Subtract(p, q), ristretto255.NewIdentityElement().Subtract(pn, qn)}.check(t, "Subtract")
		pair{NewElement().ScalarMult(s, p), ristretto255.NewIdentityElement().ScalarMult(s, pn)}.check(t, "ScalarMult")
		pair{NewElement().ScalarBaseMult(s), ristretto255.NewIdentityElement().ScalarBaseMult(s)}.check(t, "ScalarBaseMult")
		pair{NewElement().VarTimeDoubleScalarBaseMult(s, p, s2),
			ristretto255.NewIdentityElement().VarTimeDoubleScalarBaseMult(s, pn, s2)}.check(t, "VarTimeDoubleScalarBaseMult")
		pair{NewElement().MultiScalarMult([]*Scalar{s, s2}, []*Element{p, q}),
			ristretto255.NewIdentityElement().MultiScalarMult([]*Scalar{s, s2}, []*ristretto255.Element{pn, qn})}.check(t, "MultiScalarMult")
	})
}
