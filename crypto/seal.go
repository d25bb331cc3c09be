package crypto

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"fmt"
	"io"

	"corruption/crypto/internal/group"
)

// A SealedBox carries a message from one player to another through the public log,
// readable by the recipient alone (the little black book's answer: the opening of a
// face-down card's commitment). It is ECIES on ristretto255 with a proof of knowledge
// of the ephemeral secret:
//
//	E = e·G for a fresh secret e, S = e·Y_to (= x_to·E),
//	key = HKDF-SHA256(secret = S, info = LP(domain) ‖ LP("seal") ‖ context ‖ u64(from) ‖
//	                  u64(to) ‖ E ‖ Y_to),
//	ct = AES-256-GCM(key, nonce = 0, message),
//	(c, s) = Schnorr proof of knowledge of e = log_G E, whose challenge absorbs the
//	         context (with its step), from, to, Y_to, E and ct,
//	box = E ‖ c ‖ s ‖ ct.
//
// The key is fresh for every box, so the fixed nonce is never reused. The sender is
// authenticated by the signed log entry that carries the box, and the box is bound to
// the sender's seat: a box copied into another seat's entry fails VerifySealedBox.
//
// If the box does not decrypt, or its message is not what it should be (an opening
// that does not match the public commitment), the recipient publishes a Blame: S with a
// Chaum–Pedersen proof that log_G Y_to = log_E S. Anyone can then derive the key and see
// for themselves what the sender sealed. A blame reveals this box only. A recipient who
// lies about S cannot make the proof, and one who blames an honest box only shows that
// the box was honest.
//
// Why the proof: a blame publishes x_to·E, and x_to is also the recipient's share of the
// table's deck key. Without the proof a cheating sender could put the A of an undealt
// deck ciphertext (A, B) in place of E and seal garbage: the honest recipient's blame
// would then publish x_to·A, its decryption share of a card never dealt. With the proof
// the sender must know log_G E, which it does not know for any A of the deck (or it
// could decrypt that card alone already). Every node checks the proof with
// VerifySealedBox when the box enters the log, and Unseal, ProveBlame and VerifyBlame
// refuse a box whose proof fails, so an honest node never computes x_to·E for such an E.
//
// We use a fresh E rather than the sender's long-term ElGamal key (static–static ECDH):
// a blame then exposes one message and not every message between the two players, and
// no nonce needs managing.
type SealedBox struct {
	e     Point
	proof schnorrProof
	ct    []byte
}

// MaxSealedMessage bounds the length of a sealed message.
const MaxSealedMessage = 4096

// sealOverhead is what a box adds to its message: E, the proof and the GCM tag.
const sealOverhead = PointSize + 2*ScalarSize + 16

// Seal seals message from the player at seat from to the player at seat to, whose key
// is recipient.
//
// Seal reads 32 bytes from rand and derives the ephemeral secret e and its proof's nonce
// from them and the statement (ctx, from, to, recipient, message), as described in
// derive.go: the same bytes used for another message give an unrelated e.
func Seal(rand io.Reader, ctx Context, from, to int, recipient *PublicKey, message []byte) (*SealedBox, error) {
	if err := checkPair(ctx, from, to); err != nil {
		return nil, err
	}
	if len(message) > MaxSealedMessage {
		return nil, fmt.Errorf("message of %d bytes is longer than %d", len(message), MaxSealedMessage)
	}
	st := newTranscript("seal randomness", ctx, from)
	st.uint(uint64(to))
	st.raw(recipient.enc[:])
	st.bytes(message)
	stream, err := newDerivedStream(rand, "seal", st.digest())
	if err != nil {
		return nil, err
	}
	e, err := randomScalar(stream)
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
	if err := proveBox(stream, ctx, from, to, recipient, box, e); err != nil {
		return nil, err
	}
	return box, nil
}

// proveBox sets the proof of box, whose E and ciphertext are set, that its author knows
// e = log_G E, drawing the nonce from rand.
func proveBox(rand io.Reader, ctx Context, from, to int, recipient *PublicKey, box *SealedBox, e *group.Scalar) error {
	k, err := randomScalar(rand)
	if err != nil {
		return err
	}
	proveSchnorr(boxTranscript(ctx, from, to, recipient, box), e, k, &box.proof)
	return nil
}

func boxTranscript(ctx Context, from, to int, recipient *PublicKey, box *SealedBox) *transcript {
	tr := newTranscript("seal", ctx, from)
	tr.uint(uint64(to))
	tr.raw(recipient.enc[:])
	tr.point(&box.e)
	tr.bytes(box.ct)
	return tr
}

