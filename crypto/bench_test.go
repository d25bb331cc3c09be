package crypto_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"testing"
	"time"

	"corruption/crypto"
)

// Run with: go test -run='^$' -bench=. -benchmem -cpu=1 ./crypto/
// Figures are recorded in README.md.

// benchDeck returns a 5-player table and a 24-card deck that one player has shuffled
// already, so that every card carries randomness as in a real game.
func benchDeck(b *testing.B) (*table, crypto.Context, crypto.Deck) { return benchDeckN(b, deckSize) }

func benchDeckN(b *testing.B, n int) (*table, crypto.Context, crypto.Deck) {
	tb := newTable(b, 5, "bench")
	ctx := tb.ctx.WithStep("shuffle")
	deck, _ := crypto.CanonicalDeck(n)
	out, _, err := crypto.Shuffle(rand.Reader, ctx, 0, tb.joint, deck)
	if err != nil {
		b.Fatal(err)
	}
	return tb, ctx, out
}

// cpuMetric reports the process's CPU time per operation since start (processCPU), as
// cpu-ns/op: the figure that a shared machine's load disturbs least.
func cpuMetric(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

func BenchmarkShuffleProve(b *testing.B) { benchShuffleProve(b, deckSize) }

// A 52-card deck, to compare with the published figures for poker decks.
func BenchmarkShuffleProve52(b *testing.B) { benchShuffleProve(b, 52) }

func benchShuffleProve(b *testing.B, n int) {
	tb, ctx, in := benchDeckN(b, n)
	var size int
	cpu := processCPU()
	for b.Loop() {
		_, proof, err := crypto.Shuffle(rand.Reader, ctx, 1, tb.joint, in)
		if err != nil {
			b.Fatal(err)
		}
		size = len(proof.Bytes())
	}
	cpuMetric(b, cpu)
	b.ReportMetric(float64(size), "proof-bytes")
}

func BenchmarkShuffleVerify(b *testing.B)   { benchShuffleVerify(b, deckSize) }
func BenchmarkShuffleVerify52(b *testing.B) { benchShuffleVerify(b, 52) }

func benchShuffleVerify(b *testing.B, n int) {
	tb, ctx, in := benchDeckN(b, n)
	out, proof, _ := crypto.Shuffle(rand.Reader, ctx, 1, tb.joint, in)
	cpu := processCPU()
	for b.Loop() {
		if err := crypto.VerifyShuffle(ctx, 1, tb.joint, in, out, proof); err != nil {
			b.Fatal(err)
		}
	}
	cpuMetric(b, cpu)
	b.ReportMetric(float64(len(proof.Bytes())), "proof-bytes")
}

// Decoding a received shuffle: the output deck and the proof.
func BenchmarkShuffleParse(b *testing.B) {
	tb, ctx, in := benchDeck(b)
	out, proof, _ := crypto.Shuffle(rand.Reader, ctx, 1, tb.joint, in)
	deckBytes, proofBytes := out.Bytes(), proof.Bytes()
	for b.Loop() {
		if _, err := crypto.ParseDeck(deckBytes); err != nil {
			b.Fatal(err)
		}
		if _, err := crypto.ParseShuffleProof(proofBytes); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkShareProve(b *testing.B) {
	tb, ctx, deck := benchDeck(b)
	cpu := processCPU()
	for b.Loop() {
		if _, err := crypto.DecryptShare(rand.Reader, ctx, 2, tb.keys[2], &deck[0]); err != nil {
			b.Fatal(err)
		}
	}
	cpuMetric(b, cpu)
}

func BenchmarkShareVerify(b *testing.B) {
	tb, ctx, deck := benchDeck(b)
	sh, _ := crypto.DecryptShare(rand.Reader, ctx, 2, tb.keys[2], &deck[0])
	pub := tb.keys[2].Public()
	cpu := processCPU()
	for b.Loop() {
		if err := crypto.VerifyShare(ctx, 2, pub, &deck[0], sh); err != nil {
			b.Fatal(err)
		}
	}
	cpuMetric(b, cpu)
}

// BenchmarkShareVerifyDeal checks one seat's shares of a whole 24-card deck, as a node does
// for a deal's shares entry (protocol's applyShares), the seat's key met before as in a game.
func BenchmarkShareVerifyDeal(b *testing.B) {
	tb, ctx, deck := benchDeck(b)
	shares := make([]*crypto.Share, len(deck))
	for i := range deck {
		shares[i], _ = crypto.DecryptShare(rand.Reader, ctx, 2, tb.keys[2], &deck[i])
	}
	pub := tb.keys[2].Public()
	cpu := processCPU()
	for b.Loop() {
		for i, sh := range shares {
			if err := crypto.VerifyShare(ctx, 2, pub, &deck[i], sh); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpuMetric(b, cpu)
}

// Combining five verified shares and looking the point up among 24 cards.
func BenchmarkDecodeCard(b *testing.B) {
	tb, ctx, deck := benchDeck(b)
	var shares []*crypto.Share
	for seat, k := range tb.keys {
		sh, _ := crypto.DecryptShare(rand.Reader, ctx, seat, k, &deck[0])
		shares = append(shares, sh)
	}
	for b.Loop() {
		if _, err := crypto.DecodeCard(crypto.CombineShares(&deck[0], shares), deckSize); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCommit(b *testing.B) {
	ctx := testContext(5, "place")
	for b.Loop() {
		if _, _, err := crypto.Commit(rand.Reader, ctx, 3, 2, 4, []byte("reporter")); err != nil {
			b.Fatal(err)
		}
	}
}

// Decoding an opening and checking it against its commitment.
func BenchmarkOpenVerify(b *testing.B) {
	ctx := testContext(5, "place")
	c, o, _ := crypto.Commit(rand.Reader, ctx, 3, 2, 4, []byte("reporter"))
	enc := o.Bytes()
	for b.Loop() {
		o, err := crypto.ParseOpening(enc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := crypto.VerifyOpening(ctx, 3, 2, 4, c, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKeyProve(b *testing.B) {
	ctx := testContext(5, "keys")
	k, _ := crypto.GenerateKey(rand.Reader)
	cpu := processCPU()
	for b.Loop() {
		if _, err := crypto.ProveKey(rand.Reader, ctx, 1, k); err != nil {
			b.Fatal(err)
		}
	}
	cpuMetric(b, cpu)
}

func BenchmarkKeyVerify(b *testing.B) {
	ctx := testContext(5, "keys")
	k, _ := crypto.GenerateKey(rand.Reader)
	kp, _ := crypto.ProveKey(rand.Reader, ctx, 1, k)
	cpu := processCPU()
	for b.Loop() {
		if err := crypto.VerifyKey(ctx, 1, kp); err != nil {
			b.Fatal(err)
		}
	}
	cpuMetric(b, cpu)
}

func BenchmarkSeal(b *testing.B) {
	ctx := testContext(5, "peek")
	k, _ := crypto.GenerateKey(rand.Reader)
	msg := make([]byte, 40)
	for b.Loop() {
		if _, err := crypto.Seal(rand.Reader, ctx, 0, 1, k.Public(), msg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnseal(b *testing.B) {
	ctx := testContext(5, "peek")
	k, _ := crypto.GenerateKey(rand.Reader)
	box, _ := crypto.Seal(rand.Reader, ctx, 0, 1, k.Public(), make([]byte, 40))
	for b.Loop() {
		if _, err := crypto.Unseal(ctx, 0, 1, k, box); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBlameVerify(b *testing.B) {
	ctx := testContext(5, "peek")
	k, _ := crypto.GenerateKey(rand.Reader)
	box, _ := crypto.Seal(rand.Reader, ctx, 0, 1, k.Public(), make([]byte, 40))
	bl, _ := crypto.ProveBlame(rand.Reader, ctx, 0, 1, k, box)
	for b.Loop() {
		if _, err := crypto.VerifyBlame(ctx, 0, 1, k.Public(), box, bl); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJointInt(b *testing.B) {
	ctx := testContext(5, "first player")
	reveals := make([]crypto.RandomReveal, 5)
	for b.Loop() {
		if _, err := crypto.JointInt(ctx, reveals, 5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChainReveal: a seat's anchor and its first 64 draws of a chain as long as a game's
// (engine.MaxRandomDraws, 4096), a fresh chain each time: the seat's whole cost of its random
// draws in a long game.
func BenchmarkChainReveal(b *testing.B) {
	ctx := testContext(5, "keys")
	for b.Loop() {
		c, err := crypto.NewRandomChain(rand.Reader, ctx, 1, 4096)
		if err != nil {
			b.Fatal(err)
		}
		c.Anchor()
		for k := 1; k <= 64; k++ {
			if _, err := c.Reveal(k); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkEd25519Verify checks one signature with the standard library's crypto/ed25519,
// as the table kit does for every entry (protocol.Entry.Verify): not this package's, but
// measured here beside the group's figures to weigh its share of a WebAssembly seat's time
// (docs/PERFORMANCE.md, "Group arithmetic for WebAssembly").
func BenchmarkEd25519Verify(b *testing.B) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	msg := make([]byte, 300) // a message of an entry's order of size; hashing it is a small part of the cost
	sig := ed25519.Sign(priv, msg)
	for b.Loop() {
		if !ed25519.Verify(pub, msg, sig) {
			b.Fatal("signature rejected")
		}
	}
}
