package crypto

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"fmt"
	"io"
)

// A SealedBox carries a message from one player to another through the public log,
// readable by the recipient alone (the little black book's answer: the opening of a
// face-down card's commitment). It is ECIES on ristretto255:
//
//	E = e·G for a fresh secret e, S = e·Y_to (= x_to·E),
//	key = HKDF-SHA256(secret = S, info = LP(domain) ‖ LP("seal") ‖ context ‖ u64(from) ‖
//	                  u64(to) ‖ E ‖ Y_to),
//	box = E ‖ AES-256-GCM(key, nonce = 0, message).
//
// The key is fresh for every box, so the fixed nonce is never reused. The sender is
// authenticated by the signed log entry that carries the box, and the box is bound to
// the sender's seat: a box copied into another seat's entry does not decrypt.
//
// If the box does not decrypt, or its message is not what it should be (an opening
// that does not match the public commitment), the recipient publishes a Blame: S with a
// Chaum–Pedersen proof that log_G Y_to = log_E S. Anyone can then derive the key and see
// for themselves what the sender sealed. A blame reveals this box only. A recipient who
// lies about S cannot make the proof, and one who blames an honest box only shows that
// the box was honest.
//
// We use a fresh E rather than the sender's long-term ElGamal key (static–static ECDH):
// a blame then exposes one message and not every message between the two players, and
// no nonce needs managing.
type SealedBox struct {
	e  Point
	ct []byte
}

// MaxSealedMessage bounds the length of a sealed message.
const MaxSealedMessage = 4096

const sealOverhead = PointSize + 16 // E and the GCM tag

// Seal seals message from the player at seat from to the player at seat to, whose key
// is recipient.
func Seal(rand io.Reader, ctx Context, from, to int, recipient *PublicKey, message []byte) (*SealedBox, error) {
	if err := checkPair(ctx, from, to); err != nil {
		return nil, err
	}
	if len(message) > MaxSealedMessage {
		return nil, fmt.Errorf("message of %d bytes is longer than %d", len(message), MaxSealedMessage)
	}
	e, err := randomScalar(rand)
	if err != nil {
		return nil, err
	}
	box := &SealedBox{}
	box.e.e.ScalarBaseMult(e)
	if box.e.IsIdentity() { // e = 0, probability 2^-252
		return nil, fmt.Errorf("ephemeral key is the identity")
	}
	var s Point
	s.e.ScalarMult(e, &recipient.p.e)
	aead, err := sealAEAD(ctx, from, to, &box.e, recipient, &s)
	if err != nil {
		return nil, err
	}
	box.ct = aead.Seal(nil, make([]byte, aead.NonceSize()), message, nil)
	return box, nil
}

// Unseal opens a box sealed by the player at seat from to the player at seat to, who
// holds priv. A box that does not decrypt wraps ErrDecrypt: publish a Blame.
func Unseal(ctx Context, from, to int, priv *PrivateKey, box *SealedBox) ([]byte, error) {
	if err := checkPair(ctx, from, to); err != nil {
		return nil, err
	}
	var s Point
	s.e.ScalarMult(&priv.x, &box.e.e)
	return openBox(ctx, from, to, priv.Public(), box, &s)
}

func openBox(ctx Context, from, to int, recipient *PublicKey, box *SealedBox, s *Point) ([]byte, error) {
	aead, err := sealAEAD(ctx, from, to, &box.e, recipient, s)
	if err != nil {
		return nil, err
	}
	msg, err := aead.Open(nil, make([]byte, aead.NonceSize()), box.ct, nil)
	if err != nil {
		return nil, fmt.Errorf("box from seat %d to seat %d: %w", from, to, ErrDecrypt)
	}
	return msg, nil
}

func checkPair(ctx Context, from, to int) error {
	if err := ctx.check(from); err != nil {
		return err
	}
	return ctx.check(to)
}

