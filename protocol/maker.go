package protocol

import (
	"fmt"

	"corruption/crypto"
	"corruption/engine/corruption"
)

// Writing the node's own entries. Every random choice comes from Self.rand with a label that
// names its purpose, so a restarted node rebuilds the same secrets.

// commit is the node's commitment to card at (round, pos), and its opening.
func (s *Self) commit(t *Table, round, pos int, card corruption.Card) (crypto.Commitment, *crypto.Opening, error) {
	return crypto.Commit(s.rand("card %d %d", round, pos), t.ctx.WithStep(stepCards), s.seat, round, pos, []byte(card.String()))
}

// cardBehind finds which card the node committed to at (round, pos): the one whose
// commitment, rebuilt from the seed, is c. CardUnknown if none (not written by this seed).
func (s *Self) cardBehind(t *Table, round, pos int, c crypto.Commitment) corruption.Card {
	for _, card := range append(corruption.Bribes[:], corruption.Characters[:]...) {
		if got, _, err := s.commit(t, round, pos, card); err == nil && got == c {
			return card
		}
	}
	return corruption.CardUnknown
}

// NextEntry builds the node's next entry when its seat is due: everything but the player's
// decisions is automatic; decide is asked for those (nil means the player has not decided
// yet, and NextEntry returns nil). It returns nil, nil when the seat is not due.
func (t *Table) NextEntry(decide func(corruption.View) (corruption.Move, bool)) (*Entry, error) {
	s := t.self
	if s == nil {
		return nil, fmt.Errorf("an observer writes no entries")
	}
	seat, kinds := t.Due()
	if seat != s.seat {
		return nil, nil
	}
	var kind Kind
	var body []byte
	var err error
	switch kinds[0] {
	case KindKey:
		kind = KindKey
		body, err = s.keyBody(t)
	case KindRandom:
		kind = KindRandom
		var v crypto.RandomReveal
		_, v, err = crypto.CommitRandom(s.rand("first player"), t.ctx.WithStep(stepFirst), s.seat)
		body = v.Bytes()
	case KindShuffle:
		kind = KindShuffle
		body, err = s.shuffleBody(t)
	case KindShares:
		kind = KindShares
		body, err = s.sharesBody(t)
	case KindAnswer:
		kind = KindAnswer
		body, err = s.answerBody(t)
	case KindReveal:
		kind = KindReveal
		body, err = s.revealBody(t)
	case KindSignOff:
		kind = KindSignOff
		d := t.game.Digest()
		body = d[:]
	default:
		if p := t.peek; p != nil && p.bad != nil {
			kind = KindBlame
			body, err = s.blameBody(t)
			break
		}
		m, ok := decide(t.game.View(s.seat))
		if !ok {
			return nil, nil
		}
		kind, body, err = s.moveBody(t, m)
	}
	if err != nil {
		return nil, err
	}
	e := &Entry{Table: t.id, Seq: t.Len(), Prev: t.head, Seat: s.seat, Kind: kind, Body: body}
	e.Sign(s.Identity)
	return e, nil
}

func (s *Self) keyBody(t *Table) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	proof, err := crypto.ProveKey(s.rand("key proof"), t.ctx.WithStep(stepKeys), s.seat, priv)
	if err != nil {
		return nil, err
	}
	c, _, err := crypto.CommitRandom(s.rand("first player"), t.ctx.WithStep(stepFirst), s.seat)
	if err != nil {
		return nil, err
	}
	return (&keyBody{proof: proof, commit: c}).marshal(), nil
}

func (s *Self) shuffleBody(t *Table) ([]byte, error) {
	deck, proof, err := crypto.Shuffle(s.rand("shuffle"), t.ctx.WithStep(stepShuffle), s.seat, t.joint, t.deck)
	if err != nil {
		return nil, err
	}
	return (&shuffleBody{deck: deck, proof: proof}).marshal(), nil
}

func (s *Self) sharesBody(t *Table) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	round := t.game.Round()
	ctx := t.ctx.WithStep(stepDeal(round))
	cards := t.dealt()
	shares := make([]*crypto.Share, len(cards))
	for k := range cards {
		shares[k], err = crypto.DecryptShare(s.rand("share %d %d", round, k), ctx, s.seat, priv, &cards[k])
		if err != nil {
			return nil, err
		}
	}
	return marshalShares(shares), nil
}

