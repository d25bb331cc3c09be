package crypto

import (
	"errors"
	"fmt"
	"io"

	"corruption/crypto/internal/group"
)

// Escrow shares a player's ElGamal private key x among the other players, so that t of them
// together (the table uses t = all the others) can rebuild it if the player leaves for good,
// and fewer learn nothing of it. It is Feldman's verifiable secret sharing:
//
//	f(z) = x + a_1·z + … + a_(t−1)·z^(t−1)            a random polynomial with f(0) = x
//	C_0 = x·G (the player's published key), C_j = a_j·G   public commitments
//	s_i = f(i+1)                                      the share of the player at seat i
//	check: s_i·G = Σ_j (i+1)^j · C_j
//
// Each share travels sealed to its recipient (a SealedBox, whose proof of knowledge of its
// ephemeral key every node checks), so the deal can sit in the public log. A recipient whose
// share does not check blames its box (ProveBlame): the blame reveals that box's key and nothing
// else — no decryption share of any other point, the lesson of the sealed answer's blame — and
// anyone then reads the share and checks it (VerifyEscrowBlame). Because C_0 must equal the key
// the player already published with a proof of knowledge, a deal of another secret is caught by
// every node at once (VerifyEscrowDeal).
//
// The coefficients come, like Shuffle's randomness, from 32 bytes of rand and a digest of the
// statement (context, seat, key): the same bytes for two tables give unrelated polynomials.
type EscrowDeal struct {
	commits []group.Element // C_0 … C_(t−1)
	boxes   []*SealedBox    // by seat; nil at the dealer's own seat
}

// escrowShareSize is the plaintext of a share's box: the scalar s_i.
const escrowShareSize = ScalarSize

// MaxEscrowSeats bounds the seats of a deal.
const MaxEscrowSeats = 16

// DealEscrow shares priv (the key of the player at seat) among the other seats of keys (every
// seat's published key, keys[seat] included), threshold t.
func DealEscrow(rand io.Reader, ctx Context, seat int, priv *PrivateKey, keys []*PublicKey, t int) (*EscrowDeal, error) {
	if err := checkEscrow(ctx, seat, keys, t); err != nil {
		return nil, err
	}
	if !keys[seat].Equal(priv.Public()) {
		return nil, fmt.Errorf("seat %d's key is not the key being escrowed", seat)
	}
	st := escrowTranscript("escrow randomness", ctx, seat, keys)
	stream, err := newDerivedStream(rand, "escrow", st.digest())
	if err != nil {
		return nil, err
	}
	coeffs := make([]group.Scalar, t)
	coeffs[0].Set(&priv.x)
	for j := 1; j < t; j++ {
		a, err := randomScalar(stream)
		if err != nil {
			return nil, err
		}
		coeffs[j].Set(a)
	}
	d := &EscrowDeal{commits: make([]group.Element, t), boxes: make([]*SealedBox, len(keys))}
	for j := range coeffs {
		d.commits[j].ScalarBaseMult(&coeffs[j])
	}
	for i := range keys {
		if i == seat {
			continue
		}
		s := evalPoly(coeffs, i+1)
		box, err := Seal(stream, ctx, seat, i, keys[i], s.Bytes())
		if err != nil {
			return nil, err
		}
		d.boxes[i] = box
	}
	return d, nil
}

func checkEscrow(ctx Context, seat int, keys []*PublicKey, t int) error {
	if err := ctx.check(seat); err != nil {
		return err
	}
	n := len(keys)
	if n != len(ctx.Roster) || n < 2 || n > MaxEscrowSeats {
		return fmt.Errorf("an escrow among %d keys for a roster of %d seats", n, len(ctx.Roster))
	}
	if t < 1 || t > n-1 {
		return fmt.Errorf("threshold %d is not 1 to %d", t, n-1)
	}
	return nil
}

func escrowTranscript(label string, ctx Context, seat int, keys []*PublicKey) *transcript {
	tr := newTranscript(label, ctx, seat)
	tr.uint(uint64(len(keys)))
	for _, k := range keys {
		tr.raw(k.enc[:])
	}
	return tr
}

// evalPoly is f(x) for the coefficients, lowest first (Horner).
func evalPoly(coeffs []group.Scalar, x int) *group.Scalar {
	xs := scalarOfInt(x)
	var acc group.Scalar
	for j := len(coeffs) - 1; j >= 0; j-- {
		acc.Multiply(&acc, xs)
		acc.Add(&acc, &coeffs[j])
	}
	return &acc
}

func scalarOfInt(v int) *group.Scalar {
	var b [ScalarSize]byte
	for i := 0; i < 8; i++ {
		b[i] = byte(uint64(v) >> (8 * i))
	}
	s, err := group.NewScalar().SetCanonicalBytes(b[:])
	if err != nil {
		panic(err) // a small integer is canonical
	}
	return s
}

