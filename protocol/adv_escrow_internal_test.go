package protocol

import (
	"fmt"

	"corruption/crypto"
)

// The escrow's cheats, played live by the harness (adv_scenarios_internal_test.go): a dealer
// that seals a bad share to one seat, deals another secret than its key, or stays silent when
// its deal is due, and a seat that complains of an honest share.

// advOrderEnd is the seq of the last reveal of the seat order's draw: after the keys (and, at
// an escrow table, the deals), one a seat.
func advOrderEnd(c *advCheater) uint64 {
	n := uint64(c.node.table.Seats())
	if c.node.table.g.Escrow {
		return 3 * n
	}
	return 2 * n
}

// advOrderReveal holds for a reveal of the seat order's draw.
func advOrderReveal(c *advCheater, e *Entry) bool {
	return e.Kind == KindRandom && e.Seq <= advOrderEnd(c)
}

// advEscrowVictim is the seat a cheating dealer cheats: the next in the roster.
func advEscrowVictim(c *advCheater, e *Entry) int { return (e.Seat + 1) % c.node.table.Seats() }

// advEscrowBoxAt is the offset of seat to's box in an encoded deal, and the size of a box.
func advEscrowBoxAt(d []byte, to int) (off, size int) {
	t := int(d[0])
	off = 1 + t*crypto.PointSize + 1
	n := int(d[off-1])
	size = (len(d) - off - n) / (n - 1)
	for i := 0; i < to; i++ {
		off++
		if d[off-1] == 1 {
			off += size
		}
	}
	return off + 1, size
}

// advEscrowBadShare seals a made-up share to the next seat in an otherwise honest deal: every
// node accepts the deal; the victim complains in place of its reveal for the seat order, and
// its complaint convicts the cheater.
func advEscrowBadShare(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	victim := advEscrowVictim(c, e)
	bad := make([]byte, crypto.ScalarSize)
	bad[0] = 9
	box, err := crypto.Seal(advRand(e.Seq, "bad share"), pre.dealCtx, e.Seat, victim, pre.pubs[victim], bad)
	if err != nil {
		return nil, err
	}
	body := append([]byte(nil), e.Body...)
	off, size := advEscrowBoxAt(body, victim)
	if size != len(box.Bytes()) {
		return nil, fmt.Errorf("a box of %d bytes where the deal has %d", len(box.Bytes()), size)
	}
	copy(body[off:], box.Bytes())
	d, err := crypto.ParseEscrowDeal(body)
	if err != nil {
		return nil, err
	}
	f := c.resign(e, KindEscrow, body)
	if err := c.patch(f); err != nil {
		return nil, err
	}
	c.node.table.deals[e.Seat] = d
	c.substitute(f)
	n := uint64(c.node.table.Seats())
	c.play(&Verdict{Kind: VerdictCheat, Seq: 2*n + 1 + uint64(victim), Seat: e.Seat})
	return []advSend{advAll(f)}, nil
}

// advEscrowOtherSecret deals a fresh key instead of its own: every node sees at once that the
// deal's constant term is not the key the seat published.
func advEscrowOtherSecret(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	other, err := crypto.GenerateKey(advRand(e.Seq, "other secret"))
	if err != nil {
		return nil, err
	}
	keys := append([]*crypto.PublicKey(nil), pre.pubs...)
	keys[e.Seat] = other.Public()
	d, err := crypto.DealEscrow(advRand(e.Seq, "other deal"), pre.dealCtx, e.Seat, other, keys, pre.escrowThreshold())
	if err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindEscrow, d.Bytes()), VerdictCheat, e.Seq), nil
}

// advFalseComplaint complains, in place of its reveal for the seat order, of the next seat's
// honest share.
func advFalseComplaint(c *advCheater, e *Entry) ([]advSend, error) {
	pre, err := c.before(e)
	if err != nil {
		return nil, err
	}
	body, err := pre.self.complaintBody(pre, advEscrowVictim(c, e))
	if err != nil {
		return nil, err
	}
	return c.advReplace(e, c.resign(e, KindComplaint, body), VerdictCheat, e.Seq), nil
}
