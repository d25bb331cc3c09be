package ristretto32

import (
	"crypto/subtle"
	"math/bits"
	"sync"
)

// Scalar multiplication. The constant-time ones (ScalarMult, ScalarBaseMult,
// MultiScalarMult) write the scalar in 64 signed radix-16 digits in [−8, 8] and add, for
// each digit, the table entry |digit|·P read by a full scan of the table with masked
// selects (never an index by the digit), negated under a mask; the digits are
// computed with shifts and masks, and the loops run a fixed number of times. The
// VarTime ones use a width-5 non-adjacent form and index their tables by its digits:
// for public scalars only (proof checks).

// signedRadix16 writes the canonical scalar s (below 2^253) as Σ e[i]·16^i with e[i] in
// [−8, 8), e[63] in [0, 8], without branching on s.
func signedRadix16(s *Scalar) [64]int8 {
	var b [32]byte
	copy(b[:], s.Bytes())
	var e [64]int8
	for i, c := range b {
		e[2*i] = int8(c & 15)
		e[2*i+1] = int8(c >> 4)
	}
	var carry int8
	for i := 0; i < 63; i++ {
		e[i] += carry
		carry = (e[i] + 8) >> 4 // arithmetic shift: 0 or 1
		e[i] -= carry << 4
	}
	e[63] += carry
	return e
}

// digitParts returns |d| and 1 if d < 0 (else 0), without branching on d.
func digitParts(d int8) (abs uint8, neg int) {
	m := d >> 7 // all ones if negative
	return uint8((d ^ m) - m), int(uint8(m) & 1)
}

// cachedTable holds P, 2P, …, 8P.
type cachedTable [8]cached

// init sets t to P, 2P, …, 8P for P = p.
func (t *cachedTable) init(p *point) {
	q := *p
	t[0].fromPoint(p)
	for i := 1; i < 8; i++ {
		q.addCached(&q, &t[0])
		t[i].fromPoint(&q)
	}
}

// lookup sets c = d·P for the digit d in [−8, 8], reading all eight entries: each is
// merged in under a mask that is all ones for the entry |d| and zero for the others
// (written out here rather than through selectFe: calls cost much in WebAssembly).
func (t *cachedTable) lookup(c *cached, d int8) {
	abs, neg := digitParts(d)
	*c = cached{yPlusX: feOne, yMinusX: feOne, z: feOne} // the identity
	for j := range t {
		m := -uint32(subtle.ConstantTimeByteEq(abs, uint8(j+1)))
		e := &t[j]
		for k := 0; k < 10; k++ {
			c.yPlusX[k] ^= m & (c.yPlusX[k] ^ e.yPlusX[k])
			c.yMinusX[k] ^= m & (c.yMinusX[k] ^ e.yMinusX[k])
			c.z[k] ^= m & (c.z[k] ^ e.z[k])
			c.t2d[k] ^= m & (c.t2d[k] ^ e.t2d[k])
		}
	}
	c.condNegCached(neg)
}

// ScalarMult sets e = s·p and returns e, in constant time.
func (e *Element) ScalarMult(s *Scalar, p *Element) *Element {
	return e.MultiScalarMult([]*Scalar{s}, []*Element{p})
}

// MultiScalarMult sets e = Σ s[i]·p[i] and returns e. Its time depends only on the
// lengths of the slices, which must match (it panics otherwise, as gtank/ristretto255).
func (e *Element) MultiScalarMult(s []*Scalar, p []*Element) *Element {
	if len(s) != len(p) {
		panic("ristretto32: MultiScalarMult invoked with mismatched slice lengths")
	}
	tables := make([]cachedTable, len(p))
	digits := make([][64]int8, len(s))
	for i := range p {
		tables[i].init(&p[i].r)
		digits[i] = signedRadix16(s[i])
	}
	var q point
	var c cached
	q.setIdentity()
	for i := 63; i >= 0; i-- {
		if i < 63 { // i is public: the loop's shape never depends on a secret
			q.double4(&q)
		}
		for j := range tables {
			tables[j].lookup(&c, digits[j][i])
			q.addCached(&q, &c)
		}
	}
	e.r = q
	return e
}

// A Table holds the multiples of a fixed base P for ScalarBaseMult (P = B) and
// VarTimeTablesMult: rows[i][j] = (j+1)·256^i·P in affine form. Building one costs 32
// rows of 7 additions and 8 doublings and one inversion, about three scalar
// multiplications; a multiplication by a table then needs about 60 additions of 7
// field multiplications and 4 doublings, where a variable-time double-scalar
// multiplication spends about 250 doublings and 80 additions.
type Table struct{ rows [32][8]affineCached }

// baseTable is the generator's Table, built once on first use.
var (
	baseTable     Table
	baseTableOnce sync.Once
)

func initBaseTable() { baseTable.init(&generator.r) }

// BaseTable returns the generator's Table. It must not be modified.
func BaseTable() *Table {
	baseTableOnce.Do(initBaseTable)
	return &baseTable
}

