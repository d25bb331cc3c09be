package crypto

import (
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"io"

	"corruption/crypto/internal/group"
)

// The shuffle proof is the proof of Terelius and Wikström ("Proofs of restricted
// shuffles", AFRICACRYPT 2010) in the form Haenni, Locher, Koenig and Dubuis give as
// GenShuffleProof / CheckShuffleProof in "Pseudo-code algorithms for verifiable
// re-encryption mix-nets" (FC 2017 workshops), written additively for ristretto255 and
// sent in (challenge, response) form. With independent generators h, h_1..h_n
// (hash-to-group, so nobody knows a relation between them):
//
//   - the prover commits to the permutation ψ column by column, c_ψ(i) = ρ_i·G + h_i;
//   - derives u_1..u_n by hashing the statement and c, sets u'_i = u_ψ(i);
//   - commits to a chain ĉ_0 = h, ĉ_i = r̂_i·G + u'_i·ĉ_(i-1), so ĉ_n commits to Πu_i;
//   - and proves, with one Fiat–Shamir challenge c, knowledge of the openings behind
//     t1: Σc_j − Σh_i = r̄·G                  (c commits to a matrix whose rows sum to 1)
//     t2: ĉ_n − (Πu_i)·h = r̂·G                 (the u'_i are a permutation of the u_i)
//     t3: Σu_j·c_j = r̃·G + Σu'_i·h_i           (the same u'_i as committed in c)
//     t4: Σu'_i·out_i = Σu_j·in_j + r̃'·(G, Y)  (outputs re-encrypt the permuted inputs)
//     t̂_i: ĉ_i = r̂_i·G + u'_i·ĉ_(i-1)
//
// The proof is computationally sound under the discrete logarithm assumption (in the
// random oracle model for Fiat–Shamir), needs no trusted setup and is honest-verifier
// zero knowledge, so it reveals nothing about ψ. For n cards it carries 2n points and
// 2n+5 scalars: 32·(4n+5) bytes, 3232 bytes for 24 cards.

// A ShuffleProof proves that a deck is a permutation and re-encryption of another.
type ShuffleProof struct {
	perm  []Point // c_j, the permutation commitment
	chain []Point // ĉ_1..ĉ_n
	// enc holds the encodings of perm ‖ chain, 64n bytes: the bytes a received proof was
	// parsed from, or those the prover encoded once. The transcript and Bytes read them,
	// so that no point of the proof is encoded again after it was decoded.
	enc    []byte
	c      group.Scalar
	s      [4]group.Scalar
	sHat   []group.Scalar
	sPrime []group.Scalar
}

// ShuffleProofSize returns the length of an encoded proof for a deck of n cards.
func ShuffleProofSize(n int) int { return 32 * (4*n + 5) }

// Shuffle permutes the deck in with a fresh random permutation, re-encrypts every card
// under the table's joint key, and proves that it did so, as the player at seat. The
// permutation and the re-encryption randomness are forgotten on return.
//
// Shuffle reads 32 bytes from rand and derives the permutation, the re-encryption
// scalars and the proof's secret scalars from them and the statement (ctx, seat, key,
// in), as described in derive.go: the same bytes used for another deck give an
// unrelated shuffle, and the same bytes for the same deck give the same output and proof.
func Shuffle(rand io.Reader, ctx Context, seat int, key *PublicKey, in Deck) (Deck, *ShuffleProof, error) {
	if err := ctx.check(seat); err != nil {
		return nil, nil, err
	}
	n := len(in)
	if n < 1 || n > MaxDeckSize {
		return nil, nil, fmt.Errorf("deck of %d cards is not 1 to %d", n, MaxDeckSize)
	}
	st := newTranscript("shuffle randomness", ctx, seat)
	st.raw(key.enc[:])
	in.writeTo(st)
	stream, err := newDerivedStream(rand, "shuffle", st.digest())
	if err != nil {
		return nil, nil, err
	}
	psi, err := randomPermutation(stream, n)
	if err != nil {
		return nil, nil, err
	}
	r := make([]group.Scalar, n)
	for i := range r {
		ri, err := randomScalar(stream)
		if err != nil {
			return nil, nil, err
		}
		r[i].Set(ri)
	}
	out, err := reencryptPermuted(key, in, psi, r)
	if err != nil {
		return nil, nil, err
	}
	p, err := proveShuffle(stream, ctx, seat, key, in, out, psi, r)
	if err != nil {
		return nil, nil, err
	}
	return out, p, nil
}

