package crypto

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"io"
)

// A DetReader is a deterministic source of "randomness" for tests and test vectors:
// the blocks SHA-256(seed ‖ u64(counter)) for counter = 0, 1, 2, …
type DetReader struct {
	seed []byte
	ctr  uint64
	buf  []byte
}

// NewDetReader returns a DetReader for seed.
func NewDetReader(seed string) *DetReader { return &DetReader{seed: []byte(seed)} }

func (r *DetReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.buf) == 0 {
			h := sha256.New()
			h.Write(r.seed)
			var c [8]byte
			binary.BigEndian.PutUint64(c[:], r.ctr)
			h.Write(c[:])
			r.ctr++
			r.buf = h.Sum(nil)
		}
		k := copy(p[n:], r.buf)
		r.buf = r.buf[k:]
		n += k
	}
	return n, nil
}

// SubtractPointsForTest returns the encoding of a − Σ others: what an attacker computes
// for a rogue key.
func SubtractPointsForTest(a []byte, others []*PublicKey) []byte {
	var p Point
	if _, err := p.SetBytes(a); err != nil {
		panic(err)
	}
	for _, o := range others {
		p.e.Subtract(&p.e, &o.p.e)
	}
	return p.Bytes()
}

// SealRawForTest is a cheating sender who knows what it is doing: it sends ciphertext,
// which is not an encryption of anything, as the body of a box from seat from to seat
// to, with a fresh E = e·G and a valid proof of knowledge of e. The box passes
// VerifySealedBox but does not decrypt.
func SealRawForTest(rand io.Reader, ctx Context, from, to int, recipient *PublicKey, ciphertext []byte) (*SealedBox, error) {
	e, err := randomScalar(rand)
	if err != nil {
		return nil, err
	}
	box := &SealedBox{ct: append([]byte(nil), ciphertext...)}
	box.e.e.ScalarBaseMult(e)
	if err := proveBox(rand, ctx, from, to, recipient, box, e); err != nil {
		return nil, err
	}
	return box, nil
}

// DecodeCardComparisonsForTest runs DecodeCard's scan with a constant-time comparison
// that counts its calls, and returns the card, the number of comparisons and the error.
func DecodeCardComparisonsForTest(m *Point, n int) (card, comparisons int, err error) {
	card, err = decodeCard(m, n, func(a, b []byte) int {
		comparisons++
		return subtle.ConstantTimeCompare(a, b)
	})
	return card, comparisons, err
}

// EscrowBadShareForTest deals like DealEscrow, but seals to victim a share off by one: a
// dealer who cheats one recipient.
func EscrowBadShareForTest(rand io.Reader, ctx Context, seat int, priv *PrivateKey, keys []*PublicKey, t, victim int) (*EscrowDeal, error) {
	d, err := DealEscrow(rand, ctx, seat, priv, keys, t)
	if err != nil {
		return nil, err
	}
	// A made-up share, honestly sealed: the box's proof holds, the share does not.
	bad := make([]byte, ScalarSize)
	bad[0] = 1
	box, err := Seal(rand, ctx, seat, victim, keys[victim], bad)
	if err != nil {
		return nil, err
	}
	d.boxes[victim] = box
	return d, nil
}
