package crypto_test

import (
	"errors"
	"io"
	"testing"

	"corruption/crypto"
)

// TestRandomChainValues: a chain's reveals are its hashes from the seed, whatever the order
// they are asked in, across its kept values (a length that is not a multiple of their stride):
// its last draw is the seed itself, each reveal hashes to the one before, down to the anchor.
func TestRandomChainValues(t *testing.T) {
	ctx := testContext(3, "keys")
	const n = 200
	c, err := crypto.NewRandomChain(crypto.NewDetReader("values"), ctx, 2, n)
	if err != nil {
		t.Fatal(err)
	}
	var seed [crypto.RandomSize]byte
	if _, err := io.ReadFull(crypto.NewDetReader("values"), seed[:]); err != nil {
		t.Fatal(err)
	}
	// Asked last draw first, then the anchor, then in order.
	if v, err := c.Reveal(n); err != nil || [crypto.RandomSize]byte(v) != seed {
		t.Fatalf("the last draw: %x, %v; want the seed %x", v, err, seed)
	}
	prev := [crypto.RandomSize]byte(c.Anchor())
	for k := 1; k <= n; k++ {
		v, err := c.Reveal(k)
		if err != nil {
			t.Fatal(err)
		}
		if err := crypto.VerifyChainReveal(ctx, 2, prev, v); err != nil {
			t.Fatalf("draw %d: %v", k, err)
		}
		prev = v
	}
}

// TestRandomChain: each reveal follows the one before, from the anchor on; a reveal out of
// order, another seat's, another table's or a changed one fails.
func TestRandomChain(t *testing.T) {
	ctx := testContext(3, "keys")
	c, err := crypto.NewRandomChain(crypto.NewDetReader("chain"), ctx, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	prev := [crypto.RandomSize]byte(c.Anchor())
	for k := 1; k <= 10; k++ {
		v, err := c.Reveal(k)
		if err != nil {
			t.Fatal(err)
		}
		// The step is not part of the chain: any step's context checks it.
		if err := crypto.VerifyChainReveal(ctx.WithStep("draw"), 1, prev, v); err != nil {
			t.Fatalf("draw %d: %v", k, err)
		}
		if err := crypto.VerifyChainReveal(ctx, 2, prev, v); !errors.Is(err, crypto.ErrInvalidProof) {
			t.Errorf("draw %d as another seat's: %v, want ErrInvalidProof", k, err)
		}
		other := testContext(3, "keys")
		other.Table = []byte("another table")
		if err := crypto.VerifyChainReveal(other, 1, prev, v); !errors.Is(err, crypto.ErrInvalidProof) {
			t.Errorf("draw %d at another table: %v, want ErrInvalidProof", k, err)
		}
		bad := v
		bad[5] ^= 1
		if err := crypto.VerifyChainReveal(ctx, 1, prev, bad); !errors.Is(err, crypto.ErrInvalidProof) {
			t.Errorf("draw %d changed: %v, want ErrInvalidProof", k, err)
		}
		if k < 10 {
			skip, _ := c.Reveal(k + 1)
			if err := crypto.VerifyChainReveal(ctx, 1, prev, skip); err == nil {
				t.Errorf("draw %d accepts the reveal of draw %d", k, k+1)
			}
		}
		prev = v
	}
	if _, err := c.Reveal(11); err == nil {
		t.Error("a chain of 10 gives an 11th reveal")
	}
	if _, err := crypto.NewRandomChain(crypto.NewDetReader("x"), ctx, 0, 0); err == nil {
		t.Error("a chain of no draws")
	}
}

func BenchmarkRandomChainReveal(b *testing.B) {
	c, err := crypto.NewRandomChain(crypto.NewDetReader("bench"), testContext(5, "keys"), 0, 4096)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.Reveal(1) // the dearest: 4095 hashes
	}
}

// TestCanonicalCard: a single card of any deck is the canonical deck's card at its id.
func TestCanonicalCard(t *testing.T) {
	deck, err := crypto.CanonicalDeck(30)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 7, 29} {
		c, err := crypto.CanonicalCard(i)
		if err != nil || !c.Equal(&deck[i]) {
			t.Errorf("CanonicalCard(%d) = %v, %v; want the canonical deck's card %d", i, c, err, i)
		}
	}
	for _, i := range []int{-1, crypto.MaxDeckSize} {
		if _, err := crypto.CanonicalCard(i); err == nil {
			t.Errorf("CanonicalCard(%d) accepted", i)
		}
	}
}