// expected is Σ_j (i+1)^j·C_j: the point the share of seat i must be the discrete log of.
func (d *EscrowDeal) expected(i int) *group.Element {
	xs := scalarOfInt(i + 1)
	pow := group.NewScalar().Set(scalarOne)
	scalars := make([]*group.Scalar, len(d.commits))
	points := make([]*group.Element, len(d.commits))
	for j := range d.commits {
		scalars[j] = group.NewScalar().Set(pow)
		points[j] = &d.commits[j]
		pow.Multiply(pow, xs)
	}
	return group.NewIdentityElement().VarTimeMultiScalarMult(scalars, points)
}

// VerifyEscrowDeal checks a deal published by the player at seat: t commitments, the first of
// them its published key, and a box to every other seat whose proof verifies. A failure wraps
// ErrInvalidProof: the dealer cheats.
func VerifyEscrowDeal(ctx Context, seat int, keys []*PublicKey, t int, d *EscrowDeal) error {
	if err := checkEscrow(ctx, seat, keys, t); err != nil {
		return err
	}
	if len(d.commits) != t || len(d.boxes) != len(keys) {
		return fmt.Errorf("escrow of seat %d: %d commitments and %d boxes, want %d and %d: %w",
			seat, len(d.commits), len(d.boxes), t, len(keys), ErrInvalidProof)
	}
	if d.commits[0].Equal(&keys[seat].p.e) != 1 {
		return fmt.Errorf("escrow of seat %d shares another secret than its key: %w", seat, ErrInvalidProof)
	}
	for i, box := range d.boxes {
		switch {
		case i == seat && box != nil:
			return fmt.Errorf("escrow of seat %d seals a share to itself: %w", seat, ErrInvalidProof)
		case i != seat && box == nil:
			return fmt.Errorf("escrow of seat %d has no share for seat %d: %w", seat, i, ErrInvalidProof)
		case i != seat:
			if err := VerifySealedBox(ctx, seat, i, keys[i], box); err != nil {
				return fmt.Errorf("escrow of seat %d, share of seat %d: %w", seat, i, err)
			}
		}
	}
	return nil
}

// An EscrowShare is one recipient's share of a dealer's key: s = f(seat+1).
type EscrowShare struct {
	seat int
	s    group.Scalar
}

// Seat is the share's recipient.
func (sh *EscrowShare) Seat() int { return sh.seat }

// Bytes is the share's 32-byte encoding (keep it secret until the dealer leaves).
func (sh *EscrowShare) Bytes() []byte { return sh.s.Bytes() }

// ParseEscrowShare decodes the share of the recipient at seat.
func ParseEscrowShare(seat int, b []byte) (*EscrowShare, error) {
	d := decoder{b: b}
	sh := &EscrowShare{seat: seat}
	d.scalar(&sh.s, "escrow share")
	if err := d.finish("escrow share"); err != nil {
		return nil, err
	}
	return sh, nil
}

// OpenEscrowShare is the recipient's (seat to, holding priv) reading of its share of the deal
// of seat from. A share that does not check against the commitments wraps ErrInvalidProof (the
// recipient then blames the box: ProveBlame on EscrowBox); a box that does not open wraps
// ErrDecrypt (likewise).
func OpenEscrowShare(ctx Context, from, to int, priv *PrivateKey, d *EscrowDeal) (*EscrowShare, error) {
	box, err := d.box(to)
	if err != nil {
		return nil, err
	}
	msg, err := Unseal(ctx, from, to, priv, box)
	if err != nil {
		return nil, err
	}
	return d.checkShare(from, to, msg)
}

func (d *EscrowDeal) box(to int) (*SealedBox, error) {
	if to < 0 || to >= len(d.boxes) || d.boxes[to] == nil {
		return nil, fmt.Errorf("the deal has no share for seat %d", to)
	}
	return d.boxes[to], nil
}

// EscrowBox is the sealed box of seat to's share, for a blame.
func (d *EscrowDeal) EscrowBox(to int) (*SealedBox, error) { return d.box(to) }

func (d *EscrowDeal) checkShare(from, to int, msg []byte) (*EscrowShare, error) {
	if len(msg) != escrowShareSize {
		return nil, fmt.Errorf("escrow share from seat %d to seat %d is %d bytes: %w", from, to, len(msg), ErrInvalidProof)
	}
	sh, err := ParseEscrowShare(to, msg)
	if err != nil {
		return nil, fmt.Errorf("escrow share from seat %d to seat %d: %w", from, to, ErrInvalidProof)
	}
	if err := VerifyEscrowShare(d, from, sh); err != nil {
		return nil, err
	}
	return sh, nil
}

// VerifyEscrowShare checks a share (published at a departure, say) against the deal of seat
// from. A failure wraps ErrInvalidProof.
func VerifyEscrowShare(d *EscrowDeal, from int, sh *EscrowShare) error {
	if sh.seat < 0 || sh.seat >= len(d.boxes) || sh.seat == from {
		return fmt.Errorf("no share of seat %d in seat %d's escrow", sh.seat, from)
	}
	var got group.Element
	got.ScalarBaseMult(&sh.s)
	if got.Equal(d.expected(sh.seat)) != 1 {
		return fmt.Errorf("escrow share of seat %d does not match seat %d's commitments: %w", sh.seat, from, ErrInvalidProof)
	}
	return nil
}

