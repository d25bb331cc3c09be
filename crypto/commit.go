package crypto

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
)

// A Commitment hides a face-down card until its owner opens it:
//
//	C = SHA-256( LP(domain) ‖ LP("commit") ‖ table ‖ roster ‖ u64(seat) ‖ u64(round) ‖
//	             u64(position) ‖ nonce ‖ LP(card) )
//
// with a fresh 32-byte nonce. It hides the card although there are only nine card
// kinds, because guessing the card means guessing the nonce too, and it binds, because
// opening it to another card or another place means finding a SHA-256 collision. It
// absorbs the context's table and roster but not its step, so the opening can be
// checked at a later step.
type Commitment [CommitmentSize]byte

// CommitmentSize is the length of a Commitment.
const CommitmentSize = sha256.Size

// An Opening reveals the card behind a Commitment: the nonce and the card.
type Opening struct {
	nonce [32]byte
	card  []byte
}

// MaxCardSize bounds the card encodings a commitment can hold.
const MaxCardSize = 256

// Commit commits the player at seat to card, placed at position in round. The opening
// must stay secret (and be kept) until the card is revealed.
func Commit(rand io.Reader, ctx Context, seat, round, position int, card []byte) (Commitment, *Opening, error) {
	if err := checkPlace(ctx, seat, round, position); err != nil {
		return Commitment{}, nil, err
	}
	if len(card) > MaxCardSize {
		return Commitment{}, nil, fmt.Errorf("card of %d bytes is longer than %d", len(card), MaxCardSize)
	}
	o := &Opening{card: append([]byte(nil), card...)}
	if _, err := io.ReadFull(rand, o.nonce[:]); err != nil {
		return Commitment{}, nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	return commitment(ctx, seat, round, position, o), o, nil
}

// VerifyOpening checks that o opens c for the player at seat, position and round, and
// returns the card. A mismatch wraps ErrInvalidProof.
func VerifyOpening(ctx Context, seat, round, position int, c Commitment, o *Opening) ([]byte, error) {
	if err := checkPlace(ctx, seat, round, position); err != nil {
		return nil, err
	}
	want := commitment(ctx, seat, round, position, o)
	if subtle.ConstantTimeCompare(want[:], c[:]) != 1 {
		return nil, fmt.Errorf("opening of seat %d, round %d, position %d does not match its commitment: %w",
			seat, round, position, ErrInvalidProof)
	}
	return o.Card(), nil
}

func checkPlace(ctx Context, seat, round, position int) error {
	if err := ctx.check(seat); err != nil {
		return err
	}
	if round < 0 || position < 0 {
		return fmt.Errorf("negative round %d or position %d", round, position)
	}
	return nil
}

func commitment(ctx Context, seat, round, position int, o *Opening) Commitment {
	h := sha256.New()
	writeLP(h, []byte(domain))
	writeLP(h, []byte("commit"))
	ctx.writeTo(h, false)
	writeUint(h, uint64(seat))
	writeUint(h, uint64(round))
	writeUint(h, uint64(position))
	h.Write(o.nonce[:])
	writeLP(h, o.card)
	var c Commitment
	h.Sum(c[:0])
	return c
}

// Bytes returns the 32 bytes of c.
func (c Commitment) Bytes() []byte { return append([]byte(nil), c[:]...) }

// ParseCommitment decodes a 32-byte commitment.
func ParseCommitment(b []byte) (Commitment, error) {
	var c Commitment
	if len(b) != CommitmentSize {
		return c, fmt.Errorf("commitment of %d bytes, want %d: %w", len(b), CommitmentSize, ErrNonCanonical)
	}
	copy(c[:], b)
	return c, nil
}

// Card returns the card of o (not yet checked against any commitment).
func (o *Opening) Card() []byte { return append([]byte(nil), o.card...) }

// Bytes returns the encoding of o: the 32-byte nonce followed by the card.
func (o *Opening) Bytes() []byte {
	return append(append(make([]byte, 0, 32+len(o.card)), o.nonce[:]...), o.card...)
}

// ParseOpening decodes an opening: a 32-byte nonce and a card of at most MaxCardSize
// bytes.
func ParseOpening(b []byte) (*Opening, error) {
	if len(b) < 32 || len(b) > 32+MaxCardSize {
		return nil, fmt.Errorf("opening of %d bytes is not 32 to %d: %w", len(b), 32+MaxCardSize, ErrNonCanonical)
	}
	o := &Opening{card: append([]byte(nil), b[32:]...)}
	copy(o.nonce[:], b[:32])
	return o, nil
}
