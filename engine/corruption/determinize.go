package corruption

import "math/rand/v2"

// Determinize is a full-information game that agrees with everything v's seat may see, with
// everything else drawn from r: for the strong bot's search (package search), which plays many
// such games to weigh its moves. It promises:
//   - what the seat sees is kept: the public state, its own cards, the cards its peeks showed;
//   - what it may not see is redrawn, never copied: each other seat's face-down cards of this
//     round are drawn from what that seat may still hold (the bribes it has not shown this round
//     and the characters it had at the round's start less those it showed), with no character
//     on a Swiss account; and the contracts not yet dealt come in a random order;
//   - the result is a game without hidden cards (every placement names its card) that deals
//     itself from its deck, so the search can play it to the end with any bot.
//
// The state behind v may know more than the seat (a simulation's full-information state); the
// result is the same whatever it knows (TestStrongSeesOnlyItsView in package bot checks it).
func (v View) Determinize(r *rand.Rand) *State {
	s := v.s.Clone()
	s.OnEvent = nil
	s.hidden = false
	deck := make([]Contract, 0, NumContracts)
	deck = append(deck, s.dealOrder[:s.dealt]...)
	rest := len(deck)
	for c := range NumContracts {
		if s.contracts[c].status == inDeck {
			deck = append(deck, Contract(c))
		}
	}
	r.Shuffle(len(deck)-rest, func(i, j int) { deck[rest+i], deck[rest+j] = deck[rest+j], deck[rest+i] })
	s.cfg.Deck = deck
	var unknown [CardsPerRound]int
	var pool [CardsPerRound + 4]Card
	for seat := 0; seat < s.cfg.Players; seat++ {
		h := &s.hands[seat]
		h.bribesUsed, h.chars = 0, h.charsStart
		nu := 0
		for i := 0; i < s.nplays; i++ {
			p := &s.plays[i]
			if p.Seat != seat {
				continue
			}
			p.checked = true
			if !v.Sees(i + 1) {
				p.Card = CardUnknown
				unknown[nu] = i
				nu++
				continue
			}
			s.useCard(seat, p.Card)
		}
		if nu == 0 {
			continue
		}
		np := 0
		for _, b := range Bribes {
			if h.bribesUsed&bribeBit(b) == 0 {
				pool[np] = b
				np++
			}
		}
		for k, c := range Characters {
			for range h.chars[k] {
				pool[np] = c
				np++
			}
		}
		r.Shuffle(np, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		// Swiss accounts first, from the bribes; then the cards under contracts, from the rest.
		for pass := 0; pass < 2; pass++ {
			for _, i := range unknown[:nu] {
				p := &s.plays[i]
				if p.Spot.IsSwiss() != (pass == 0) {
					continue
				}
				for k := 0; k < np; k++ {
					if c := pool[k]; c.IsBribe() || pass == 1 {
						p.Card = c
						s.useCard(seat, c)
						copy(pool[k:np], pool[k+1:np])
						np--
						break
					}
				}
			}
		}
	}
	return s
}
