package crypto_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"corruption/crypto"
)

// One test per known attack. Each builds an honest object, tampers with it the way a
// cheater would, and requires the check to fail with the error that names the cheat.

func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: got %v, want %v", what, err, target)
	}
}

// A shuffle proof binds the exact output: swapping, replacing or duplicating a card, or
// attaching the proof to any other output, input, key, table, step or seat, fails.
// (The classic unproven-shuffle cheat: the shuffler swaps a card unseen.)
func TestAttackShuffleTampered(t *testing.T) {
	tb := newTable(t, 5, "attack shuffle")
	rnd := crypto.NewDetReader("attack shuffle play")
	ctx := tb.ctx.WithStep("shuffle")
	in := tb.shuffleAll(t, rnd) // a deck with real randomness on every card
	out, proof, err := crypto.Shuffle(rnd, ctx, 1, tb.joint, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := crypto.VerifyShuffle(ctx, 1, tb.joint, in, out, proof); err != nil {
		t.Fatalf("honest shuffle: %v", err)
	}
	other, _, _ := crypto.Shuffle(rnd, ctx, 1, tb.joint, in) // another honest shuffle of in
	clone := func() crypto.Deck { return append(crypto.Deck(nil), out...) }

	swapped := clone()
	swapped[3], swapped[17] = swapped[17], swapped[3]
	replaced := clone()
	replaced[5] = other[5] // a valid re-encryption of some card of in, maybe another
	duplicated := clone()
	duplicated[9] = duplicated[8]
	fromInput := clone()
	fromInput[0] = in[0] // a card passed through without re-encryption
	halfSwapped := clone()
	mixed, err := crypto.ParseCiphertext(append(out[2].Bytes()[:32:32], out[4].Bytes()[32:]...))
	if err != nil {
		t.Fatal(err)
	}
	halfSwapped[2] = *mixed

	cases := []struct {
		name string
		in   crypto.Deck
		out  crypto.Deck
	}{
		{"two cards swapped", in, swapped},
		{"a card replaced by a re-encryption from another shuffle", in, replaced},
		{"a card duplicated", in, duplicated},
		{"a card copied from the input", in, fromInput},
		{"two ciphertexts' halves mixed", in, halfSwapped},
		{"the proof attached to another honest shuffle", in, other},
		{"the proof checked against another input deck", other, out},
		{"the output with a card missing", in, out[:23]},
	}
	for _, c := range cases {
		wantErr(t, c.name, crypto.VerifyShuffle(ctx, 1, tb.joint, c.in, c.out, proof), crypto.ErrInvalidProof)
	}
	// Replayed under another table, step or seat, or for another key.
	otherTable := ctx
	otherTable.Table = []byte("table-other")
	wantErr(t, "another table", crypto.VerifyShuffle(otherTable, 1, tb.joint, in, out, proof), crypto.ErrInvalidProof)
	wantErr(t, "another step", crypto.VerifyShuffle(ctx.WithStep("reshuffle"), 1, tb.joint, in, out, proof), crypto.ErrInvalidProof)
	wantErr(t, "another seat", crypto.VerifyShuffle(ctx, 2, tb.joint, in, out, proof), crypto.ErrInvalidProof)
	wantErr(t, "another key", crypto.VerifyShuffle(ctx, 1, tb.keys[0].Public(), in, out, proof), crypto.ErrInvalidProof)
	otherRoster := ctx
	otherRoster.Roster = append([][]byte{[]byte("mallory")}, ctx.Roster[1:]...)
	wantErr(t, "another roster", crypto.VerifyShuffle(otherRoster, 1, tb.joint, in, out, proof), crypto.ErrInvalidProof)

	// Any single bit flipped in the proof is caught, by the decoder or the verifier.
	enc := proof.Bytes()
	for _, pos := range []int{0, 24*32 + 7, 48*32 + 1, 49*32 + 5, 53*32 + 2, len(enc) - 32} {
		bad := bytes.Clone(enc)
		bad[pos] ^= 0x04
		p, err := crypto.ParseShuffleProof(bad)
		if err == nil {
			err = crypto.VerifyShuffle(ctx, 1, tb.joint, in, out, p)
		}
		if !errors.Is(err, crypto.ErrInvalidProof) && !errors.Is(err, crypto.ErrNonCanonical) {
			t.Errorf("proof with byte %d flipped: %v", pos, err)
		}
	}
}

// A rogue key Y' = Y_x − Y_other would cancel another player's key out of the joint key.
// Its author cannot prove knowledge of its secret, and a copied proof does not fit.
func TestAttackRogueKey(t *testing.T) {
	tb := newTable(t, 3, "rogue")
	rnd := crypto.NewDetReader("rogue play")
	attacker, _ := crypto.GenerateKey(rnd)
	// Y' = Y_attacker − Y_0 − Y_1, so that the joint key would be Y_attacker.
	rogue := subtractKeys(t, attacker.Public(), tb.keys[0].Public(), tb.keys[1].Public())
	honest, _ := crypto.ProveKey(rnd, tb.ctx, 2, attacker)
	withProof := func(pub *crypto.PublicKey, from *crypto.KeyProof) *crypto.KeyProof {
		b := append(pub.Bytes(), from.Bytes()[32:]...)
		kp, err := crypto.ParseKeyProof(b)
		if err != nil {
			t.Fatal(err)
		}
		return kp
	}
	for name, kp := range map[string]*crypto.KeyProof{
		"rogue key with the attacker's own proof": withProof(rogue, honest),
		"rogue key with seat 0's proof":           withProof(rogue, tb.proofs[0]),
		"seat 0's key and proof copied to seat 2": tb.proofs[0],
	} {
		wantErr(t, name, crypto.VerifyKey(tb.ctx, 2, kp), crypto.ErrInvalidProof)
		proofs := []*crypto.KeyProof{tb.proofs[0], tb.proofs[1], kp}
		if _, err := crypto.JointKey(tb.ctx, proofs); !errors.Is(err, crypto.ErrInvalidProof) {
			t.Errorf("JointKey accepts %s: %v", name, err)
		}
	}
	// Replays of an honest key proof.
	otherTable := tb.ctx
	otherTable.Table = []byte("table-other")
	wantErr(t, "key proof under another table", crypto.VerifyKey(otherTable, 0, tb.proofs[0]), crypto.ErrInvalidProof)
	wantErr(t, "key proof under another step", crypto.VerifyKey(tb.ctx.WithStep("rekey"), 0, tb.proofs[0]), crypto.ErrInvalidProof)
	wantErr(t, "key proof of another seat", crypto.VerifyKey(tb.ctx, 1, tb.proofs[0]), crypto.ErrInvalidProof)
	if _, err := crypto.JointKey(tb.ctx, tb.proofs[:2]); err == nil {
		t.Errorf("JointKey accepts a missing key")
	}
}

// subtractKeys returns a − b − c… through the public encodings (the attacker's view).
func subtractKeys(t *testing.T, a *crypto.PublicKey, others ...*crypto.PublicKey) *crypto.PublicKey {
	t.Helper()
	// Point arithmetic is not part of the public API; the test uses a helper.
	pub, err := crypto.ParsePublicKey(crypto.SubtractPointsForTest(a.Bytes(), others))
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// The identity is rejected wherever it would be a weak key or hide a message.
func TestAttackIdentity(t *testing.T) {
	zero := make([]byte, 32)
	if _, err := crypto.ParsePublicKey(zero); !errors.Is(err, crypto.ErrNonCanonical) {
		t.Errorf("identity public key: %v", err)
	}
	if _, err := crypto.ParseKeyProof(append(zero, make([]byte, 64)...)); !errors.Is(err, crypto.ErrNonCanonical) {
		t.Errorf("key proof for the identity: %v", err)
	}
	if _, err := crypto.ParseSealedBox(append(zero, make([]byte, 64+20)...)); !errors.Is(err, crypto.ErrNonCanonical) {
		t.Errorf("sealed box with an identity ephemeral key: %v", err)
	}
	if _, err := crypto.ParsePrivateKey(zero); !errors.Is(err, crypto.ErrNonCanonical) {
		t.Errorf("zero private key: %v", err)
	}
	// The identity is a valid point, and a valid ciphertext component (canonical deck).
	if p, err := new(crypto.Point).SetBytes(zero); err != nil || !p.IsIdentity() {
		t.Errorf("identity point: %v", err)
	}
}

// A decryption share must be x·A for the author's key: a random point, a share of
// another ciphertext, another seat's share, or a replay under another context fails.
func TestAttackWrongShare(t *testing.T) {
	tb := newTable(t, 3, "shares")
	rnd := crypto.NewDetReader("shares play")
	deck := tb.shuffleAll(t, rnd)
	ctx := tb.ctx.WithStep("deal 0")
	c, c2 := &deck[0], &deck[1]
	sh, _ := crypto.DecryptShare(rnd, ctx, 1, tb.keys[1], c)
	if err := crypto.VerifyShare(ctx, 1, tb.keys[1].Public(), c, sh); err != nil {
		t.Fatalf("honest share: %v", err)
	}
	// D replaced by a random point (here: another card point), proof kept.
	card, _ := crypto.CardPoint(3)
	random, err := crypto.ParseShare(append(card.Bytes(), sh.Bytes()[32:]...))
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, "random point as share", crypto.VerifyShare(ctx, 1, tb.keys[1].Public(), c, random), crypto.ErrInvalidProof)
	wantErr(t, "share of another ciphertext", crypto.VerifyShare(ctx, 1, tb.keys[1].Public(), c2, sh), crypto.ErrInvalidProof)
	wantErr(t, "share claimed by another seat", crypto.VerifyShare(ctx, 2, tb.keys[2].Public(), c, sh), crypto.ErrInvalidProof)
	wantErr(t, "share under another seat number, same key", crypto.VerifyShare(ctx, 0, tb.keys[1].Public(), c, sh), crypto.ErrInvalidProof)
	wantErr(t, "share under another step", crypto.VerifyShare(ctx.WithStep("deal 1"), 1, tb.keys[1].Public(), c, sh), crypto.ErrInvalidProof)
	otherTable := ctx
	otherTable.Table = []byte("table-other")
	wantErr(t, "share under another table", crypto.VerifyShare(otherTable, 1, tb.keys[1].Public(), c, sh), crypto.ErrInvalidProof)
	// A share of another ciphertext with its own valid proof, used here.
	sh2, _ := crypto.DecryptShare(rnd, ctx, 1, tb.keys[1], c2)
	wantErr(t, "valid share of card 1 for card 0", crypto.VerifyShare(ctx, 1, tb.keys[1].Public(), c, sh2), crypto.ErrInvalidProof)

	// Had a wrong share gone unchecked, the result would be no card: ErrNotACard.
	var shares []*crypto.Share
	for seat, k := range tb.keys {
		s, _ := crypto.DecryptShare(rnd, ctx, seat, k, c)
		shares = append(shares, s)
	}
	shares[1] = random
	if _, err := crypto.DecodeCard(crypto.CombineShares(c, shares), deckSize); !errors.Is(err, crypto.ErrNotACard) {
		t.Errorf("decryption with a wrong share: %v", err)
	}
}

// A commitment opens to its card only, at its place only.
func TestAttackCommitmentOpenedElsewhere(t *testing.T) {
	ctx := testContext(3, "place")
	rnd := crypto.NewDetReader("commit attack")
	c, o, _ := crypto.Commit(rnd, ctx, 1, 2, 3, []byte("da"))
	// The same nonce with another card.
	forged, _ := crypto.ParseOpening(append(o.Bytes()[:32:32], []byte("1000")...))
	_, err := crypto.VerifyOpening(ctx, 1, 2, 3, c, forged)
	wantErr(t, "opened to another card", err, crypto.ErrInvalidProof)
	// Another player's opening of another commitment.
	_, o2, _ := crypto.Commit(rnd, ctx, 1, 2, 3, []byte("1000"))
	_, err = crypto.VerifyOpening(ctx, 1, 2, 3, c, o2)
	wantErr(t, "another opening", err, crypto.ErrInvalidProof)
	otherTable := ctx
	otherTable.Table = []byte("table-other")
	for _, p := range []struct {
		name                  string
		ctx                   crypto.Context
		seat, round, position int
	}{
		{"another seat", ctx, 0, 2, 3},
		{"another round", ctx, 1, 1, 3},
		{"another position", ctx, 1, 2, 4},
		{"another table", otherTable, 1, 2, 3},
	} {
		_, err := crypto.VerifyOpening(p.ctx, p.seat, p.round, p.position, c, o)
		wantErr(t, "opened at "+p.name, err, crypto.ErrInvalidProof)
	}
}

// A random reveal must match its commitment, for its seat and step.
func TestAttackRandomReveal(t *testing.T) {
	ctx := testContext(3, "first player")
	rnd := crypto.NewDetReader("random attack")
	c0, v0, _ := crypto.CommitRandom(rnd, ctx, 0)
	_, v1, _ := crypto.CommitRandom(rnd, ctx, 1)
	wantErr(t, "another value", crypto.VerifyReveal(ctx, 0, c0, v1), crypto.ErrInvalidProof)
	// Seat 1 copies seat 0's commitment, hoping to reveal the same value later.
	wantErr(t, "commitment copied to another seat", crypto.VerifyReveal(ctx, 1, c0, v0), crypto.ErrInvalidProof)
	wantErr(t, "another step", crypto.VerifyReveal(ctx.WithStep("dice"), 0, c0, v0), crypto.ErrInvalidProof)
	otherTable := ctx
	otherTable.Table = []byte("table-other")
	wantErr(t, "another table", crypto.VerifyReveal(otherTable, 0, c0, v0), crypto.ErrInvalidProof)
}

// The little black book: the owner seals the opening of a face-down card to the peeker.
// If it lies, the blame convicts it; a false blame convicts the blamer.
func TestAttackSealedAnswerLies(t *testing.T) {
	tb := newTable(t, 3, "black book")
	rnd := crypto.NewDetReader("black book play")
	placeCtx := tb.ctx.WithStep("place")
	ctx := tb.ctx.WithStep("peek answer")
	const owner, peeker = 0, 2
	commit, opening, _ := crypto.Commit(rnd, placeCtx, owner, 1, 4, []byte("hitman"))
	_, lie, _ := crypto.Commit(rnd, placeCtx, owner, 1, 4, []byte("1000"))
	peekerKey := tb.keys[peeker].Public()

	check := func(msg []byte) error { // what everyone does with a revealed answer
		o, err := crypto.ParseOpening(msg)
		if err != nil {
			return err
		}
		_, err = crypto.VerifyOpening(placeCtx, owner, 1, 4, commit, o)
		return err
	}

	// 1. The owner seals a lie. The peeker sees the opening does not match and blames.
	box, _ := crypto.Seal(rnd, ctx, owner, peeker, peekerKey, lie.Bytes())
	got, err := crypto.Unseal(ctx, owner, peeker, tb.keys[peeker], box)
	if err != nil {
		t.Fatal(err)
	}
	if check(got) == nil {
		t.Fatalf("the lie passes the commitment check")
	}
	blame, _ := crypto.ProveBlame(rnd, ctx, owner, peeker, tb.keys[peeker], box)
	shown, err := crypto.VerifyBlame(ctx, owner, peeker, peekerKey, box, blame)
	if err != nil {
		t.Fatalf("honest blame rejected: %v", err)
	}
	wantErr(t, "lying answer shown by the blame", check(shown), crypto.ErrInvalidProof)

	// 2. The owner seals garbage that does not decrypt, with a valid proof for its E
	// (a box sealed to someone else fails VerifySealedBox instead, see
	// TestAttackSealedBoxReplay). The blame shows it does not decrypt.
	garbage, err := crypto.SealRawForTest(rnd, ctx, owner, peeker, peekerKey, bytes.Repeat([]byte{7}, 80))
	if err != nil {
		t.Fatal(err)
	}
	if err := crypto.VerifySealedBox(ctx, owner, peeker, peekerKey, garbage); err != nil {
		t.Fatalf("garbage box with a valid proof: %v", err)
	}
	if _, err := crypto.Unseal(ctx, owner, peeker, tb.keys[peeker], garbage); !errors.Is(err, crypto.ErrDecrypt) {
		t.Fatalf("garbage box: %v", err)
	}
	blame2, _ := crypto.ProveBlame(rnd, ctx, owner, peeker, tb.keys[peeker], garbage)
	_, err = crypto.VerifyBlame(ctx, owner, peeker, peekerKey, garbage, blame2)
	wantErr(t, "garbage box shown by the blame", err, crypto.ErrDecrypt)

	// 3. The owner answers honestly; the peeker blames anyway.
	honest, _ := crypto.Seal(rnd, ctx, owner, peeker, peekerKey, opening.Bytes())
	blame3, _ := crypto.ProveBlame(rnd, ctx, owner, peeker, tb.keys[peeker], honest)
	shown, err = crypto.VerifyBlame(ctx, owner, peeker, peekerKey, honest, blame3)
	if err != nil || check(shown) != nil {
		t.Errorf("a valid blame of an honest box must show the honest answer: %v, %v", err, check(shown))
	}
	// ... or forges the shared point: a blame of another box, or another seat's blame.
	wantErr(t, "blame of another box", errOf(crypto.VerifyBlame(ctx, owner, peeker, peekerKey, honest, blame)), crypto.ErrInvalidProof)
	// Seat 1 blames, with its own secret, a box sealed to its key, and passes that off as
	// the peeker's blame of the honest box. (ProveBlame refuses to blame the honest box
	// with seat 1's key directly: that box's proof is for the peeker's key.)
	toOne, _ := crypto.Seal(rnd, ctx, owner, peeker, tb.keys[1].Public(), opening.Bytes())
	forged, err := crypto.ProveBlame(rnd, ctx, owner, peeker, tb.keys[1], toOne)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, "ProveBlame with another secret", errOf(bytesOf(crypto.ProveBlame(rnd, ctx, owner, peeker, tb.keys[1], honest))), crypto.ErrInvalidProof)
	wantErr(t, "blame with another secret", errOf(crypto.VerifyBlame(ctx, owner, peeker, peekerKey, honest, forged)), crypto.ErrInvalidProof)
	card, _ := crypto.CardPoint(0)
	randomS, _ := crypto.ParseBlame(append(card.Bytes(), blame3.Bytes()[32:]...))
	wantErr(t, "blame with a random point", errOf(crypto.VerifyBlame(ctx, owner, peeker, peekerKey, honest, randomS)), crypto.ErrInvalidProof)
	wantErr(t, "blame under another step", errOf(crypto.VerifyBlame(ctx.WithStep("later"), owner, peeker, peekerKey, honest, blame3)), crypto.ErrInvalidProof)
	wantErr(t, "blame as if by another recipient seat", errOf(crypto.VerifyBlame(ctx, owner, 1, peekerKey, honest, blame3)), crypto.ErrInvalidProof)
	wantErr(t, "blame of a box from another seat", errOf(crypto.VerifyBlame(ctx, 1, peeker, peekerKey, honest, blame3)), crypto.ErrInvalidProof)
	otherTable := ctx
	otherTable.Table = []byte("table-other")
	wantErr(t, "blame under another table", errOf(crypto.VerifyBlame(otherTable, owner, peeker, peekerKey, honest, blame3)), crypto.ErrInvalidProof)

	// 4. A box copied into another seat's entry fails its proof as that seat's, and is
	// neither opened nor blamed.
	wantErr(t, "box re-attributed to seat 1", crypto.VerifySealedBox(ctx, 1, peeker, peekerKey, honest), crypto.ErrInvalidProof)
	wantErr(t, "unsealing a box re-attributed to seat 1", errOf(crypto.Unseal(ctx, 1, peeker, tb.keys[peeker], honest)), crypto.ErrInvalidProof)
}

