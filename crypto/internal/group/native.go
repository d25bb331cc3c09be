//go:build !wasm && !group32

package group

import (
	"sync"

	"github.com/gtank/ristretto255"
)

// Element is an element of ristretto255; here github.com/gtank/ristretto255's. Its zero
// value is not a valid element: start from NewIdentityElement, NewGeneratorElement or a
// decoder.
type Element = ristretto255.Element

// Implementation names the implementation behind the seam, for tests and benchmarks.
const Implementation = "gtank/ristretto255 (64-bit limbs)"

// NewIdentityElement returns a new Element set to the identity.
func NewIdentityElement() *Element { return ristretto255.NewIdentityElement() }

// NewGeneratorElement returns a new Element set to the generator of RFC 9496.
func NewGeneratorElement() *Element { return ristretto255.NewGeneratorElement() }

// Table is a fixed base's multiples for VarTimeTablesMult: rows[i][j] = (j+1)·256^i·P.
// gtank/ristretto255 keeps its points' coordinates private, so the table holds Elements
// (40 KB) and a multiplication sums about 60 of them with Element.Add, where
// VarTimeDoubleScalarBaseMult spends about 250 doublings and 80 additions.
type Table struct{ rows [32][8]Element }

// NewTable returns the Table of the fixed base p: 32 rows of 7 additions and 8 doublings.
func NewTable(p *Element) *Table {
	t := &Table{}
	var b Element
	b.Set(p)
	for i := range t.rows {
		t.rows[i][0].Set(&b)
		for j := 1; j < 8; j++ {
			t.rows[i][j].Add(&t.rows[i][j-1], &b)
		}
		for k := 0; k < 8; k++ { // next base: 256·b
			b.Add(&b, &b)
		}
	}
	return t
}

var (
	baseTable     *Table
	baseTableOnce sync.Once
)

// BaseTable returns the generator's Table, built on first use. It must not be modified.
func BaseTable() *Table {
	baseTableOnce.Do(func() { baseTable = NewTable(NewGeneratorElement()) })
	return baseTable
}

// VarTimeTablesMult sets e = Σ s[i]·P_i, for P_i the base of t[i], and returns e: a comb
// over the scalars' signed radix-16 digits, odd digits first, then four doublings, then the
// even ones; zero digits are skipped and the others index the tables. Its time depends on
// the scalars: public inputs only. The slices' lengths must match (it panics otherwise).
func VarTimeTablesMult(e *Element, s []*Scalar, t []*Table) *Element {
	if len(s) != len(t) {
		panic("group: VarTimeTablesMult invoked with mismatched slice lengths")
	}
	digits := make([][64]int8, len(s))
	for k := range s {
		digits[k] = radix16(s[k])
	}
	q := NewIdentityElement()
	for _, start := range [2]int{1, 0} {
		if start == 0 {
			for k := 0; k < 4; k++ {
				q.Add(q, q)
			}
		}
		for i := start; i < 64; i += 2 {
			for k := range t {
				switch d := digits[k][i]; {
				case d > 0:
					q.Add(q, &t[k].rows[i/2][d-1])
				case d < 0:
					q.Subtract(q, &t[k].rows[i/2][-d-1])
				}
			}
		}
	}
	return e.Set(q)
}

// radix16 writes the canonical scalar s (below 2^253) as Σ e[i]·16^i with e[i] in [−8, 8)
// and e[63] in [0, 8].
func radix16(s *Scalar) [64]int8 {
	var e [64]int8
	for i, c := range s.Bytes() {
		e[2*i] = int8(c & 15)
		e[2*i+1] = int8(c >> 4)
	}
	for i := 0; i < 63; i++ {
		carry := (e[i] + 8) >> 4
		e[i] -= carry << 4
		e[i+1] += carry
	}
	return e
}
