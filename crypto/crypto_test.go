package crypto_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"corruption/crypto"
)

const deckSize = 24

func testContext(players int, step string) crypto.Context {
	roster := make([][]byte, players)
	for i := range roster {
		roster[i] = []byte(fmt.Sprintf("peer-%d", i))
	}
	return crypto.Context{Table: []byte("table-7f3a"), Roster: roster, Step: step}
}

// A table is a set of players with verified keys.
type table struct {
	ctx    crypto.Context // at step "keys"
	keys   []*crypto.PrivateKey
	proofs []*crypto.KeyProof
	joint  *crypto.PublicKey
}

func newTable(t testing.TB, players int, seed string) *table {
	t.Helper()
	rnd := crypto.NewDetReader(seed)
	tb := &table{ctx: testContext(players, "keys")}
	for seat := 0; seat < players; seat++ {
		k, err := crypto.GenerateKey(rnd)
		if err != nil {
			t.Fatal(err)
		}
		kp, err := crypto.ProveKey(rnd, tb.ctx, seat, k)
		if err != nil {
			t.Fatal(err)
		}
		tb.keys = append(tb.keys, k)
		tb.proofs = append(tb.proofs, kp)
	}
	joint, err := crypto.JointKey(tb.ctx, tb.proofs)
	if err != nil {
		t.Fatalf("joint key: %v", err)
	}
	tb.joint = joint
	return tb
}

// shuffleAll has every seat shuffle in turn, each shuffle verified before the next.
func (tb *table) shuffleAll(t testing.TB, rnd *crypto.DetReader) crypto.Deck {
	t.Helper()
	deck, err := crypto.CanonicalDeck(deckSize)
	if err != nil {
		t.Fatal(err)
	}
	ctx := tb.ctx.WithStep("shuffle")
	for seat := range tb.keys {
		out, proof, err := crypto.Shuffle(rnd, ctx, seat, tb.joint, deck)
		if err != nil {
			t.Fatal(err)
		}
		if err := crypto.VerifyShuffle(ctx, seat, tb.joint, deck, out, proof); err != nil {
			t.Fatalf("shuffle of seat %d: %v", seat, err)
		}
		deck = out
	}
	return deck
}

// deal returns the index of the card c, decrypted face up by all players.
func (tb *table) deal(t testing.TB, rnd *crypto.DetReader, step string, c *crypto.Ciphertext) int {
	t.Helper()
	ctx := tb.ctx.WithStep(step)
	var shares []*crypto.Share
	for seat, k := range tb.keys {
		sh, err := crypto.DecryptShare(rnd, ctx, seat, k, c)
		if err != nil {
			t.Fatal(err)
		}
		if err := crypto.VerifyShare(ctx, seat, k.Public(), c, sh); err != nil {
			t.Fatalf("share of seat %d: %v", seat, err)
		}
		shares = append(shares, sh)
	}
	card, err := crypto.DecodeCard(crypto.CombineShares(c, shares), deckSize)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	return card
}

// The whole flow: keys, three shuffles, every card dealt face up exactly once.
func TestShuffleAndDealEveryCard(t *testing.T) {
	tb := newTable(t, 3, "flow")
	rnd := crypto.NewDetReader("flow play")
	deck := tb.shuffleAll(t, rnd)
	seen := make([]bool, deckSize)
	order := make([]int, deckSize)
	for i := range deck {
		card := tb.deal(t, rnd, fmt.Sprintf("deal %d", i), &deck[i])
		if seen[card] {
			t.Fatalf("card %d dealt twice", card)
		}
		seen[card] = true
		order[i] = card
	}
	identity := true
	for i, c := range order {
		identity = identity && c == i
	}
	if identity {
		t.Errorf("three shuffles left the deck in order")
	}
}

