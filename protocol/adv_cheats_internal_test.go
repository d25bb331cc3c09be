package protocol

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"time"

	"corruption/crypto"
	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/protocol/memnet"
)

// The cheats the harness plays (adv_harness_internal_test.go): what the cheater sends in place
// of its node's entry, and the verdict the honest nodes must reach.

type advForge = func(c *advCheater, e *Entry) ([]advSend, error)

func advPass(e *Entry) ([]advSend, error) { return []advSend{advAll(e)}, nil }

// advFirst plays cheat on the cheater's first entry for which when holds; every other entry
// goes out unchanged.
func advFirst(when func(c *advCheater, e *Entry) bool, cheat advForge) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		if c.state["first"] > 0 || !when(c, e) {
			return advPass(e)
		}
		c.state["first"]++
		return cheat(c, e)
	}
}

func advKind(k Kind) func(*advCheater, *Entry) bool {
	return func(_ *advCheater, e *Entry) bool { return e.Kind == k }
}

// The seat order is drawn by the n entries after the keys (and the deals, at an escrow
// table), in roster order: advOrderEnd is the last of them.

// advGameRandom holds for a random reveal of one of the game's draws (not the seat order's).
func advGameRandom(c *advCheater, e *Entry) bool {
	return e.Kind == KindRandom && e.Seq > advOrderEnd(c)
}

// advLastOrderReveal holds for the last reveal of the seat order's draw, the one that draws it.
func advLastOrderReveal(c *advCheater, e *Entry) bool {
	return e.Kind == KindRandom && e.Seq == advOrderEnd(c)
}

// advFaceDown holds for a move with a hidden value (a face-down placement).
func advFaceDown(_ *advCheater, e *Entry) bool {
	b, err := parseMoveBody(e.Body)
	return e.Kind == KindMove && err == nil && len(b.hidden) == 1
}

// advOtherCard is a card other than the one named by v.
func advOtherCard(v []byte) corruption.Card {
	if string(v) == corruption.Bribe1000.String() {
		return corruption.Bribe2000
	}
	return corruption.Bribe1000
}

// advReplace sends f instead of e and serves it too; the honest nodes must convict the
// cheater at entry seq.
func (c *advCheater) advReplace(e, f *Entry, kind VerdictKind, seq uint64) []advSend {
	c.substitute(f)
	c.play(&Verdict{Kind: kind, Seq: seq, Seat: e.Seat})
	return []advSend{advAll(f)}
}

// advDropped sends f instead of e, an entry that blames nobody, and goes silent: the honest
// nodes must end the table as abandoned by the cheater at e's place.
func (c *advCheater) advDropped(e, f *Entry) []advSend {
	c.play(&Verdict{Kind: VerdictAbandoned, Seq: e.Seq, Seat: e.Seat})
	c.silence(e.Seq, f)
	if f == nil {
		return nil
	}
	return []advSend{advAll(f)}
}

func advEquivocateBroadcast(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	deck, proof, err := crypto.Shuffle(advRand(e.Seq, "equivocation"), pre.stepCtx(), e.Seat, pre.joint, pre.deck[pre.step.Deck])
	if err != nil {
		return nil, err
	}
	f := c.resign(e, KindShuffle, (&shuffleBody{deck: deck, proof: proof}).marshal())
	c.play(&Verdict{Kind: VerdictEquivocation, Seq: e.Seq, Seat: e.Seat})
	return []advSend{advAll(e), advAll(f)}, nil // both valid: a proof of equivocation
}

// advEquivocateSplit sends its real face-down placement to half the honest nodes and a
// different, equally valid one (a commitment to another card) to the other half, and serves
// each half its own version.
func advEquivocateSplit(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	b, err := parseMoveBody(e.Body)
	if err != nil {
		return nil, err
	}
	ref := len(pre.values)
	real := c.node.table.mine[ref]
	if b.hidden[0], err = pre.self.hide(pre, ref, []byte(advOtherCard(real).String())); err != nil {
		return nil, err
	}
	f := c.resign(e, KindMove, b.marshal())
	var a, other []string
	for node := range pre.keys {
		if node == c.idx {
			continue
		}
		if id := fmt.Sprintf("n%d", node); len(a) <= len(other) {
			a = append(a, id)
		} else {
			other = append(other, id)
		}
	}
	c.mu.Lock()
	for _, id := range other {
		c.subTo[id] = map[uint64]*Entry{e.Seq: f}
	}
	c.mu.Unlock()
	c.play(&Verdict{Kind: VerdictEquivocation, Seq: e.Seq, Seat: e.Seat})
	return []advSend{{to: a, data: advAll(e).data}, {to: other, data: advAll(f).data}}, nil
}

func advForgedSig(c *advCheater, e *Entry) ([]advSend, error) {
	f := *e
	_, other, _ := ed25519.GenerateKey(advRand(e.Seq, "forger"))
	f.Sign(other) // the right bytes, signed by a key that is not the seat's
	return c.advDropped(e, &f), nil
}

func advMissingSig(c *advCheater, e *Entry) ([]advSend, error) {
	f := *e
	f.Sig = [64]byte{}
	return c.advDropped(e, &f), nil
}

