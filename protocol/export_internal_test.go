package protocol

import (
	"crypto/ed25519"

	"corruption/crypto"
	"corruption/engine/corruption"
)

// Test-only doors into the package, for the cheat harness (cheat_test.go) and the fuzz targets
// (fuzz_test.go): a cheating seat needs its own node's secrets and the body encoders to sign
// entries that an honest node never writes. Every name ends in ForTest.

// OpeningForTest is the opening of the node's own face-down card at index (this round).
func OpeningForTest(t *Table, index int) (*crypto.Opening, error) { return t.self.opening(t, index) }

// ElGamalKeyForTest is the node's ElGamal private key at its table.
func ElGamalKeyForTest(s *Self) (*crypto.PrivateKey, error) { return s.elgamalKey() }

// ElGamalPublicForTest is seat's published ElGamal key (nil before its key entry).
func ElGamalPublicForTest(t *Table, seat int) *crypto.PublicKey {
	if seat < 0 || seat >= len(t.pubs) {
		return nil
	}
	return t.pubs[seat]
}

// CardsContextForTest is the context of the commitments to face-down cards.
func CardsContextForTest(t *Table) crypto.Context { return t.ctx.WithStep(stepCards) }

// PeekContextForTest is the context of the sealed answer to a peek at card index of round.
func PeekContextForTest(t *Table, round, index int) crypto.Context {
	return t.ctx.WithStep(stepPeek(round, index))
}

// PlaceBodyForTest encodes a placement: face up with card, or face down with commit.
func PlaceBodyForTest(spot corruption.Spot, faceUp bool, card corruption.Card, commit crypto.Commitment) []byte {
	return (&placeBody{spot: spot, faceUp: faceUp, card: card, commit: commit}).marshal()
}

// ParsePlaceBodyForTest decodes a placement.
func ParsePlaceBodyForTest(p []byte) (spot corruption.Spot, faceUp bool, card corruption.Card, commit crypto.Commitment, err error) {
	b, err := parsePlaceBody(p)
	if err != nil {
		return 0, false, 0, commit, err
	}
	return b.spot, b.faceUp, b.card, b.commit, nil
}

// RevealBodyForTest encodes a reveal.
func RevealBodyForTest(indexes []int, openings []*crypto.Opening) []byte {
	return (&revealBody{indexes: indexes, openings: openings}).marshal()
}

// ParseRevealBodyForTest decodes a reveal.
func ParseRevealBodyForTest(p []byte) ([]int, []*crypto.Opening, error) {
	b, err := parseRevealBody(p)
	if err != nil {
		return nil, nil, err
	}
	return b.indexes, b.openings, nil
}

// ShuffleBodyForTest encodes a shuffle.
func ShuffleBodyForTest(deck crypto.Deck, proof *crypto.ShuffleProof) []byte {
	return (&shuffleBody{deck: deck, proof: proof}).marshal()
}

// ParseShuffleBodyForTest decodes a shuffle.
func ParseShuffleBodyForTest(p []byte) (crypto.Deck, *crypto.ShuffleProof, error) {
	b, err := parseShuffleBody(p)
	if err != nil {
		return nil, nil, err
	}
	return b.deck, b.proof, nil
}

// SharesBodyForTest encodes a seat's decryption shares.
func SharesBodyForTest(shares []*crypto.Share) []byte { return marshalShares(shares) }

// ParseSharesBodyForTest decodes a seat's decryption shares.
func ParseSharesBodyForTest(p []byte) ([]*crypto.Share, error) { return parseShares(p) }

// HelloMessageForTest is the broadcast message of a node that wants a seat at table.
func HelloMessageForTest(key ed25519.PrivateKey, table string, players int, v corruption.Variant, lbb bool, name string) []byte {
	h := &hello{table: table, players: players, variant: v, lbb: lbb, name: name, key: key.Public().(ed25519.PublicKey)}
	h.sig = ed25519.Sign(key, h.unsigned())
	return h.marshal()
}

// HeadMessageForTest is the head announcement of seat's node at table t.
func HeadMessageForTest(t *Table, seat int) []byte {
	return (&head{table: t.id, seat: seat, len: t.Len(), hash: t.head}).marshal()
}

// CloneForTest copies a table, so that a fuzz target can try entries on a copy of a table it
// built once. The copy shares nothing that Append changes.
func CloneForTest(t *Table) *Table {
	c := *t
	c.entries = append([]*Entry(nil), t.entries...)
	c.proofs = append([]*crypto.KeyProof(nil), t.proofs...)
	c.pubs = append([]*crypto.PublicKey(nil), t.pubs...)
	c.commits = append([]crypto.RandomCommitment(nil), t.commits...)
	c.reveals = append([]crypto.RandomReveal(nil), t.reveals...)
	c.shares = append([][]*crypto.Share(nil), t.shares...)
	if t.game != nil {
		c.game = t.game.Clone()
	}
	if t.peek != nil {
		p := *t.peek
		c.peek = &p
	}
	if t.verdict != nil {
		v := *t.verdict
		c.verdict = &v
	}
	return &c
}

// PadAnswerForTest pads an opening as a sealed answer carries it.
func PadAnswerForTest(opening []byte) []byte { return padAnswer(opening) }
