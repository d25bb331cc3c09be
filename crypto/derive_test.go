package crypto_test

import (
	"bytes"
	"io"
	"testing"

	"corruption/crypto"
)

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// Shuffle derives its secrets from 32 bytes of rand and the statement (outside review,
// finding 2): the same bytes used for two different input decks must give unrelated
// shuffles. Before, the permutation and the re-encryption scalars were read straight
// from rand, so a rand that repeated itself (a restored VM snapshot, a seeded test
// reader left in production) applied the same permutation ψ and the same r_i to both
// decks, and whoever learnt one shuffle learnt the other. The test holds every key, so
// it decrypts all cards to recover each ψ and each r_i·G.
func TestShuffleRandomnessBoundToDeck(t *testing.T) {
	tb := newTable(t, 3, "derived shuffle")
	rnd := crypto.NewDetReader("derived shuffle play")
	ctx := tb.ctx.WithStep("shuffle")
	in1, _ := crypto.CanonicalDeck(deckSize) // card j at position j, A = identity
	in2, _, err := crypto.Shuffle(rnd, ctx, 0, tb.joint, in1)
	if err != nil {
		t.Fatal(err)
	}
	same := func() io.Reader { return crypto.NewDetReader("the same bytes") }
	out1, _, err := crypto.Shuffle(same(), ctx, 1, tb.joint, in1)
	if err != nil {
		t.Fatal(err)
	}
	out2, _, err := crypto.Shuffle(same(), ctx, 1, tb.joint, in2)
	if err != nil {
		t.Fatal(err)
	}

	posIn2 := make([]int, deckSize) // card → its position in in2
	for j := range in2 {
		posIn2[tb.deal(t, rnd, "check", &in2[j])] = j
	}
	samePerm, sameR := true, 0
	for i := range out1 {
		psi1 := tb.deal(t, rnd, "check", &out1[i])
		psi2 := posIn2[tb.deal(t, rnd, "check", &out2[i])]
		samePerm = samePerm && psi1 == psi2
		// r_i·G is out[i].A − in[ψ(i)].A; in1's A are the identity.
		r1G := out1[i].Bytes()[:32]
		prevA, err := crypto.ParsePublicKey(in2[psi2].Bytes()[:32])
		if err != nil {
			t.Fatal(err)
		}
		r2G := crypto.SubtractPointsForTest(out2[i].Bytes()[:32], []*crypto.PublicKey{prevA})
		if bytes.Equal(r1G, r2G) {
			sameR++
		}
	}
	if samePerm {
		t.Errorf("the same rand bytes shuffled two different decks with the same permutation")
	}
	if sameR != 0 {
		t.Errorf("the same rand bytes re-encrypted %d cards of two different decks with the same r", sameR)
	}
}

// The same rand bytes and the same statement still give byte-identical output (a node
// that replays its log after a crash rewrites identical entries), and Shuffle and Seal
// read exactly 32 bytes from rand.
func TestDerivedRandomnessDeterministic(t *testing.T) {
	tb := newTable(t, 3, "derived again")
	ctx := tb.ctx.WithStep("shuffle")
	in, _ := crypto.CanonicalDeck(deckSize)
	r1 := &countingReader{r: crypto.NewDetReader("again")}
	out1, proof1, err := crypto.Shuffle(r1, ctx, 2, tb.joint, in)
	if err != nil {
		t.Fatal(err)
	}
	out2, proof2, err := crypto.Shuffle(crypto.NewDetReader("again"), ctx, 2, tb.joint, in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out1.Bytes(), out2.Bytes()) || !bytes.Equal(proof1.Bytes(), proof2.Bytes()) {
		t.Errorf("the same rand and deck gave two different shuffles")
	}
	if r1.n != 32 {
		t.Errorf("Shuffle read %d bytes from rand, want 32", r1.n)
	}
	// Another seat, step or key with the same bytes: another shuffle.
	out3, _, _ := crypto.Shuffle(crypto.NewDetReader("again"), ctx, 1, tb.joint, in)
	out4, _, _ := crypto.Shuffle(crypto.NewDetReader("again"), ctx.WithStep("reshuffle"), 2, tb.joint, in)
	for name, o := range map[string]crypto.Deck{"seat": out3, "step": out4} {
		if bytes.Equal(o.Bytes()[:32], out1.Bytes()[:32]) {
			t.Errorf("another %s with the same rand bytes gave the same first card", name)
		}
	}

	sealCtx := tb.ctx.WithStep("peek answer")
	key := tb.keys[0].Public()
	r2 := &countingReader{r: crypto.NewDetReader("seal again")}
	b1, err := crypto.Seal(r2, sealCtx, 1, 0, key, []byte("message one"))
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := crypto.Seal(crypto.NewDetReader("seal again"), sealCtx, 1, 0, key, []byte("message one"))
	if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
		t.Errorf("the same rand and message gave two different boxes")
	}
	if r2.n != 32 {
		t.Errorf("Seal read %d bytes from rand, want 32", r2.n)
	}
}

// Seal derives its ephemeral secret from 32 bytes of rand and the statement (outside
// review, finding 2): the same bytes used for two different messages give unrelated
// ephemeral keys E. Before, e was read straight from rand, so two boxes sealed with a
// repeating rand shared E and the shared secret S: one blame opened both.
func TestSealRandomnessBoundToMessage(t *testing.T) {
	tb := newTable(t, 3, "derived seal")
	ctx := tb.ctx.WithStep("peek answer")
	key := tb.keys[0].Public()
	b1, err := crypto.Seal(crypto.NewDetReader("the same bytes"), ctx, 1, 0, key, []byte("one answer"))
	if err != nil {
		t.Fatal(err)
	}
	b2, err := crypto.Seal(crypto.NewDetReader("the same bytes"), ctx, 1, 0, key, []byte("two answer"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(b1.Bytes()[:32], b2.Bytes()[:32]) {
		t.Errorf("the same rand bytes sealed two different messages with the same ephemeral key")
	}
}