// reencryptPermuted returns out_i = in_ψ(i) + (r_i·G, r_i·Y). It reads in_ψ(i) by
// copying every input's encoding under a constant-time mask and decoding the one
// selected, so the memory access pattern does not depend on ψ.
func reencryptPermuted(key *PublicKey, in Deck, psi []int, r []group.Scalar) (Deck, error) {
	enc := make([][CiphertextSize]byte, len(in))
	for j := range in {
		in[j].append(enc[j][:0])
	}
	out := make(Deck, len(in))
	var t group.Element
	for i := range out {
		var sel [CiphertextSize]byte
		for j := range enc {
			subtle.ConstantTimeCopy(subtle.ConstantTimeEq(int32(j), int32(psi[i])), sel[:], enc[j][:])
		}
		d := decoder{b: sel[:]}
		d.point(&out[i].a, "shuffle input")
		d.point(&out[i].b, "shuffle input")
		if err := d.finish("shuffle input"); err != nil {
			return nil, err // unreachable: sel is the encoding of a ciphertext
		}
		out[i].a.e.Add(&out[i].a.e, t.ScalarBaseMult(&r[i]))
		out[i].b.e.Add(&out[i].b.e, t.ScalarMult(&r[i], &key.p.e))
		out[i].fix()
	}
	return out, nil
}

