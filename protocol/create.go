package protocol

import (
	"crypto/ed25519"
	"fmt"
	"io"
)

// NewGenesis builds and signs the genesis entry of a new table. creator must be the key of
// g.Roster[0]; g.Nonce is filled from rand.
func NewGenesis(rand io.Reader, creator ed25519.PrivateKey, g *Genesis) (*Entry, error) {
	if _, err := io.ReadFull(rand, g.Nonce[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	if err := g.Check(); err != nil {
		return nil, err
	}
	if len(g.Roster) == 0 || !creator.Public().(ed25519.PublicKey).Equal(g.Roster[0].Key) {
		return nil, fmt.Errorf("the creator must sit at seat 0")
	}
	e := &Entry{Table: g.ID(), Seq: 0, Seat: 0, Kind: KindGenesis, Body: g.Marshal()}
	e.Sign(creator)
	return e, nil
}
