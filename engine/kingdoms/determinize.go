package kingdoms

import (
	"math/rand/v2"
	"slices"
)

// Determinize is a game played in memory with full information that agrees with everything v's
// seat may see, with everything else drawn from r: for the strong bot's search (package
// search), which plays many such games to weigh its moves. The setup must be over (v.Playing).
// It promises:
//   - what the seat sees is kept: the public state and its own shareholder cards, chaos hand and
//     discard;
//   - what it may not see is redrawn, never copied: the other seats' shareholder cards (from
//     those nobody has shown and the seat does not hold), their chaos hands (from their
//     corporation's cards, keeping those played where they were played) and face-down
//     discards (a position not played from, unless already opened), the favors left in the
//     favor deck (of each type, as many as the deck still holds, from those never seen) in a
//     random order, and the guilty pleasures left in their deck (those on no display and in
//     nobody's hands) in a random order;
//   - no vote is cast yet at a vote under way: the seats before v's seat cast theirs in the
//     search, without seeing the others'.
//
// One simplification: the guilty pleasures put back under their deck went there in an order
// everyone saw; Determinize shuffles them with the rest, as it does not keep that history.
//
// The game behind v may know more than the seat (a simulation's full-information game); the
// result is the same whatever it knows (TestStrongSeesOnlyItsView in package bot checks it).
func (v View) Determinize(r *rand.Rand) *Local {
	g := v.g.clone()
	g.onEvent, g.recording, g.events = nil, false, nil
	p := &g.p
	me := v.Seat
	own := g.k
	g.k.init()
	if me >= 0 && me < g.n {
		g.k.shares[me], g.k.chaos[me], g.k.discard[me] = own.shares[me], own.chaos[me], own.discard[me]
	}
	l := &Local{g: g, values: make([][]byte, p.lastRef+1)}

	// Shareholder cards: the seat's own, those shown, and the rest drawn for the others.
	c := ShareholderCards(g.n)
	var known [NumShareholders]bool
	for s := range g.n {
		for i := range c {
			if s == me {
				known[g.k.shares[s][i]] = true
			} else if p.shown[s][i] >= 0 {
				known[p.shown[s][i]] = true
			}
		}
	}
	var free []int
	for i := range NumShareholders {
		if !known[i] {
			free = append(free, i)
		}
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	shares := make([]int, 0, g.n*c)
	for s := range g.n {
		for i := range c {
			if s != me {
				if p.shown[s][i] >= 0 {
					g.k.shares[s][i] = p.shown[s][i]
				} else {
					g.k.shares[s][i], free = int8(free[0]), free[1:]
				}
			}
			shares = append(shares, int(g.k.shares[s][i]))
		}
	}
	l.decks[deckShareholder] = shares

	// Chaos hands and discards.
	if g.cfg.Chaos {
		drawn := ChaosDrawn(g.n)
		for s := range g.n {
			h := &p.hands[s]
			if s != me {
				cards := slices.Clone(corporations[p.corp[s]].Chaos)
				cards = slices.DeleteFunc(cards, func(card int) bool { return slices.Contains(h.played[:], int8(card)) })
				r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
				for pos := range drawn {
					if h.played[pos] >= 0 {
						g.k.chaos[s][pos] = h.played[pos]
					} else {
						g.k.chaos[s][pos], cards = int8(cards[0]), cards[1:]
					}
				}
				g.k.discard[s] = h.discardPos
				if h.discardRef >= 0 && h.discardPos < 0 {
					var open []int8
					for pos := range drawn {
						if h.played[pos] < 0 {
							open = append(open, int8(pos))
						}
					}
					g.k.discard[s] = open[r.IntN(len(open))]
				}
			}
			deck := make([]int, 0, ChaosPerCorp)
			for pos := range drawn {
				deck = append(deck, int(g.k.chaos[s][pos]))
			}
			l.decks[deckChaos+s] = deck
			if h.discardRef >= 0 && g.k.discard[s] >= 0 {
				l.values[h.discardRef] = []byte{byte(g.k.discard[s])}
			}
		}
	}

	// The favor deck: as many of each type as it still holds, from the favors never seen.
	favorDeck := make([]int, p.favorLen)
	var left [NumFavorTypes]int
	for t := range left {
		left[t] = FavorsPerType(g.n)
	}
	for f := range NumFavors {
		if p.seen&(1<<f) != 0 {
			left[favors[f].Type]--
		}
	}
	var rest []int
	for t := range NumFavorTypes {
		ids := favorsOfType(t)
		ids = slices.DeleteFunc(ids, func(f int) bool { return p.seen&(1<<f) != 0 })
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		rest = append(rest, ids[:max(0, min(left[t], len(ids)))]...)
	}
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for i := range favorDeck {
		favorDeck[i] = -1
		if i >= int(p.favorNext) && len(rest) > 0 {
			favorDeck[i], rest = rest[0], rest[1:]
		}
	}
	l.decks[deckFavors] = favorDeck

	// The guilty pleasure deck: those on no display and in nobody's hands.
	pleasureDeck := make([]int, p.gpLen)
	var placed [NumPleasures]bool
	for s := range g.n {
		if d := p.display[s]; d >= 0 {
			placed[d] = true
		}
		for i := range NumPleasures {
			if p.owned[s]&(1<<i) != 0 {
				placed[i] = true
			}
		}
	}
	rest = rest[:0]
	for i := range NumPleasures {
		if !placed[i] {
			rest = append(rest, i)
		}
	}
	r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for i := range pleasureDeck {
		pleasureDeck[i] = -1
		if i >= int(p.gpNext) && len(rest) > 0 {
			pleasureDeck[i], rest = rest[0], rest[1:]
		}
	}
	l.decks[deckPleasures] = pleasureDeck
	return l
}

// Round is the round under way (public), as View's Round, without making a View: the strong
// bot's search reads it after every move of a playout.
func (g *Game) Round() int { return int(g.p.round) }

// ForSeat is a copy of the game as seat's own node knows it: the public state and seat's own
// secrets, every other seat's forgotten. Tests use it to show that what a seat decides from a
// full-information game's View depends on what its node would know only.
func (g *Game) ForSeat(seat int) *Game {
	c := g.clone()
	for s := range MaxPlayers {
		if s != seat {
			c.k.shares[s], c.k.chaos[s], c.k.discard[s] = [2]int8{-1, -1}, [4]int8{-1, -1, -1, -1}, -1
		}
	}
	return c
}
