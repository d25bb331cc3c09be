package corruption

import "fmt"

// Phases I and II of a round: the invitation to bid (dealing) and corruption (placing cards).

// deal puts the round's six contracts on the table: the 1st and 2nd under City Hall, the 3rd
// and 4th under the County Seat, the 5th and 6th under the Capitol.
func (s *State) deal(cs [ContractsPerDeal]Contract) error {
	if s.phase != PhaseDeal {
		return faultf(-1, "cannot deal now: the game is waiting for %s", s.Next().describe())
	}
	for i, c := range cs {
		if int(c) >= NumContracts {
			return faultf(-1, "deal: card %d is not a contract", i+1)
		}
		if s.contracts[c].status != inDeck {
			return faultf(-1, "deal: %s was already dealt", c)
		}
		for _, d := range cs[:i] {
			if d == c {
				return faultf(-1, "deal: %s is dealt twice", c)
			}
		}
	}
	s.dealContracts(cs)
	return nil
}

func (s *State) dealContracts(cs [ContractsPerDeal]Contract) {
	for i, c := range cs {
		s.contracts[c] = contractState{status: onTable, body: Body(i / 2)}
		s.dealOrder[s.dealt] = c
		s.dealt++
		s.emit(Event{Kind: EventDealt, Seat: -1, Contract: c, Body: Body(i / 2)})
	}
	s.phase = PhaseCorruption
	if s.cfg.Variant == FreeStud {
		s.phase = PhaseFaceUp
	} else {
		s.faceUp = faceUpPositions(s.cfg.Variant, s.round)
	}
}

// chooseFaceUp is the free-stud choice of the round's first player, before the round's first
// card: any subset of positions 1..6, for every player this round.
func (s *State) chooseFaceUp(seat int, ps Positions) error {
	if s.phase != PhaseFaceUp || seat != s.first {
		return s.notNow(seat, "choose the face-up positions")
	}
	if ps&^AllPositions != 0 {
		return faultf(seat, "seat %d chose face-up positions outside 1..6", seat)
	}
	s.faceUp = ps
	s.phase = PhaseCorruption
	s.emit(Event{Kind: EventFaceUp, Seat: seat, Positions: ps})
	return nil
}

// peek spends one of seat's little-black-book peeks on the face-down card at index: on its own
// turn, before placing, on a card under a contract that is not its own.
func (s *State) peek(seat, index int) error {
	if s.phase != PhaseCorruption || seat != s.turnSeat() {
		return s.notNow(seat, "peek")
	}
	switch {
	case !s.cfg.LittleBlackBook:
		return faultf(seat, "seat %d cannot peek: this game is played without the little black book", seat)
	case s.hands[seat].peeks == 0:
		return faultf(seat, "seat %d cannot peek: it has used both its little black book peeks", seat)
	case s.peekedTurn:
		return faultf(seat, "seat %d cannot peek twice in one turn", seat)
	case index < 1 || index > s.nplays:
		return faultf(seat, "seat %d cannot peek at card %d: only %d cards have been placed this round", seat, index, s.nplays)
	}
	if why := s.peekable(seat, index-1); why != "" {
		return faultf(seat, "seat %d cannot peek at card %d: %s", seat, index, why)
	}
	s.hands[seat].peeks--
	s.peekedTurn = true
	s.plays[index-1].PeekedBy |= 1 << seat
	s.emit(Event{Kind: EventPeeked, Seat: seat, Index: index})
	return nil
}

