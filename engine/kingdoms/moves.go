package kingdoms

import (
	"fmt"

	"corruption/engine"
)

// MoveKind is what a seat does.
type MoveKind uint8

const (
	MoveNone      MoveKind = iota
	MoveTake               // action: take Favor from the market for its minions, and discard it
	MovePlace              // action: take Favor from the market and place it under Bill
	MoveInfluence          // action: influence Leader, paying its cost less Waive, plus Minion to steal
	MoveCall               // action: call a vote on Bill
	MoveChaos              // play chaos Card from position Pos of the seat's chaos deck (not an action)
	MovePick               // take guilty pleasure Pleasure after a bill passed, with its bill bonus
	MoveCycle              // environment bonus: put Pleasure under the deck, draw one in its place
	MoveDiscard            // setup: discard the chaos card at Pos, face down (a hidden value)
	MoveVote               // a secret vote, Yes or no (a simultaneous choice)
	MovePass               // answer a steal or a vote without a chaos card
	numMoveKinds
)

var moveNames = [numMoveKinds]string{"none", "take", "place", "influence", "call", "chaos", "pick", "cycle",
	"discard", "vote", "pass"}

func (k MoveKind) String() string { return engine.KindName(moveNames[:], uint8(k), "move") }

// Move is one seat's decision. Which fields count depends on Kind (see MoveKind) and, for a
// chaos card, on its effect:
//
//	indulge  Pleasure            coup, scandal  Leader          lobby    Bill
//	earmark  Favor, Bill         shred          Favor           embezzle Target, Minion
//	ballot   Yes (for or against)                the others     nothing
//
// A pick's bill bonus: Leader (defense: remove that opponent's marker), Favor and Other (magic:
// exchange the seat's Favor on another bill for Other from the market), Minion (industry);
// -1 or NoMinion when the seat takes no bonus. Build moves with the constructors below, which
// set the optional fields to none.
type Move struct {
	Kind     MoveKind
	Seat     int
	Favor    int
	Other    int
	Bill     int
	Leader   int
	Pleasure int
	Waive    uint8 // bit i waives Cost[i] of the leader
	Minion   Minion
	Target   int
	Card     int
	Pos      int
	Yes      bool
}

func none(k MoveKind, seat int) Move {
	return Move{Kind: k, Seat: seat, Favor: -1, Other: -1, Bill: -1, Leader: -1, Pleasure: -1, Minion: NoMinion,
		Target: -1, Card: -1, Pos: -1}
}

// TakeMove takes favor from the market for its minions.
func TakeMove(seat, favor int) Move { m := none(MoveTake, seat); m.Favor = favor; return m }

// PlaceMove places favor from the market under bill.
func PlaceMove(seat, favor, bill int) Move {
	m := none(MovePlace, seat)
	m.Favor, m.Bill = favor, bill
	return m
}

// InfluenceMove influences leader, waiving the cost minions of waive (bit i: Cost[i]) and
// paying extra (NoMinion unless it is a steal).
func InfluenceMove(seat, leader int, waive uint8, extra Minion) Move {
	m := none(MoveInfluence, seat)
	m.Leader, m.Waive, m.Minion = leader, waive, extra
	return m
}

// CallMove calls a vote on bill.
func CallMove(seat, bill int) Move { m := none(MoveCall, seat); m.Bill = bill; return m }

// ChaosMove plays card from position pos; set the effect's fields on the result.
func ChaosMove(seat, card, pos int) Move {
	m := none(MoveChaos, seat)
	m.Card, m.Pos = card, pos
	return m
}

// PickMove takes guilty pleasure p (-1: none), with no bonus; set the bonus's fields on the
// result.
func PickMove(seat, p int) Move { m := none(MovePick, seat); m.Pleasure = p; return m }

// CycleMove puts guilty pleasure p under the deck (environment bonus).
func CycleMove(seat, p int) Move { m := none(MoveCycle, seat); m.Pleasure = p; return m }

