package protocol

import (
	"fmt"
	"slices"

	"corruption/crypto"
)

// The seat order. The roster lists the players as their keys were heard, and the creator
// first; if that order were the seats', a player could grind its identity key to sit first, or
// to be the last to reveal every joint draw (the one who may abort after seeing the result).
// So once every key is in, each seat in roster order reveals the first link of its random chain,
// and a uniform permutation drawn from all the reveals seats the players: from then on every
// entry's seat is a seat of that order. The last revealer of this one draw can abort (its clock
// names it) but not choose the order; every later draw is revealed in the drawn order.

// seating is the table's seat order.
type seating struct {
	rosterSeat   []int                 // by seat: the player's index in the genesis roster
	orderReveals []crypto.RandomReveal // the order draw's reveals, by roster index
	chainCtx     crypto.Context        // the context the chains were committed under (roster order)
}

func (s *seating) init(n int) {
	s.rosterSeat = make([]int, n)
	for i := range s.rosterSeat {
		s.rosterSeat[i] = i
	}
}

// Players is the table's players by seat: the genesis roster, in the drawn seat order (in
// roster order before the draw).
func (t *Table) Players() []Member {
	out := make([]Member, len(t.rosterSeat))
	for seat, r := range t.rosterSeat {
		out[seat] = t.g.Roster[r]
	}
	return out
}

// RosterOrder is, by seat, the player's place in the genesis roster (the identity before the
// seat order is drawn): a chat message names its speaker by that place.
func (s *seating) RosterOrder() []int { return slices.Clone(s.rosterSeat) }

// Ordered reports whether the seat order is drawn.
func (t *Table) Ordered() bool { return t.stage > stageOrder }

// applyOrder takes a seat's reveal for the order draw; with the last, it seats the players.
func (t *Table) applyOrder(e *Entry) error {
	v, err := crypto.ParseRandomReveal(e.Body)
	if err != nil {
		return fmt.Errorf("malformed random entry: %w", err)
	}
	if err := t.chainVerify(e.Seat, v); err != nil {
		return fmt.Errorf("its random reveal does not follow its chain: %w", err)
	}
	t.advanceChain(e.Seat, v)
	t.orderReveals = append(t.orderReveals, v)
	if len(t.orderReveals) < len(t.keys) {
		return nil
	}
	n := len(t.keys)
	// Fisher–Yates over the roster: position i takes one of the n−i players left.
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < n-1; i++ {
		j, err := crypto.JointInt(t.ctx.WithStep(fmt.Sprintf("seat order %d", i)), t.orderReveals, n-i)
		if err != nil {
			return err
		}
		perm[i], perm[i+j] = perm[i+j], perm[i]
	}
	t.seat(perm)
	return t.startGame(e)
}

// seat puts the players in the drawn order: perm[seat] is the roster index sitting there.
// The seating's own part is which roster index sits where, and the context the chains were
// committed under; the table's keys and context (table.go) and the keyring (keys.go) are put in
// the same order by their own files.
func (t *Table) seat(perm []int) {
	t.chainCtx = t.ctx
	copy(t.rosterSeat, perm)
	t.reorder(perm)
	t.keyring.reorder(perm)
}

// chainVerify checks a seat's next chain reveal: chains are bound to the roster order they were
// committed in.
func (t *Table) chainVerify(seat int, v crypto.RandomReveal) error {
	if _, ok := t.freshChain(seat); ok || !t.Ordered() {
		// Before the order, or a fresh chain committed after a cut (cut.go): by seat.
		return crypto.VerifyChainReveal(t.ctx, seat, t.chains[seat], v)
	}
	return crypto.VerifyChainReveal(t.chainCtx, t.rosterSeat[seat], t.chains[seat], v)
}
