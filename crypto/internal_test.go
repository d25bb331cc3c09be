package crypto

import (
	"errors"
	"testing"

	"corruption/crypto/internal/group"
)

func internalContext(step string) Context {
	return Context{Table: []byte("t"), Roster: [][]byte{[]byte("a"), []byte("b"), []byte("c")}, Step: step}
}

// A cheating shuffler runs the honest prover on an output that is not a shuffle of the
// input: one card replaced by a fresh encryption of another card (so one card is there
// twice) with randomness it knows. The proof must not verify.
func TestAttackCheatingShuffler(t *testing.T) {
	rnd := NewDetReader("cheat")
	ctx := internalContext("shuffle")
	key, _ := GenerateKey(rnd)
	in, _ := CanonicalDeck(8)
	psi, _ := randomPermutation(rnd, 8)
	r := make([]group.Scalar, 8)
	out := make(Deck, 8)
	for i := range out {
		s, _ := randomScalar(rnd)
		r[i].Set(s)
		encrypt(&out[i], &in[psi[i]].b.e, &r[i], &key.pub.p.e)
	}
	p, err := proveShuffle(rnd, ctx, 0, &key.pub, in, out, psi, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyShuffle(ctx, 0, &key.pub, in, out, p); err != nil {
		t.Fatalf("honest proof with an explicit witness: %v", err)
	}
	for _, cheat := range []struct {
		name string
		card int // the card point the cheater puts at position 0
	}{
		{"duplicate of the card at position 1", psi[1]},
		{"a card from outside the deck", 20},
	} {
		bad := append(Deck(nil), out...)
		m := &cardPoints.first(cheat.card + 1)[cheat.card]
		encrypt(&bad[0], m, &r[0], &key.pub.p.e)
		p, err := proveShuffle(rnd, ctx, 0, &key.pub, in, bad, psi, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyShuffle(ctx, 0, &key.pub, in, bad, p); !errors.Is(err, ErrInvalidProof) {
			t.Errorf("%s: got %v, want ErrInvalidProof", cheat.name, err)
		}
	}
	// A cheater who claims the identity permutation for a permuted deck also fails.
	ident := []int{0, 1, 2, 3, 4, 5, 6, 7}
	p, _ = proveShuffle(rnd, ctx, 0, &key.pub, in, out, ident, r)
	if err := VerifyShuffle(ctx, 0, &key.pub, in, out, p); !errors.Is(err, ErrInvalidProof) && !isIdentityPerm(psi) {
		t.Errorf("wrong permutation as witness: got %v, want ErrInvalidProof", err)
	}
}

func isIdentityPerm(p []int) bool {
	for i, v := range p {
		if i != v {
			return false
		}
	}
	return true
}

// encrypt sets c = (r·G, m + r·Y).
func encrypt(c *Ciphertext, m *group.Element, r *group.Scalar, y *group.Element) {
	c.a.e.ScalarBaseMult(r)
	c.b.e.ScalarMult(r, y)
	c.b.e.Add(&c.b.e, m)
	c.enc = nil
}

// The identity as a public key would be a key whose secret (zero) everyone knows. A
// Schnorr proof for it is easy to make, so VerifyKey must refuse it by itself.
func TestAttackIdentityKeyProof(t *testing.T) {
	rnd := NewDetReader("identity key")
	ctx := internalContext("keys")
	zero := &PrivateKey{}
	zero.pub.set(identity)
	kp, err := ProveKey(rnd, ctx, 0, zero)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyKey(ctx, 0, kp); !errors.Is(err, ErrInvalidProof) {
		t.Errorf("identity key: got %v, want ErrInvalidProof", err)
	}
	if _, err := JointKey(Context{Table: ctx.Table, Roster: ctx.Roster[:1]}, []*KeyProof{kp}); err == nil {
		t.Errorf("JointKey accepts an identity key")
	}
}

// randomPermutation is uniform: all 24 permutations of 4 elements appear about equally
// often.
func TestRandomPermutationUniform(t *testing.T) {
	rnd := NewDetReader("perm")
	counts := map[[4]int]int{}
	const draws = 24 * 400
	for i := 0; i < draws; i++ {
		p, err := randomPermutation(rnd, 4)
		if err != nil {
			t.Fatal(err)
		}
		counts[[4]int(p)]++
	}
	if len(counts) != 24 {
		t.Fatalf("%d distinct permutations of 4, want 24", len(counts))
	}
	chi := 0.0
	for _, c := range counts {
		chi += float64((c-400)*(c-400)) / 400
	}
	if chi > 60 { // 23 degrees of freedom: the 0.9999 quantile is about 55
		t.Errorf("chi-square %.1f over %v", chi, counts)
	}
}

// Lemire's reduction with rejection: every value of a small range comes up, none
// outside it, for ranges that do and do not divide 2^32.
func TestRandomIndexRange(t *testing.T) {
	rnd := NewDetReader("index")
	for _, m := range []int{1, 2, 3, 24, 1000} {
		seen := map[int]bool{}
		for i := 0; i < 40*m; i++ {
			v, _ := randomIndex(rnd, m)
			if v < 0 || v >= m {
				t.Fatalf("randomIndex(%d) = %d", m, v)
			}
			seen[v] = true
		}
		if len(seen) != m {
			t.Errorf("randomIndex(%d) hit %d values", m, len(seen))
		}
	}
}