// DiscardMove discards the chaos card at position pos of the seat's chaos deck.
func DiscardMove(seat, pos int) Move { m := none(MoveDiscard, seat); m.Pos = pos; return m }

// VoteMove votes yes or no.
func VoteMove(seat int, yes bool) Move { m := none(MoveVote, seat); m.Yes = yes; return m }

// PassMove plays no chaos card in answer to a steal or a vote.
func PassMove(seat int) Move { return none(MovePass, seat) }

func (m Move) String() string {
	s := fmt.Sprintf("seat %d ", m.Seat)
	switch m.Kind {
	case MoveTake:
		return s + "takes " + favorID(m.Favor) + " for its minions"
	case MovePlace:
		return s + "places " + favorID(m.Favor) + " on " + BillID(m.Bill)
	case MoveInfluence:
		s += "influences " + leaderID(m.Leader)
		if m.Waive != 0 {
			s += fmt.Sprintf(" (waiving %s)", waived(m.Leader, m.Waive))
		}
		if m.Minion != NoMinion {
			s += " paying a " + m.Minion.String() + " more"
		}
		return s
	case MoveCall:
		return s + "calls a vote on " + BillID(m.Bill)
	case MoveChaos:
		return s + "plays " + chaosID(m.Card) + chaosArgs(m)
	case MovePick:
		if m.Pleasure < 0 {
			return s + "takes no guilty pleasure"
		}
		return s + "takes " + pleasureID(m.Pleasure) + pickBonus(m)
	case MoveCycle:
		return s + "puts " + pleasureID(m.Pleasure) + " under the deck"
	case MoveDiscard:
		return s + "discards a chaos card"
	case MoveVote:
		return s + "votes " + yesNo(m.Yes)
	case MovePass:
		return s + "passes"
	}
	return s + m.Kind.String()
}

func yesNo(yes bool) string {
	if yes {
		return "yes"
	}
	return "no"
}

func waived(l int, w uint8) string {
	if l < 0 || l >= len(leaders) {
		return fmt.Sprintf("%#b", w)
	}
	s := ""
	for i, c := range leaders[l].Cost {
		if w&(1<<i) != 0 {
			if s != "" {
				s += " and "
			}
			s += "a " + c.String()
		}
	}
	return s
}

func chaosArgs(m Move) string {
	if m.Card < 0 || m.Card >= len(chaosCards) {
		return ""
	}
	switch chaosCards[m.Card].Effect {
	case Indulge:
		return ": " + pleasureID(m.Pleasure)
	case Coup, Scandal:
		return ": " + leaderID(m.Leader)
	case Lobby:
		return ": " + BillID(m.Bill)
	case Earmark:
		return ": " + favorID(m.Favor) + " on " + BillID(m.Bill)
	case Shred:
		return ": " + favorID(m.Favor)
	case Embezzle:
		return fmt.Sprintf(": seat %d's %ss", m.Target, m.Minion)
	case Ballot:
		return ": " + yesNo(m.Yes)
	}
	return ""
}

func pickBonus(m Move) string {
	s := ""
	if m.Leader >= 0 {
		s += ", removing the marker on " + leaderID(m.Leader)
	}
	if m.Favor >= 0 {
		s += ", exchanging " + favorID(m.Favor) + " for " + favorID(m.Other)
	}
	if m.Minion != NoMinion {
		s += ", and a " + m.Minion.String()
	}
	return s
}

func favorID(f int) string {
	if f >= 0 && f < len(favors) {
		return favors[f].ID
	}
	return fmt.Sprintf("favor(%d)", f)
}

func pleasureID(p int) string {
	if p >= 0 && p < len(pleasures) {
		return pleasures[p].ID
	}
	return fmt.Sprintf("pleasure(%d)", p)
}

func leaderID(l int) string {
	if l >= 0 && l < len(leaders) {
		return leaders[l].ID
	}
	return fmt.Sprintf("leader(%d)", l)
}

func chaosID(c int) string {
	if c >= 0 && c < len(chaosCards) {
		return chaosCards[c].ID
	}
	return fmt.Sprintf("chaos(%d)", c)
}
