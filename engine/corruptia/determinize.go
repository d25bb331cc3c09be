package corruptia

import (
	"math/rand/v2"
	"slices"
)

// Determinize is a game hosted in memory with full information that agrees with everything v's
// seat may see, with everything else drawn from r: for the strong bot's search (package
// search), which plays many such games to weigh its moves. It must be called before the game
// the view was taken of moves on, once the hands are dealt (v.Round > 0). It promises:
//   - what the seat sees is kept: the public state (the program, the discard pile, the bills
//     shown) and its own hand;
//   - what it may not see is redrawn, never copied: the bills in the other hands that were
//     never shown and the order of the deck still to be dealt, both from the bills the seat
//     has seen nowhere;
//   - the host draws the dice and tosses to come from r.
//
// The game behind v may know more than the seat (a simulation's host knows every hand); the
// result is the same whatever it knows (TestStrongSeesOnlyItsView in package bot checks it).
func (v *View) Determinize(r *rand.Rand) (*Host, Chance) {
	g := v.g.clone()
	me := v.Seat
	mine := me >= 0 && me < g.n
	for d := range g.learnt {
		for p := range g.learnt[d] {
			g.learnt[d][p] = Unknown
		}
	}
	h := &Host{game: g}
	for d := range h.decks {
		h.decks[d] = slices.Repeat([]int{-1}, NumBills)
	}
	var seen [NumBills]bool
	for _, p := range g.program {
		seen[p.Bill] = true
	}
	for _, b := range g.pile {
		seen[b] = true
	}
	for _, b := range g.returned {
		seen[b] = true
	}
	for s := range g.n {
		for i, c := range g.hands[s] {
			b := c.Bill
			if b == Unknown && mine && s == me {
				b = v.Hands[me][i]
			}
			if b != Unknown {
				seen[b] = true
				g.place(h, c, b)
			}
		}
	}
	var pool []Bill
	for b := range NumBills {
		if !seen[b] {
			pool = append(pool, Bill(b))
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for s := range g.n {
		for _, c := range g.hands[s] {
			if c.Bill == Unknown && g.learnt[max(c.Deck, 0)][max(c.Pos, 0)] == Unknown && len(pool) > 0 {
				g.place(h, c, pool[0])
				pool = pool[1:]
			}
		}
	}
	for p := g.next; p < g.end && len(pool) > 0; p++ {
		h.decks[g.draw][p], pool = int(pool[0]), pool[1:]
	}
	return h, Seeded(r.Uint64(), r.Uint64())
}

// place puts bill b in the host's deck where the hand card c was dealt from, and has the game
// know it.
func (g *Game) place(h *Host, c handCard, b Bill) {
	if c.Deck < 0 || c.Deck > 1 || c.Pos < 0 {
		return
	}
	h.decks[c.Deck][c.Pos] = int(b)
	g.learnt[c.Deck][c.Pos] = b
}

// ForSeat is a copy of the game as seat's own node knows it: the public state and the bills
// dealt to seat alone, every other seat's forgotten. Tests use it to show that what a seat
// decides from a full-information game's View depends on what its node would know only.
func (g *Game) ForSeat(seat int) *Game {
	c := g.clone()
	for d := range c.learnt {
		for p := range c.learnt[d] {
			c.learnt[d][p] = Unknown
		}
	}
	if seat >= 0 && seat < g.n {
		for _, h := range append(slices.Clone(g.hands[seat]), g.opening[seat]) {
			if h.Deck >= 0 && h.Deck <= 1 && h.Pos >= 0 {
				c.learnt[h.Deck][h.Pos] = g.learnt[h.Deck][h.Pos]
			}
		}
	}
	return c
}