// advImpersonate follows each of the cheater's entries with one for the next seat's turn,
// signed by the cheater in that seat's name.
func advImpersonate(c *advCheater, e *Entry) ([]advSend, error) {
	seat, kinds := c.node.table.Due()
	if seat < 0 || seat == c.seat() {
		return advPass(e)
	}
	f := &Entry{Table: e.Table, Seq: e.Seq + 1, Prev: e.Hash(), Seat: seat, Kind: kinds[0], Body: e.Body}
	f.Sign(c.key)
	c.play(nil)
	return []advSend{advAll(e), advAll(f)}, nil
}

// advOutOfTurn follows each of the cheater's entries with another, validly signed by the
// cheater, when another seat is due.
func advOutOfTurn(c *advCheater, e *Entry) ([]advSend, error) {
	seat, _ := c.node.table.Due()
	if seat < 0 || seat == c.seat() {
		return advPass(e)
	}
	f := &Entry{Table: e.Table, Seq: e.Seq + 1, Prev: e.Hash(), Seat: c.seat(), Kind: e.Kind, Body: e.Body}
	f.Sign(c.key)
	c.play(nil)
	return []advSend{advAll(e), advAll(f)}, nil
}

// advReplayOther sends, instead of its key entry, its key entry at another table of the same
// players (the cheater is node 0, first in the roster, and writes both geneses), byte for byte.
func advReplayOther(c *advCheater, e *Entry) ([]advSend, error) {
	t := c.node.table
	g := *t.g
	g.Roster = append([]Member(nil), t.g.Roster...)
	gen, err := NewGenesis(advRand(1, "other table"), c.key, &g)
	if err != nil {
		return nil, err
	}
	other, err := NewTable(gen, NewSelf(c.key, c.node.self.Seed), engine.Options{})
	if err != nil {
		return nil, err
	}
	f, err := other.NextEntry(engine.Action{})
	if err != nil || f.Seq != e.Seq || f.Kind != e.Kind {
		return nil, fmt.Errorf("the other table's key entry: %v, %v", f, err)
	}
	return c.advDropped(e, f), nil
}

func advShuffleChange(change func(crypto.Deck)) advForge {
	return func(c *advCheater, e *Entry) ([]advSend, error) {
		b, err := parseShuffleBody(e.Body, len(c.node.table.deck[c.node.table.step.Deck]))
		if err != nil {
			return nil, err
		}
		change(b.deck)
		return c.advReplace(e, c.resign(e, KindShuffle, b.marshal()), VerdictCheat, e.Seq), nil
	}
}

// advShuffleOtherTable proves its shuffle, of this very deck under this joint key, for
// another table id: the best a replay of another table's shuffle proof could be.
func advShuffleOtherTable(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	ctx := pre.stepCtx()
	ctx.Table = bytes.Repeat([]byte{0x5a}, 32)
	deck, proof, err := crypto.Shuffle(advRand(2, "other table"), ctx, e.Seat, pre.joint, pre.deck[pre.step.Deck])
	if err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindShuffle, (&shuffleBody{deck: deck, proof: proof}).marshal()), VerdictCheat, e.Seq), nil
}

// advWrongShare replaces one decryption share by another point (which would decrypt the
// card to something else), keeping its proof.
func advWrongShare(c *advCheater, e *Entry) ([]advSend, error) {
	shares, err := parseShares(e.Body, int(e.Body[0])<<8|int(e.Body[1]))
	if err != nil {
		return nil, err
	}
	pt, err := crypto.CardPoint(3)
	if err != nil {
		return nil, err
	}
	k := min(2, len(shares)-1)
	raw := shares[k].Bytes()
	copy(raw, pt.Bytes())
	if shares[k], err = crypto.ParseShare(raw); err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindShares, marshalShares(shares)), VerdictCheat, e.Seq), nil
}

// advShareToOne sends its wrong share to one honest node only and goes silent, and the
// network loses everything for a moment just then (a burst of loss): the one node that saw
// the proof must still get it to the others.
func advShareToOne(c *advCheater, e *Entry) ([]advSend, error) {
	sends, err := advWrongShare(c, e)
	if err != nil {
		return nil, err
	}
	to := "n0"
	if c.idx == 0 {
		to = "n1"
	}
	c.send(context.Background(), advSend{to: []string{to}, data: sends[0].data})
	c.net.SetFaults(memnet.Faults{Drop: 1})
	c.mu.Lock()
	c.timers = append(c.timers, time.AfterFunc(300*time.Millisecond, func() { c.net.SetFaults(memnet.Faults{}) }))
	c.mu.Unlock()
	c.silence(e.Seq, nil)
	return nil, nil
}

// advRandomOffChain reveals 32 bytes that do not follow its chain.
func advRandomOffChain(c *advCheater, e *Entry) ([]advSend, error) {
	body := make([]byte, crypto.RandomSize)
	advRand(e.Seq, "off the chain").Read(body)
	return c.advReplace(e, c.resign(e, KindRandom, body), VerdictCheat, e.Seq), nil
}
