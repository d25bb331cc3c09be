package ristretto32

import "encoding/hex"

// The curve is edwards25519, −x² + y² = 1 + d·x²·y², on which ristretto255's elements
// are classes of points. Points here use the formulas of Hisil, Wong, Carter, Dawson,
// "Twisted Edwards curves revisited" (2008) for a = −1, in the shapes ref10 uses:
//
//   - point: extended coordinates (X : Y : Z : T), x = X/Z, y = Y/Z, x·y = T/Z;
//   - cached: (Y+X, Y−X, Z, 2d·T), a point prepared to be added;
//   - affineCached: (y+x, y−x, 2d·x·y) with Z = 1, for the fixed base's table.
//
// The formulas are complete on the curve (no exceptional inputs, the identity
// included), so addition never branches on its operands.

// point is a point of edwards25519 in extended coordinates.
type point struct{ x, y, z, t fe }

// cached is a point prepared to be added: (Y+X, Y−X, Z, 2d·T).
type cached struct{ yPlusX, yMinusX, z, t2d fe }

// affineCached is a point with Z = 1 prepared to be added: (y+x, y−x, 2d·x·y).
type affineCached struct{ yPlusX, yMinusX, t2d fe }

// Curve and ristretto255 constants (RFC 9496 section 4.1), little-endian; checked
// against the RFC's decimal values in the tests.
var (
	feD              = feFromHex("a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352")
	feD2             = feFromHex("59f1b226949bd6eb56b183829a14e00030d1f3eef2808e19e7fcdf56dcd90624")
	sqrtM1           = feFromHex("b0a00e4a271beec478e42fad0618432fa7d7fb3d99004d2b0bdfc14f8024832b")
	sqrtADMinusOne   = feFromHex("1b2e7b49a0f6977ebd54781b0c8e9daffdd1f531c9fc3c0fac48832bbf316937")
	invSqrtAMinusD   = feFromHex("ea405d80aafdc899be72415a17162f9d40d801fe917bc216a2fcafcf05896c78")
	oneMinusDSq      = feFromHex("76c15f94c1097ce20f355ecd38a1812ce4df70beddab9499d7e0b3b2a8729002")
	dMinusOneSq      = feFromHex("204ded44aa5aad3199191eb02c4a9ed2eb4e9b522fd3dc4c41226cf67ab36859")
	generatorEncoded = mustHex("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76")
)

// mustHex decodes a 32-byte hexadecimal constant; it panics on a typo, at start-up.
func mustHex(s string) [32]byte {
	var b [32]byte
	if n, err := hex.Decode(b[:], []byte(s)); err != nil || n != 32 {
		panic("ristretto32: bad constant " + s)
	}
	return b
}

// feFromHex is the field element whose little-endian encoding is the hexadecimal s.
func feFromHex(s string) fe {
	b := mustHex(s)
	var v fe
	v.setBytes(&b)
	return v
}

// setIdentity sets p to the identity (0 : 1 : 1 : 0).
func (p *point) setIdentity() *point {
	*p = point{y: feOne, z: feOne}
	return p
}

// fromPoint sets c to p prepared for addition.
func (c *cached) fromPoint(p *point) *cached {
	c.yPlusX.addLoose(&p.y, &p.x) // only ever multiplied
	c.yMinusX.sub(&p.y, &p.x)
	c.z = p.z
	c.t2d.mul(&p.t, &feD2)
	return c
}

// addCached sets p = a + b (8 multiplications).
func (p *point) addCached(a *point, b *cached) *point {
	var pp, mm, tt2d, zz2, yPlusX, yMinusX fe
	yPlusX.addLoose(&a.y, &a.x)
	yMinusX.sub(&a.y, &a.x)
	pp.mul(&yPlusX, &b.yPlusX)
	mm.mul(&yMinusX, &b.yMinusX)
	tt2d.mul(&a.t, &b.t2d)
	zz2.mul(&a.z, &b.z)
	zz2.addLoose(&zz2, &zz2)
	return p.finish(&pp, &mm, &zz2, &tt2d, 0)
}

// subCached sets p = a − b: b negated is (Y−X, Y+X, Z, −2dT).
func (p *point) subCached(a *point, b *cached) *point {
	var pp, mm, tt2d, zz2, yPlusX, yMinusX fe
	yPlusX.addLoose(&a.y, &a.x)
	yMinusX.sub(&a.y, &a.x)
	pp.mul(&yPlusX, &b.yMinusX)
	mm.mul(&yMinusX, &b.yPlusX)
	tt2d.mul(&a.t, &b.t2d)
	zz2.mul(&a.z, &b.z)
	zz2.addLoose(&zz2, &zz2)
	return p.finish(&pp, &mm, &zz2, &tt2d, 1)
}