// VerifySealedBox checks the proof that the sender (seat from) of a box sealed to seat
// to, whose key is recipient, knows the secret of its ephemeral key E. Every node runs
// it on every box it sees in the log, with the Context of the entry that carries it. A
// failure wraps ErrInvalidProof and blames the sender: its box may be an attempt to
// make the recipient's blame reveal x_to·E for an E of the sender's choosing.
func VerifySealedBox(ctx Context, from, to int, recipient *PublicKey, box *SealedBox) error {
	if err := checkPair(ctx, from, to); err != nil {
		return err
	}
	if !verifySchnorr(boxTranscript(ctx, from, to, recipient, box), &box.e.e, &box.proof) {
		return fmt.Errorf("sealed box from seat %d to seat %d: proof of its ephemeral key: %w", from, to, ErrInvalidProof)
	}
	return nil
}

// Unseal opens a box sealed by the player at seat from to the player at seat to, who
// holds priv. A box whose proof fails wraps ErrInvalidProof (as VerifySealedBox: the
// sender cheats; do not blame it). A box that does not decrypt wraps ErrDecrypt:
// publish a Blame.
func Unseal(ctx Context, from, to int, priv *PrivateKey, box *SealedBox) ([]byte, error) {
	if err := VerifySealedBox(ctx, from, to, &priv.pub, box); err != nil {
		return nil, err
	}
	var s Point
	s.e.ScalarMult(&priv.x, &box.e.e)
	return openBox(ctx, from, to, &priv.pub, box, &s)
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

// Bytes returns the encoding of box: E ‖ c ‖ s ‖ ciphertext, 112 bytes more than the
// message.
func (box *SealedBox) Bytes() []byte {
	b := make([]byte, 0, sealOverhead-16+len(box.ct))
	b = appendPoint(b, &box.e.e)
	b = box.proof.append(b)
	return append(b, box.ct...)
}

// ParseSealedBox decodes a sealed box: E (not the identity), the two canonical scalars
// of its proof and a ciphertext of 16 to MaxSealedMessage+16 bytes. It does not check
// the proof; VerifySealedBox does.
func ParseSealedBox(b []byte) (*SealedBox, error) {
	if len(b) < sealOverhead || len(b) > sealOverhead+MaxSealedMessage {
		return nil, fmt.Errorf("sealed box of %d bytes is not %d to %d: %w",
			len(b), sealOverhead, sealOverhead+MaxSealedMessage, ErrNonCanonical)
	}
	const head = PointSize + 2*ScalarSize
	box := &SealedBox{ct: append([]byte(nil), b[head:]...)}
	d := decoder{b: b[:head]}
	d.nonIdentity(&box.e, "sealed box: ephemeral key")
	box.proof.decode(&d, "sealed box: proof")
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
// holds priv), so that everyone can read the box. It refuses, wrapping ErrInvalidProof,
// a box whose proof fails VerifySealedBox: that box convicts its sender by itself, and
// blaming it would publish x_to·E for an E the sender chose.
func ProveBlame(rand io.Reader, ctx Context, from, to int, priv *PrivateKey, box *SealedBox) (*Blame, error) {
	if err := VerifySealedBox(ctx, from, to, &priv.pub, box); err != nil {
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
//   - an error wrapping ErrInvalidProof: the blame is false (the recipient cheats). This
//     includes the blame of a box that fails VerifySealedBox, which an honest recipient
//     never makes (that box already convicted its sender when it entered the log);
//   - an error wrapping ErrDecrypt: the sender sealed garbage (the sender cheats);
//   - a message: the caller checks it (for example with VerifyOpening); if it is wrong the
//     sender cheated, if it is right the recipient blamed an honest box.
func VerifyBlame(ctx Context, from, to int, recipient *PublicKey, box *SealedBox, b *Blame) ([]byte, error) {
	if err := VerifySealedBox(ctx, from, to, recipient, box); err != nil {
		return nil, fmt.Errorf("blame by seat %d of a box that fails its own check: %w", to, err)
	}
	tr := blameTranscript(ctx, from, to, recipient, box, &b.s)
	if !verifyDLEQ(tr, recipient, &box.e.e, &b.s.e, &b.proof) {
		return nil, fmt.Errorf("blame by seat %d of the box from seat %d: %w", to, from, ErrInvalidProof)
	}
	return openBox(ctx, from, to, recipient, box, &b.s)
}

func blameTranscript(ctx Context, from, to int, recipient *PublicKey, box *SealedBox, s *Point) *transcript {
	tr := newTranscript("blame", ctx, to)
	tr.uint(uint64(from))
	tr.raw(recipient.enc[:])
	tr.point(&box.e)
	tr.scalar(&box.proof.c)
	tr.scalar(&box.proof.s)
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
