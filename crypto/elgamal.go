package crypto

import (
	"crypto/subtle"
	"fmt"
	"sync"

	"corruption/crypto/internal/group"
)

// MaxDeckSize bounds the decks (and so the shuffle proofs) this package accepts.
const MaxDeckSize = 1024

// A Ciphertext is an ElGamal encryption (A, B) = (r·G, M + r·Y) of a card point M under
// a public key Y (the table's joint key). Its zero value is not usable.
type Ciphertext struct {
	a, b Point
	enc  *[CiphertextSize]byte // the encoding of a ‖ b once known; never changed after
}

// CiphertextSize is the length of an encoded Ciphertext: A ‖ B.
const CiphertextSize = 2 * PointSize

// Bytes returns the 64-byte encoding A ‖ B of c.
func (c *Ciphertext) Bytes() []byte {
	return c.append(make([]byte, 0, CiphertextSize))
}

func (c *Ciphertext) append(b []byte) []byte {
	if c.enc != nil {
		return append(b, c.enc[:]...)
	}
	return appendPoint(appendPoint(b, &c.a.e), &c.b.e)
}

// fix records the encoding of c, which must not change afterwards.
func (c *Ciphertext) fix() {
	var enc [CiphertextSize]byte
	c.enc = (*[CiphertextSize]byte)(c.append(enc[:0]))
}

// Equal reports whether c and o are the same ciphertext.
func (c *Ciphertext) Equal(o *Ciphertext) bool { return c.a.Equal(&o.a) && c.b.Equal(&o.b) }

// ParseCiphertext decodes a 64-byte ciphertext. Either component may be the identity
// (the canonical deck has A = identity).
func ParseCiphertext(b []byte) (*Ciphertext, error) {
	d := decoder{b: b}
	c := &Ciphertext{}
	c.decode(&d, "ciphertext")
	if err := d.finish("ciphertext"); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Ciphertext) decode(d *decoder, what string) {
	in := d.b
	d.point(&c.a, what+" A")
	d.point(&c.b, what+" B")
	if d.err == nil {
		c.enc = (*[CiphertextSize]byte)(append([]byte(nil), in[:CiphertextSize]...))
	}
}

// A Deck is a sequence of ciphertexts, top card first.
type Deck []Ciphertext

// Bytes returns the encoding of d: its ciphertexts one after another, 64·len(d) bytes.
func (d Deck) Bytes() []byte {
	b := make([]byte, 0, CiphertextSize*len(d))
	for i := range d {
		b = d[i].append(b)
	}
	return b
}

// Equal reports whether d and o hold the same ciphertexts in the same order.
func (d Deck) Equal(o Deck) bool {
	if len(d) != len(o) {
		return false
	}
	for i := range d {
		if !d[i].Equal(&o[i]) {
			return false
		}
	}
	return true
}

// ParseDeck decodes a deck of 1 to MaxDeckSize ciphertexts.
func ParseDeck(b []byte) (Deck, error) {
	if len(b) == 0 || len(b)%CiphertextSize != 0 || len(b)/CiphertextSize > MaxDeckSize {
		return nil, fmt.Errorf("deck of %d bytes is not 1 to %d ciphertexts: %w", len(b), MaxDeckSize, ErrNonCanonical)
	}
	d := decoder{b: b}
	deck := make(Deck, len(b)/CiphertextSize)
	for i := range deck {
		deck[i].decode(&d, fmt.Sprintf("deck card %d", i))
	}
	if err := d.finish("deck"); err != nil {
		return nil, err
	}
	return deck, nil
}

func (d Deck) writeTo(tr *transcript) {
	tr.uint(uint64(len(d)))
	var buf [CiphertextSize]byte
	for i := range d {
		tr.raw(d[i].append(buf[:0]))
	}
}

// generatorList is a lazily grown, append-only list of hash-to-group elements and of
// their encodings.
type generatorList struct {
	label string
	mu    sync.Mutex
	list  []group.Element
	enc   [][PointSize]byte
}

