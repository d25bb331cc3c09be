package corruption

import (
	"errors"
	"fmt"
)

// The canonical encodings the table kit carries (game.go): a table's configuration and a
// seat's move. Decoding is strict: whatever a decoder accepts, the encoder gives back byte for
// byte, so that every node reads the same bytes the same way.

// Configuration: u8 variant ‖ u8 flags (bit 0: the little black book; the other bits zero).
const (
	configSize = 2
	flagLBB    = 1
)

// EncodeConfig is the canonical configuration of a table of variant v, with the little black
// book when lbb.
func EncodeConfig(v Variant, lbb bool) []byte {
	b := []byte{byte(v), 0}
	if lbb {
		b[1] |= flagLBB
	}
	return b
}

// DecodeConfig reads a configuration made by EncodeConfig. Its errors say what is wrong: the
// length, an unknown variant, an unknown flag, or the little black book with the closed variant.
func DecodeConfig(b []byte) (Variant, bool, error) {
	if len(b) != configSize {
		return 0, false, fmt.Errorf("config: %d bytes, want %d (variant, flags)", len(b), configSize)
	}
	v, flags := Variant(b[0]), b[1]
	if v >= numVariants {
		return 0, false, fmt.Errorf("config: unknown variant %d", b[0])
	}
	if flags&^flagLBB != 0 {
		return 0, false, fmt.Errorf("config: unknown flags %#02x", flags&^flagLBB)
	}
	lbb := flags&flagLBB != 0
	if lbb && v == Closed {
		return 0, false, errors.New("config: the little black book is not played with the closed variant")
	}
	return v, lbb, nil
}

// Move encoding: a kind byte, then its arguments, one byte each.
//
//	faceup positions   (a set of positions 1..6, bit p-1 for position p)
//	peek   index       (1-based, this round's play order)
//	place  spot card   (card 0 when face down: the card travels as the move's hidden value)
//	assign contract
//	kill   index
//	remove index
//	pass
const (
	codeFaceUp byte = 1 + iota
	codePeek
	codePlace
	codeAssign
	codeKill
	codeRemove
	codePass
)

// EncodeMove is the canonical encoding of a seat's move (the seat itself is not encoded: the
// table knows who signed). A placement's Card is encoded as is, CardUnknown for a face-down
// card. Deals and reveals are not moves a seat makes: the table's steps carry them.
func EncodeMove(m Move) ([]byte, error) {
	switch m.Kind {
	case MoveFaceUp:
		if m.Positions&^AllPositions != 0 {
			return nil, fmt.Errorf("move: faceup: positions %#02x outside 1..6", uint8(m.Positions))
		}
		return []byte{codeFaceUp, byte(m.Positions)}, nil
	case MovePeek, MoveKill, MoveRemove:
		if m.Index < 1 || m.Index > MaxPlays {
			return nil, fmt.Errorf("move: %s: card %d is not between 1 and %d", m.Kind, m.Index, MaxPlays)
		}
		code := codePeek
		if m.Kind == MoveKill {
			code = codeKill
		} else if m.Kind == MoveRemove {
			code = codeRemove
		}
		return []byte{code, byte(m.Index)}, nil
	case MovePlace:
		if m.Spot >= numSpots {
			return nil, fmt.Errorf("move: place: spot %d is no place", m.Spot)
		}
		if m.Card >= numCards {
			return nil, fmt.Errorf("move: place: card %d is no card", m.Card)
		}
		return []byte{codePlace, byte(m.Spot), byte(m.Card)}, nil
	case MoveAssign:
		if int(m.Contract) >= NumContracts {
			return nil, fmt.Errorf("move: assign: contract %d is no contract", m.Contract)
		}
		return []byte{codeAssign, byte(m.Contract)}, nil
	case MovePass:
		return []byte{codePass}, nil
	}
	return nil, fmt.Errorf("move: a %s is not a seat's move", m.Kind)
}

// DecodeMove reads seat's move from its canonical encoding. Its errors name what is wrong: an
// empty move, an unknown kind, a missing or trailing byte, an argument out of range.
func DecodeMove(seat int, b []byte) (Move, error) {
	if len(b) == 0 {
		return Move{}, errors.New("move: empty")
	}
	m := Move{Seat: seat}
	var args int
	switch b[0] {
	case codeFaceUp:
		m.Kind, args = MoveFaceUp, 1
	case codePeek:
		m.Kind, args = MovePeek, 1
	case codePlace:
		m.Kind, args = MovePlace, 2
	case codeAssign:
		m.Kind, args = MoveAssign, 1
	case codeKill:
		m.Kind, args = MoveKill, 1
	case codeRemove:
		m.Kind, args = MoveRemove, 1
	case codePass:
		m.Kind = MovePass
	default:
		return Move{}, fmt.Errorf("move: unknown kind %d", b[0])
	}
	if len(b) != 1+args {
		return Move{}, fmt.Errorf("move: %s: %d bytes of arguments, want %d", m.Kind, len(b)-1, args)
	}
	switch m.Kind {
	case MoveFaceUp:
		m.Positions = Positions(b[1])
	case MovePeek, MoveKill, MoveRemove:
		m.Index = int(b[1])
	case MovePlace:
		m.Spot, m.Card = Spot(b[1]), Card(b[2])
	case MoveAssign:
		m.Contract = Contract(b[1])
	}
	if _, err := EncodeMove(m); err != nil { // the ranges are the encoder's
		return Move{}, err
	}
	return m, nil
}
