package protocol

import (
	"bytes"
	"slices"

	"corruption/crypto"
	"corruption/engine/corruption"
	"corruption/protocol/internal/wire"
)

// The cheats at hidden values (adv_cheats_internal_test.go has the rest): openings to other
// values, commitments to cards the game refuses, lying answers and false blames, and the
// steering that gives them their chance.

// advOpening is the opening of the cheater's hidden value ref to value (its true nonce).
func advOpening(t *Table, ref int, value []byte) (*crypto.Opening, error) {
	_, o, err := crypto.Commit(t.self.rand("commit %d", ref), t.hiddenCtx(), t.self.seat, 0, ref, value)
	return o, err
}

// advOpenOther opens its first hidden value of the open entry to another value (the same
// nonce): a face-down card opened to another card, or a choice opened to another choice.
func advOpenOther(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	refs := pre.step.openRefs()
	b, err := parseOpenBody(e.Body, len(refs))
	if err != nil {
		return nil, err
	}
	real := pre.mine[refs[0]]
	other := []byte(advOtherCard(real).String())
	if pre.g.Game == "toy" {
		other = []byte{real[0] ^ 1}
	}
	if b.openings[0], err = advOpening(pre, refs[0], other); err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindOpen, b.marshal()), VerdictCheat, e.Seq), nil
}

// advCommitCheat commits face down, instead of the card its node placed, to a card chosen by
// choose (one the game must refuse when it is opened), carries on as if nothing happened
// (its node's table holds the forged commitment and the chosen card, and opens it with the
// others): the honest nodes must convict it at the opening.
func advCommitCheat(choose func(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool)) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		t := c.node.table
		switch {
		case c.pending == nil && c.state["placed"] == 0 && advFaceDown(c, e):
			g := t.game.(*corruption.Game).State()
			p, _ := g.PlayAt(g.NumPlays())
			card, ok := choose(c, g, p)
			if !ok {
				return advPass(e)
			}
			b, err := parseMoveBody(e.Body)
			if err != nil {
				return nil, err
			}
			ref := len(t.values) - 1
			if b.hidden[0], err = t.self.hide(t, ref, []byte(card.String())); err != nil {
				return nil, err
			}
			f := c.resign(e, KindMove, b.marshal())
			if err := c.patch(f); err != nil {
				return nil, err
			}
			t.values[ref].commit = b.hidden[0].commit
			t.mine[ref] = []byte(card.String())
			c.state["placed"]++
			c.pending = &advPending{ref: ref}
			return []advSend{advAll(f)}, nil
		case c.pending != nil && e.Kind == KindOpen:
			pre, err := c.before(e)
			if err != nil {
				return nil, err
			}
			if !slices.Contains(pre.step.openRefs(), c.pending.ref) {
				return advPass(e)
			}
			c.pending = nil
			c.play(&Verdict{Kind: VerdictCheat, Seq: e.Seq, Seat: e.Seat})
			return advPass(e)
		}
		return advPass(e)
	}
}

// advPlacedTwice: a card it already placed this round.
func advPlacedTwice(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool) {
	for i := 1; i < g.NumPlays(); i++ {
		q, _ := g.PlayAt(i)
		if q.Seat == c.seat() && q.Card != corruption.CardUnknown && q.Card != corruption.Reporter && q.Card != p.Card {
			return q.Card, true
		}
	}
	return 0, false
}

// advSwissCharacter: a character it holds, on the Swiss account it placed a bribe on.
func advSwissCharacter(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool) {
	if !p.Spot.IsSwiss() {
		return 0, false
	}
	for _, card := range g.Hand(c.seat()) {
		if card.IsCharacter() {
			return card, true
		}
	}
	return 0, false
}

// advUsedEarlier: a district attorney or hit man it played in an earlier round.
func advUsedEarlier(c *advCheater, g *corruption.State, p corruption.Play) (corruption.Card, bool) {
	if g.Round() < 2 {
		return 0, false
	}
	var this [3]int
	for i := 1; i <= g.NumPlays(); i++ {
		if q, _ := g.PlayAt(i); q.Seat == c.seat() && q.Card.IsCharacter() {
			this[q.Card-corruption.DA]++
		}
	}
	da, _, hit := g.CharactersLeft(c.seat())
	switch {
	case da == 0 && this[0] == 0:
		return corruption.DA, true
	case hit == 0 && this[2] == 0:
		return corruption.HitMan, true
	}
	return 0, false
}

type advSteer = func(g *corruption.Game, seat int) (corruption.Move, bool)

// advSteerSwiss has the cheater put a bribe on a Swiss account whenever it holds a character.
func advSteerSwiss(*advCheater) advSteer {
	return func(g *corruption.Game, seat int) (corruption.Move, bool) {
		v := g.View(seat)
		if d := v.Next(); d.Kind != corruption.DecidePlace || d.Seat != seat {
			return corruption.Move{}, false
		}
		hand := v.Hand()
		if !slices.ContainsFunc(hand, corruption.Card.IsCharacter) {
			return corruption.Move{}, false
		}
		for _, card := range hand {
			for b := corruption.Body(0); b < corruption.NumBodies; b++ {
				if card.IsBribe() && v.CanPlay(card, corruption.SwissSpot(b)) == nil {
					return corruption.Move{Kind: corruption.MovePlace, Seat: seat, Card: card, Spot: corruption.SwissSpot(b)}, true
				}
			}
		}
		return corruption.Move{}, false
	}
}

