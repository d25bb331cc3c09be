package bot

import (
	k "corruption/engine/kingdoms"
)

// chaosWorth is what playing chaos card m now is worth to the heuristic bot, less what keeping
// it for later is worth: it plays the card when this is positive.
func (b *board) chaosWorth(m k.Move) float64 {
	c := chaos[m.Card]
	hold := 0.8 * (1 - b.endSoon)
	switch c.Effect {
	case k.Recruit:
		return b.minionsWorth(c.Minions[:]) - hold
	case k.Hustle:
		return 1 - hold
	case k.Indulge:
		return b.pickWorth(k.PickMove(b.me, m.Pleasure)) - hold
	case k.Coup:
		free := m
		free.Waive, free.Minion = 3, k.NoMinion
		return b.influenceWorth(free) + 0.6 - hold
	case k.Scandal:
		l := leaders[m.Leader]
		return b.withPower(b.v.Control[m.Leader], -1, l.Kingdom) - b.value() + 0.4 - hold
	case k.Lobby:
		return b.outcome(m.Bill) - hold
	case k.Earmark:
		return b.placeWorth(m.Favor, m.Bill) - hold
	case k.Shred:
		for bill := range b.nbills {
			for _, f := range b.v.Bills[bill].Favors {
				if f.Favor == m.Favor {
					return -b.pass[bill]*b.favorWorth(f.Favor, f.Seat) - hold
				}
			}
		}
	case k.Embezzle:
		got := min(2, b.v.Seats[m.Target].Minions[m.Minion])
		return 0.35*float64(got) + 0.1*float64(got) - hold
	case k.Ballot, k.Veto:
		return b.answerWorth(m, c) - 0.3*(1-b.endSoon)
	case k.Guard:
		return 1
	}
	return -1
}

// answerWorth is what a ballot or veto changes in the vote under way, to the bot.
func (b *board) answerWorth(m k.Move, c k.ChaosCard) float64 {
	vt := b.v.Vote
	yes, no := b.v.Tally(vt.Votes)
	bill := vt.Bill
	worth := func(yes, no int, veto bool) float64 {
		switch {
		case veto:
			return b.pass[bill] * b.gain[bill]
		case yes > no || yes == no && b.freedom(bill, -1):
			return b.gain[bill]
		case no > yes:
			return 0
		}
		return b.pass[bill] * b.gain[bill]
	}
	now := worth(yes, no, vt.Veto)
	if c.Effect == k.Veto {
		return worth(yes, no, true) - now
	}
	if m.Yes {
		yes += c.Votes
	} else {
		no += c.Votes
	}
	return worth(yes, no, vt.Veto) - now
}