// NewTable returns the Table of the fixed base p.
func NewTable(p *Element) *Table {
	t := &Table{}
	t.init(&p.r)
	return t
}

// init fills t for the base p: 256^i·p by doublings, its multiples by additions, all
// brought to Z = 1 with one inversion.
func (tab *Table) init(p *point) {
	var pts [32][8]point
	b := *p
	for i := range pts {
		var c cached
		c.fromPoint(&b)
		pts[i][0] = b
		for j := 1; j < 8; j++ {
			pts[i][j].addCached(&pts[i][j-1], &c)
		}
		for k := 0; k < 8; k++ { // next base: 256·b
			b.double(&b)
		}
	}
	for i := range pts {
		toAffine(tab.rows[i][:], pts[i][:])
	}
}

// toAffine sets out[n] to pts[n] brought to Z = 1 and prepared for addAffine. It inverts
// all the Z coordinates with one inversion (Montgomery's trick).
func toAffine(out []affineCached, pts []point) {
	prefix := make([]fe, len(pts))
	acc := feOne
	for n := range pts {
		prefix[n] = acc
		acc.mul(&acc, &pts[n].z)
	}
	var inv fe
	inv.invert(&acc)
	for n := len(pts) - 1; n >= 0; n-- {
		p := &pts[n]
		var zInv, x, y fe
		zInv.mul(&inv, &prefix[n])
		inv.mul(&inv, &p.z)
		x.mul(&p.x, &zInv)
		y.mul(&p.y, &zInv)
		a := &out[n]
		a.yPlusX.add(&y, &x)
		a.yMinusX.sub(&y, &x)
		a.t2d.mul(&x, &y)
		a.t2d.mul(&a.t2d, &feD2)
	}
}

// lookupBase sets c = d·256^i·B for the digit d in [−8, 8], reading all eight entries
// under masks, as cachedTable.lookup does.
func lookupBase(c *affineCached, i int, d int8) {
	abs, neg := digitParts(d)
	*c = affineCached{yPlusX: feOne, yMinusX: feOne} // the identity
	for j := range baseTable.rows[i] {
		m := -uint32(subtle.ConstantTimeByteEq(abs, uint8(j+1)))
		e := &baseTable.rows[i][j]
		for k := 0; k < 10; k++ {
			c.yPlusX[k] ^= m & (c.yPlusX[k] ^ e.yPlusX[k])
			c.yMinusX[k] ^= m & (c.yMinusX[k] ^ e.yMinusX[k])
			c.t2d[k] ^= m & (c.t2d[k] ^ e.t2d[k])
		}
	}
	c.condNegAffine(neg)
}

// ScalarBaseMult sets e = s·B for the generator B and returns e, in constant time:
// Σ e_i·16^i·B split into odd i (summed, then times 16) and even i, each term one
// table entry (64 additions and 4 doublings).
func (e *Element) ScalarBaseMult(s *Scalar) *Element {
	baseTableOnce.Do(initBaseTable)
	digits := signedRadix16(s)
	var q point
	var c affineCached
	q.setIdentity()
	for i := 1; i < 64; i += 2 {
		lookupBase(&c, i/2, digits[i])
		q.addAffine(&q, &c)
	}
	q.double4(&q)
	for i := 0; i < 64; i += 2 {
		lookupBase(&c, i/2, digits[i])
		q.addAffine(&q, &c)
	}
	e.r = q
	return e
}

// nonAdjacentForm returns the width-w NAF of s, 2 ≤ w ≤ 8: Σ naf[i]·2^i with every
// non-zero digit odd, in [−2^(w−1)+1, 2^(w−1)−1], and followed by at least w−1 zeros.
// Variable time.
func nonAdjacentForm(s *Scalar, w uint) [256]int8 {
	var b [32]byte
	copy(b[:], s.Bytes())
	var k [5]uint64
	for i := 0; i < 4; i++ {
		for j := 7; j >= 0; j-- {
			k[i] = k[i]<<8 | uint64(b[8*i+j])
		}
	}
	var naf [256]int8
	for i := 0; i < 256 && k != [5]uint64{}; i++ {
		if k[0]&1 == 1 {
			d := int64(k[0] & (1<<w - 1))
			if d >= 1<<(w-1) {
				d -= 1 << w
			}
			naf[i] = int8(d)
			if d > 0 { // k −= d
				var borrow uint64
				k[0], borrow = bits.Sub64(k[0], uint64(d), 0)
				for w := 1; w < 5; w++ {
					k[w], borrow = bits.Sub64(k[w], 0, borrow)
				}
			} else { // k += −d
				var carry uint64
				k[0], carry = bits.Add64(k[0], uint64(-d), 0)
				for w := 1; w < 5; w++ {
					k[w], carry = bits.Add64(k[w], 0, carry)
				}
			}
		}
		for w := 0; w < 4; w++ { // k >>= 1
			k[w] = k[w]>>1 | k[w+1]<<63
		}
		k[4] >>= 1
	}
	return naf
}

