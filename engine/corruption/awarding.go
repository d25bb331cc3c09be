package corruption

// Phase III of a round: awarding the contracts, and what comes after.

// advance runs the rules forward until a player must decide something (or the game is over).
func (s *State) advance() {
	for {
		switch s.phase {
		case PhaseDeal:
			if s.cfg.Deck == nil {
				return
			}
			var cs [ContractsPerDeal]Contract
			copy(cs[:], s.cfg.Deck[s.dealt:s.dealt+ContractsPerDeal])
			s.dealContracts(cs)
		case PhaseCorruption:
			if s.nplays < s.cfg.Players*CardsPerRound {
				return
			}
			s.phase = PhaseReveal
		case PhaseReveal:
			if !s.hidden {
				s.revealAll()
			}
			for i := 0; i < s.nplays; i++ {
				if !s.plays[i].Revealed {
					return
				}
			}
			s.phase, s.step, s.cursor = PhaseAwarding, 1, 0
		case PhaseAwarding:
			if s.awardingNeedsDecision() {
				return
			}
			s.endRound()
		default: // PhaseFaceUp waits for the first player; PhaseOver for nothing.
			return
		}
	}
}

// revealAll turns every face-down card up at once (full-information games: every card known).
func (s *State) revealAll() {
	for i := 0; i < s.nplays; i++ {
		if p := &s.plays[i]; !p.Revealed {
			p.Revealed = true
			s.emit(Event{Kind: EventRevealed, Seat: p.Seat, Index: i + 1, Card: p.Card, Spot: p.Spot})
		}
	}
}

// awardingNeedsDecision works through the awarding steps, each in global play order, from
// where it stopped, and reports whether a player's decision is now due (at s.cursor).
func (s *State) awardingNeedsDecision() bool {
	for ; s.step <= 5; s.step, s.cursor = s.step+1, 0 {
		switch s.step {
		case 1, 2, 4:
			for ; s.cursor < s.nplays; s.cursor++ {
				if s.decisionDue(s.cursor) {
					return true
				}
			}
		case 3:
			s.cancelContracts()
		case 5:
			s.awardContracts()
		}
	}
	return false
}

// decisionDue resolves play i for the current step when the rules leave no choice, and reports
// whether its owner must choose.
func (s *State) decisionDue(i int) bool {
	p := &s.plays[i]
	switch s.step {
	case 1: // Step 1: each Swiss bribe is assigned by its owner to a contract of that body.
		return p.Spot.IsSwiss() && p.Card.IsBribe() && !p.IsAssigned
	case 2: // Step 2: each living hit man kills a living character under the same contract.
		if p.Card != HitMan || p.Dead {
			return false
		}
		var buf [MaxPlays]int
		targets := s.hitTargets(i, buf[:0])
		if len(targets) == 1 {
			s.kill(i, targets[0])
		}
		return len(targets) >= 2
	case 4: // Step 4: each living reporter on a standing contract may remove one bribe.
		if p.Card != Reporter || p.Dead || s.contracts[p.Spot].cancelled {
			return false
		}
		var buf [MaxPlays]int
		return len(s.removable(i, buf[:0])) > 0
	}
	return false
}

// hitTargets appends to buf the plays (0-based) a hit man at i may kill: the living characters
// under its contract, other than itself.
func (s *State) hitTargets(i int, buf []int) []int {
	spot := s.plays[i].Spot
	for j := 0; j < s.nplays; j++ {
		if q := &s.plays[j]; j != i && q.Spot == spot && q.Card.IsCharacter() && !q.Dead {
			buf = append(buf, j)
		}
	}
	return buf
}

// removable appends to buf the plays (0-based) a reporter at i may remove: the bribes placed
// directly under its contract and not yet removed (assigned Swiss bribes never count).
func (s *State) removable(i int, buf []int) []int {
	spot := s.plays[i].Spot
	for j := 0; j < s.nplays; j++ {
		if q := &s.plays[j]; q.Spot == spot && q.Card.IsBribe() && !q.Removed {
			buf = append(buf, j)
		}
	}
	return buf
}

func (s *State) kill(hitman, victim int) {
	s.plays[victim].Dead = true
	p := &s.plays[hitman]
	s.emit(Event{Kind: EventKilled, Seat: p.Seat, Index: hitman + 1, Target: victim + 1, Contract: p.Spot.Contract()})
}