// addAffine sets p = a + b for a table entry b with Z = 1 (7 multiplications).
func (p *point) addAffine(a *point, b *affineCached) *point {
	var pp, mm, tt2d, z2, yPlusX, yMinusX fe
	yPlusX.addLoose(&a.y, &a.x)
	yMinusX.sub(&a.y, &a.x)
	pp.mul(&yPlusX, &b.yPlusX)
	mm.mul(&yMinusX, &b.yMinusX)
	tt2d.mul(&a.t, &b.t2d)
	z2.addLoose(&a.z, &a.z)
	return p.finish(&pp, &mm, &z2, &tt2d, 0)
}

// subAffine sets p = a − b for a table entry b with Z = 1: b negated is (y−x, y+x, −2dxy).
func (p *point) subAffine(a *point, b *affineCached) *point {
	var pp, mm, tt2d, z2, yPlusX, yMinusX fe
	yPlusX.addLoose(&a.y, &a.x)
	yMinusX.sub(&a.y, &a.x)
	pp.mul(&yPlusX, &b.yMinusX)
	mm.mul(&yMinusX, &b.yPlusX)
	tt2d.mul(&a.t, &b.t2d)
	z2.addLoose(&a.z, &a.z)
	return p.finish(&pp, &mm, &z2, &tt2d, 1)
}

// finish completes an addition from (Y1+X1)(Y2+X2), (Y1−X1)(Y2−X2), 2·Z1·Z2 and
// 2d·T1·T2, the last one negated when negT == 1 (a subtraction).
func (p *point) finish(pp, mm, zz2, tt2d *fe, negT int) *point {
	var e, f, g, h, plus, minus fe
	e.sub(pp, mm)
	h.addLoose(pp, mm)
	plus.add(zz2, tt2d) // carried: zz2 may be loose
	minus.sub(zz2, tt2d)
	f.selectFe(&plus, &minus, negT)
	g.selectFe(&minus, &plus, negT)
	p.x.mul(&e, &f)
	p.y.mul(&g, &h)
	p.z.mul(&f, &g)
	p.t.mul(&e, &h)
	return p
}

// double sets p = 2a (4 squarings, 4 multiplications). It reads a's X, Y and Z only.
func (p *point) double(a *point) *point {
	var e, h fe
	p.doubleXYZ(a, &e, &h)
	p.t.mul(&e, &h)
	return p
}

// doubleXYZ sets p's X, Y and Z to those of 2a, leaving its T stale, and returns E and
// H (T = E·H): for a doubling followed by another doubling, which never reads T.
//
// With A = X², B = Y², the paper's E = (X+Y)² − A − B, G = B − A, F = G − 2Z² and
// H = −(A + B) give 2a = (E·F : G·H : F·G : E·H). Here F and H are both negated
// (F' = 2Z² − G, H' = A + B), which negates all four coordinates: the same point, one
// negation fewer. H' and the other sums that are only multiplied next stay loose.
func (p *point) doubleXYZ(a *point, e, h *fe) *point {
	var xx, yy, zz2, xy, f, g fe
	xx.square(&a.x)
	yy.square(&a.y)
	zz2.square(&a.z)
	zz2.addLoose(&zz2, &zz2) // 2Z²
	xy.addLoose(&a.x, &a.y)
	xy.square(&xy)
	h.addLoose(&xx, &yy) // H' = A + B
	e.sub(&xy, h)        // E = (X+Y)² − A − B
	g.sub(&yy, &xx)      // G = B − A
	f.sub(&zz2, &g)      // F' = 2Z² − G
	p.x.mul(e, &f)
	p.y.mul(&g, h)
	p.z.mul(&f, &g)
	return p
}

// double4 sets p = 16a: four doublings, the first three without T.
func (p *point) double4(a *point) *point {
	var e, h fe
	p.doubleXYZ(a, &e, &h)
	p.doubleXYZ(p, &e, &h)
	p.doubleXYZ(p, &e, &h)
	return p.double(p)
}

// negate sets p = −a.
func (p *point) negate(a *point) *point {
	p.x.neg(&a.x)
	p.y = a.y
	p.z = a.z
	p.t.neg(&a.t)
	return p
}

// condNegCached sets c = −c if cond == 1: Y+X and Y−X swapped under a mask, 2d·T
// negated under a mask.
func (c *cached) condNegCached(cond int) *cached {
	m := -uint32(cond)
	for k := range c.yPlusX {
		x := m & (c.yPlusX[k] ^ c.yMinusX[k])
		c.yPlusX[k] ^= x
		c.yMinusX[k] ^= x
	}
	var n fe
	n.neg(&c.t2d)
	c.t2d.selectFe(&n, &c.t2d, cond)
	return c
}

// condNegAffine sets c = −c if cond == 1, as condNegCached does.
func (c *affineCached) condNegAffine(cond int) *affineCached {
	m := -uint32(cond)
	for k := range c.yPlusX {
		x := m & (c.yPlusX[k] ^ c.yMinusX[k])
		c.yPlusX[k] ^= x
		c.yMinusX[k] ^= x
	}
	var n fe
	n.neg(&c.t2d)
	c.t2d.selectFe(&n, &c.t2d, cond)
	return c
}
