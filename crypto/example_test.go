package crypto_test

import (
	"crypto/rand"
	"fmt"

	"corruption/crypto"
)

// A three-player table: keys, a shuffle by every player, and the top card dealt face
// up. Every node runs the Verify calls on what the others publish.
func Example() {
	ctx := crypto.Context{
		Table:  []byte("table 42"),
		Roster: [][]byte{[]byte("peer A"), []byte("peer B"), []byte("peer C")},
		Step:   "keys",
	}
	// Each player makes a key and publishes a proof of it.
	var keys []*crypto.PrivateKey
	var proofs []*crypto.KeyProof
	for seat := range ctx.Roster {
		k, _ := crypto.GenerateKey(rand.Reader)
		kp, _ := crypto.ProveKey(rand.Reader, ctx, seat, k)
		keys, proofs = append(keys, k), append(proofs, kp)
	}
	joint, err := crypto.JointKey(ctx, proofs) // verifies every proof
	if err != nil {
		panic(err)
	}

	// Each player shuffles in seat order; everyone verifies before the next one.
	deck, _ := crypto.CanonicalDeck(24)
	shuffle := ctx.WithStep("shuffle")
	for seat := range keys {
		out, proof, _ := crypto.Shuffle(rand.Reader, shuffle, seat, joint, deck)
		if err := crypto.VerifyShuffle(shuffle, seat, joint, deck, out, proof); err != nil {
			panic(err)
		}
		deck = out
	}

	// Deal the top card face up: every player publishes a proven decryption share.
	deal := ctx.WithStep("round 1 deal 1")
	var shares []*crypto.Share
	for seat, k := range keys {
		sh, _ := crypto.DecryptShare(rand.Reader, deal, seat, k, &deck[0])
		if err := crypto.VerifyShare(deal, seat, k.Public(), &deck[0], sh); err != nil {
			panic(err)
		}
		shares = append(shares, sh)
	}
	card, err := crypto.DecodeCard(crypto.CombineShares(&deck[0], shares), 24)
	fmt.Println(card >= 0 && card < 24, err)
	// Output: true <nil>
}

// A face-down card: commit when placing it, open it when it is revealed.
func ExampleCommit() {
	ctx := crypto.Context{Table: []byte("table 42"), Roster: [][]byte{[]byte("A"), []byte("B")}, Step: "round 2 place"}
	c, opening, _ := crypto.Commit(rand.Reader, ctx, 1, 2, 3, []byte("hitman"))
	// ... later, at another step, everyone checks the opening against c:
	card, err := crypto.VerifyOpening(ctx.WithStep("round 2 reveal"), 1, 2, 3, c, opening)
	fmt.Println(string(card), err)
	// Output: hitman <nil>
}
