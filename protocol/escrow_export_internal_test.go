package protocol

import "corruption/crypto"

// Test-only doors into the escrow (escrow.go), for the escrow's cheat, privacy and benchmark
// tests. Seats here are roster indexes: the deals are written before the seat order is drawn.

// EscrowContextForTest is the context of the table's deals and complaints.
func EscrowContextForTest(t *Table) crypto.Context { return t.dealCtx }

// EscrowKeysForTest is the seats' published ElGamal keys in roster order.
func EscrowKeysForTest(t *Table) []*crypto.PublicKey {
	out := make([]*crypto.PublicKey, len(t.pubs))
	for seat, p := range t.pubs {
		r := seat
		if t.Ordered() {
			r = t.rosterSeat[seat]
		}
		out[r] = p
	}
	return out
}

// EscrowDealForTest is the deal of the player at roster index r (nil before it is in).
func EscrowDealForTest(t *Table, r int) *crypto.EscrowDeal {
	if r < 0 || r >= len(t.deals) {
		return nil
	}
	return t.deals[r]
}

// EscrowShareForTest is this node's share of the key of the player at roster index r.
func EscrowShareForTest(t *Table, r int) *crypto.EscrowShare {
	if r < 0 || r >= len(t.held) {
		return nil
	}
	return t.held[r]
}

// ComplaintForTest is the body of the node's complaint of dealer's share, whether or not the
// share checks.
func ComplaintForTest(t *Table, dealer int) ([]byte, error) { return t.self.complaintBody(t, dealer) }

// RevealForTest is the body of the node's next random reveal (for the seat order, say), even
// where the node would complain of its escrow share instead: an accomplice of a cheating dealer.
func RevealForTest(t *Table) ([]byte, error) { return t.self.randomBody(t) }