// The private path: every player but the recipient publishes a share; the recipient
// completes the decryption alone, and the others cannot.
func TestDealPrivate(t *testing.T) {
	tb := newTable(t, 4, "private")
	rnd := crypto.NewDetReader("private play")
	deck := tb.shuffleAll(t, rnd)
	ctx := tb.ctx.WithStep("private deal")
	const recipient = 2
	for i := 0; i < 4; i++ {
		c := &deck[i]
		var others []*crypto.Share
		for seat, k := range tb.keys {
			if seat == recipient {
				continue
			}
			sh, err := crypto.DecryptShare(rnd, ctx, seat, k, c)
			if err != nil {
				t.Fatal(err)
			}
			others = append(others, sh)
		}
		card, err := crypto.DecodeCard(crypto.DecryptPrivate(tb.keys[recipient], c, others), deckSize)
		if err != nil {
			t.Fatalf("recipient cannot decrypt card %d: %v", i, err)
		}
		if want := tb.deal(t, rnd, "check", c); card != want {
			t.Errorf("card %d: private %d, public %d", i, card, want)
		}
		if _, err := crypto.DecodeCard(crypto.CombineShares(c, others), deckSize); !errors.Is(err, crypto.ErrNotACard) {
			t.Errorf("card %d decodes without the recipient's share: %v", i, err)
		}
	}
}

// DecodeCard must not stop at the match (outside review, finding 3): the card it decodes
// may be one only its owner may see (DecryptPrivate), and an early return would tell a
// timing observer how far down the deck it is. Every one of the n card points is
// compared, whichever m is, a card or not, and the results are DecodeCard's.
func TestDecodeCardComparesEveryCard(t *testing.T) {
	for _, n := range []int{1, 2, 5, deckSize, 52} {
		for i := 0; i < n; i++ {
			m, _ := crypto.CardPoint(i)
			got, comparisons, err := crypto.DecodeCardComparisonsForTest(m, n)
			if err != nil || got != i {
				t.Errorf("n=%d: card %d decodes to %d, %v", n, i, got, err)
			}
			if comparisons != n {
				t.Errorf("n=%d: decoding card %d made %d comparisons, want %d", n, i, comparisons, n)
			}
			if want, err := crypto.DecodeCard(m, n); want != got || err != nil {
				t.Errorf("n=%d: DecodeCard(card %d) = %d, %v", n, i, want, err)
			}
		}
		notInDeck, _ := crypto.CardPoint(n) // a card point, but not of this deck
		notACard := new(crypto.Point)
		notACard.SetBytes(make([]byte, 32)) // the identity
		for _, m := range []*crypto.Point{notInDeck, notACard} {
			_, comparisons, err := crypto.DecodeCardComparisonsForTest(m, n)
			if !errors.Is(err, crypto.ErrNotACard) || comparisons != n {
				t.Errorf("n=%d: %v decodes with %d comparisons, %v", n, m, comparisons, err)
			}
			if _, err := crypto.DecodeCard(m, n); !errors.Is(err, crypto.ErrNotACard) {
				t.Errorf("n=%d: DecodeCard(%v): %v", n, m, err)
			}
		}
	}
	if _, _, err := crypto.DecodeCardComparisonsForTest(new(crypto.Point), 0); err == nil {
		t.Errorf("a deck of 0 cards is accepted")
	}
}

func TestCommitOpen(t *testing.T) {
	ctx := testContext(3, "place")
	rnd := crypto.NewDetReader("commit")
	for _, card := range []string{"1000", "10000", "da", "reporter", "hitman", ""} {
		c, o, err := crypto.Commit(rnd, ctx, 1, 2, 3, []byte(card))
		if err != nil {
			t.Fatal(err)
		}
		// The opening is checked at a later step: the step is not part of the commitment.
		got, err := crypto.VerifyOpening(ctx.WithStep("reveal"), 1, 2, 3, c, o)
		if err != nil || string(got) != card {
			t.Errorf("opening of %q: got %q, %v", card, got, err)
		}
	}
	// Same card twice: different commitments (hiding needs the nonce).
	c1, _, _ := crypto.Commit(rnd, ctx, 0, 1, 1, []byte("da"))
	c2, _, _ := crypto.Commit(rnd, ctx, 0, 1, 1, []byte("da"))
	if c1 == c2 {
		t.Errorf("two commitments to the same card are equal")
	}
}

