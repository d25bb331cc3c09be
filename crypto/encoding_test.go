package crypto_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/big"
	"sync"
	"testing"

	"corruption/crypto"
)

// A wireType is one decoder with a valid sample and the layout of its fields.
type wireType struct {
	name    string
	parse   func([]byte) ([]byte, error) // decode, then encode again
	sample  []byte
	points  []int // offsets of points
	scalars []int // offsets of scalars
}

var (
	wireOnce  sync.Once
	wireTypes []wireType
)

// wire returns every decoder of the package with a valid sample encoding.
func wire(t testing.TB) []wireType {
	wireOnce.Do(func() {
		tb := newTable(t, 3, "wire samples")
		rnd := crypto.NewDetReader("wire samples play")
		ctx := tb.ctx.WithStep("x")
		deck, _ := crypto.CanonicalDeck(deckSize)
		out, proof, err := crypto.Shuffle(rnd, ctx, 0, tb.joint, deck)
		if err != nil {
			t.Fatal(err)
		}
		share, _ := crypto.DecryptShare(rnd, ctx, 1, tb.keys[1], &out[0])
		commit, opening, _ := crypto.Commit(rnd, ctx, 0, 1, 2, []byte("reporter"))
		rc, rv, _ := crypto.CommitRandom(rnd, ctx, 0)
		box, _ := crypto.Seal(rnd, ctx, 0, 1, tb.keys[1].Public(), opening.Bytes())
		blame, _ := crypto.ProveBlame(rnd, ctx, 0, 1, tb.keys[1], box)
		card, _ := crypto.CardPoint(7)
		n := deckSize
		wireTypes = []wireType{
			{"Point", func(b []byte) ([]byte, error) {
				p, err := new(crypto.Point).SetBytes(b)
				return bytesOf(p, err)
			}, card.Bytes(), []int{0}, nil},
			{"PrivateKey", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParsePrivateKey(b)) }, tb.keys[0].Bytes(), nil, []int{0}},
			{"PublicKey", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParsePublicKey(b)) }, tb.joint.Bytes(), []int{0}, nil},
			{"KeyProof", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseKeyProof(b)) }, tb.proofs[0].Bytes(), []int{0}, []int{32, 64}},
			{"Ciphertext", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseCiphertext(b)) }, out[0].Bytes(), []int{0, 32}, nil},
			{"Deck", func(b []byte) ([]byte, error) {
				d, err := crypto.ParseDeck(b)
				return d.Bytes(), err
			}, out.Bytes(), []int{0, 32, 64*n - 32}, nil},
			{"ShuffleProof", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseShuffleProof(b)) }, proof.Bytes(),
				[]int{0, 32 * n, 32 * (2*n - 1)}, []int{64 * n, 64*n + 32, 32 * (2*n + 5), 32 * (4*n + 4)}},
			{"Share", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseShare(b)) }, share.Bytes(), []int{0}, []int{32, 64}},
			{"Commitment", func(b []byte) ([]byte, error) {
				c, err := crypto.ParseCommitment(b)
				return c.Bytes(), err
			}, commit.Bytes(), nil, nil},
			{"Opening", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseOpening(b)) }, opening.Bytes(), nil, nil},
			{"RandomCommitment", func(b []byte) ([]byte, error) {
				c, err := crypto.ParseRandomCommitment(b)
				return c.Bytes(), err
			}, rc.Bytes(), nil, nil},
			{"RandomReveal", func(b []byte) ([]byte, error) {
				v, err := crypto.ParseRandomReveal(b)
				return v.Bytes(), err
			}, rv.Bytes(), nil, nil},
			{"SealedBox", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseSealedBox(b)) }, box.Bytes(), []int{0}, []int{32, 64}},
			{"Blame", func(b []byte) ([]byte, error) { return bytesOf(crypto.ParseBlame(b)) }, blame.Bytes(), []int{0}, []int{32, 64}},
		}
	})
	return wireTypes
}

func fromHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	// ℓ and p in little-endian.
	orderL     = fromHex("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	fieldP     = fromHex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")
	negativeS  = fromHex("0100000000000000000000000000000000000000000000000000000000000000")
	allOnes    = bytes.Repeat([]byte{0xff}, 32)
	fixedSizes = map[string]bool{"Commitment": true, "RandomCommitment": true, "RandomReveal": true,
		"Point": true, "PrivateKey": true, "PublicKey": true, "KeyProof": true, "Ciphertext": true,
		"Share": true, "Blame": true}
)

// plusL returns the 32-byte little-endian encoding of s + ℓ: the same scalar, written
// non-canonically.
func plusL(s []byte) []byte {
	le := func(b []byte) *big.Int {
		r := bytes.Clone(b)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return new(big.Int).SetBytes(r)
	}
	sum := new(big.Int).Add(le(s), le(orderL))
	out := make([]byte, 32)
	sum.FillBytes(out)
	for i, j := 0, 31; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Every decoder rejects every non-canonical variant of a valid encoding with
// ErrNonCanonical: truncated, trailing bytes, a scalar ≥ ℓ, a field element ≥ p, a
// negative or high-bit-set point encoding.
func TestNonCanonicalEncodings(t *testing.T) {
	for _, w := range wire(t) {
		if _, err := w.parse(w.sample); err != nil {
			t.Fatalf("%s: valid sample rejected: %v", w.name, err)
		}
		type variant struct {
			name string
			b    []byte
		}
		short := len(w.sample) - 1
		switch w.name { // variable-length types: shorter than the minimum
		case "Opening":
			short = 31
		case "SealedBox":
			short = 111
		}
		vs := []variant{
			{"empty", nil},
			{"truncated", w.sample[:short]},
		}
		if fixedSizes[w.name] || w.name == "ShuffleProof" || w.name == "Deck" {
			vs = append(vs, variant{"a trailing byte", append(bytes.Clone(w.sample), 0)})
			vs = append(vs, variant{"32 trailing bytes", append(bytes.Clone(w.sample), make([]byte, 32)...)})
		}
		put := func(off int, field []byte) []byte {
			b := bytes.Clone(w.sample)
			copy(b[off:], field)
			return b
		}
		for _, off := range w.points {
			orig := w.sample[off : off+32]
			high := bytes.Clone(orig)
			high[31] |= 0x80
			vs = append(vs,
				variant{"point with y = p", put(off, fieldP)},
				variant{"point with all bits set", put(off, allOnes)},
				variant{"negative point", put(off, negativeS)},
				variant{"point with the top bit set", put(off, high)})
		}
		for _, off := range w.scalars {
			vs = append(vs,
				variant{"scalar = ℓ", put(off, orderL)},
				variant{"scalar + ℓ", put(off, plusL(w.sample[off:off+32]))},
				variant{"scalar of all ones", put(off, allOnes)})
		}
		for _, v := range vs {
			if _, err := w.parse(v.b); !errors.Is(err, crypto.ErrNonCanonical) {
				t.Errorf("%s with %s: got %v, want ErrNonCanonical", w.name, v.name, err)
			}
		}
	}
}