// proveShuffle proves that out_i = in_ψ(i) + (r_i·G, r_i·Y), drawing its secret scalars
// from rand (in Shuffle, the derived stream).
func proveShuffle(rand io.Reader, ctx Context, seat int, key *PublicKey, in, out Deck,
	psi []int, r []group.Scalar) (*ShuffleProof, error) {
	n := len(in)
	// The prover's secret scalars at once: ρ, r̂, ŵ, w' (n each) and w1..w4.
	buf := make([]byte, 64*(4*n+4))
	if _, err := io.ReadFull(rand, buf); err != nil {
		return nil, fmt.Errorf("failed to read randomness: %w", err)
	}
	next := func() group.Scalar {
		s := scalarFromUniform(buf[:64])
		buf = buf[64:]
		return *s
	}
	y := &key.p.e
	hEnc := shuffleBases.encodings(n)
	hs := shuffleBases.first(n)
	h := &shuffleChainBase.first(1)[0]
	var t group.Element

	// Commit to ψ column by column: c_j = ρ_j·G + h_ψ⁻¹(j), so c_ψ(i) = ρ_ψ(i)·G + h_i.
	// h_ψ⁻¹(j) is read with a constant-time selection among the encodings of all h_i.
	p := &ShuffleProof{perm: make([]Point, n), chain: make([]Point, n)}
	inv := invertPermutation(psi)
	rho := make([]group.Scalar, n)
	for j := range p.perm {
		rho[j] = next()
		var sel [PointSize]byte
		for i := range hEnc {
			subtle.ConstantTimeCopy(subtle.ConstantTimeEq(int32(i), int32(inv[j])), sel[:], hEnc[i][:])
		}
		if err := decodeElement(&t, sel[:]); err != nil {
			return nil, err // unreachable: sel is the encoding of a generator
		}
		p.perm[j].e.ScalarBaseMult(&rho[j])
		p.perm[j].e.Add(&p.perm[j].e, &t)
	}
	p.enc = make([]byte, 0, 2*n*PointSize)
	for j := range p.perm {
		p.enc = appendPoint(p.enc, &p.perm[j].e)
	}

	tr := shuffleTranscript(ctx, seat, key, in, out, p.enc)
	u := tr.challenges(n)
	uPrime := permuteScalars(u, psi)

	// The chain ĉ_i = r̂_i·G + u'_i·ĉ_(i-1), ĉ_0 = h.
	rHat := make([]group.Scalar, n)
	prev := h
	for i := range p.chain {
		rHat[i] = next()
		p.chain[i].e.MultiScalarMult([]*group.Scalar{&rHat[i], &uPrime[i]}, []*group.Element{generator, prev})
		prev = &p.chain[i].e
		p.enc = appendPoint(p.enc, &p.chain[i].e)
	}

	// The prover's commitments t.
	w := [4]group.Scalar{next(), next(), next(), next()}
	wHat := make([]group.Scalar, n)
	wPrime := make([]group.Scalar, n)
	for i := range wHat {
		wHat[i], wPrime[i] = next(), next()
	}
	negW4 := group.NewScalar().Negate(&w[3])
	sc := make([]*group.Scalar, n+1)
	pa := make([]*group.Element, n+1)
	pb := make([]*group.Element, n+1)
	ph := make([]*group.Element, n+1)
	sc[0], pa[0], pb[0], ph[0] = negW4, generator, y, generator
	for i := 0; i < n; i++ {
		sc[i+1], pa[i+1], pb[i+1], ph[i+1] = &wPrime[i], &out[i].a.e, &out[i].b.e, &hs[i]
	}
	var t1, t2, t3, t4a, t4b group.Element
	t1.ScalarBaseMult(&w[0])
	t2.ScalarBaseMult(&w[1])
	t4a.MultiScalarMult(sc, pa)
	t4b.MultiScalarMult(sc, pb)
	sc[0] = &w[2]
	t3.MultiScalarMult(sc, ph)
	p.writeChain(tr)
	for _, q := range []*group.Element{&t1, &t2, &t3, &t4a, &t4b} {
		tr.element(q)
	}
	prev = h
	for i := range wHat {
		t.MultiScalarMult([]*group.Scalar{&wHat[i], &wPrime[i]}, []*group.Element{generator, prev})
		tr.element(&t)
		prev = &p.chain[i].e
	}
	p.c.Set(tr.challenge())

	// Responses. v_i = Π_(k>i) u'_k, so ĉ_n = (Πu)·h + (Σ r̂_i·v_i)·G. The ρ are indexed
	// by column, so r̄ = Σρ_j and r̃ = Σρ_ψ(i)·u'_i = Σρ_j·u_j need no permutation.
	var rBar, rHatSum, rTilde, rPrime, v group.Scalar
	v.Set(scalarOne)
	for i := n - 1; i >= 0; i-- {
		rBar.Add(&rBar, &rho[i])
		multiplyAdd(&rHatSum, &rHat[i], &v, &rHatSum)
		multiplyAdd(&rTilde, &rho[i], &u[i], &rTilde)
		multiplyAdd(&rPrime, &r[i], &uPrime[i], &rPrime)
		v.Multiply(&v, &uPrime[i])
	}
	negC := group.NewScalar().Negate(&p.c)
	for k, secret := range []*group.Scalar{&rBar, &rHatSum, &rTilde, &rPrime} {
		multiplyAdd(&p.s[k], negC, secret, &w[k]) // s_k = w_k − c·secret
	}
	p.sHat = make([]group.Scalar, n)
	p.sPrime = make([]group.Scalar, n)
	for i := range p.sHat {
		multiplyAdd(&p.sHat[i], negC, &rHat[i], &wHat[i])
		multiplyAdd(&p.sPrime[i], negC, &uPrime[i], &wPrime[i])
	}
	return p, nil
}

// shuffleTranscript writes the statement of a shuffle and the permutation commitment, given
// by the encodings of its points (the first 32n bytes of ShuffleProof.enc): the same bytes
// as transcript.points.
func shuffleTranscript(ctx Context, seat int, key *PublicKey, in, out Deck, enc []byte) *transcript {
	n := len(in)
	tr := newTranscript("shuffle", ctx, seat)
	tr.raw(key.enc[:])
	in.writeTo(tr)
	out.writeTo(tr)
	tr.uint(uint64(n))
	tr.raw(enc[:n*PointSize])
	return tr
}

// writeChain writes the chain ĉ_1..ĉ_n to tr as transcript.points would, from enc.
func (p *ShuffleProof) writeChain(tr *transcript) {
	n := len(p.chain)
	tr.uint(uint64(n))
	tr.raw(p.enc[n*PointSize : 2*n*PointSize])
}

