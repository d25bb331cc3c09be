package protocol

import (
	"errors"
	"fmt"

	"corruption/crypto"
	"corruption/protocol/internal/wire"
)

// Escrow of the seats' root secrets (issue 12). At a table whose genesis says so (3 or more
// seats), each seat shares its root secret — its ElGamal private key, from which every other
// secret it holds at the table derives (self.go) — among the other seats, so that all of them
// together, and no fewer, could rebuild it should the seat leave for good.
//
// Once every key is in, each seat in roster order writes an escrow entry: a Feldman deal of its
// key with threshold n−1 (crypto.EscrowDeal), one share for every other seat, each sealed to its
// recipient, beside commitments to the polynomial. Every node checks at once that the constant
// term's commitment is the key the seat published with its proof of knowledge, that every other
// seat has a box and that every box's proof of knowledge of its ephemeral key holds: a deal of
// another secret, a withheld share or a forged box convicts the dealer on arrival. A share that
// does not check against the commitments is known to its recipient alone: the recipient then
// writes a complaint in place of its reveal for the seat order (its next entry, and one every seat
// writes after every deal is in, before the game starts). The complaint opens that one box for
// everyone (crypto.ProveBlame: the box's Diffie–Hellman point, with a proof) and nothing else: the
// dealer proved it knows the discrete log of the box's key, so the point is no decryption share
// of anything it could not compute itself. It convicts the dealer, or, if the share checks, the
// complainer. A seat that writes its reveal for the seat order says its shares checked.
//
// A complaint, upheld or false, publishes one share of a seat whose key has yet protected nothing
// (no card is dealt, no value hidden before the game starts), and the table halts.

// stepEscrow is the context's step of every deal and complaint.
const stepEscrow = "escrow"

// escrow is the table's escrowed keys.
type escrow struct {
	dealCtx crypto.Context        // the deals' context: the roster order, step "escrow"
	deals   []*crypto.EscrowDeal  // by roster index
	held    []*crypto.EscrowShare // this node's share of each dealer's key, by roster index
	// badDealer is, on this node, the roster index of the first dealer whose share to it does
	// not check (-1: none): its next entry complains of it.
	badDealer int
}

// begin starts the deals, every key being in: ctx is their context.
func (x *escrow) begin(ctx crypto.Context) { x.dealCtx = ctx }

func (x *escrow) init(n int) {
	x.held = make([]*crypto.EscrowShare, n)
	x.badDealer = -1
}

// Escrow reports whether the table escrows its seats' root secrets.
func (t *Table) Escrow() bool { return t.g.Escrow }

// escrowThreshold is how many shares rebuild a key: every seat but its own.
func (t *Table) escrowThreshold() int { return len(t.keys) - 1 }

// applyEscrow takes a seat's deal of its key; on the node of every other seat it opens that
// seat's share. With the last deal, the seat order is drawn next.
func (t *Table) applyEscrow(e *Entry) error {
	d, err := crypto.ParseEscrowDeal(e.Body)
	if err != nil {
		return fmt.Errorf("malformed escrow entry: %w", err)
	}
	if err := crypto.VerifyEscrowDeal(t.dealCtx, e.Seat, t.pubs, t.escrowThreshold(), d); err != nil {
		return fmt.Errorf("its escrow deal: %w", err)
	}
	t.deals = append(t.deals, d)
	if s := t.self; s != nil && s.seat != e.Seat {
		priv, err := s.elgamalKey()
		if err == nil {
			var sh *crypto.EscrowShare
			if sh, err = crypto.OpenEscrowShare(t.dealCtx, e.Seat, s.seat, priv, d); err == nil {
				t.held[e.Seat] = sh
			}
		}
		if err != nil && t.badDealer < 0 {
			t.badDealer = e.Seat
		}
	}
	if len(t.deals) == len(t.keys) {
		t.enter(stageOrder)
	}
	return nil
}

// complains reports whether this node's next entry is a complaint: its seat is due for the seat
// order and a share dealt to it does not check.
func (t *Table) complains() bool {
	return t.self != nil && t.g.Escrow && t.stage == stageOrder && t.badDealer >= 0
}

// complaintBody is a complaint's body: u8 the dealer's roster index ‖ the blame of its box.
type complaintBody struct {
	dealer int
	blame  *crypto.Blame
}

func (b *complaintBody) marshal() []byte {
	w := wire.Writer{}
	w.U8(uint8(b.dealer))
	w.Fixed(b.blame.Bytes())
	return w.B
}

func parseComplaintBody(p []byte) (*complaintBody, error) {
	r := wire.Reader{B: p}
	dealer := int(r.U8())
	raw := r.Take(crypto.BlameSize)
	if err := r.Done("complaint entry"); err != nil {
		return nil, err
	}
	bl, err := crypto.ParseBlame(raw)
	if err != nil {
		return nil, fmt.Errorf("malformed complaint entry: %w", err)
	}
	return &complaintBody{dealer: dealer, blame: bl}, nil
}

// applyComplaint judges a seat's complaint of the share a dealer sealed to it: either way the
// table halts, convicting the dealer (the box does not open, or holds a share that does not
// check) or the complainer (its proof fails, or the share checks).
func (t *Table) applyComplaint(e *Entry) error {
	b, err := parseComplaintBody(e.Body)
	if err != nil {
		return err
	}
	if b.dealer == e.Seat || b.dealer >= len(t.deals) {
		return fmt.Errorf("it complains of seat %d's escrow share, and holds none", b.dealer)
	}
	err = crypto.VerifyEscrowBlame(t.dealCtx, b.dealer, e.Seat, t.pubs[e.Seat], t.deals[b.dealer], b.blame)
	switch {
	case err == nil:
		t.convict(b.dealer, e, "its escrow share to seat %d does not check against its commitments (seat %d's complaint opens it)", e.Seat, e.Seat)
		return nil
	case errors.Is(err, crypto.ErrInvalidProof):
		return fmt.Errorf("its complaint of seat %d's escrow share does not verify: %w", b.dealer, err)
	}
	return fmt.Errorf("it complained of seat %d's escrow share, which checks", b.dealer)
}

// escrowBody is the node's deal of its key among the other seats.
func (s *Self) escrowBody(t *Table) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	d, err := crypto.DealEscrow(s.rand("escrow"), t.dealCtx, s.seat, priv, t.pubs, t.escrowThreshold())
	if err != nil {
		return nil, err
	}
	return d.Bytes(), nil
}

// complaintBody is the node's complaint of the share dealer sealed to it.
func (s *Self) complaintBody(t *Table, dealer int) ([]byte, error) {
	priv, err := s.elgamalKey()
	if err != nil {
		return nil, err
	}
	if dealer < 0 || dealer >= len(t.deals) {
		return nil, fmt.Errorf("no escrow deal of seat %d", dealer)
	}
	box, err := t.deals[dealer].EscrowBox(s.seat)
	if err != nil {
		return nil, err
	}
	bl, err := crypto.ProveBlame(s.rand("escrow complaint %d", dealer), t.dealCtx, dealer, s.seat, priv, box)
	if err != nil {
		return nil, err
	}
	return (&complaintBody{dealer: dealer, blame: bl}).marshal(), nil
}

// MinEscrowSeats is the fewest seats a table escrows at: with two, the one other seat would
// hold the whole secret.
const MinEscrowSeats = 3

// optEscrow is the genesis's options byte of an escrow table (bit 0).
const optEscrow = 1

// escrowOn reports whether a table this node creates escrows: when asked, at 3 or more seats.
func (c *NodeConfig) escrowOn() bool { return c.Escrow && c.Players >= MinEscrowSeats }
