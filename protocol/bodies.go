package protocol

import (
	"fmt"

	"corruption/crypto"
	"corruption/engine/corruption"
)

// The bodies of entries other than the genesis. Each has a marshal function and a strict
// parser; docs/PROTOCOL.md gives their layouts.

type keyBody struct {
	proof  *crypto.KeyProof
	commit crypto.RandomCommitment
}

func (b *keyBody) marshal() []byte {
	w := writer{}
	w.bytes(b.proof.Bytes())
	w.fixed(b.commit.Bytes())
	return w.b
}

func parseKeyBody(p []byte) (*keyBody, error) {
	r := reader{b: p}
	kb := r.bytes(1024, "key proof")
	cb := r.take(crypto.RandomSize)
	if err := r.done("key entry"); err != nil {
		return nil, err
	}
	proof, err := crypto.ParseKeyProof(kb)
	if err != nil {
		return nil, fmt.Errorf("malformed key entry: %w", err)
	}
	c, err := crypto.ParseRandomCommitment(cb)
	if err != nil {
		return nil, fmt.Errorf("malformed key entry: %w", err)
	}
	return &keyBody{proof: proof, commit: c}, nil
}

type shuffleBody struct {
	deck  crypto.Deck
	proof *crypto.ShuffleProof
}

func (b *shuffleBody) marshal() []byte {
	w := writer{}
	w.bytes(b.deck.Bytes())
	w.bytes(b.proof.Bytes())
	return w.b
}

func parseShuffleBody(p []byte) (*shuffleBody, error) {
	r := reader{b: p}
	db := r.bytes(MaxBodySize, "deck")
	pb := r.bytes(MaxBodySize, "shuffle proof")
	if err := r.done("shuffle entry"); err != nil {
		return nil, err
	}
	deck, err := crypto.ParseDeck(db)
	if err != nil {
		return nil, fmt.Errorf("malformed shuffle entry: %w", err)
	}
	if len(deck) != corruption.NumContracts {
		return nil, fmt.Errorf("malformed shuffle entry: deck of %d cards, want %d", len(deck), corruption.NumContracts)
	}
	proof, err := crypto.ParseShuffleProof(pb)
	if err != nil {
		return nil, fmt.Errorf("malformed shuffle entry: %w", err)
	}
	return &shuffleBody{deck: deck, proof: proof}, nil
}

func marshalShares(shares []*crypto.Share) []byte {
	w := writer{}
	w.u8(uint8(len(shares)))
	for _, s := range shares {
		w.bytes(s.Bytes())
	}
	return w.b
}

func parseShares(p []byte) ([]*crypto.Share, error) {
	r := reader{b: p}
	n := int(r.u8())
	if r.err == nil && n != corruption.ContractsPerDeal {
		return nil, fmt.Errorf("malformed shares entry: %d shares, want %d", n, corruption.ContractsPerDeal)
	}
	raw := make([][]byte, n)
	for i := range raw {
		raw[i] = r.bytes(1024, "share")
	}
	if err := r.done("shares entry"); err != nil {
		return nil, err
	}
	out := make([]*crypto.Share, n)
	for i, b := range raw {
		s, err := crypto.ParseShare(b)
		if err != nil {
			return nil, fmt.Errorf("malformed shares entry: share %d: %w", i+1, err)
		}
		out[i] = s
	}
	return out, nil
}

// placeBody is a placement: the spot, and either the card (face up) or a commitment to it.
type placeBody struct {
	spot   corruption.Spot
	faceUp bool
	card   corruption.Card   // face up
	commit crypto.Commitment // face down
}

func (b *placeBody) marshal() []byte {
	w := writer{}
	w.u8(uint8(b.spot))
	w.flag(b.faceUp)
	if b.faceUp {
		w.u8(uint8(b.card))
	} else {
		w.fixed(b.commit[:])
	}
	return w.b
}

func parsePlaceBody(p []byte) (*placeBody, error) {
	r := reader{b: p}
	b := &placeBody{spot: corruption.Spot(r.u8()), faceUp: r.flag("face up")}
	if b.faceUp {
		b.card = corruption.Card(r.u8())
	} else {
		r.fixed(b.commit[:])
	}
	if err := r.done("place entry"); err != nil {
		return nil, err
	}
	return b, nil
}

// revealBody opens the author's face-down cards of the round, in play order.
type revealBody struct {
	indexes  []int
	openings []*crypto.Opening
}

func (b *revealBody) marshal() []byte {
	w := writer{}
	w.u8(uint8(len(b.indexes)))
	for i, idx := range b.indexes {
		w.u8(uint8(idx))
		w.bytes(b.openings[i].Bytes())
	}
	return w.b
}

func parseRevealBody(p []byte) (*revealBody, error) {
	r := reader{b: p}
	n := int(r.u8())
	b := &revealBody{}
	var raw [][]byte
	for i := 0; i < n && r.err == nil; i++ {
		b.indexes = append(b.indexes, int(r.u8()))
		raw = append(raw, r.bytes(1024, "opening"))
	}
	if err := r.done("reveal entry"); err != nil {
		return nil, err
	}
	for i, ob := range raw {
		o, err := crypto.ParseOpening(ob)
		if err != nil {
			return nil, fmt.Errorf("malformed reveal entry: opening %d: %w", i+1, err)
		}
		b.openings = append(b.openings, o)
	}
	return b, nil
}

// awardBody is an awarding decision.
type awardBody struct {
	kind corruption.MoveKind // MoveAssign, MoveKill, MoveRemove or MovePass
	arg  int                 // the contract (assign) or the card index (kill, remove)
}

func (b *awardBody) marshal() []byte { return []byte{uint8(b.kind), uint8(b.arg)} }

func parseAwardBody(p []byte) (*awardBody, error) {
	r := reader{b: p}
	b := &awardBody{kind: corruption.MoveKind(r.u8()), arg: int(r.u8())}
	if err := r.done("award entry"); err != nil {
		return nil, err
	}
	switch b.kind {
	case corruption.MoveAssign, corruption.MoveKill, corruption.MoveRemove, corruption.MovePass:
	default:
		return nil, fmt.Errorf("malformed award entry: %s is not an awarding decision", b.kind)
	}
	return b, nil
}

func (b *awardBody) move(seat int) corruption.Move {
	m := corruption.Move{Kind: b.kind, Seat: seat}
	switch b.kind {
	case corruption.MoveAssign:
		m.Contract = corruption.Contract(b.arg)
	case corruption.MoveKill, corruption.MoveRemove:
		m.Index = b.arg
	}
	return m
}

// single-value bodies
func parseU8(p []byte, what string) (int, error) {
	r := reader{b: p}
	v := int(r.u8())
	return v, r.done(what)
}

func parseFixed(p []byte, n int, what string) ([]byte, error) {
	r := reader{b: p}
	v := r.take(n)
	return v, r.done(what)
}