// decideAwarding applies a player's awarding decision for the card at s.cursor.
func (s *State) decideAwarding(m Move) error {
	d := s.Next()
	want := DecideRemove
	switch m.Kind {
	case MoveAssign:
		want = DecideAssign
	case MoveKill:
		want = DecideKill
	}
	if d.Kind != want || d.Seat != m.Seat {
		return s.notNow(m.Seat, m.Kind.verb())
	}
	i := s.cursor
	p := &s.plays[i]
	switch m.Kind {
	case MoveAssign:
		body := p.Spot.SwissBody()
		if int(m.Contract) >= NumContracts || s.contracts[m.Contract].status != onTable || s.contracts[m.Contract].body != body {
			return faultf(m.Seat, "seat %d cannot assign its Swiss bribe (card %d) to %s: it is not a contract under %s", m.Seat, i+1, m.Contract, body.Name())
		}
		p.Assigned, p.IsAssigned = m.Contract, true
		s.emit(Event{Kind: EventAssigned, Seat: m.Seat, Index: i + 1, Contract: m.Contract})
	case MoveKill:
		j := m.Index - 1
		if j < 0 || j >= s.nplays || j == i || s.plays[j].Spot != p.Spot || !s.plays[j].Card.IsCharacter() || s.plays[j].Dead {
			return faultf(m.Seat, "seat %d's hit man (card %d) cannot kill card %d: it is not a living character under %s", m.Seat, i+1, m.Index, p.Spot)
		}
		s.kill(i, j)
	case MoveRemove:
		j := m.Index - 1
		if j < 0 || j >= s.nplays || s.plays[j].Spot != p.Spot || !s.plays[j].Card.IsBribe() || s.plays[j].Removed {
			return faultf(m.Seat, "seat %d's reporter (card %d) cannot remove card %d: it is not a bribe placed under %s", m.Seat, i+1, m.Index, p.Spot)
		}
		s.plays[j].Removed = true
		s.emit(Event{Kind: EventRemoved, Seat: m.Seat, Index: i + 1, Target: m.Index, Contract: p.Spot.Contract()})
	case MovePass:
		s.emit(Event{Kind: EventPassed, Seat: m.Seat, Index: i + 1})
	}
	s.cursor++
	return nil
}

func (k MoveKind) verb() string {
	switch k {
	case MoveAssign:
		return "assign a Swiss bribe"
	case MoveKill:
		return "choose a hit man's target"
	case MoveRemove:
		return "remove a bribe"
	case MovePass:
		return "pass"
	}
	return k.String()
}

// cancelContracts is step 3: a contract with at least one living district attorney is
// cancelled; it stays on the table, deferred, and its bribes go back.
func (s *State) cancelContracts() {
	for i := 0; i < s.nplays; i++ {
		p := &s.plays[i]
		if p.Card == DA && !p.Dead && !s.contracts[p.Spot].cancelled {
			s.contracts[p.Spot].cancelled = true
			s.emit(Event{Kind: EventCancelled, Contract: p.Spot.Contract()})
		}
	}
}

// awardContracts is step 5: each standing contract goes to the highest sum of bribes on it
// (assigned Swiss bribes at half value); a tie for highest, or no bribe, defers it.
func (s *State) awardContracts() {
	var buf [NumContracts]Contract
	for _, c := range s.table(buf[:0]) {
		cs := &s.contracts[c]
		if cs.cancelled {
			continue
		}
		var sums [MaxPlayers]int
		for i := 0; i < s.nplays; i++ {
			p := &s.plays[i]
			switch {
			case p.Spot == ContractSpot(c) && p.Card.IsBribe() && !p.Removed:
				sums[p.Seat] += p.Card.Value()
			case p.Spot.IsSwiss() && p.IsAssigned && p.Assigned == c:
				sums[p.Seat] += p.Card.Value() / 2
			}
		}
		best, winner := 0, -1
		for seat, sum := range sums[:s.cfg.Players] {
			switch {
			case sum > best:
				best, winner = sum, seat
			case sum == best && sum > 0:
				winner = -1
			}
		}
		if winner < 0 {
			s.emit(Event{Kind: EventDeferred, Contract: c, Amount: best})
			continue
		}
		s.awards++
		cs.status, cs.winner, cs.wonOrder = won, int8(winner), uint8(s.awards)
		h := &s.hands[winner]
		h.score += c.Value()
		h.won++
		s.emit(Event{Kind: EventAwarded, Seat: winner, Contract: c, Amount: best})
	}
}

// endRound clears the table of cards (characters leave the game, bribes return to their
// owners), marks the contracts left as deferred, and starts the next round with its leader.
func (s *State) endRound() {
	for c := range s.contracts {
		cs := &s.contracts[c]
		if cs.status == onTable {
			cs.deferred = true
		}
		cs.cancelled = false
	}
	for seat := 0; seat < s.cfg.Players; seat++ {
		h := &s.hands[seat]
		h.bribesUsed, h.placed = 0, 0
		h.charsStart = h.chars
	}
	s.nplays, s.step, s.cursor, s.peekedTurn = 0, 0, 0, false
	if s.round == Rounds {
		s.phase = PhaseOver
		s.emit(Event{Kind: EventGameOver, Seat: -1})
		return
	}
	s.first = s.leader()
	s.emit(Event{Kind: EventRoundOver, Seat: s.first})
	s.round++
	s.faceUp = 0
	s.phase = PhaseDeal
}

// leader is the next round's first player: the highest total value of contracts won; on a tie
// the most contracts; still tied, the first of them going clockwise from this round's first
// player (included).
func (s *State) leader() int {
	best := s.first
	for k := 1; k < s.cfg.Players; k++ {
		seat := (s.first + k) % s.cfg.Players
		h, b := &s.hands[seat], &s.hands[best]
		if h.score > b.score || (h.score == b.score && h.won > b.won) {
			best = seat
		}
	}
	return best
}
