package crypto

import (
	"crypto/hmac"
	"crypto/sha512"
	"fmt"
	"hash"
	"io"
)

// Shuffle and Seal do not use the bytes of rand directly. Each reads 32 bytes from rand
// once and draws all its secret values (Shuffle: the permutation, the re-encryption
// scalars and the proof's secret scalars; Seal: the ephemeral key and its proof's nonce)
// from a stream bound to those bytes and to the whole statement:
//
//	key    = SHA-512( LP(domain ‖ " derive") ‖ LP(label) ‖ 32 bytes from rand ‖ digest )
//	stream = HMAC-SHA512(key, u64(0)) ‖ HMAC-SHA512(key, u64(1)) ‖ …
//
// where digest is the transcript hash of the statement (Shuffle: context, seat, key and
// input deck; Seal: context, from, to, recipient key and message). As with the hedged
// nonces of the Schnorr-type proofs, a rand that repeats itself, or that an attacker
// replays, then costs nothing as long as the statements differ: the same 32 bytes used
// for two decks give unrelated permutations and re-encryptions, and for two messages
// unrelated ephemeral keys. The same bytes and the same statement give the same output,
// byte for byte, which a node that replays its log after a crash relies on.

// A derivedStream is the stream above. Its Read never fails.
type derivedStream struct {
	mac   hash.Hash
	ctr   uint64
	block [sha512.Size]byte
	buf   []byte
}

// newDerivedStream reads 32 bytes from rand and keys a stream with them, the label and
// the statement's digest.
func newDerivedStream(rand io.Reader, label string, digest [64]byte) (*derivedStream, error) {
	var r [32]byte
	if _, err := io.ReadFull(rand, r[:]); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	h := sha512.New()
	writeLP(h, []byte(domain+" derive"))
	writeLP(h, []byte(label))
	h.Write(r[:])
	h.Write(digest[:])
	return &derivedStream{mac: hmac.New(sha512.New, h.Sum(nil))}, nil
}

func (s *derivedStream) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(s.buf) == 0 {
			s.mac.Reset()
			writeUint(s.mac, s.ctr)
			s.ctr++
			s.buf = s.mac.Sum(s.block[:0])
		}
		k := copy(p[n:], s.buf)
		s.buf = s.buf[k:]
		n += k
	}
	return n, nil
}