func TestJointRandomness(t *testing.T) {
	ctx := testContext(5, "first player")
	rnd := crypto.NewDetReader("joint")
	var reveals []crypto.RandomReveal
	for seat := 0; seat < 5; seat++ {
		c, v, err := crypto.CommitRandom(rnd, ctx, seat)
		if err != nil {
			t.Fatal(err)
		}
		if err := crypto.VerifyReveal(ctx, seat, c, v); err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		reveals = append(reveals, v)
	}
	first, err := crypto.JointInt(ctx, reveals, 5)
	if err != nil || first < 0 || first >= 5 {
		t.Fatalf("JointInt = %d, %v", first, err)
	}
	again, _ := crypto.JointInt(ctx, reveals, 5)
	if again != first {
		t.Errorf("JointInt is not deterministic: %d then %d", first, again)
	}
	// Every seat's reveal matters: changing any one changes the seed.
	for seat := range reveals {
		changed := append([]crypto.RandomReveal(nil), reveals...)
		changed[seat][0] ^= 1
		if a, b := mustJoint(t, ctx, reveals, 1<<40), mustJoint(t, ctx, changed, 1<<40); a == b {
			t.Errorf("seat %d's reveal does not affect the result", seat)
		}
	}
	if _, err := crypto.JointInt(ctx, reveals[:4], 5); err == nil {
		t.Errorf("JointInt accepts a missing reveal")
	}
}

