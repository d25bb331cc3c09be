package kingdoms

// The turn passing, and the end of the game ("Play continues until the last Favor or Guilty
// Pleasure is drawn ... a vote is initiated on every remaining Bill from left to right").

// nextTurn passes the turn clockwise; after the last turn of round MaxRounds the game ends.
func (g *Game) nextTurn() {
	p := &g.p
	p.turn = (p.turn + 1) % int8(g.n)
	if p.turn == p.first {
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
// turn stops, and when the tasks under way are done, final voting begins.
func (g *Game) endGame(why EndReason) {
	p := &g.p
	if p.ending != NotEnding {
		return
	}
	p.ending = why
	kept := p.tasks[:0:0]
	for _, t := range p.tasks {
		if t.kind != taskVote {
			kept = append(kept, t)
		}
	}
	p.tasks = kept
	g.emit(Event{Kind: EventEnding, Reason: why})
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
