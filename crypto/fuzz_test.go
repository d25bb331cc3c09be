package crypto_test

import (
	"bytes"
	"errors"
	"testing"

	"corruption/crypto"
)

// Every decoder is fuzzed: it must never panic, must classify every rejection as
// ErrNonCanonical, and whatever it accepts must encode back to the identical bytes.

func fuzzDecoder(f *testing.F, names ...string) {
	var ws []wireType
	for _, w := range wire(f) {
		for _, n := range names {
			if w.name == n {
				ws = append(ws, w)
			}
		}
	}
	if len(ws) != len(names) {
		f.Fatalf("unknown decoder in %v", names)
	}
	for _, w := range ws {
		f.Add(w.sample)
		f.Add(w.sample[:len(w.sample)/2])
		f.Add(append(bytes.Clone(w.sample), 0))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, w := range ws {
			out, err := w.parse(b)
			if err != nil {
				if !errors.Is(err, crypto.ErrNonCanonical) {
					t.Fatalf("%s: rejection not classified as ErrNonCanonical: %v", w.name, err)
				}
				continue
			}
			if !bytes.Equal(out, b) {
				t.Fatalf("%s: accepted %x but encodes it as %x", w.name, b, out)
			}
		}
	})
}

func FuzzPoint(f *testing.F)        { fuzzDecoder(f, "Point") }
func FuzzPrivateKey(f *testing.F)   { fuzzDecoder(f, "PrivateKey") }
func FuzzPublicKey(f *testing.F)    { fuzzDecoder(f, "PublicKey") }
func FuzzKeyProof(f *testing.F)     { fuzzDecoder(f, "KeyProof") }
func FuzzCiphertext(f *testing.F)   { fuzzDecoder(f, "Ciphertext") }
func FuzzDeck(f *testing.F)         { fuzzDecoder(f, "Deck") }
func FuzzShuffleProof(f *testing.F) { fuzzDecoder(f, "ShuffleProof") }
func FuzzShare(f *testing.F)        { fuzzDecoder(f, "Share") }
func FuzzOpening(f *testing.F)      { fuzzDecoder(f, "Opening") }
func FuzzSealedBox(f *testing.F)    { fuzzDecoder(f, "SealedBox") }
func FuzzBlame(f *testing.F)        { fuzzDecoder(f, "Blame") }

// The three 32-byte hash values share one target.
func FuzzHashes(f *testing.F) { fuzzDecoder(f, "Commitment", "RandomCommitment", "RandomReveal") }

// Parsed garbage never makes a verifier panic, and never verifies.
func FuzzVerifyShuffle(f *testing.F) {
	tb := newTable(f, 2, "fuzz verify")
	rnd := crypto.NewDetReader("fuzz verify play")
	ctx := tb.ctx.WithStep("shuffle")
	in, _ := crypto.CanonicalDeck(4)
	out, proof, err := crypto.Shuffle(rnd, ctx, 0, tb.joint, in)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(out.Bytes(), proof.Bytes())
	f.Fuzz(func(t *testing.T, deckBytes, proofBytes []byte) {
		d, err1 := crypto.ParseDeck(deckBytes)
		p, err2 := crypto.ParseShuffleProof(proofBytes)
		if err1 != nil || err2 != nil {
			return
		}
		err := crypto.VerifyShuffle(ctx, 0, tb.joint, in, d, p)
		honest := bytes.Equal(deckBytes, out.Bytes()) && bytes.Equal(proofBytes, proof.Bytes())
		if (err == nil) != honest {
			t.Fatalf("VerifyShuffle = %v for honest = %v", err, honest)
		}
	})
}

// A parsed box never makes VerifySealedBox, Unseal or ProveBlame panic, and only the
// honest box passes its proof.
func FuzzVerifySealedBox(f *testing.F) {
	tb := newTable(f, 3, "fuzz box")
	ctx := tb.ctx.WithStep("peek answer")
	key := tb.keys[2].Public()
	box, err := crypto.Seal(crypto.NewDetReader("fuzz box play"), ctx, 0, 2, key, []byte("an answer"))
	if err != nil {
		f.Fatal(err)
	}
	honest := box.Bytes()
	f.Add(honest)
	f.Add(append(bytes.Clone(honest[:96]), 1, 2, 3))
	f.Fuzz(func(t *testing.T, b []byte) {
		box, err := crypto.ParseSealedBox(b)
		if err != nil {
			return
		}
		err = crypto.VerifySealedBox(ctx, 0, 2, key, box)
		if (err == nil) != bytes.Equal(b, honest) {
			t.Fatalf("VerifySealedBox = %v for honest = %v", err, bytes.Equal(b, honest))
		}
		_, errUnseal := crypto.Unseal(ctx, 0, 2, tb.keys[2], box)
		_, errBlame := crypto.ProveBlame(crypto.NewDetReader("fuzz blame"), ctx, 0, 2, tb.keys[2], box)
		if err != nil && (!errors.Is(errUnseal, crypto.ErrInvalidProof) || !errors.Is(errBlame, crypto.ErrInvalidProof)) {
			t.Fatalf("a box that fails its proof: Unseal %v, ProveBlame %v", errUnseal, errBlame)
		}
	})
}
