package crypto

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"hash"
	"io"
	"sync"
)

// A RandomChain is one player's contributions to many joint random draws, committed all at
// once. The player draws a secret 32-byte seed s and publishes the anchor
//
//	v_0 = H^L(s), where H(v) = SHA-256( LP(domain) ‖ LP("chain") ‖ table ‖ roster ‖ u64(seat) ‖ v )
//
// at the start of the game (the context's step is not absorbed: the chain spans every step).
// For the k-th draw (k = 1 … L) it reveals v_k = H^(L−k)(s), and everyone checks that
// H(v_k) = v_(k−1). Each reveal is fixed before the game begins, so a player who reveals after
// others cannot choose its value, and H is one-way, so nobody can compute a reveal before its
// owner publishes it: the draw JointInt derives from every player's v_k is uniform as long as
// one player is honest. As with CommitRandom, the last to reveal sees the result first and may
// refuse to reveal (an abort, caught by the table's clock); it cannot choose another value.
//
// A chain costs one 32-byte anchor and L hashes in all, against a commitment and a reveal per
// draw for CommitRandom: a game that throws a die every turn needs one entry per player and
// draw instead of two.
//
// A chain keeps, from its first use on, every chainStride-th value of the chain (the seed is
// H^0), so that Reveal hashes fewer than chainStride times rather than up to L times: a game's
// draws cost L hashes in all, once, rather than L a draw (a browser's seat, in WebAssembly,
// spent a sixth of its table's own work on these hashes).
type RandomChain struct {
	ctx    Context
	seat   int
	seed   [32]byte
	length int

	once  sync.Once
	marks [][32]byte // marks[j] = H^(j·chainStride)(seed), for j·chainStride ≤ length
	h     chainHasher
}

// chainStride is the distance between the chain's kept values.
const chainStride = 64

// MaxChainLength bounds the draws one chain serves.
const MaxChainLength = 1 << 16

// NewRandomChain draws the seed of the chain of the player at seat, for length draws.
func NewRandomChain(rand io.Reader, ctx Context, seat, length int) (*RandomChain, error) {
	if err := ctx.check(seat); err != nil {
		return nil, err
	}
	if length < 1 || length > MaxChainLength {
		return nil, fmt.Errorf("chain of %d draws is not 1 to %d", length, MaxChainLength)
	}
	c := &RandomChain{ctx: ctx, seat: seat, length: length}
	if _, err := io.ReadFull(rand, c.seed[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	return c, nil
}

// Anchor is v_0, the commitment to every draw of the chain.
func (c *RandomChain) Anchor() RandomCommitment {
	v, _ := c.Reveal(0)
	return RandomCommitment(v)
}

// Reveal is v_k, the player's contribution to the k-th draw (k = 1 … length; 0 is the anchor).
func (c *RandomChain) Reveal(k int) (RandomReveal, error) {
	if k < 0 || k > c.length {
		return RandomReveal{}, fmt.Errorf("draw %d of a chain of %d", k, c.length)
	}
	c.once.Do(c.mark)
	m := c.length - k // v_k = H^m(seed)
	v := c.marks[m/chainStride]
	for range m % chainStride {
		v = c.h.next(v)
	}
	return RandomReveal(v), nil
}

// mark walks the whole chain once, keeping every chainStride-th value.
func (c *RandomChain) mark() {
	c.h = newChainHasher(c.ctx, c.seat)
	c.marks = make([][32]byte, 0, c.length/chainStride+1)
	v := c.seed
	for i := 0; ; i++ {
		if i%chainStride == 0 {
			c.marks = append(c.marks, v)
		}
		if i == c.length {
			return
		}
		v = c.h.next(v)
	}
}

// VerifyChainReveal checks that v is the next reveal of the chain of the player at seat, whose
// last reveal (or anchor) is prev. A mismatch wraps ErrInvalidProof.
func VerifyChainReveal(ctx Context, seat int, prev [RandomSize]byte, v RandomReveal) error {
	if err := ctx.check(seat); err != nil {
		return err
	}
	want := chainHash(ctx, seat, v)
	if subtle.ConstantTimeCompare(want[:], prev[:]) != 1 {
		return fmt.Errorf("random reveal of seat %d does not follow its chain: %w", seat, ErrInvalidProof)
	}
	return nil
}

func chainHash(ctx Context, seat int, v [32]byte) [32]byte {
	h := sha256.New()
	writeChainPrefix(h, ctx, seat)
	h.Write(v[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// writeChainPrefix writes what H hashes before v: the same for every value of a chain.
func writeChainPrefix(h io.Writer, ctx Context, seat int) {
	writeLP(h, []byte(domain))
	writeLP(h, []byte("chain"))
	ctx.writeTo(h, false)
	writeUint(h, uint64(seat))
}

// A chainHasher computes H for one chain: the prefix (about 390 bytes at a table of seven,
// six of SHA-256's seven blocks) is hashed once, and each value clones that state and hashes
// its own 32 bytes. A chain of 4,096 draws costs 4,096 blocks instead of 28,672, which a
// browser's seat, in WebAssembly, spent a twentieth of its table's setup on.
type chainHasher struct {
	ctx    Context
	seat   int
	prefix hash.Cloner // nil where the hash cannot be cloned: H is computed whole
}

func newChainHasher(ctx Context, seat int) chainHasher {
	c := chainHasher{ctx: ctx, seat: seat}
	h := sha256.New()
	writeChainPrefix(h, ctx, seat)
	c.prefix, _ = h.(hash.Cloner)
	return c
}

// next is H(v).
func (c chainHasher) next(v [32]byte) [32]byte {
	if c.prefix != nil {
		if h, err := c.prefix.Clone(); err == nil {
			h.Write(v[:])
			var out [32]byte
			h.Sum(out[:0])
			return out
		}
	}
	return chainHash(c.ctx, c.seat, v)
}
