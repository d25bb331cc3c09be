package protocol

import (
	"errors"
	"fmt"

	"corruption/crypto"
	"corruption/engine/corruption"
)

// The step labels that bind each proof to its place in the game.
const (
	stepKeys    = "keys"
	stepFirst   = "first player"
	stepShuffle = "shuffle"
	stepCards   = "cards" // commitments to face-down cards (bound to seat, round and position)
)

func stepDeal(round int) string        { return fmt.Sprintf("deal %d", round) }
func stepPeek(round, index int) string { return fmt.Sprintf("peek %d %d", round, index) }

// apply checks an entry's body against the table and applies it. An error names what the
// author did wrong.
func (t *Table) apply(e *Entry) error {
	switch e.Kind {
	case KindKey:
		return t.applyKey(e)
	case KindRandom:
		return t.applyRandom(e)
	case KindShuffle:
		return t.applyShuffle(e)
	case KindShares:
		return t.applyShares(e)
	case KindFaceUp:
		v, err := parseU8(e.Body, "faceup entry")
		if err != nil {
			return err
		}
		return t.play(corruption.Move{Kind: corruption.MoveFaceUp, Seat: e.Seat, Positions: corruption.Positions(v)})
	case KindPeek:
		i, err := parseU8(e.Body, "peek entry")
		if err != nil {
			return err
		}
		if err := t.play(corruption.Move{Kind: corruption.MovePeek, Seat: e.Seat, Index: i}); err != nil {
			return err
		}
		t.peek = &pendingPeek{peeker: e.Seat, index: i}
		return nil
	case KindAnswer:
		return t.applyAnswer(e)
	case KindBlame:
		return t.applyBlame(e)
	case KindPlace:
		return t.applyPlace(e)
	case KindReveal:
		return t.applyReveal(e)
	case KindAward:
		b, err := parseAwardBody(e.Body)
		if err != nil {
			return err
		}
		return t.play(b.move(e.Seat))
	case KindSignOff:
		d, err := parseFixed(e.Body, 32, "signoff entry")
		if err != nil {
			return err
		}
		if want := t.game.Digest(); string(d) != string(want[:]) {
			return fmt.Errorf("it signed off digest %x, but the game's digest is %x", d, want)
		}
		t.signoffs++
		if t.signoffs == len(t.keys) {
			t.stage = stageDone
		}
		return nil
	}
	return fmt.Errorf("unknown entry kind %s", e.Kind)
}

// play applies one engine move; the engine's refusal is the author's fault.
func (t *Table) play(m corruption.Move) error {
	if err := t.game.Apply(m); err != nil {
		return err
	}
	if t.game.Over() {
		t.stage = stageSignOff
	}
	return nil
}

func (t *Table) applyKey(e *Entry) error {
	b, err := parseKeyBody(e.Body)
	if err != nil {
		return err
	}
	if err := crypto.VerifyKey(t.ctx.WithStep(stepKeys), e.Seat, b.proof); err != nil {
		return fmt.Errorf("its key proof does not verify: %w", err)
	}
	t.proofs = append(t.proofs, b.proof)
	t.pubs = append(t.pubs, b.proof.PublicKey())
	t.commits = append(t.commits, b.commit)
	if len(t.proofs) == len(t.keys) {
		joint, err := crypto.JointKey(t.ctx.WithStep(stepKeys), t.proofs)
		if err != nil {
			return fmt.Errorf("the joint key: %w", err)
		}
		t.joint = joint
		t.stage = stageRandom
	}
	return nil
}

func (t *Table) applyRandom(e *Entry) error {
	v, err := crypto.ParseRandomReveal(e.Body)
	if err != nil {
		return fmt.Errorf("malformed random entry: %w", err)
	}
	ctx := t.ctx.WithStep(stepFirst)
	if err := crypto.VerifyReveal(ctx, e.Seat, t.commits[e.Seat], v); err != nil {
		return fmt.Errorf("its random reveal does not match its commitment: %w", err)
	}
	t.reveals = append(t.reveals, v)
	if len(t.reveals) < len(t.keys) {
		return nil
	}
	first, err := crypto.JointInt(ctx, t.reveals, len(t.keys))
	if err != nil {
		return err
	}
	opts := append([]corruption.Option{corruption.WithHiddenCards()}, t.opts...)
	t.game, err = corruption.New(t.g.EngineConfig(first), opts...)
	if err != nil {
		return err
	}
	t.stage = stageShuffle
	return nil
}