// grow makes sure the first n elements exist and returns them with their encodings.
// The results must not be modified.
func (g *generatorList) grow(n int) ([]group.Element, [][PointSize]byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := len(g.list); i < n; i++ {
		var p group.Element
		hashToPoint(&p, g.label, uint64(i))
		g.list = append(g.list, p)
		g.enc = append(g.enc, [PointSize]byte(p.Bytes()))
	}
	return g.list[:n:n], g.enc[:n:n]
}

// first returns the first n elements. The result must not be modified.
func (g *generatorList) first(n int) []group.Element {
	list, _ := g.grow(n)
	return list
}

// encodings returns the encodings of the first n elements. The result must not be
// modified.
func (g *generatorList) encodings(n int) [][PointSize]byte {
	_, enc := g.grow(n)
	return enc
}

var (
	cardPoints       = &generatorList{label: "card"}
	shuffleBases     = &generatorList{label: "shuffle generator"}
	shuffleChainBase = &generatorList{label: "shuffle chain generator"}
)

// CardPoint returns the point M_i that stands for card i, for 0 ≤ i < MaxDeckSize:
// hash-to-group (RFC 9496 element derivation of SHA-512 of the label "card" and i), so
// nobody knows a discrete logarithm of a card point or a relation between two of them.
func CardPoint(i int) (*Point, error) {
	if i < 0 || i >= MaxDeckSize {
		return nil, fmt.Errorf("card %d is outside [0, %d)", i, MaxDeckSize)
	}
	p := &Point{}
	p.e.Set(&cardPoints.first(i + 1)[i])
	return p, nil
}

// CanonicalDeck returns the deck of cards 0..n-1 encrypted with randomness zero:
// (identity, M_i). Anyone can recompute it; the first shuffle starts from it.
func CanonicalDeck(n int) (Deck, error) {
	if n < 1 || n > MaxDeckSize {
		return nil, fmt.Errorf("deck of %d cards is not 1 to %d", n, MaxDeckSize)
	}
	cards := cardPoints.first(n)
	deck := make(Deck, n)
	for i := range deck {
		deck[i].a.e.Set(identity)
		deck[i].b.e.Set(&cards[i])
		deck[i].fix()
	}
	return deck, nil
}

// CanonicalCard returns card i encrypted with randomness zero: (identity, M_i), as in
// CanonicalDeck. A game builds decks of any cards from it.
func CanonicalCard(i int) (*Ciphertext, error) {
	if i < 0 || i >= MaxDeckSize {
		return nil, fmt.Errorf("card %d is outside [0, %d)", i, MaxDeckSize)
	}
	c := &Ciphertext{}
	c.a.e.Set(identity)
	c.b.e.Set(&cardPoints.first(i + 1)[i])
	c.fix()
	return c, nil
}

// DecodeCard returns the index i < n of the card point m. If m is none of the first n
// card points, the error wraps ErrNotACard: a player who shuffled or decrypted
// dishonestly, caught.
//
// m may be a card only its owner may see (DecryptPrivate), so DecodeCard takes the same
// time whichever card m is: it compares the encoding of m with every one of the n card
// encodings in constant time (crypto/subtle) and picks the index with constant-time
// selects, never stopping at the match.
func DecodeCard(m *Point, n int) (int, error) {
	return decodeCard(m, n, subtle.ConstantTimeCompare)
}

// decodeCard is DecodeCard with the comparison as a parameter, so that a test can count
// the comparisons; eq must return 1 for equal inputs and 0 otherwise, in constant time.
func decodeCard(m *Point, n int, eq func(a, b []byte) int) (int, error) {
	if n < 1 || n > MaxDeckSize {
		return 0, fmt.Errorf("deck of %d cards is not 1 to %d", n, MaxDeckSize)
	}
	enc := m.Bytes()
	cards := cardPoints.encodings(n)
	index, found := 0, 0
	for i := range cards {
		match := eq(enc, cards[i][:])
		index = subtle.ConstantTimeSelect(match, i, index)
		found |= match
	}
	if found == 0 {
		return 0, fmt.Errorf("point %x is none of the %d cards: %w", enc, n, ErrNotACard)
	}
	return index, nil
}