func sealAEAD(ctx Context, from, to int, e *Point, recipient *PublicKey, s *Point) (cipher.AEAD, error) {
	var info bytes.Buffer
	writeLP(&info, []byte(domain))
	writeLP(&info, []byte("seal"))
	ctx.writeTo(&info, true)
	writeUint(&info, uint64(from))
	writeUint(&info, uint64(to))
	info.Write(e.Bytes())
	info.Write(recipient.enc[:])
	key, err := hkdf.Key(sha256.New, s.Bytes(), nil, info.String(), 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Bytes returns the encoding of box: E ‖ ciphertext, 48 bytes more than the message.
func (box *SealedBox) Bytes() []byte {
	return append(box.e.Bytes(), box.ct...)
}

// ParseSealedBox decodes a sealed box; it rejects an identity E.
func ParseSealedBox(b []byte) (*SealedBox, error) {
	if len(b) < sealOverhead || len(b) > sealOverhead+MaxSealedMessage {
		return nil, fmt.Errorf("sealed box of %d bytes is not %d to %d: %w",
			len(b), sealOverhead, sealOverhead+MaxSealedMessage, ErrNonCanonical)
	}
	box := &SealedBox{ct: append([]byte(nil), b[PointSize:]...)}
	d := decoder{b: b[:PointSize]}
	d.nonIdentity(&box.e, "sealed box: ephemeral key")
	if err := d.finish("sealed box"); err != nil {
		return nil, err
	}
	return box, nil
}

// A Blame is the recipient's proof of what a sealed box holds: the shared point S with a
// proof that S = x_to·E.
type Blame struct {
	s     Point
	proof schnorrProof
}

// BlameSize is the length of an encoded Blame: S ‖ c ‖ s.
const BlameSize = PointSize + 2*ScalarSize

// ProveBlame reveals the key of a box sealed from seat from to seat to (the caller, who
// holds priv), so that everyone can read the box.
func ProveBlame(rand io.Reader, ctx Context, from, to int, priv *PrivateKey, box *SealedBox) (*Blame, error) {
	if err := checkPair(ctx, from, to); err != nil {
		return nil, err
	}
	b := &Blame{}
	b.s.e.ScalarMult(&priv.x, &box.e.e)
	tr := blameTranscript(ctx, from, to, &priv.pub, box, &b.s)
	if err := proveDLEQ(rand, tr, &priv.x, &box.e.e, &b.proof); err != nil {
		return nil, err
	}
	return b, nil
}

// VerifyBlame checks a blame published by the recipient (seat to, key recipient) of a box
// sealed by seat from, and returns the message the box holds. The outcome names the
// cheater:
//   - an error wrapping ErrInvalidProof: the blame is false (the recipient cheats);
//   - an error wrapping ErrDecrypt: the sender sealed garbage (the sender cheats);
//   - a message: the caller checks it (for example with VerifyOpening); if it is wrong the
//     sender cheated, if it is right the recipient blamed an honest box.
func VerifyBlame(ctx Context, from, to int, recipient *PublicKey, box *SealedBox, b *Blame) ([]byte, error) {
	if err := checkPair(ctx, from, to); err != nil {
		return nil, err
	}
	tr := blameTranscript(ctx, from, to, recipient, box, &b.s)
	if !verifyDLEQ(tr, &recipient.p.e, &box.e.e, &b.s.e, &b.proof) {
		return nil, fmt.Errorf("blame by seat %d of the box from seat %d: %w", to, from, ErrInvalidProof)
	}
	return openBox(ctx, from, to, recipient, box, &b.s)
}

func blameTranscript(ctx Context, from, to int, recipient *PublicKey, box *SealedBox, s *Point) *transcript {
	tr := newTranscript("blame", ctx, to)
	tr.uint(uint64(from))
	tr.raw(recipient.enc[:])
	tr.point(&box.e)
	tr.bytes(box.ct)
	tr.point(s)
	return tr
}

// Bytes returns the BlameSize-byte encoding of b.
func (b *Blame) Bytes() []byte {
	out := make([]byte, 0, BlameSize)
	out = appendPoint(out, &b.s.e)
	return b.proof.append(out)
}

// ParseBlame decodes a Blame.
func ParseBlame(b []byte) (*Blame, error) {
	d := decoder{b: b}
	bl := &Blame{}
	d.point(&bl.s, "blame")
	bl.proof.decode(&d, "blame proof")
	if err := d.finish("blame"); err != nil {
		return nil, err
	}
	return bl, nil
}
