package corruption

import (
	"errors"
	"fmt"

	"corruption/engine"
)

// MoveKind says what a Move does.
type MoveKind uint8

const (
	// MovePlace places Card on Spot (corruption phase, on one's own turn). In a hidden-card game
	// a face-down card may be CardUnknown.
	MovePlace MoveKind = iota
	// MovePeek spends a little-black-book peek on the face-down card at Index (corruption phase,
	// on one's own turn, before placing).
	MovePeek
	// MoveFaceUp is the free-stud choice of the round's first player: Positions.
	MoveFaceUp
	// MoveReveal reveals the face-down card at Index as Card (hidden-card games).
	MoveReveal
	// MoveAssign assigns the Swiss bribe being resolved to Contract (awarding step 1).
	MoveAssign
	// MoveKill has the hit man being resolved kill the character at Index (awarding step 2).
	MoveKill
	// MoveRemove has the reporter being resolved remove the bribe at Index (awarding step 4).
	MoveRemove
	// MovePass has the reporter being resolved remove nothing (awarding step 4).
	MovePass
	// MoveDeal deals the round's six contracts, in deck order (games started without a Deck).
	MoveDeal
	numMoveKinds
)

var moveKindNames = [numMoveKinds]string{"place", "peek", "faceup", "reveal", "assign", "kill", "remove", "pass", "deal"}

func (k MoveKind) String() string { return engine.KindName(moveKindNames[:], uint8(k), "move") }

// Move is one input to the game. Which fields count depends on Kind. Indexes are 1-based
// positions in the current round's global play order.
type Move struct {
	Kind      MoveKind
	Seat      int // who makes the move (ignored for MoveDeal)
	Card      Card
	Spot      Spot
	Contract  Contract
	Index     int
	Positions Positions
	Deal      [ContractsPerDeal]Contract
}

func (m Move) String() string {
	switch m.Kind {
	case MovePlace:
		return fmt.Sprintf("seat %d places %s on %s", m.Seat, m.Card, m.Spot)
	case MovePeek:
		return fmt.Sprintf("seat %d peeks at card %d", m.Seat, m.Index)
	case MoveFaceUp:
		return fmt.Sprintf("seat %d chooses face-up positions %s", m.Seat, m.Positions)
	case MoveReveal:
		return fmt.Sprintf("seat %d reveals card %d as %s", m.Seat, m.Index, m.Card)
	case MoveAssign:
		return fmt.Sprintf("seat %d assigns to %s", m.Seat, m.Contract)
	case MoveKill:
		return fmt.Sprintf("seat %d kills card %d", m.Seat, m.Index)
	case MoveRemove:
		return fmt.Sprintf("seat %d removes card %d", m.Seat, m.Index)
	case MovePass:
		return fmt.Sprintf("seat %d passes", m.Seat)
	case MoveDeal:
		return fmt.Sprintf("deal %v", m.Deal)
	}
	return m.Kind.String()
}

// MoveError is why a move was rejected. Seat is the seat at fault (-1 when the move was not a
// seat's, such as a bad deal).
type MoveError struct {
	Seat int
	Msg  string
}

func (e *MoveError) Error() string { return e.Msg }

// ErrGameOver is returned for any move after the end of the game.
var ErrGameOver = errors.New("the game is over")

func faultf(seat int, format string, args ...any) *MoveError {
	return &MoveError{Seat: seat, Msg: fmt.Sprintf(format, args...)}
}

// Apply plays one move. It either applies it whole or rejects it with a *MoveError (or
// ErrGameOver) and leaves the state unchanged.
func (s *State) Apply(m Move) error {
	if s.phase == PhaseOver {
		return ErrGameOver
	}
	if m.Kind != MoveDeal && (m.Seat < 0 || m.Seat >= s.cfg.Players) {
		return faultf(-1, "seat %d is not at this table of %d players", m.Seat, s.cfg.Players)
	}
	var err error
	switch m.Kind {
	case MoveDeal:
		err = s.deal(m.Deal)
	case MoveFaceUp:
		err = s.chooseFaceUp(m.Seat, m.Positions)
	case MovePeek:
		err = s.peek(m.Seat, m.Index)
	case MovePlace:
		err = s.place(m.Seat, m.Card, m.Spot)
	case MoveReveal:
		err = s.reveal(m.Seat, m.Index, m.Card)
	case MoveAssign, MoveKill, MoveRemove, MovePass:
		err = s.decideAwarding(m)
	default:
		err = faultf(m.Seat, "unknown move kind %d", m.Kind)
	}
	if err != nil {
		return err
	}
	s.advance()
	return nil
}

// notNow is the error for a move made out of turn or out of phase.
func (s *State) notNow(seat int, what string) *MoveError {
	d := s.Next()
	if d.Kind == DecideNothing {
		return faultf(seat, "seat %d cannot %s: the game is over", seat, what)
	}
	if d.Seat >= 0 && d.Seat != seat {
		return faultf(seat, "seat %d cannot %s: it is seat %d's turn to %s", seat, what, d.Seat, d.Kind.verb())
	}
	return faultf(seat, "seat %d cannot %s now: the game is waiting for %s", seat, what, d.describe())
}

func (s *State) emit(e Event) {
	if s.OnEvent != nil {
		e.Round = s.round
		s.OnEvent(e)
	}
}
