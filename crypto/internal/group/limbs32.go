//go:build wasm || group32

package group

import "corruption/crypto/internal/ristretto32"

// Element is an element of ristretto255; here crypto/internal/ristretto32's, whose field
// limbs fit a 64-bit product. Its zero value is not a valid element: start from
// NewIdentityElement, NewGeneratorElement or a decoder.
type Element = ristretto32.Element

// Implementation names the implementation behind the seam, for tests and benchmarks.
const Implementation = "crypto/internal/ristretto32 (32-bit limbs)"

// NewIdentityElement returns a new Element set to the identity.
func NewIdentityElement() *Element { return ristretto32.NewIdentityElement() }

// NewGeneratorElement returns a new Element set to the generator of RFC 9496.
func NewGeneratorElement() *Element { return ristretto32.NewGeneratorElement() }

// Table is a fixed base's multiples for VarTimeTablesMult (ristretto32's, in affine form).
type Table = ristretto32.Table

// NewTable returns the Table of the fixed base p.
func NewTable(p *Element) *Table { return ristretto32.NewTable(p) }

// BaseTable returns the generator's Table (the one ScalarBaseMult reads). It must not be
// modified.
func BaseTable() *Table { return ristretto32.BaseTable() }

// VarTimeTablesMult sets e = Σ s[i]·P_i, for P_i the base of t[i], and returns e. Its time
// depends on the scalars: public inputs only.
func VarTimeTablesMult(e *Element, s []*Scalar, t []*Table) *Element {
	return e.VarTimeTablesMult(s, t)
}