// advSteerCharacters has the cheater play its district attorney and hit man in round 1.
func advSteerCharacters(*advCheater) advSteer {
	return func(g *corruption.Game, seat int) (corruption.Move, bool) {
		v := g.View(seat)
		if d := v.Next(); d.Kind != corruption.DecidePlace || d.Seat != seat || v.Round() != 1 {
			return corruption.Move{}, false
		}
		for _, card := range []corruption.Card{corruption.DA, corruption.HitMan} {
			for _, ct := range v.Table() {
				if v.CanPlay(card, corruption.ContractSpot(ct)) == nil {
					return corruption.Move{Kind: corruption.MovePlace, Seat: seat, Card: card, Spot: corruption.ContractSpot(ct)}, true
				}
			}
		}
		return corruption.Move{}, false
	}
}

// advPeekAt has players spend their peeks on the face-down cards of the seat whose says (any
// seat's when it says -1).
func advPeekAt(whose func() int) advSteer {
	return func(g *corruption.Game, seat int) (corruption.Move, bool) {
		v := g.View(seat)
		if d := v.Next(); d.Kind != corruption.DecidePlace || d.Seat != seat || !d.CanPeek {
			return corruption.Move{}, false
		}
		for _, i := range v.Peekable() {
			if p, ok := v.Play(i); ok && (whose() < 0 || p.Seat == whose()) {
				return corruption.Move{Kind: corruption.MovePeek, Seat: seat, Index: i}, true
			}
		}
		return corruption.Move{}, false
	}
}

// The ways a peeked card's owner can lie in its sealed answer.
const (
	advAnswerLie     = iota // a well-formed box holding the opening of another card: the peeker blames
	advAnswerGarbage        // a box changed after it was sealed: its proof fails, convicted at once
	advAnswerOracle         // a box built on the A of an undealt contract, with garbage in it
)

// advLyingAnswer answers a peek with the opening of another card, a box that was changed, or
// a box built to make the peeker's blame a decryption oracle.
func advLyingAnswer(mode int) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		body := bytes.Clone(e.Body)
		convicted := e.Seq // the answer itself convicts its author
		pre, err := c.before(e)
		if err != nil {
			return nil, err
		}
		st := &pre.step
		switch mode {
		case advAnswerGarbage:
			body[len(body)-1] ^= 1
		case advAnswerOracle:
			// The attack of the outside review: were the peeker to blame this box, its blame
			// would publish x·A, its decryption share of a contract never dealt.
			undealt := pre.deck[0][len(pre.deck[0])-1].Bytes()[:crypto.PointSize]
			c.mu.Lock()
			c.oracleA = append(c.oracleA, undealt)
			c.mu.Unlock()
			body = append(bytes.Clone(undealt), make([]byte, 2*crypto.ScalarSize)...) // a "proof" of zeros
			body = append(body, bytes.Repeat([]byte{0x5a}, len(e.Body)-len(body))...)
		default:
			ref := st.Refs[0]
			o, err := advOpening(pre, ref, []byte(advOtherCard(pre.mine[ref]).String()))
			if err != nil {
				return nil, err
			}
			box, err := crypto.Seal(advRand(3, "lie"), pre.stepCtx(), e.Seat, st.To, pre.pubs[st.To], padAnswer(o.Bytes()))
			if err != nil {
				return nil, err
			}
			body = box.Bytes()
			convicted = e.Seq + 1 // by the peeker's blame
		}
		f := c.resign(e, KindAnswer, body)
		if err := c.patch(f); err != nil {
			return nil, err
		}
		if box, err := crypto.ParseSealedBox(body); err == nil && c.node.table.answer != nil {
			c.node.table.answer.box = box
		}
		c.play(&Verdict{Kind: VerdictCheat, Seq: convicted, Seat: e.Seat})
		return []advSend{advAll(f)}, nil
	}
}

// advFalseBlame: the cheater, having peeked and got an honest answer, blames it instead of
// placing its card.
func advFalseBlame(c *advCheater, e *Entry) ([]advSend, error) {
	if e.Kind != KindMove || c.state["blamed"] > 0 || c.node.table.entries[e.Seq-1].Kind != KindAnswer {
		return advPass(e)
	}
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	if pre.answer == nil || pre.answer.to != e.Seat {
		return advPass(e)
	}
	c.state["blamed"]++
	body, err := pre.self.blameBody(pre)
	if err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindBlame, body), VerdictCheat, e.Seq), nil
}

// advSilent stops answering at its entry: it publishes and serves nothing from there on.
func advSilent(c *advCheater, e *Entry) ([]advSend, error) { return c.advDropped(e, nil), nil }

// advPoisonSync is an otherwise honest seat that claims a longer log than it has and answers
// every fetch with an entry that blames nobody (unsigned, off the chain) at the asked seq,
// followed by one beyond it. (Signed, the first would prove an equivocation.)
func advPoisonSync(c *advCheater) {
	c.heads = func(h *head) { h.len++ }
	c.poison = func(req []byte, batch []*Entry) []*Entry {
		r := wire.Reader{B: req}
		r.U8()
		var id [32]byte
		r.Fixed(id[:])
		from := r.U64()
		x := &Entry{Table: id, Seq: from, Seat: c.seat(), Kind: KindMove, Body: []byte{0, 0, 0, 1, 3, 0}}
		x.Prev[0] = 1
		y := &Entry{Table: id, Seq: from + 1, Prev: x.Hash(), Seat: c.seat(), Kind: KindMove, Body: []byte{0, 0, 0, 1, 3, 0}}
		c.play(nil)
		return []*Entry{x, y}
	}
}