func errOf(_ []byte, err error) error { return err }

// The sealed-box decryption oracle (outside review, finding 1). A blame publishes
// x_to·E, and x_to is also the recipient's share of the deck key. A cheating sender puts
// the A of an undealt deck ciphertext in place of E and sends garbage, so that the
// honest recipient's blame publishes x_to·A: its decryption share of a card never dealt.
// Every box now carries a proof of knowledge of log_G E, which the sender cannot make
// for A: every node rejects the box, and the recipient's node refuses to open or blame
// it, so x_to·A is never computed into anything it outputs.
func TestAttackSealedBoxDecryptionOracle(t *testing.T) {
	tb := newTable(t, 3, "oracle")
	rnd := crypto.NewDetReader("oracle play")
	deck := tb.shuffleAll(t, rnd)
	ctx := tb.ctx.WithStep("peek answer")
	const sender, victim = 0, 2
	victimKey := tb.keys[victim].Public()
	target := &deck[5] // a card nobody has dealt
	a := target.Bytes()[:32]
	// x_victim·A: what the cheater wants, and what nothing below may reveal.
	share, err := crypto.DecryptShare(rnd, tb.ctx.WithStep("never published"), victim, tb.keys[victim], target)
	if err != nil {
		t.Fatal(err)
	}
	xa := share.Bytes()[:32]
	honest, _ := crypto.Seal(rnd, ctx, sender, victim, victimKey, []byte("an honest answer"))
	garbage := bytes.Repeat([]byte{0x5a}, 80)
	// Two canonical scalars (top byte clear, so below ℓ) for a made-up proof.
	madeUp := append(bytes.Repeat([]byte{0x11}, 31), 0, 0x22)
	madeUp = append(madeUp, bytes.Repeat([]byte{0x33}, 30)...)
	madeUp = append(madeUp, 0)

	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name string
		box  []byte
	}{
		{"no proof (the old encoding A ‖ garbage)", cat(a, garbage)},
		{"a zero proof", cat(a, make([]byte, 64), garbage)},
		{"made-up proof scalars", cat(a, madeUp, garbage)},
		{"the proof of an honest box", cat(a, honest.Bytes()[32:96], garbage)},
		{"an honest box with A as its E", cat(a, honest.Bytes()[32:])},
	}
	for _, c := range cases {
		box, err := crypto.ParseSealedBox(c.box)
		if err != nil {
			wantErr(t, c.name+": ParseSealedBox", err, crypto.ErrNonCanonical)
			continue
		}
		wantErr(t, c.name+": VerifySealedBox", crypto.VerifySealedBox(ctx, sender, victim, victimKey, box), crypto.ErrInvalidProof)
		msg, unsealErr := crypto.Unseal(ctx, sender, victim, tb.keys[victim], box)
		wantErr(t, c.name+": Unseal", unsealErr, crypto.ErrInvalidProof)
		blame, blameErr := crypto.ProveBlame(rnd, ctx, sender, victim, tb.keys[victim], box)
		wantErr(t, c.name+": ProveBlame", blameErr, crypto.ErrInvalidProof)
		if blame != nil && bytes.Contains(blame.Bytes(), xa) {
			t.Errorf("%s: the blame publishes x·A, the victim's share of an undealt card", c.name)
		}
		for _, out := range [][]byte{msg, []byte(fmt.Sprint(unsealErr, blameErr))} {
			if bytes.Contains(out, xa) || strings.Contains(string(out), hex.EncodeToString(xa)) {
				t.Errorf("%s: x·A leaks through Unseal or ProveBlame", c.name)
			}
		}
		// A blame of such a box, however made, is refused too.
		honestBlame, _ := crypto.ProveBlame(rnd, ctx, sender, victim, tb.keys[victim], honest)
		wantErr(t, c.name+": VerifyBlame", errOf(crypto.VerifyBlame(ctx, sender, victim, victimKey, box, honestBlame)), crypto.ErrInvalidProof)
	}
}

