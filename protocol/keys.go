package protocol

import (
	"fmt"

	"corruption/crypto"
	"corruption/engine"
	"corruption/protocol/internal/wire"
)

// Keys and joint randomness.
//
// Each seat writes one key entry at the start: its ElGamal public key with a Schnorr proof of
// knowledge (bound to table, roster and seat: no rogue key), and the anchor of its random chain
// (crypto.RandomChain). The joint key, under which every deck is encrypted, is the sum of the
// keys. Each joint random draw (StepRandom) then costs one entry a seat: its next chain reveal;
// the draw's integers are derived from every seat's reveal, so they are uniform as long as one
// seat is honest, and the last to reveal can only refuse (its clock names it), never choose.

// keyring is the seats' keys and chains.
type keyring struct {
	proofs []*crypto.KeyProof
	pubs   []*crypto.PublicKey
	joint  *crypto.PublicKey
	chains [][crypto.RandomSize]byte // each seat's last reveal (its anchor at first)
	draws  int                       // random draws completed
}

type keyBody struct {
	proof  *crypto.KeyProof
	anchor crypto.RandomCommitment
}

func (b *keyBody) marshal() []byte {
	w := wire.Writer{}
	w.Bytes(b.proof.Bytes())
	w.Fixed(b.anchor.Bytes())
	return w.B
}

func parseKeyBody(p []byte) (*keyBody, error) {
	r := wire.Reader{B: p}
	kb := r.Bytes(1024, "key proof")
	ab := r.Take(crypto.RandomSize)
	if err := r.Done("key entry"); err != nil {
		return nil, err
	}
	proof, err := crypto.ParseKeyProof(kb)
	if err != nil {
		return nil, fmt.Errorf("malformed key entry: %w", err)
	}
	anchor, err := crypto.ParseRandomCommitment(ab)
	if err != nil {
		return nil, fmt.Errorf("malformed key entry: %w", err)
	}
	return &keyBody{proof: proof, anchor: anchor}, nil
}

func (k *keyring) addKey(ctx crypto.Context, seat int, b *keyBody) error {
	if err := crypto.VerifyKey(ctx, seat, b.proof); err != nil {
		return fmt.Errorf("its key proof does not verify: %w", err)
	}
	k.proofs = append(k.proofs, b.proof)
	k.pubs = append(k.pubs, b.proof.PublicKey())
	k.chains = append(k.chains, b.anchor)
	return nil
}

func (k *keyring) setJoint(ctx crypto.Context) error {
	joint, err := crypto.JointKey(ctx, k.proofs)
	if err != nil {
		return fmt.Errorf("the joint key: %w", err)
	}
	k.joint = joint
	return nil
}

// reorder puts the seats' keys and chains in the drawn order (perm[seat] is the roster index
// sitting there); the order draw was the table's first draw.
func (k *keyring) reorder(perm []int) {
	pubs, chains := k.pubs, k.chains
	k.pubs, k.chains = make([]*crypto.PublicKey, len(perm)), make([][crypto.RandomSize]byte, len(perm))
	for seat, r := range perm {
		k.pubs[seat], k.chains[seat] = pubs[r], chains[r]
	}
	k.draws = 1
}

// advanceChain keeps seat's last chain reveal, checked by the caller.
func (k *keyring) advanceChain(seat int, v crypto.RandomReveal) { k.chains[seat] = v }

// anchorChain starts seat's fresh chain from its anchor, checked by the caller (cut.go).
func (k *keyring) anchorChain(seat int, a crypto.RandomCommitment) { k.chains[seat] = a }

// applyRandom takes a seat's next chain reveal.
func (t *Table) applyRandom(e *Entry) error {
	v, err := crypto.ParseRandomReveal(e.Body)
	if err != nil {
		return fmt.Errorf("malformed random entry: %w", err)
	}
	if err := t.chainVerify(e.Seat, v); err != nil {
		return fmt.Errorf("its random reveal does not follow its chain: %w", err)
	}
	t.advanceChain(e.Seat, v)
	t.step.addReveal(v)
	return nil
}

// drawResult is a complete draw's integers: one per range, each uniform, from every reveal.
func (t *Table) drawResult() (engine.Input, error) {
	in := engine.Input{Kind: engine.InRandom}
	for i, n := range t.step.Ranges {
		ctx := t.ctx.WithStep(fmt.Sprintf("%s range %d", t.step.label(), i))
		v, err := crypto.JointInt(ctx, t.step.reveals, n)
		if err != nil {
			return in, err
		}
		in.Ints = append(in.Ints, v)
	}
	t.draws++
	return in, nil
}

// The bodies of the node's own key and random entries.

func (s *Self) keyBody(t *Table) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	proof, err := crypto.ProveKey(s.rand("key proof"), t.ctx.WithStep(stepKeys), s.seat, priv)
	if err != nil {
		return nil, err
	}
	chain, err := s.randomChain(t.ctx)
	if err != nil {
		return nil, err
	}
	return (&keyBody{proof: proof, anchor: chain.Anchor()}).marshal(), nil
}

func (s *Self) randomBody(t *Table) ([]byte, error) {
	ctx := t.ctx
	if t.Ordered() {
		ctx = t.chainCtx
	}
	chain, err := s.randomChain(ctx)
	if err != nil {
		return nil, err
	}
	draw := t.draws + 1
	if t.stage == stageOrder {
		draw = 1
	}
	if at, ok := t.freshChain(s.seat); ok {
		// A fresh chain since the last cut (cut.go): its reveals count from its anchor.
		if chain, err = s.freshChain(t.ctx, t.Cuts()); err != nil {
			return nil, err
		}
		draw = t.draws - at + 1
	}
	v, err := chain.Reveal(draw)
	if err != nil {
		return nil, err
	}
	return v.Bytes(), nil
}
