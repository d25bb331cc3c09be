package corruption

// What a player may do now: the choices behind each decision. Bots and user interfaces use these
// (through View) rather than trying moves.

// CanPlay reports whether seat may place card on spot on its turn now, and if not, why.
func (s *State) CanPlay(seat int, card Card, spot Spot) error {
	if s.phase != PhaseCorruption || seat != s.turnSeat() {
		return s.notNow(seat, "place a card")
	}
	if spot >= numSpots || (!spot.IsSwiss() && s.contracts[spot].status != onTable) {
		return faultf(seat, "seat %d cannot place a card on %s: it is not on the table", seat, spot)
	}
	if card == CardUnknown || card >= numCards {
		return faultf(seat, "seat %d must name the card it places", seat)
	}
	if err := s.checkInHand(seat, card, spot); err != nil {
		return err
	}
	return nil
}

// Hand lists the cards seat still holds, as this state knows them: the bribes not yet placed this
// round, then the characters left. (In a hidden-card game this is exact only on the seat's own
// node.)
func (s *State) Hand(seat int) []Card {
	var buf [10]Card
	return append([]Card(nil), s.hand(seat, buf[:0])...)
}

func (s *State) hand(seat int, buf []Card) []Card {
	if seat < 0 || seat >= s.cfg.Players {
		return buf
	}
	h := &s.hands[seat]
	for _, c := range Bribes {
		if h.bribesUsed&bribeBit(c) == 0 {
			buf = append(buf, c)
		}
	}
	for k, c := range Characters {
		for n := uint8(0); n < h.chars[k]; n++ {
			buf = append(buf, c)
		}
	}
	return buf
}

// CharactersLeft is how many district attorneys, reporters and hit men seat held when this round
// began (public: every character played before was revealed).
func (s *State) CharactersLeft(seat int) (da, reporters, hitmen int) {
	if seat < 0 || seat >= s.cfg.Players {
		return 0, 0, 0
	}
	c := s.hands[seat].charsStart
	return int(c[0]), int(c[1]), int(c[2])
}

// PeeksLeft is how many little-black-book peeks seat has left.
func (s *State) PeeksLeft(seat int) int {
	if seat < 0 || seat >= s.cfg.Players {
		return 0
	}
	return int(s.hands[seat].peeks)
}

// Placed is how many cards seat has placed this round.
func (s *State) Placed(seat int) int {
	if seat < 0 || seat >= s.cfg.Players {
		return 0
	}
	return int(s.hands[seat].placed)
}

// NextFaceUp reports whether seat's next card this round will be face up if placed under a
// contract (Swiss accounts are always face down).
func (s *State) NextFaceUp(seat int) bool {
	return s.faceUp.Has(s.Placed(seat) + 1)
}

// Peekable lists the cards (1-based indexes) seat may peek at now.
func (s *State) Peekable(seat int) []int {
	var out []int
	if seat < 0 || seat >= s.cfg.Players || !s.canPeek(seat) {
		return out
	}
	for i := 0; i < s.nplays; i++ {
		if s.peekable(seat, i) == "" {
			out = append(out, i+1)
		}
	}
	return out
}

// AssignOptions lists the contracts the Swiss bribe being resolved may be assigned to (during a
// DecideAssign decision): the contracts on the table under its body.
func (s *State) AssignOptions() []Contract {
	d := s.Next()
	if d.Kind != DecideAssign {
		return nil
	}
	body := s.plays[d.Index-1].Spot.SwissBody()
	var buf [NumContracts]Contract
	var out []Contract
	for _, c := range s.table(buf[:0]) {
		if s.contracts[c].body == body {
			out = append(out, c)
		}
	}
	return out
}

// KillTargets lists the cards (1-based) the hit man being resolved may kill (DecideKill).
func (s *State) KillTargets() []int {
	if d := s.Next(); d.Kind == DecideKill {
		return oneBased(s.hitTargets(d.Index-1, nil))
	}
	return nil
}

// RemoveOptions lists the bribes (1-based) the reporter being resolved may remove (DecideRemove);
// it may also pass.
func (s *State) RemoveOptions() []int {
	if d := s.Next(); d.Kind == DecideRemove {
		return oneBased(s.removable(d.Index-1, nil))
	}
	return nil
}

func oneBased(is []int) []int {
	for k := range is {
		is[k]++
	}
	return is
}