// VerifyShuffle checks that out is a permutation and re-encryption of in under key,
// made by the player at seat. Every node must verify each shuffle before the next
// player shuffles its output.
func VerifyShuffle(ctx Context, seat int, key *PublicKey, in, out Deck, p *ShuffleProof) error {
	if err := ctx.check(seat); err != nil {
		return err
	}
	n := len(in)
	if n < 1 || n > MaxDeckSize {
		return fmt.Errorf("deck of %d cards is not 1 to %d", n, MaxDeckSize)
	}
	if len(out) != n || len(p.perm) != n || len(p.chain) != n || len(p.sHat) != n || len(p.sPrime) != n {
		return fmt.Errorf("shuffle of seat %d: %d cards in, %d out, proof for %d: %w",
			seat, n, len(out), len(p.perm), ErrInvalidProof)
	}
	y := &key.p.e
	hs := shuffleBases.first(n)
	h := &shuffleChainBase.first(1)[0]
	tr := shuffleTranscript(ctx, seat, key, in, out, p.enc)
	u := tr.challenges(n)

	var prodU, t group.Scalar
	prodU.Set(scalarOne)
	cu := make([]group.Scalar, n) // c·u_i
	for i := range u {
		prodU.Multiply(&prodU, &u[i])
		cu[i].Multiply(&p.c, &u[i])
	}
	negS4 := group.NewScalar().Negate(&p.s[3])

	// t1 = c·(Σc_j − Σh_i) + s1·G
	var sum, t1, t2, t3, t4a, t4b group.Element
	sum.Set(identity)
	for i := range p.perm {
		sum.Add(&sum, &p.perm[i].e)
		sum.Subtract(&sum, &hs[i])
	}
	t1.VarTimeDoubleScalarBaseMult(&p.c, &sum, &p.s[0])
	// t2 = c·ĉ_n − c·Πu·h + s2·G
	t.Multiply(&p.c, &prodU)
	t.Negate(&t)
	t2.VarTimeMultiScalarMult([]*group.Scalar{&p.c, &t, &p.s[1]},
		[]*group.Element{&p.chain[n-1].e, h, generator})
	// t3 = Σ(c·u_j)·c_j + s3·G + Σs'_i·h_i
	// t4 = Σ(c·u_j)·in_j − s4·(G, Y) + Σs'_i·out_i
	sc := make([]*group.Scalar, 2*n+1)
	p3 := make([]*group.Element, 2*n+1)
	pa := make([]*group.Element, 2*n+1)
	pb := make([]*group.Element, 2*n+1)
	for i := 0; i < n; i++ {
		sc[i], sc[n+i] = &cu[i], &p.sPrime[i]
		p3[i], p3[n+i] = &p.perm[i].e, &hs[i]
		pa[i], pa[n+i] = &in[i].a.e, &out[i].a.e
		pb[i], pb[n+i] = &in[i].b.e, &out[i].b.e
	}
	sc[2*n], p3[2*n] = &p.s[2], generator
	t3.VarTimeMultiScalarMult(sc, p3)
	sc[2*n], pa[2*n], pb[2*n] = negS4, generator, y
	t4a.VarTimeMultiScalarMult(sc, pa)
	t4b.VarTimeMultiScalarMult(sc, pb)

	p.writeChain(tr)
	for _, q := range []*group.Element{&t1, &t2, &t3, &t4a, &t4b} {
		tr.element(q)
	}
	// t̂_i = c·ĉ_i + ŝ_i·G + s'_i·ĉ_(i-1)
	prev := h
	var th group.Element
	for i := 0; i < n; i++ {
		th.VarTimeMultiScalarMult([]*group.Scalar{&p.c, &p.sHat[i], &p.sPrime[i]},
			[]*group.Element{&p.chain[i].e, generator, prev})
		tr.element(&th)
		prev = &p.chain[i].e
	}
	if tr.challenge().Equal(&p.c) != 1 {
		return fmt.Errorf("shuffle proof of seat %d: %w", seat, ErrInvalidProof)
	}
	return nil
}

// Bytes returns the encoding of p: c_1..c_n ‖ ĉ_1..ĉ_n ‖ c ‖ s1..s4 ‖ ŝ_1..ŝ_n ‖
// s'_1..s'_n, ShuffleProofSize(n) bytes.
func (p *ShuffleProof) Bytes() []byte {
	b := make([]byte, 0, ShuffleProofSize(len(p.perm)))
	b = append(b, p.enc...)
	b = appendScalar(b, &p.c)
	for i := range p.s {
		b = appendScalar(b, &p.s[i])
	}
	for _, list := range [][]group.Scalar{p.sHat, p.sPrime} {
		for i := range list {
			b = appendScalar(b, &list[i])
		}
	}
	return b
}