func mustJoint(t *testing.T, ctx crypto.Context, r []crypto.RandomReveal, n int) int {
	t.Helper()
	v, err := crypto.JointInt(ctx, r, n)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// JointInt is uniform: a chi-square test over many contexts for n = 3 and n = 7.
func TestJointIntUniform(t *testing.T) {
	for _, n := range []int{3, 7} {
		counts := make([]int, n)
		const draws = 7000
		for i := 0; i < draws; i++ {
			ctx := testContext(1, fmt.Sprintf("draw %d", i))
			counts[mustJoint(t, ctx, []crypto.RandomReveal{{}}, n)]++
		}
		chi := 0.0
		exp := float64(draws) / float64(n)
		for _, c := range counts {
			chi += (float64(c) - exp) * (float64(c) - exp) / exp
		}
		if chi > 30 { // far beyond the 0.9999 quantile for ≤ 6 degrees of freedom
			t.Errorf("n=%d: counts %v, chi-square %.1f", n, counts, chi)
		}
	}
}

func TestSealUnseal(t *testing.T) {
	tb := newTable(t, 3, "seal")
	rnd := crypto.NewDetReader("seal play")
	ctx := tb.ctx.WithStep("peek answer")
	msg := []byte("the opening of a face-down card")
	box, err := crypto.Seal(rnd, ctx, 0, 2, tb.keys[2].Public(), msg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := crypto.Unseal(ctx, 0, 2, tb.keys[2], box)
	if err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("Unseal = %q, %v", got, err)
	}
	if len(box.Bytes()) != len(msg)+112 {
		t.Errorf("sealed box of %d bytes for a %d-byte message", len(box.Bytes()), len(msg))
	}
	if err := crypto.VerifySealedBox(ctx, 0, 2, tb.keys[2].Public(), box); err != nil {
		t.Errorf("honest box: %v", err)
	}
	// Another player's key does not open it, whichever seat it claims.
	for _, to := range []int{1, 2} {
		if got, err := crypto.Unseal(ctx, 0, to, tb.keys[1], box); err == nil || got != nil {
			t.Errorf("seat 1 opens a box for seat 2 as seat %d: %q, %v", to, got, err)
		}
	}
	// An honest blame shows the same message to everyone.
	blame, err := crypto.ProveBlame(rnd, ctx, 0, 2, tb.keys[2], box)
	if err != nil {
		t.Fatal(err)
	}
	shown, err := crypto.VerifyBlame(ctx, 0, 2, tb.keys[2].Public(), box, blame)
	if err != nil || !bytes.Equal(shown, msg) {
		t.Errorf("VerifyBlame = %q, %v", shown, err)
	}
}

// Every encoding round-trips: Parse(Bytes(x)) succeeds and encodes to the same bytes.
func TestEncodingsRoundTrip(t *testing.T) {
	tb := newTable(t, 3, "encodings")
	rnd := crypto.NewDetReader("encodings play")
	ctx := tb.ctx.WithStep("x")
	deck, _ := crypto.CanonicalDeck(deckSize)
	out, proof, err := crypto.Shuffle(rnd, ctx, 0, tb.joint, deck)
	if err != nil {
		t.Fatal(err)
	}
	share, _ := crypto.DecryptShare(rnd, ctx, 1, tb.keys[1], &out[0])
	commit, opening, _ := crypto.Commit(rnd, ctx, 0, 1, 2, []byte("hitman"))
	rc, rv, _ := crypto.CommitRandom(rnd, ctx, 0)
	box, _ := crypto.Seal(rnd, ctx, 0, 1, tb.keys[1].Public(), opening.Bytes())
	blame, _ := crypto.ProveBlame(rnd, ctx, 0, 1, tb.keys[1], box)
	card, _ := crypto.CardPoint(5)

	reparse := func(name string, b []byte, size int, parse func([]byte) ([]byte, error)) {
		t.Helper()
		if size >= 0 && len(b) != size {
			t.Errorf("%s: %d bytes, want %d", name, len(b), size)
		}
		again, err := parse(b)
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
		} else if !bytes.Equal(again, b) {
			t.Errorf("%s: round trip changed the bytes", name)
		}
	}
	reparse("point", card.Bytes(), 32, func(b []byte) ([]byte, error) {
		p, err := new(crypto.Point).SetBytes(b)
		return bytesOf(p, err)
	})
	reparse("private key", tb.keys[0].Bytes(), 32, func(b []byte) ([]byte, error) { return bytesOf(crypto.ParsePrivateKey(b)) })
	reparse("public key", tb.joint.Bytes(), 32, func(b []byte) ([]byte, error) { return bytesOf(crypto.ParsePublicKey(b)) })
	reparse("key proof", tb.proofs[0].Bytes(), crypto.KeyProofSize, func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseKeyProof(b)) })
	reparse("ciphertext", out[3].Bytes(), crypto.CiphertextSize, func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseCiphertext(b)) })
	reparse("deck", out.Bytes(), 64*deckSize, func(b []byte) ([]byte, error) {
		d, err := crypto.ParseDeck(b)
		return d.Bytes(), err
	})
	reparse("canonical deck", deck.Bytes(), 64*deckSize, func(b []byte) ([]byte, error) {
		d, err := crypto.ParseDeck(b)
		return d.Bytes(), err
	})
	reparse("shuffle proof", proof.Bytes(), crypto.ShuffleProofSize(deckSize), func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseShuffleProof(b)) })
	reparse("share", share.Bytes(), crypto.ShareSize, func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseShare(b)) })
	reparse("commitment", commit.Bytes(), 32, func(b []byte) ([]byte, error) {
		c, err := crypto.ParseCommitment(b)
		return c.Bytes(), err
	})
	reparse("opening", opening.Bytes(), 32+len("hitman"), func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseOpening(b)) })
	reparse("random commitment", rc.Bytes(), 32, func(b []byte) ([]byte, error) {
		c, err := crypto.ParseRandomCommitment(b)
		return c.Bytes(), err
	})
	reparse("random reveal", rv.Bytes(), 32, func(b []byte) ([]byte, error) {
		v, err := crypto.ParseRandomReveal(b)
		return v.Bytes(), err
	})
	reparse("sealed box", box.Bytes(), 112+len(opening.Bytes()), func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseSealedBox(b)) })
	reparse("blame", blame.Bytes(), crypto.BlameSize, func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseBlame(b)) })

	// Parsed values still verify.
	p2, _ := crypto.ParseShuffleProof(proof.Bytes())
	out2, _ := crypto.ParseDeck(out.Bytes())
	if err := crypto.VerifyShuffle(ctx, 0, tb.joint, deck, out2, p2); err != nil {
		t.Errorf("parsed shuffle: %v", err)
	}
	sh2, _ := crypto.ParseShare(share.Bytes())
	if err := crypto.VerifyShare(ctx, 1, tb.keys[1].Public(), &out2[0], sh2); err != nil {
		t.Errorf("parsed share: %v", err)
	}
	kp2, _ := crypto.ParseKeyProof(tb.proofs[2].Bytes())
	if err := crypto.VerifyKey(tb.ctx, 2, kp2); err != nil || !kp2.PublicKey().Equal(tb.keys[2].Public()) {
		t.Errorf("parsed key proof: %v", err)
	}
}

type byter interface{ Bytes() []byte }

func bytesOf[T byter](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return v.Bytes(), nil
}