// A box's proof binds the context (table, roster and step), the sender's and the
// recipient's seats, the recipient's key, E and the ciphertext: a proof copied from
// another box, or a box replayed under another table, step or seat, fails.
func TestAttackSealedBoxReplay(t *testing.T) {
	tb := newTable(t, 3, "box replay")
	rnd := crypto.NewDetReader("box replay play")
	ctx := tb.ctx.WithStep("peek answer")
	key2 := tb.keys[2].Public()
	msg := []byte("the opening of a face-down card")
	box, _ := crypto.Seal(rnd, ctx, 0, 2, key2, msg)
	if err := crypto.VerifySealedBox(ctx, 0, 2, key2, box); err != nil {
		t.Fatalf("honest box: %v", err)
	}
	other, _ := crypto.Seal(rnd, ctx, 0, 2, key2, []byte("another answer, same length.."))
	fromSeat1, _ := crypto.Seal(rnd, ctx, 1, 2, key2, msg)
	laterStep, _ := crypto.Seal(rnd, ctx.WithStep("peek answer 2"), 0, 2, key2, msg)
	mix := func(e, proof, ct *crypto.SealedBox) *crypto.SealedBox {
		b := append(append(e.Bytes()[:32:32], proof.Bytes()[32:96]...), ct.Bytes()[96:]...)
		out, err := crypto.ParseSealedBox(b)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	otherTable := ctx
	otherTable.Table = []byte("table-other")
	otherRoster := ctx
	otherRoster.Roster = append([][]byte{[]byte("mallory")}, ctx.Roster[1:]...)
	cases := []struct {
		name     string
		ctx      crypto.Context
		from, to int
		key      *crypto.PublicKey
		box      *crypto.SealedBox
	}{
		{"another step", ctx.WithStep("later"), 0, 2, key2, box},
		{"another table", otherTable, 0, 2, key2, box},
		{"another roster", otherRoster, 0, 2, key2, box},
		{"another sender seat", ctx, 1, 2, key2, box},
		{"another recipient seat and key", ctx, 0, 1, tb.keys[1].Public(), box},
		{"another recipient key", ctx, 0, 2, tb.keys[1].Public(), box},
		{"a box sealed by seat 1 passed off as seat 0's", ctx, 0, 2, key2, fromSeat1},
		{"a box sealed at another step", ctx, 0, 2, key2, laterStep},
		{"the proof of another box", ctx, 0, 2, key2, mix(box, other, box)},
		{"the proof of a box from another seat", ctx, 0, 2, key2, mix(box, fromSeat1, box)},
		{"the proof of a box from another step", ctx, 0, 2, key2, mix(box, laterStep, box)},
		{"another box's ciphertext", ctx, 0, 2, key2, mix(box, box, other)},
		{"another box's E", ctx, 0, 2, key2, mix(other, box, box)},
	}
	for _, c := range cases {
		wantErr(t, c.name, crypto.VerifySealedBox(c.ctx, c.from, c.to, c.key, c.box), crypto.ErrInvalidProof)
	}
}
