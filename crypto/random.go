package crypto

import (
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"io"
)

// Joint randomness is a commit–reveal protocol. Every player commits to 32 random bytes
// (CommitRandom) and publishes the RandomCommitment; once all commitments are in the
// log, every player publishes its RandomReveal; everyone checks each reveal
// (VerifyReveal) and derives the result (JointInt). If one player's bytes are uniformly
// random and were committed before any reveal, the result is uniform: the others fixed
// theirs without seeing it, and the commitments bind. The last player to reveal sees
// the result first and may refuse to reveal; that abort is visible (the protocol's
// timeout names the player) and is the only influence it has: it cannot choose another
// value. A commitment absorbs the context (with its step) and the seat, so nobody can
// copy another player's commitment.

// RandomSize is the length of a RandomCommitment and of a RandomReveal.
const RandomSize = 32

// A RandomCommitment is SHA-256(LP(domain) ‖ LP("random") ‖ context ‖ u64(seat) ‖ value).
type RandomCommitment [RandomSize]byte

// A RandomReveal is the committed value: 32 random bytes.
type RandomReveal [RandomSize]byte

// CommitRandom draws the contribution of the player at seat and commits to it.
func CommitRandom(rand io.Reader, ctx Context, seat int) (RandomCommitment, RandomReveal, error) {
	var v RandomReveal
	if err := ctx.check(seat); err != nil {
		return RandomCommitment{}, v, err
	}
	if _, err := io.ReadFull(rand, v[:]); err != nil {
		return RandomCommitment{}, v, fmt.Errorf("failed to read randomness: %w", err)
	}
	return randomCommitment(ctx, seat, v), v, nil
}

// VerifyReveal checks that v opens the commitment c of the player at seat. A mismatch
// wraps ErrInvalidProof.
func VerifyReveal(ctx Context, seat int, c RandomCommitment, v RandomReveal) error {
	if err := ctx.check(seat); err != nil {
		return err
	}
	want := randomCommitment(ctx, seat, v)
	if subtle.ConstantTimeCompare(want[:], c[:]) != 1 {
		return fmt.Errorf("random reveal of seat %d does not match its commitment: %w", seat, ErrInvalidProof)
	}
	return nil
}

func randomCommitment(ctx Context, seat int, v RandomReveal) RandomCommitment {
	h := sha256.New()
	writeLP(h, []byte(domain))
	writeLP(h, []byte("random"))
	ctx.writeTo(h, true)
	writeUint(h, uint64(seat))
	h.Write(v[:])
	var c RandomCommitment
	h.Sum(c[:0])
	return c
}

// JointInt returns an integer uniform in [0, n) from the verified reveals of every seat
// (reveals[i] is seat i's). It hashes the context and all reveals into a seed, expands
// the seed into 64-bit words SHA-512(seed ‖ u64(counter)) and returns the first word w
// below the largest multiple of n that fits in 64 bits, reduced mod n (rejection
// sampling, so no value is favoured).
func JointInt(ctx Context, reveals []RandomReveal, n int) (int, error) {
	if n < 1 {
		return 0, fmt.Errorf("joint integer below %d", n)
	}
	if err := ctx.check(0); err != nil {
		return 0, err
	}
	if len(reveals) != len(ctx.Roster) {
		return 0, fmt.Errorf("%d reveals for a roster of %d seats", len(reveals), len(ctx.Roster))
	}
	h := sha512.New()
	writeLP(h, []byte(domain))
	writeLP(h, []byte("joint int"))
	ctx.writeTo(h, true)
	writeUint(h, uint64(len(reveals)))
	for i := range reveals {
		h.Write(reveals[i][:])
	}
	var seed [64]byte
	h.Sum(seed[:0])

	// Accept w < limit, the largest multiple of n not above 2^64; at least half of all
	// words qualify, so the loop ends after a few blocks except with negligible chance.
	limit := ^uint64(0) - (^uint64(0)%uint64(n)+1)%uint64(n)
	for counter := uint64(0); ; counter++ {
		blk := sha512.New()
		blk.Write(seed[:])
		writeUint(blk, counter)
		var out [64]byte
		blk.Sum(out[:0])
		for i := 0; i < 64; i += 8 {
			w := binary.BigEndian.Uint64(out[i:])
			if w <= limit {
				return int(w % uint64(n)), nil
			}
		}
	}
}

// Bytes returns the 32 bytes of c.
func (c RandomCommitment) Bytes() []byte { return append([]byte(nil), c[:]...) }

// Bytes returns the 32 bytes of v.
func (v RandomReveal) Bytes() []byte { return append([]byte(nil), v[:]...) }

// ParseRandomCommitment decodes a 32-byte RandomCommitment.
func ParseRandomCommitment(b []byte) (RandomCommitment, error) {
	var c RandomCommitment
	if len(b) != RandomSize {
		return c, fmt.Errorf("random commitment of %d bytes, want %d: %w", len(b), RandomSize, ErrNonCanonical)
	}
	copy(c[:], b)
	return c, nil
}

// ParseRandomReveal decodes a 32-byte RandomReveal.
func ParseRandomReveal(b []byte) (RandomReveal, error) {
	var v RandomReveal
	if len(b) != RandomSize {
		return v, fmt.Errorf("random reveal of %d bytes, want %d: %w", len(b), RandomSize, ErrNonCanonical)
	}
	copy(v[:], b)
	return v, nil
}
