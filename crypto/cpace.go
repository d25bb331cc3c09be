package crypto

import (
	"crypto/sha512"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"

	"corruption/crypto/internal/group"
)

// CPace is a balanced password-authenticated key exchange: two parties who share a short
// secret (a join code read aloud) derive a strong shared key, and whoever records the
// exchange, or takes part in it without the secret, can test one guess of the secret per
// exchange, never a dictionary offline. This is CPACE-RISTRETTO255-SHA512 of
// draft-irtf-cfrg-cpace (initiator-responder transcript), written from the draft; its test
// vectors run in cpace_test.go.
//
// Each party derives a generator g from the password-related string PRS, the channel
// identifier CI and the session id sid (SHA-512 of the draft's generator string, mapped
// with RFC 9496's element derivation), draws a secret scalar y and sends Y = y·g with its
// associated data AD. With the other's share it computes K = y·Y' and the intermediate
// session key ISK = SHA-512(lv_cat("CPaceRistretto255_ISK", sid, K) ‖ lv_cat(Ya, ADa) ‖
// lv_cat(Yb, ADb)). Both get the same ISK if and only if they used the same PRS, CI and sid
// and saw the same shares and associated data. Y is a uniformly random element whatever
// the password, so the shares say nothing about it; confirming the key (a MAC under a key
// derived from ISK) is the caller's.
type CPace struct {
	y     group.Scalar
	share []byte
	sid   []byte
}

// CPaceShareSize is the length of a CPace share (an encoded element).
const CPaceShareSize = PointSize

// CPaceKeySize is the length of the intermediate session key.
const CPaceKeySize = 64

const (
	cpaceDSI     = "CPaceRistretto255"
	cpaceBlock   = 128 // SHA-512's input block: the zero padding fills the first one
	cpaceDSI_ISK = cpaceDSI + "_ISK"
)

// NewCPace starts one party's side of an exchange on the password-related string prs, the
// channel identifier ci (both parties' identities) and the session id sid. It reads 32 bytes
// from rand for its secret scalar (the draft's recommended sampling: the low 252 bits).
func NewCPace(rand io.Reader, prs, ci, sid []byte) (*CPace, error) {
	var buf [ScalarSize]byte
	if _, err := io.ReadFull(rand, buf[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	buf[ScalarSize-1] &= 0x0f // below 2^252 < ℓ: canonical
	c := &CPace{sid: append([]byte(nil), sid...)}
	if _, err := c.y.SetCanonicalBytes(buf[:]); err != nil {
		return nil, err // unreachable: below ℓ
	}
	if c.y.Equal(group.NewScalar()) == 1 {
		return nil, errors.New("cpace: the random scalar is zero: the randomness is broken")
	}
	g := cpaceGenerator(prs, ci, sid)
	c.share = group.NewIdentityElement().ScalarMult(&c.y, g).Bytes()
	return c, nil
}

// Share returns Y, the public share to send to the other party.
func (c *CPace) Share() []byte { return append([]byte(nil), c.share...) }

// Key returns the intermediate session key of an exchange in which the initiator sent
// (ya, ada) and the responder (yb, adb); c's own share must be one of ya and yb, and the
// other is the peer's. It fails, wrapping ErrNonCanonical, when the peer's share is not the
// canonical encoding of an element or the shared point is the identity (the draft's abort).
func (c *CPace) Key(ya, ada, yb, adb []byte) ([]byte, error) {
	var peer []byte
	switch {
	case subtle.ConstantTimeCompare(ya, c.share) == 1:
		peer = yb
	case subtle.ConstantTimeCompare(yb, c.share) == 1:
		peer = ya
	default:
		return nil, errors.New("cpace: the transcript does not hold this party's share")
	}
	var p group.Element
	if err := decodeElement(&p, peer); err != nil {
		return nil, fmt.Errorf("cpace: the peer's share: %w", err)
	}
	k := group.NewIdentityElement().ScalarMult(&c.y, &p)
	if k.Equal(identity) == 1 {
		return nil, fmt.Errorf("cpace: the shared point is the identity: %w", ErrNonCanonical)
	}
	h := sha512.New()
	h.Write(lvCat([]byte(cpaceDSI_ISK), c.sid, k.Bytes()))
	h.Write(lvCat(ya, ada))
	h.Write(lvCat(yb, adb))
	return h.Sum(nil), nil
}

// cpaceGenerator is calculate_generator: the element derivation of SHA-512 of the
// generator string.
func cpaceGenerator(prs, ci, sid []byte) *group.Element {
	sum := sha512.Sum512(cpaceGeneratorString(prs, ci, sid))
	var g group.Element
	fromUniformBytes(&g, &sum)
	return &g
}

// cpaceGeneratorString is generator_string(DSI, PRS, CI, sid, 128): the zero padding makes
// DSI and a short PRS fill SHA-512's first block.
func cpaceGeneratorString(prs, ci, sid []byte) []byte {
	zpad := cpaceBlock - 1 - len(prependLen(prs)) - len(prependLen([]byte(cpaceDSI)))
	return lvCat([]byte(cpaceDSI), prs, make([]byte, max(zpad, 0)), ci, sid)
}

// prependLen is b prefixed with its length in LEB128.
func prependLen(b []byte) []byte {
	var out []byte
	n := len(b)
	for {
		if n < 0x80 {
			out = append(out, byte(n))
			break
		}
		out = append(out, byte(n&0x7f)|0x80)
		n >>= 7
	}
	return append(out, b...)
}

// lvCat is the draft's lv_cat: each argument with its length prepended.
func lvCat(args ...[]byte) []byte {
	var out []byte
	for _, a := range args {
		out = append(out, prependLen(a)...)
	}
	return out
}
