package kingdoms

// The turn passing, and the end of the game ("Play continues until the last Favor or Guilty
// Pleasure is drawn ... a vote is initiated on every remaining Bill from left to right").
//
// With the house rules "even" (Config.Even) the end waits for the end of the round: the draw
// that empties a deck no longer ends the game at once; the turns go on, with the votes and all
// their consequences, until the player before the starting player has played, so that every
// player has had as many turns; then final voting. A player with no action it can take in that
// last round (the market empty, no leader it can pay for, no vote it can call) loses the rest of
// its turn.

// nextTurn passes the turn clockwise; after the last turn of round MaxRounds the game ends, and,
// with the house rules "even", after the last turn of the round in which the end came.
func (g *Game) nextTurn() {
	p := &g.p
	p.turn = (p.turn + 1) % int8(g.n)
	if p.turn == p.first {
		if g.roundGoesOn() {
			g.beginFinal()
			return
		}
		if p.round == MaxRounds {
			g.endGame(EndRounds)
			return
		}
		p.round++
	}
	p.actions = ActionsPerTurn
	g.emit(Event{Kind: EventTurn, Seat: int(p.turn), Round: int(p.round)})
}

// EndReason is why a game ends.
type EndReason uint8

const (
	NotEnding    EndReason = iota
	EndFavors              // the last favor was drawn
	EndPleasures           // the last guilty pleasure was drawn
	EndRounds              // MaxRounds rounds were played
)

// endGame starts the end: votes not yet begun are dropped (final voting holds them all), the
// turn stops, and when the tasks under way are done, final voting begins. With the house rules
// "even" the round goes on instead (roundGoesOn), with its votes.
func (g *Game) endGame(why EndReason) {
	p := &g.p
	if p.ending != NotEnding {
		return
	}
	p.ending = why
	if g.roundGoesOn() {
		g.emit(Event{Kind: EventEnding, Reason: why, Round: int(p.round)})
		return
	}
	kept := p.tasks[:0:0]
	for _, t := range p.tasks {
		if t.kind != taskVote {
			kept = append(kept, t)
		}
	}
	p.tasks = kept
	g.emit(Event{Kind: EventEnding, Reason: why})
}

// roundGoesOn reports whether the game is ending and, with the house rules "even", plays its
// round to the end before final voting (not after MaxRounds, which end at a round's end).
func (g *Game) roundGoesOn() bool {
	return g.cfg.Even && g.p.ending != NotEnding && g.p.ending != EndRounds && !g.p.final
}

// mustPass reports whether the seat whose turn it is, with actions left, has none it can take:
// only in the last round of the house rules "even", when the market may be empty.
func (g *Game) mustPass() bool {
	return g.roundGoesOn() && len(g.legalActions(int(g.p.turn))) == 0
}

// beginFinal holds a vote on every bill with favors, left to right, then has every seat show
// its shareholder cards.
func (g *Game) beginFinal() {
	p := &g.p
	p.final = true
	g.emit(Event{Kind: EventFinalVoting})
	for b := range BillsPerKingdom * KingdomBoards(g.n) {
		p.tasks = append(p.tasks, task{kind: taskVote, a: int8(b), b: callFinal})
	}
	for s := range g.n {
		p.tasks = append(p.tasks, task{kind: taskReveal, a: int8(s)})
	}
}