func (t *Table) applyShuffle(e *Entry) error {
	b, err := parseShuffleBody(e.Body)
	if err != nil {
		return err
	}
	if err := crypto.VerifyShuffle(t.ctx.WithStep(stepShuffle), e.Seat, t.joint, t.deck, b.deck, b.proof); err != nil {
		return fmt.Errorf("its shuffle proof does not verify: %w", err)
	}
	t.deck = b.deck
	t.shuffles++
	if t.shuffles == len(t.keys) {
		t.stage = stagePlay
	}
	return nil
}

// dealt is the slice of the encrypted deck dealt this round.
func (t *Table) dealt() crypto.Deck {
	r := t.game.Round()
	return t.deck[(r-1)*corruption.ContractsPerDeal : r*corruption.ContractsPerDeal]
}

func (t *Table) applyShares(e *Entry) error {
	shares, err := parseShares(e.Body)
	if err != nil {
		return err
	}
	ctx := t.ctx.WithStep(stepDeal(t.game.Round()))
	cards := t.dealt()
	for k, sh := range shares {
		if err := crypto.VerifyShare(ctx, e.Seat, t.pubs[e.Seat], &cards[k], sh); err != nil {
			return fmt.Errorf("its decryption share for contract %d of the deal does not verify: %w", k+1, err)
		}
	}
	t.shares = append(t.shares, shares)
	if len(t.shares) < len(t.keys) {
		return nil
	}
	var m corruption.Move
	m.Kind = corruption.MoveDeal
	for k := range cards {
		col := make([]*crypto.Share, len(t.shares))
		for seat := range t.shares {
			col[seat] = t.shares[seat][k]
		}
		i, err := crypto.DecodeCard(crypto.CombineShares(&cards[k], col), corruption.NumContracts)
		if err != nil {
			return fmt.Errorf("contract %d of the deal decrypts to no contract: %w", k+1, err)
		}
		m.Deal[k] = corruption.Contract(i)
	}
	t.shares = nil
	return t.play(m)
}

func (t *Table) applyPlace(e *Entry) error {
	b, err := parsePlaceBody(e.Body)
	if err != nil {
		return err
	}
	if p := t.peek; p != nil && p.box == nil {
		return errors.New("it placed a card before its peek was answered")
	}
	g := t.game
	pos := g.Placed(e.Seat) + 1
	wantUp := g.NextFaceUp(e.Seat) && !b.spot.IsSwiss()
	switch {
	case b.faceUp && !wantUp:
		return fmt.Errorf("it showed its card %d of round %d, which is played face down", pos, g.Round())
	case !b.faceUp && wantUp:
		return fmt.Errorf("it hid its card %d of round %d, which is played face up", pos, g.Round())
	}
	m := corruption.Move{Kind: corruption.MovePlace, Seat: e.Seat, Spot: b.spot, Card: b.card}
	if !b.faceUp {
		m.Card = corruption.CardUnknown
		if t.self != nil && t.self.seat == e.Seat {
			m.Card = t.self.cardBehind(t, g.Round(), pos, b.commit)
		}
	}
	index := g.NumPlays()
	if err := t.play(m); err != nil {
		return err
	}
	t.commitments[index] = b.commit
	t.peek = nil
	return nil
}

func (t *Table) applyReveal(e *Entry) error {
	b, err := parseRevealBody(e.Body)
	if err != nil {
		return err
	}
	g := t.game
	var want []int
	for i := 1; i <= g.NumPlays(); i++ {
		if p, _ := g.PlayAt(i); p.Seat == e.Seat && !p.Revealed {
			want = append(want, i)
		}
	}
	if fmt.Sprint(b.indexes) != fmt.Sprint(want) {
		return fmt.Errorf("it revealed cards %v, but its face-down cards are %v", b.indexes, want)
	}
	ctx := t.ctx.WithStep(stepCards)
	moves := make([]corruption.Move, len(want))
	for k, i := range want {
		p, _ := g.PlayAt(i)
		raw, err := crypto.VerifyOpening(ctx, e.Seat, g.Round(), p.Pos, t.commitments[i-1], b.openings[k])
		if err != nil {
			return fmt.Errorf("card %d: %w", i, err)
		}
		card, err := corruption.ParseCard(string(raw))
		if err != nil {
			return fmt.Errorf("card %d opens to no card: %w", i, err)
		}
		moves[k] = corruption.Move{Kind: corruption.MoveReveal, Seat: e.Seat, Index: i, Card: card}
	}
	// All or nothing: try the reveals on a copy first.
	trial := g.Clone()
	trial.OnEvent = nil
	for _, m := range moves {
		if err := trial.Apply(m); err != nil {
			return err
		}
	}
	for _, m := range moves {
		if err := t.play(m); err != nil {
			return err
		}
	}
	return nil
}