// oddTable holds P, 3P, 5P, …, 15P.
type oddTable [8]cached

// init sets t to P, 3P, …, 15P for P = p.
func (t *oddTable) init(p *point) {
	var p2 point
	var c cached
	p2.double(p)
	c.fromPoint(&p2)
	q := *p
	t[0].fromPoint(p)
	for i := 1; i < 8; i++ {
		q.addCached(&q, &c)
		t[i].fromPoint(&q)
	}
}

// baseOdd holds B, 3B, 5B, …, 127B in affine form, for the generator's width-8 NAF in
// VarTimeMultiScalarMult, built once on first use (64 additions and one inversion).
var (
	baseOdd     [64]affineCached
	baseOddOnce sync.Once
)

func initBaseOdd() {
	var pts [64]point
	var b2 point
	var c cached
	b2.double(&generator.r)
	c.fromPoint(&b2)
	pts[0] = generator.r
	for i := 1; i < len(pts); i++ {
		pts[i].addCached(&pts[i-1], &c)
	}
	toAffine(baseOdd[:], pts[:])
}

// VarTimeMultiScalarMult sets e = Σ s[i]·p[i] and returns e. Its time depends on the
// scalars: public inputs only. The slices' lengths must match (it panics otherwise).
//
// Every point gets a table of its odd multiples and a width-5 NAF, except the generator
// (a point whose representative is the generator's, as NewGeneratorElement and Base give),
// which takes the precomputed width-8 table baseOdd: a quarter fewer additions and no
// table to build.
func (e *Element) VarTimeMultiScalarMult(s []*Scalar, p []*Element) *Element {
	if len(s) != len(p) {
		panic("ristretto32: VarTimeMultiScalarMult invoked with mismatched slice lengths")
	}
	tables := make([]oddTable, 0, len(p))
	nafs := make([][256]int8, 0, len(s))
	var baseNAF [256]int8
	hasBase := false
	top := -1
	for i := range p {
		var naf [256]int8
		if !hasBase && p[i].r == generator.r {
			hasBase = true
			baseOddOnce.Do(initBaseOdd)
			baseNAF = nonAdjacentForm(s[i], 8)
			naf = baseNAF
		} else {
			tables = append(tables, oddTable{})
			tables[len(tables)-1].init(&p[i].r)
			naf = nonAdjacentForm(s[i], 5)
			nafs = append(nafs, naf)
		}
		for j := 255; j > top; j-- {
			if naf[j] != 0 {
				top = j
				break
			}
		}
	}
	var q point
	q.setIdentity()
	for i := top; i >= 0; i-- {
		adds := baseNAF[i] != 0
		for j := range nafs {
			adds = adds || nafs[j][i] != 0
		}
		if adds || i == 0 {
			q.double(&q)
		} else { // no addition follows and the result is not final: T is not needed
			var e, h fe
			q.doubleXYZ(&q, &e, &h)
		}
		for j := range nafs {
			switch d := nafs[j][i]; {
			case d > 0:
				q.addCached(&q, &tables[j][d/2])
			case d < 0:
				q.subCached(&q, &tables[j][-d/2])
			}
		}
		switch d := baseNAF[i]; {
		case d > 0:
			q.addAffine(&q, &baseOdd[d/2])
		case d < 0:
			q.subAffine(&q, &baseOdd[-d/2])
		}
	}
	e.r = q
	return e
}

// VarTimeDoubleScalarBaseMult sets e = a·A + b·B for the generator B and returns e.
// Its time depends on the scalars: public inputs only.
func (e *Element) VarTimeDoubleScalarBaseMult(a *Scalar, A *Element, b *Scalar) *Element {
	return e.VarTimeMultiScalarMult([]*Scalar{a, b}, []*Element{A, &generator})
}

// VarTimeTablesMult sets e = Σ s[i]·P_i, for P_i the base of t[i], and returns e: the
// comb of ScalarBaseMult over several tables, its entries indexed by the scalars' signed
// radix-16 digits and zero digits skipped. Its time depends on the scalars: public inputs
// only. The slices' lengths must match (it panics otherwise).
func (e *Element) VarTimeTablesMult(s []*Scalar, t []*Table) *Element {
	if len(s) != len(t) {
		panic("ristretto32: VarTimeTablesMult invoked with mismatched slice lengths")
	}
	digits := make([][64]int8, len(s))
	for k := range s {
		digits[k] = signedRadix16(s[k])
	}
	var q point
	q.setIdentity()
	for _, start := range [2]int{1, 0} { // the odd digits, times 16, then the even ones
		if start == 0 {
			q.double4(&q)
		}
		for i := start; i < 64; i += 2 {
			for k := range t {
				switch d := digits[k][i]; {
				case d > 0:
					q.addAffine(&q, &t[k].rows[i/2][d-1])
				case d < 0:
					q.subAffine(&q, &t[k].rows[i/2][-d-1])
				}
			}
		}
	}
	e.r = q
	return e
}