// place puts seat's card on spot. Characters go only under contracts. The card's position in
// its owner's sequence decides whether it is face up; Swiss accounts are always face down.
func (s *State) place(seat int, card Card, spot Spot) error {
	if s.phase != PhaseCorruption || seat != s.turnSeat() {
		return s.notNow(seat, "place a card")
	}
	if spot >= numSpots {
		return faultf(seat, "seat %d cannot place a card on spot %d: no such place", seat, spot)
	}
	if !spot.IsSwiss() && s.contracts[spot].status != onTable {
		return faultf(seat, "seat %d cannot place a card under %s: it is not on the table", seat, spot)
	}
	h := &s.hands[seat]
	pos := int(h.placed) + 1
	faceUp := s.faceUp.Has(pos) && !spot.IsSwiss()
	if card >= numCards {
		return faultf(seat, "seat %d cannot place card %d: no such card", seat, card)
	}
	if card == CardUnknown {
		if !s.hidden {
			return faultf(seat, "seat %d must name the card it places", seat)
		}
		if faceUp {
			return faultf(seat, "seat %d must show its card: its card %d this round is played face up", seat, pos)
		}
	} else if err := s.checkInHand(seat, card, spot); err != nil {
		return err
	}
	s.plays[s.nplays] = Play{Seat: seat, Card: card, Spot: spot, Pos: pos, FaceUp: faceUp,
		Revealed: faceUp, checked: card != CardUnknown}
	s.nplays++
	h.placed++
	s.useCard(seat, card)
	s.peekedTurn = false
	s.emit(Event{Kind: EventPlaced, Seat: seat, Index: s.nplays, Card: s.publicCard(s.nplays - 1), Spot: spot})
	return nil
}

// checkInHand checks that seat may play card on spot: the card is in its hand, and a character
// goes under a contract.
func (s *State) checkInHand(seat int, card Card, spot Spot) *MoveError {
	h := &s.hands[seat]
	switch {
	case card.IsCharacter() && s.cfg.Variant == Closed:
		return faultf(seat, "seat %d cannot play %s: the closed variant is played without characters", seat, card.Title())
	case card.IsCharacter() && spot.IsSwiss():
		return faultf(seat, "seat %d cannot place %s on %s: characters go only under contracts", seat, card.Title(), spot)
	case card.IsBribe() && h.bribesUsed&bribeBit(card) != 0:
		return faultf(seat, "seat %d has already played its %s this round", seat, card.Words())
	case card.IsCharacter() && h.chars[card-DA] == 0:
		return faultf(seat, "seat %d has no %s left", seat, card.Words())
	}
	return nil
}

// useCard takes a known card out of seat's hand.
func (s *State) useCard(seat int, card Card) {
	h := &s.hands[seat]
	switch {
	case card.IsBribe():
		h.bribesUsed |= bribeBit(card)
	case card.IsCharacter():
		h.chars[card-DA]--
	}
}

// publicCard is play i's card if it is public, else CardUnknown.
func (s *State) publicCard(i int) Card {
	if s.plays[i].Revealed {
		return s.plays[i].Card
	}
	return CardUnknown
}

// reveal makes the face-down card at index public (hidden-card games, after the last
// placement). A card this state did not know is checked now: in hand, not played twice, no
// character on a Swiss account. A card it knew must be the same card.
func (s *State) reveal(seat, index int, card Card) error {
	if s.phase != PhaseReveal {
		return s.notNow(seat, "reveal a card")
	}
	if index < 1 || index > s.nplays {
		return faultf(seat, "seat %d cannot reveal card %d: there are %d cards this round", seat, index, s.nplays)
	}
	p := &s.plays[index-1]
	switch {
	case p.Seat != seat:
		return faultf(seat, "seat %d cannot reveal card %d: it is seat %d's", seat, index, p.Seat)
	case p.Revealed:
		return faultf(seat, "seat %d cannot reveal card %d: it is already face up", seat, index)
	case card == CardUnknown || card >= numCards:
		return faultf(seat, "seat %d revealed card %d as no card", seat, index)
	case p.Card != CardUnknown && p.Card != card:
		return faultf(seat, "seat %d revealed card %d as %s, but it is %s", seat, index, card.Title(), p.Card.Title())
	}
	if !p.checked {
		if err := s.checkInHand(seat, card, p.Spot); err != nil {
			err.Msg = fmt.Sprintf("card %d revealed: %s", index, err.Msg)
			return err
		}
		s.useCard(seat, card)
		p.checked = true
	}
	p.Card = card
	p.Revealed = true
	s.emit(Event{Kind: EventRevealed, Seat: seat, Index: index, Card: card, Spot: p.Spot})
	return nil
}