func (t *Table) applyAnswer(e *Entry) error {
	box, err := crypto.ParseSealedBox(e.Body)
	if err != nil {
		return fmt.Errorf("malformed answer entry: %w", err)
	}
	p := t.peek
	// Every node checks that the answerer knows the box's ephemeral secret: a box built on
	// another point (the A of an undealt card) would make the peeker's blame publish its
	// decryption share of that point. Such a box convicts its author at once; the peeker
	// publishes nothing.
	q, _ := t.game.PlayAt(p.index)
	ctx := t.ctx.WithStep(stepPeek(t.game.Round(), p.index))
	if err := crypto.VerifySealedBox(ctx, q.Seat, p.peeker, t.pubs[p.peeker], box); err != nil {
		return fmt.Errorf("its sealed answer to seat %d's peek at card %d: %w", p.peeker, p.index, err)
	}
	p.box = box
	if t.self != nil && t.self.seat == p.peeker {
		card, err := t.openAnswer(p)
		if err != nil {
			p.bad = err
		} else if err := t.game.Learn(p.index, card); err != nil {
			p.bad = err
		}
	}
	return nil
}

// openAnswer is the peeker's check of the answer to its peek: the box opens with its key, and
// holds an opening of the peeked card's commitment.
func (t *Table) openAnswer(p *pendingPeek) (corruption.Card, error) {
	priv, err := t.self.elgamalKey()
	if err != nil {
		return 0, err
	}
	q, _ := t.game.PlayAt(p.index)
	ctx := t.ctx.WithStep(stepPeek(t.game.Round(), p.index))
	msg, err := crypto.Unseal(ctx, q.Seat, p.peeker, priv, p.box)
	if err != nil {
		return 0, err
	}
	return t.checkAnswer(p, msg)
}

// checkAnswer checks that msg is an opening of the peeked card's commitment, and reads it.
func (t *Table) checkAnswer(p *pendingPeek, msg []byte) (corruption.Card, error) {
	q, _ := t.game.PlayAt(p.index)
	raw, err := unpadAnswer(msg)
	if err != nil {
		return 0, err
	}
	o, err := crypto.ParseOpening(raw)
	if err != nil {
		return 0, err
	}
	card, err := crypto.VerifyOpening(t.ctx.WithStep(stepCards), q.Seat, t.game.Round(), q.Pos, t.commitments[p.index-1], o)
	if err != nil {
		return 0, err
	}
	return corruption.ParseCard(string(card))
}

// applyBlame judges the peeker's claim that the answer to its peek lied. Either way the table
// halts: the blame convicts the answer's author, or the false blame its own.
func (t *Table) applyBlame(e *Entry) error {
	bl, err := crypto.ParseBlame(e.Body)
	if err != nil {
		return fmt.Errorf("malformed blame entry: %w", err)
	}
	p := t.peek
	q, _ := t.game.PlayAt(p.index)
	ctx := t.ctx.WithStep(stepPeek(t.game.Round(), p.index))
	msg, err := crypto.VerifyBlame(ctx, q.Seat, p.peeker, t.pubs[p.peeker], p.box, bl)
	switch {
	case errors.Is(err, crypto.ErrDecrypt):
		return t.convict(q.Seat, e, "its sealed answer to seat %d's peek at card %d does not decrypt", p.peeker, p.index)
	case err != nil:
		return fmt.Errorf("its blame of seat %d does not verify: %w", q.Seat, err)
	}
	if _, err := t.checkAnswer(p, msg); err != nil {
		return t.convict(q.Seat, e, "its answer to seat %d's peek at card %d is not the card it placed: %v", p.peeker, p.index, err)
	}
	return fmt.Errorf("it blamed seat %d's answer, which is honest", q.Seat)
}

// convict halts the table blaming seat for what entry e (another seat's) proves. The entry
// itself is good, and goes into the log as the proof.
func (t *Table) convict(seat int, e *Entry, format string, args ...any) error {
	t.verdict = &Verdict{Kind: VerdictCheat, Seq: e.Seq, Seat: seat, Reason: fmt.Sprintf(format, args...)}
	return nil
}