// opening rebuilds the opening of the node's own face-down card at index.
func (s *Self) opening(t *Table, index int) (*crypto.Opening, error) {
	p, ok := t.game.PlayAt(index)
	if !ok || p.Seat != s.seat || p.Card == corruption.CardUnknown {
		return nil, fmt.Errorf("card %d is not this node's known card", index)
	}
	_, o, err := s.commit(t, t.game.Round(), p.Pos, p.Card)
	return o, err
}

func (s *Self) revealBody(t *Table) ([]byte, error) {
	b := &revealBody{}
	for i := 1; i <= t.game.NumPlays(); i++ {
		if p, _ := t.game.PlayAt(i); p.Seat == s.seat && !p.Revealed {
			o, err := s.opening(t, i)
			if err != nil {
				return nil, err
			}
			b.indexes = append(b.indexes, i)
			b.openings = append(b.openings, o)
		}
	}
	return b.marshal(), nil
}

func (s *Self) answerBody(t *Table) ([]byte, error) {
	p := t.peek
	o, err := s.opening(t, p.index)
	if err != nil {
		return nil, err
	}
	ctx := t.ctx.WithStep(stepPeek(t.game.Round(), p.index))
	box, err := crypto.Seal(s.rand("answer %d %d %d", t.game.Round(), p.index, p.peeker), ctx, s.seat, p.peeker, t.pubs[p.peeker], padAnswer(o.Bytes()))
	if err != nil {
		return nil, err
	}
	return box.Bytes(), nil
}

func (s *Self) blameBody(t *Table) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	p := t.peek
	q, _ := t.game.PlayAt(p.index)
	ctx := t.ctx.WithStep(stepPeek(t.game.Round(), p.index))
	b, err := crypto.ProveBlame(s.rand("blame %d %d", t.game.Round(), p.index), ctx, q.Seat, p.peeker, priv, p.box)
	if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// moveBody turns a player's decision into an entry, after checking it with the engine (on a
// copy), so that the node never signs an illegal move of its own.
func (s *Self) moveBody(t *Table, m corruption.Move) (Kind, []byte, error) {
	m.Seat = s.seat
	trial := t.game.Clone()
	trial.OnEvent = nil
	if err := trial.Apply(m); err != nil {
		return 0, nil, fmt.Errorf("the player's move is illegal: %w", err)
	}
	switch m.Kind {
	case corruption.MoveFaceUp:
		return KindFaceUp, []byte{uint8(m.Positions)}, nil
	case corruption.MovePeek:
		return KindPeek, []byte{uint8(m.Index)}, nil
	case corruption.MoveAssign:
		return KindAward, (&awardBody{kind: m.Kind, arg: int(m.Contract)}).marshal(), nil
	case corruption.MoveKill, corruption.MoveRemove:
		return KindAward, (&awardBody{kind: m.Kind, arg: m.Index}).marshal(), nil
	case corruption.MovePass:
		return KindAward, (&awardBody{kind: m.Kind}).marshal(), nil
	case corruption.MovePlace:
		g := t.game
		pos := g.Placed(s.seat) + 1
		b := &placeBody{spot: m.Spot, faceUp: g.NextFaceUp(s.seat) && !m.Spot.IsSwiss(), card: m.Card}
		if !b.faceUp {
			c, _, err := s.commit(t, g.Round(), pos, m.Card)
			if err != nil {
				return 0, nil, err
			}
			b.commit, b.card = c, 0
		}
		return KindPlace, b.marshal(), nil
	}
	return 0, nil, fmt.Errorf("the player's move %s is not a decision it makes", m.Kind)
}

// answerSize is the size of every sealed answer's plaintext: the opening padded, so that the
// box's size says nothing of the card (a card's name is 2 to 8 bytes).
const answerSize = 64

// padAnswer is u8(len(opening)) ‖ opening ‖ zeros, answerSize bytes in all.
func padAnswer(opening []byte) []byte {
	b := make([]byte, answerSize)
	b[0] = byte(len(opening))
	copy(b[1:], opening)
	return b
}

// unpadAnswer reverses padAnswer, strictly.
func unpadAnswer(b []byte) ([]byte, error) {
	if len(b) != answerSize || int(b[0]) > answerSize-1 {
		return nil, fmt.Errorf("the answer is not a padded opening")
	}
	n := int(b[0])
	for _, z := range b[1+n:] {
		if z != 0 {
			return nil, fmt.Errorf("the answer's padding is not zero")
		}
	}
	return b[1 : 1+n], nil
}