// VerifyEscrowBlame judges a recipient's blame of its share's box: it returns nil when the
// blame is right (the box does not open, or holds a share that does not check: the dealer
// cheated), an error wrapping ErrInvalidProof when the blame's proof is false, and an error
// (not ErrInvalidProof) when the share checks (the blamer accused an honest deal).
func VerifyEscrowBlame(ctx Context, from, to int, recipient *PublicKey, d *EscrowDeal, b *Blame) error {
	box, err := d.box(to)
	if err != nil {
		return err
	}
	msg, err := VerifyBlame(ctx, from, to, recipient, box, b)
	switch {
	case errors.Is(err, ErrDecrypt):
		return nil
	case err != nil:
		return err
	}
	if _, err := d.checkShare(from, to, msg); err != nil {
		return nil
	}
	return fmt.Errorf("seat %d blamed seat %d's escrow share, which checks", to, from)
}

// RecoverKey rebuilds the key of the player at seat from t shares of its deal (Lagrange
// interpolation at zero) and checks it against the player's published key.
func RecoverKey(d *EscrowDeal, seat int, key *PublicKey, shares []*EscrowShare) (*PrivateKey, error) {
	t := len(d.commits)
	if len(shares) < t {
		return nil, fmt.Errorf("%d escrow shares of seat %d, %d needed", len(shares), seat, t)
	}
	shares = shares[:t]
	seen := map[int]bool{}
	for _, sh := range shares {
		if err := VerifyEscrowShare(d, seat, sh); err != nil {
			return nil, err
		}
		if seen[sh.seat] {
			return nil, fmt.Errorf("two escrow shares of seat %d", sh.seat)
		}
		seen[sh.seat] = true
	}
	var x group.Scalar
	for _, sh := range shares {
		// λ_i = Π_{j≠i} x_j / (x_j − x_i), with x = seat+1.
		num := group.NewScalar().Set(scalarOne)
		den := group.NewScalar().Set(scalarOne)
		xi := scalarOfInt(sh.seat + 1)
		for _, o := range shares {
			if o == sh {
				continue
			}
			xj := scalarOfInt(o.seat + 1)
			num.Multiply(num, xj)
			den.Multiply(den, group.NewScalar().Subtract(xj, xi))
		}
		lambda := num.Multiply(num, group.NewScalar().Invert(den))
		x.Add(&x, group.NewScalar().Multiply(lambda, &sh.s))
	}
	priv := newPrivateKey(&x)
	if !priv.Public().Equal(key) {
		return nil, fmt.Errorf("the escrow shares of seat %d rebuild another key: %w", seat, ErrInvalidProof)
	}
	return priv, nil
}

// Bytes is the deal's encoding: u8 t ‖ t × C_j ‖ u8 n ‖ n × (flag ‖ box of a share).
func (d *EscrowDeal) Bytes() []byte {
	b := []byte{byte(len(d.commits))}
	for j := range d.commits {
		b = append(b, d.commits[j].Bytes()...)
	}
	b = append(b, byte(len(d.boxes)))
	for _, box := range d.boxes {
		if box == nil {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = append(b, box.Bytes()...)
	}
	return b
}

// escrowBoxSize is the size of a share's box.
const escrowBoxSize = sealOverhead + escrowShareSize

// ParseEscrowDeal decodes a deal strictly.
func ParseEscrowDeal(b []byte) (*EscrowDeal, error) {
	d := decoder{b: b}
	t := int(d.byte("escrow: threshold"))
	if d.err == nil && (t < 1 || t >= MaxEscrowSeats) {
		return nil, fmt.Errorf("escrow: threshold %d: %w", t, ErrNonCanonical)
	}
	deal := &EscrowDeal{commits: make([]group.Element, t)}
	for j := 0; j < t && d.err == nil; j++ {
		var p Point
		d.point(&p, "escrow: commitment")
		deal.commits[j].Set(&p.e)
	}
	n := int(d.byte("escrow: seats"))
	if d.err == nil && (n < 2 || n > MaxEscrowSeats) {
		return nil, fmt.Errorf("escrow: %d seats: %w", n, ErrNonCanonical)
	}
	for i := 0; i < n && d.err == nil; i++ {
		switch d.byte("escrow: flag") {
		case 0:
			deal.boxes = append(deal.boxes, nil)
		case 1:
			raw := d.take(escrowBoxSize, "escrow: box")
			if d.err != nil {
				break
			}
			box, err := ParseSealedBox(raw)
			if err != nil {
				return nil, fmt.Errorf("escrow: share of seat %d: %w", i, err)
			}
			deal.boxes = append(deal.boxes, box)
		default:
			if d.err == nil {
				d.err = fmt.Errorf("escrow: flag is not 0 or 1: %w", ErrNonCanonical)
			}
		}
	}
	if err := d.finish("escrow"); err != nil {
		return nil, err
	}
	return deal, nil
}

// byte reads one byte.
func (d *decoder) byte(what string) byte {
	if b := d.take(1, what); b != nil {
		return b[0]
	}
	return 0
}