// ParseShuffleProof decodes a proof for a deck of 1 to MaxDeckSize cards; the length
// gives the number of cards.
func ParseShuffleProof(b []byte) (*ShuffleProof, error) {
	k := len(b) / 32
	n := (k - 5) / 4
	if len(b)%32 != 0 || k < 9 || (k-5)%4 != 0 || n > MaxDeckSize {
		return nil, fmt.Errorf("shuffle proof of %d bytes is not 32·(4n+5) for 1 ≤ n ≤ %d: %w",
			len(b), MaxDeckSize, ErrNonCanonical)
	}
	d := decoder{b: b}
	p := &ShuffleProof{
		perm: make([]Point, n), chain: make([]Point, n),
		sHat: make([]group.Scalar, n), sPrime: make([]group.Scalar, n),
	}
	for i := range p.perm {
		d.point(&p.perm[i], "shuffle proof: permutation commitment")
	}
	for i := range p.chain {
		d.point(&p.chain[i], "shuffle proof: chain")
	}
	d.scalar(&p.c, "shuffle proof: challenge")
	for i := range p.s {
		d.scalar(&p.s[i], "shuffle proof: response")
	}
	for i := range p.sHat {
		d.scalar(&p.sHat[i], "shuffle proof: response")
	}
	for i := range p.sPrime {
		d.scalar(&p.sPrime[i], "shuffle proof: response")
	}
	if err := d.finish("shuffle proof"); err != nil {
		return nil, err
	}
	p.enc = append([]byte(nil), b[:2*n*PointSize]...)
	return p, nil
}

// randomPermutation draws a uniform permutation of 0..n-1 (Fisher–Yates). The swaps
// touch every slot below i, so the memory access pattern does not depend on it.
func randomPermutation(rand io.Reader, n int) ([]int, error) {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j, err := randomIndex(rand, i+1)
		if err != nil {
			return nil, err
		}
		pj, pi := 0, perm[i]
		for k := 0; k <= i; k++ {
			pj = subtle.ConstantTimeSelect(subtle.ConstantTimeEq(int32(k), int32(j)), perm[k], pj)
		}
		for k := 0; k <= i; k++ {
			perm[k] = subtle.ConstantTimeSelect(subtle.ConstantTimeEq(int32(k), int32(j)), pi, perm[k])
		}
		perm[i] = pj
	}
	return perm, nil
}

// randomIndex returns a uniform integer in [0, m) for 0 < m < 2^31 (Lemire's
// multiply-and-reject; the rejection depends on rejected draws only).
func randomIndex(rand io.Reader, m int) (int, error) {
	threshold := uint32(-m) % uint32(m) // 2^32 mod m
	var b [4]byte
	for {
		if _, err := io.ReadFull(rand, b[:]); err != nil {
			return 0, fmt.Errorf("failed to read randomness: %w", err)
		}
		prod := uint64(binary.BigEndian.Uint32(b[:])) * uint64(m)
		if uint32(prod) >= threshold {
			return int(prod >> 32), nil
		}
	}
}

// invertPermutation returns ψ⁻¹, writing every slot for every i, so that the memory
// access pattern does not depend on ψ.
func invertPermutation(psi []int) []int {
	inv := make([]int, len(psi))
	for i, v := range psi {
		for j := range inv {
			inv[j] = subtle.ConstantTimeSelect(subtle.ConstantTimeEq(int32(j), int32(v)), i, inv[j])
		}
	}
	return inv
}

// permuteScalars returns u'_i = u_ψ(i), gathering in constant time.
func permuteScalars(u []group.Scalar, psi []int) []group.Scalar {
	enc := make([][32]byte, len(u))
	for j := range u {
		copy(enc[j][:], u[j].Bytes())
	}
	out := make([]group.Scalar, len(u))
	for i := range out {
		var b [32]byte
		for j := range enc {
			subtle.ConstantTimeCopy(subtle.ConstantTimeEq(int32(j), int32(psi[i])), b[:], enc[j][:])
		}
		if _, err := out[i].SetCanonicalBytes(b[:]); err != nil {
			panic(err) // b is a canonical encoding of one of u
		}
	}
	return out
}
