package crypto

import (
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"testing"

	"corruption/crypto/internal/group"
	"corruption/crypto/internal/rfc9496"
	"filippo.io/edwards25519"
)

func TestRFC9496GeneratorMultiples(t *testing.T) {
	acc := group.NewIdentityElement()
	for i, want := range rfc9496.Multiples {
		got := (&Point{e: *acc}).Bytes()
		if hex.EncodeToString(got) != want {
			t.Errorf("%d·G encodes to %x, want %s", i, got, want)
		}
		var p Point
		if _, err := p.SetBytes(rfc9496.Hex(t, want)); err != nil {
			t.Errorf("%d·G: decoding %s: %v", i, want, err)
		} else if p.e.Equal(acc) != 1 {
			t.Errorf("%d·G: decodes to another element", i)
		}
		acc.Add(acc, generator)
	}
}

func TestRFC9496InvalidEncodings(t *testing.T) {
	for i, enc := range rfc9496.Invalid {
		var p Point
		_, err := p.SetBytes(rfc9496.Hex(t, enc))
		if !errors.Is(err, ErrNonCanonical) {
			t.Errorf("invalid encoding %d (%s): got %v, want ErrNonCanonical", i, enc, err)
		}
	}
}

// RFC 9496 appendix A.3: element derivation from 64 uniform bytes. The RFC gives the
// inputs as hex (they are the SHA-512 images of the seven labels, which the test checks
// too), then four inputs that all map to one element: they differ only in the top bit
// of each 32-byte half, which MAP ignores, and in field elements written as their value
// plus p, which MAP reduces.
func TestRFC9496HashToGroup(t *testing.T) {
	vectors := []struct{ label, input, want string }{
		{"Ristretto is traditionally a short shot of espresso coffee",
			"5d1be09e3d0c82fc538112490e35701979d99e06ca3e2b5b54bffe8b4dc772c14d98b696a1bbfb5ca32c436cc61c16563790306c79eaca7705668b47dffe5bb6",
			"3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"},
		{"made with the normal amount of ground coffee but extracted with",
			"f116b34b8f17ceb56e8732a60d913dd10cce47a6d53bee9204be8b44f6678b270102a56902e2488c46120e9276cfe54638286b9e4b3cdb470b542d46c2068d38",
			"f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b"},
		{"about half the amount of water in the same amount of time",
			"8422e1bbdaab52938b81fd602effb6f89110e1e57208ad12d9ad767e2e25510c27140775f9337088b982d83d7fcf0b2fa1edffe51952cbe7365e95c86eaf325c",
			"006ccd2a9e6867e6a2c5cea83d3302cc9de128dd2a9a57dd8ee7b9d7ffe02826"},
		{"by using a finer grind.",
			"ac22415129b61427bf464e17baee8db65940c233b98afce8d17c57beeb7876c2150d15af1cb1fb824bbd14955f2b57d08d388aab431a391cfc33d5bafb5dbbaf",
			"f8f0c87cf237953c5890aec3998169005dae3eca1fbb04548c635953c817f92a"},
		{"This produces a concentrated shot of coffee per volume.",
			"165d697a1ef3d5cf3c38565beefcf88c0f282b8e7dbd28544c483432f1cec7675debea8ebb4e5fe7d6f6e5db15f15587ac4d4d4a1de7191e0c1ca6664abcc413",
			"ae81e7dedf20a497e10c304a765c1767a42d6e06029758d2d7e8ef7cc4c41179"},
		{"Just pulling a normal shot short will produce a weaker shot",
			"a836e6c9a9ca9f1e8d486273ad56a78c70cf18f0ce10abb1c7172ddd605d7fd2979854f47ae1ccf204a33102095b4200e5befc0465accc263175485f0e17ea5c",
			"e2705652ff9f5e44d3e841bf1c251cf7dddb77d140870d1ab2ed64f1a9ce8628"},
		{"and is not a Ristretto as some believe.",
			"2cdc11eaeb95daf01189417cdddbf95952993aa9cb9c640eb5058d09702c74622c9965a697a3b345ec24ee56335b556e677b30e6f90ac77d781064f866a3c982",
			"80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065"},
		// These all produce the same output.
		{"", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff1200000000000000000000000000000000000000000000000000000000000000",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
		{"", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
		{"", "0000000000000000000000000000000000000000000000000000000000000080ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
		{"", "00000000000000000000000000000000000000000000000000000000000000001200000000000000000000000000000000000000000000000000000000000080",
			"304282791023b73128d277bdcb5c7746ef2eac08dde9f2983379cb8e5ef0517f"},
	}
	for i, v := range vectors {
		in := [64]byte(rfc9496.Hex(t, v.input))
		if v.label != "" && sha512.Sum512([]byte(v.label)) != in {
			t.Errorf("A.3 vector %d: the input is not SHA-512(%q)", i, v.label)
		}
		var p Point
		fromUniformBytes(&p.e, &in)
		if got := hex.EncodeToString(p.Bytes()); got != v.want {
			t.Errorf("A.3 vector %d (%s): got %s, want %s", i, v.input, got, v.want)
		}
	}
}

// The eight points of order dividing 8 on edwards25519, in their Ed25519 encodings.
var lowOrder = []string{
	"0100000000000000000000000000000000000000000000000000000000000000",
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
	"0000000000000000000000000000000000000000000000000000000000000080",
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
	"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
	"0000000000000000000000000000000000000000000000000000000000000000",
	"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
}

// orderL reports whether ℓ·p is the identity element.
func orderL(p *group.Element) bool {
	// ℓ − 1 as a scalar, then add p once more: ℓ itself is not a canonical scalar.
	b, _ := hex.DecodeString("ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	lMinus1, _ := group.NewScalar().SetCanonicalBytes(b)
	var q group.Element
	q.ScalarMult(lMinus1, p)
	q.Add(&q, p)
	return q.Equal(identity) == 1
}

// A torsion-tagged point (P + T for a low-order T) cannot be sent: its Ed25519 encoding
// is rejected or decodes to an element of prime order, and the Ed25519 encodings of the
// low-order points themselves are rejected or decode to the identity. (That a tag in the
// 4-torsion is erased by the ristretto encoding is a property of the library's internal
// representation, which it does not expose; its own tests cover it.)
func TestTorsionTaggedPoints(t *testing.T) {
	rnd := NewDetReader("torsion")
	for i, enc := range lowOrder {
		var tp edwards25519.Point
		if _, err := tp.SetBytes(rfc9496.Hex(t, enc)); err != nil {
			t.Fatalf("low-order point %d: %v", i, err)
		}
		var lp Point
		if _, err := lp.SetBytes(rfc9496.Hex(t, enc)); err == nil && !lp.IsIdentity() {
			t.Errorf("low-order point %s decodes to a non-identity element", enc)
		}
		for j := 0; j < 8; j++ {
			var k [64]byte
			rnd.Read(k[:])
			s, _ := edwards25519.NewScalar().SetUniformBytes(k[:])
			var p, tagged edwards25519.Point
			p.ScalarBaseMult(s)
			tagged.Add(&p, &tp)
			var q Point
			if _, err := q.SetBytes(tagged.Bytes()); err == nil && !orderL(&q.e) {
				t.Errorf("torsion-tagged point decoded to an element of order ≠ ℓ")
			}
		}
	}
}

// Every accepted encoding is canonical and decodes to an element of order ℓ (or the
// identity); random strings mostly fail.
func TestDecodeRandomStrings(t *testing.T) {
	rnd := NewDetReader("random strings")
	accepted := 0
	for i := 0; i < 2000; i++ {
		var b [32]byte
		rnd.Read(b[:])
		var p Point
		if _, err := p.SetBytes(b[:]); err != nil {
			continue
		}
		accepted++
		if !bytes.Equal(p.Bytes(), b[:]) {
			t.Fatalf("%x decodes but re-encodes to %x", b, p.Bytes())
		}
		if !orderL(&p.e) {
			t.Fatalf("%x decodes to an element of order ≠ ℓ", b)
		}
	}
	if accepted == 0 || accepted > 600 {
		t.Errorf("%d of 2000 random strings decode; expected about 1/8 of them", accepted)
	}
}

func TestHashToPointDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range []*generatorList{cardPoints, shuffleBases, shuffleChainBase} {
		list, encs := g.grow(30)
		for i := range list {
			p := &Point{e: list[i]}
			enc := string(p.Bytes())
			if seen[enc] || p.IsIdentity() || !orderL(&p.e) {
				t.Errorf("%s %d: repeated, identity or of wrong order", g.label, i)
			}
			if enc != string(encs[i][:]) {
				t.Errorf("%s %d: the cached encoding differs", g.label, i)
			}
			seen[enc] = true
		}
	}
}
