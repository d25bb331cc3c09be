package crypto

import (
	"fmt"
	"io"

	"corruption/crypto/internal/group"
)

// A Share is one player's decryption share D = x·A of a ciphertext (A, B), with a
// Chaum–Pedersen proof that log_G Y = log_A D for the player's key Y, bound to the
// context, the seat and the whole ciphertext. Once every player's share of a ciphertext
// is known, M = B − ΣD is its card point.
type Share struct {
	d     Point
	dEnc  [PointSize]byte // d's encoding, kept so that d is encoded (or decoded) once
	proof schnorrProof
}

// ShareSize is the length of an encoded Share: D ‖ c ‖ s.
const ShareSize = PointSize + 2*ScalarSize

// DecryptShare returns the decryption share of c by the player at seat. Only call it on
// ciphertexts of a deck whose every shuffle verified: a share of an arbitrary point A is
// x·A, a Diffie–Hellman value.
func DecryptShare(rand io.Reader, ctx Context, seat int, priv *PrivateKey, c *Ciphertext) (*Share, error) {
	if err := ctx.check(seat); err != nil {
		return nil, err
	}
	sh := &Share{}
	sh.d.e.ScalarMult(&priv.x, &c.a.e)
	sh.dEnc = [PointSize]byte(sh.d.e.Bytes())
	tr := shareTranscript(ctx, seat, &priv.pub, c, &sh.dEnc)
	if err := proveDLEQ(rand, tr, &priv.x, &c.a.e, &sh.proof); err != nil {
		return nil, err
	}
	return sh, nil
}

// VerifyShare checks the share of c published by the player at seat, whose key is pub.
func VerifyShare(ctx Context, seat int, pub *PublicKey, c *Ciphertext, sh *Share) error {
	if err := ctx.check(seat); err != nil {
		return err
	}
	tr := shareTranscript(ctx, seat, pub, c, &sh.dEnc)
	if !verifyDLEQ(tr, pub, &c.a.e, &sh.d.e, &sh.proof) {
		return fmt.Errorf("decryption share of seat %d: %w", seat, ErrInvalidProof)
	}
	return nil
}

// shareTranscript writes the statement of a share, D by its encoding dEnc: the bytes the
// share was parsed from, so that a received D is never encoded again.
func shareTranscript(ctx Context, seat int, pub *PublicKey, c *Ciphertext, dEnc *[PointSize]byte) *transcript {
	tr := newTranscript("share", ctx, seat)
	tr.raw(pub.enc[:])
	var buf [CiphertextSize]byte
	tr.raw(c.append(buf[:0]))
	tr.raw(dEnc[:])
	return tr
}

// CombineShares returns the card point B − ΣD of c, given the verified shares of all
// players. Decode it with DecodeCard.
func CombineShares(c *Ciphertext, shares []*Share) *Point {
	m := &Point{}
	m.e.Set(&c.b.e)
	for _, sh := range shares {
		m.e.Subtract(&m.e, &sh.d.e)
	}
	return m
}

// DecryptPrivate returns the card point of c for its recipient alone: given the
// verified shares of every other player, the recipient removes its own x·A without
// publishing it. Decode the result with DecodeCard.
func DecryptPrivate(priv *PrivateKey, c *Ciphertext, others []*Share) *Point {
	m := CombineShares(c, others)
	var own group.Element
	own.ScalarMult(&priv.x, &c.a.e)
	m.e.Subtract(&m.e, &own)
	return m
}

// Bytes returns the ShareSize-byte encoding of sh.
func (sh *Share) Bytes() []byte {
	b := make([]byte, 0, ShareSize)
	b = append(b, sh.dEnc[:]...)
	return sh.proof.append(b)
}

// ParseShare decodes a Share.
func ParseShare(b []byte) (*Share, error) {
	d := decoder{b: b}
	sh := &Share{}
	d.point(&sh.d, "share")
	sh.proof.decode(&d, "share proof")
	if err := d.finish("share"); err != nil {
		return nil, err
	}
	sh.dEnc = [PointSize]byte(b[:PointSize])
	return sh, nil
}

// proveSchnorr proves knowledge of x = log_G (x·G) after the statement was written to
// tr, with the secret nonce k: R = k·G, c = H(tr ‖ R), s = k + c·x.
func proveSchnorr(tr *transcript, x, k *group.Scalar, out *schnorrProof) {
	var r group.Element
	r.ScalarBaseMult(k)
	tr.element(&r)
	out.c.Set(tr.challenge())
	multiplyAdd(&out.s, &out.c, x, k)
}

// verifySchnorr checks a proof of knowledge of log_G y, with the statement written to
// tr: R = s·G − c·y, then c must be H(tr ‖ R).
func verifySchnorr(tr *transcript, y *group.Element, p *schnorrProof) bool {
	negC := group.NewScalar().Negate(&p.c)
	var r group.Element
	r.VarTimeDoubleScalarBaseMult(negC, y, &p.s)
	tr.element(&r)
	return tr.challenge().Equal(&p.c) == 1
}

// proveDLEQ proves log_G (x·G) = log_H (x·H) after the statement was written to tr:
// R1 = k·G, R2 = k·H, c = H(tr ‖ R1 ‖ R2), s = k + c·x (Chaum–Pedersen, made
// non-interactive with Fiat–Shamir).
func proveDLEQ(rand io.Reader, tr *transcript, x *group.Scalar, h *group.Element, out *schnorrProof) error {
	k, err := tr.nonce(rand, x)
	if err != nil {
		return err
	}
	var r1, r2 group.Element
	r1.ScalarBaseMult(k)
	r2.ScalarMult(k, h)
	tr.element(&r1)
	tr.element(&r2)
	out.c.Set(tr.challenge())
	multiplyAdd(&out.s, &out.c, x, k)
	return nil
}

// verifyDLEQ checks a proof that log_G y1 = log_h y2 for the key y1, with the statement
// written to tr.
func verifyDLEQ(tr *transcript, y1 *PublicKey, h, y2 *group.Element, p *schnorrProof) bool {
	negC := group.NewScalar().Negate(&p.c)
	var r1, r2 group.Element
	keyBaseMult(&r1, negC, y1, &p.s) // s·G − c·y1, with y1's table (tables.go)
	r2.VarTimeMultiScalarMult([]*group.Scalar{&p.s, negC}, []*group.Element{h, y2})
	tr.element(&r1)
	tr.element(&r2)
	return tr.challenge().Equal(&p.c) == 1
}
