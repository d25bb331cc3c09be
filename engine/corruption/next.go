package corruption

import (
	"fmt"

	"corruption/engine"
)

// DecisionKind is the kind of decision the game is waiting for.
type DecisionKind uint8

const (
	DecideNothing DecisionKind = iota // the game is over
	DecideDeal                        // the round's contracts must be dealt (MoveDeal)
	DecideFaceUp                      // free stud: the first player chooses face-up positions
	DecidePlace                       // a player places a card (and may first peek)
	DecideReveal                      // a player reveals a face-down card
	DecideAssign                      // a player assigns a Swiss bribe to a contract
	DecideKill                        // a hit man's owner chooses its victim
	DecideRemove                      // a reporter's owner removes a bribe or passes
	numDecisionKinds
)

var decisionNames = [numDecisionKinds]string{"none", "deal", "faceup", "place", "reveal", "assign", "kill", "remove"}
var decisionVerbs = [numDecisionKinds]string{"do nothing", "deal", "choose the face-up positions",
	"place a card", "reveal a card", "assign a Swiss bribe", "choose a hit man's target",
	"use a reporter"}

// String is the decision's short name, as in replay output: none deal faceup place reveal
// assign kill remove.
func (k DecisionKind) String() string { return engine.KindName(decisionNames[:], uint8(k), "decision") }

func (k DecisionKind) verb() string {
	if k < numDecisionKinds {
		return decisionVerbs[k]
	}
	return k.String()
}

// Decision is what the game waits for: who must act and how.
type Decision struct {
	Kind DecisionKind
	Seat int // the seat that must act; -1 for DecideDeal and DecideNothing
	// Index is the card concerned (1-based, this round's play order): the card to reveal, the
	// Swiss bribe to assign, the hit man, or the reporter.
	Index int
	// CanPeek: at DecidePlace, the player may first spend a little-black-book peek.
	CanPeek bool
}

func (d Decision) describe() string {
	switch d.Kind {
	case DecideNothing:
		return "nothing (the game is over)"
	case DecideDeal:
		return "the round's contracts to be dealt"
	case DecideReveal, DecideAssign, DecideKill, DecideRemove:
		return fmt.Sprintf("seat %d to %s (card %d)", d.Seat, d.Kind.verb(), d.Index)
	}
	return fmt.Sprintf("seat %d to %s", d.Seat, d.Kind.verb())
}

func (d Decision) String() string { return d.describe() }

// Next says who must act and which decision is due.
func (s *State) Next() Decision {
	switch s.phase {
	case PhaseDeal:
		return Decision{Kind: DecideDeal, Seat: -1}
	case PhaseFaceUp:
		return Decision{Kind: DecideFaceUp, Seat: s.first}
	case PhaseCorruption:
		seat := s.turnSeat()
		return Decision{Kind: DecidePlace, Seat: seat, CanPeek: s.canPeek(seat)}
	case PhaseReveal:
		for i := 0; i < s.nplays; i++ {
			if !s.plays[i].Revealed {
				return Decision{Kind: DecideReveal, Seat: s.plays[i].Seat, Index: i + 1}
			}
		}
	case PhaseAwarding:
		p := &s.plays[s.cursor]
		kind := [...]DecisionKind{1: DecideAssign, 2: DecideKill, 4: DecideRemove}[s.step]
		return Decision{Kind: kind, Seat: p.Seat, Index: s.cursor + 1}
	}
	return Decision{Kind: DecideNothing, Seat: -1}
}

// canPeek reports whether seat, about to place, may spend a peek: it has one left, it has not
// peeked this turn, and some card is there to peek at.
func (s *State) canPeek(seat int) bool {
	if !s.cfg.LittleBlackBook || s.hands[seat].peeks == 0 || s.peekedTurn {
		return false
	}
	for i := 0; i < s.nplays; i++ {
		if s.peekable(seat, i) == "" {
			return true
		}
	}
	return false
}

// peekable says why seat may not peek at play i ("" when it may).
func (s *State) peekable(seat, i int) string {
	p := &s.plays[i]
	switch {
	case p.Seat == seat:
		return "it is its own card"
	case p.Spot.IsSwiss():
		return "it is on a Swiss account"
	case p.Revealed:
		return "it is face up"
	case p.PeekedBy&(1<<seat) != 0:
		return "it has already seen it"
	}
	return ""
}
