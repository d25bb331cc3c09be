package crypto

import (
	"fmt"
	"io"

	"corruption/crypto/internal/group"
)

// A PrivateKey is a player's ElGamal secret x, a non-zero scalar. Its zero value is not
// usable; use GenerateKey or ParsePrivateKey.
type PrivateKey struct {
	x   group.Scalar
	pub PublicKey
}

// A PublicKey is a player's ElGamal public key Y = x·G, or the joint key of a table.
// It is never the identity. Its zero value is not usable.
type PublicKey struct {
	p   Point
	enc [PointSize]byte // the encoding of p, kept for transcripts
}

func (k *PublicKey) set(e *group.Element) {
	k.p.e.Set(e)
	copy(k.enc[:], e.Bytes())
}

// PrivateKeySize and PublicKeySize are the lengths of the encoded keys.
const (
	PrivateKeySize = ScalarSize
	PublicKeySize  = PointSize
)

// GenerateKey returns a new private key drawn from rand.
func GenerateKey(rand io.Reader) (*PrivateKey, error) {
	for {
		x, err := randomScalar(rand)
		if err != nil {
			return nil, err
		}
		if x.Equal(group.NewScalar()) == 0 {
			return newPrivateKey(x), nil
		}
	}
}

func newPrivateKey(x *group.Scalar) *PrivateKey {
	k := &PrivateKey{}
	k.x.Set(x)
	var y group.Element
	k.pub.set(y.ScalarBaseMult(x))
	return k
}

// ParsePrivateKey decodes a private key saved with Bytes: a canonical non-zero scalar.
func ParsePrivateKey(b []byte) (*PrivateKey, error) {
	d := decoder{b: b}
	var x group.Scalar
	d.scalar(&x, "private key")
	if err := d.finish("private key"); err != nil {
		return nil, err
	}
	if x.Equal(group.NewScalar()) == 1 {
		return nil, fmt.Errorf("private key is zero: %w", ErrNonCanonical)
	}
	return newPrivateKey(&x), nil
}

// Bytes returns the 32-byte encoding of k. Keep it secret.
func (k *PrivateKey) Bytes() []byte { return k.x.Bytes() }

// Public returns the public key of k.
func (k *PrivateKey) Public() *PublicKey {
	pub := k.pub
	return &pub
}

// ParsePublicKey decodes a 32-byte public key; it rejects the identity.
func ParsePublicKey(b []byte) (*PublicKey, error) {
	d := decoder{b: b}
	k := &PublicKey{}
	d.nonIdentity(&k.p, "public key")
	if err := d.finish("public key"); err != nil {
		return nil, err
	}
	copy(k.enc[:], b)
	return k, nil
}

// Bytes returns the 32-byte encoding of k.
func (k *PublicKey) Bytes() []byte { return append([]byte(nil), k.enc[:]...) }

// Equal reports whether k and o are the same key.
func (k *PublicKey) Equal(o *PublicKey) bool { return k.p.Equal(&o.p) }

// A KeyProof is a player's public key with a Schnorr proof of knowledge of its secret,
// bound to the context and the player's seat. Requiring it before adding a key to the
// joint key stops the rogue-key attack (publishing Y' = Y_x − Y_other to cancel another
// player's key), because the author of Y' does not know its secret; binding the seat
// stops a player from copying another's key and proof as its own.
type KeyProof struct {
	pub   PublicKey
	proof schnorrProof
}

// KeyProofSize is the length of an encoded KeyProof: Y ‖ c ‖ s.
const KeyProofSize = PointSize + 2*ScalarSize

// ProveKey proves that the player at seat knows the secret of priv's public key.
func ProveKey(rand io.Reader, ctx Context, seat int, priv *PrivateKey) (*KeyProof, error) {
	if err := ctx.check(seat); err != nil {
		return nil, err
	}
	tr := newTranscript("key", ctx, seat)
	tr.raw(priv.pub.enc[:])
	k, err := tr.nonce(rand, &priv.x)
	if err != nil {
		return nil, err
	}
	kp := &KeyProof{pub: priv.pub}
	proveSchnorr(tr, &priv.x, k, &kp.proof)
	return kp, nil
}

// VerifyKey checks a key proof published by the player at seat.
func VerifyKey(ctx Context, seat int, kp *KeyProof) error {
	if err := ctx.check(seat); err != nil {
		return err
	}
	if kp.pub.p.IsIdentity() {
		return fmt.Errorf("key of seat %d is the identity: %w", seat, ErrInvalidProof)
	}
	tr := newTranscript("key", ctx, seat)
	tr.raw(kp.pub.enc[:])
	if !verifySchnorr(tr, &kp.pub.p.e, &kp.proof) {
		return fmt.Errorf("key proof of seat %d: %w", seat, ErrInvalidProof)
	}
	return nil
}

// PublicKey returns the key that kp proves.
func (kp *KeyProof) PublicKey() *PublicKey {
	pub := kp.pub
	return &pub
}

// Bytes returns the KeyProofSize-byte encoding of kp.
func (kp *KeyProof) Bytes() []byte {
	b := make([]byte, 0, KeyProofSize)
	b = append(b, kp.pub.enc[:]...)
	return kp.proof.append(b)
}

// ParseKeyProof decodes a KeyProof; it rejects an identity key.
func ParseKeyProof(b []byte) (*KeyProof, error) {
	d := decoder{b: b}
	kp := &KeyProof{}
	d.nonIdentity(&kp.pub.p, "key proof: public key")
	kp.proof.decode(&d, "key proof")
	if err := d.finish("key proof"); err != nil {
		return nil, err
	}
	copy(kp.pub.enc[:], b)
	return kp, nil
}

// JointKey verifies the key proof of every seat (proofs[i] is seat i's, all made under
// ctx) and returns the table's joint key, the sum of the players' keys. Nobody knows its
// secret unless all players pool theirs.
func JointKey(ctx Context, proofs []*KeyProof) (*PublicKey, error) {
	if len(proofs) != len(ctx.Roster) {
		return nil, fmt.Errorf("%d key proofs for a roster of %d seats", len(proofs), len(ctx.Roster))
	}
	sum := group.NewIdentityElement()
	for seat, kp := range proofs {
		if err := VerifyKey(ctx, seat, kp); err != nil {
			return nil, err
		}
		sum.Add(sum, &kp.pub.p.e)
	}
	joint := &PublicKey{}
	joint.set(sum)
	if joint.p.IsIdentity() {
		return nil, fmt.Errorf("joint key is the identity: %w", ErrInvalidProof)
	}
	return joint, nil
}
