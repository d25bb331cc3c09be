package kingdoms

import (
	"errors"
	"fmt"
)

// The canonical encoding of a seat's move, as the table kit carries it (the seat is not
// encoded: the table knows who signed). A kind byte, then one byte per argument of the kind,
// 0xff for an optional argument left out:
//
//	take       favor
//	place      favor bill
//	influence  leader waive extra          (extra: a minion, or 0xff when not a steal)
//	call       bill
//	chaos      card pos [effect's args]    (indulge: pleasure; coup, scandal: leader; lobby:
//	                                        bill; earmark: favor bill; shred: favor;
//	                                        embezzle: seat minion; ballot: 1 for, 0 against)
//	pick       pleasure leader favor other minion   (0xff pleasure: none; the bonus's optional)
//	cycle      pleasure
//	discard                                (the position travels as the move's hidden value)
//
// A pass is the empty move; a vote is no move at all but a choice's hidden value, "yes" or
// "no". Decoding is strict: whatever DecodeMove accepts, EncodeMove gives back byte for byte.

// field is one argument of a move.
type field uint8

const (
	fFavor field = iota
	fOther
	fBill
	fLeader
	fPleasure
	fWaive
	fMinion
	fTarget
	fCard
	fPos
	fYes
	optional field = 0x80 // or-ed in: the argument may be left out (0xff)
)

const noneByte = 0xff

var kindCode = map[MoveKind][]field{
	MoveTake:      {fFavor},
	MovePlace:     {fFavor, fBill},
	MoveInfluence: {fLeader, fWaive, fMinion | optional},
	MoveCall:      {fBill},
	MoveChaos:     {fCard, fPos},
	MovePick:      {fPleasure | optional, fLeader | optional, fFavor | optional, fOther | optional, fMinion | optional},
	MoveCycle:     {fPleasure},
	MoveDiscard:   {},
}

var effectFields = [numEffects][]field{
	Indulge: {fPleasure}, Coup: {fLeader}, Scandal: {fLeader}, Lobby: {fBill}, Earmark: {fFavor, fBill},
	Shred: {fFavor}, Embezzle: {fTarget, fMinion}, Ballot: {fYes},
}

// limit is the number of values of each field.
func limit(f field) int {
	switch f {
	case fFavor, fOther:
		return NumFavors
	case fBill:
		return NumBills
	case fLeader:
		return len(leaders)
	case fPleasure:
		return NumPleasures
	case fWaive:
		return 4
	case fMinion:
		return int(NumMinions)
	case fTarget:
		return MaxPlayers
	case fCard:
		return NumChaos
	case fPos:
		return 4
	}
	return 2 // fYes
}

var fieldNames = [...]string{"favor", "other favor", "bill", "leader", "guilty pleasure", "waive", "minion",
	"seat", "chaos card", "position", "side"}

// get and set read and write a field of m as a byte value (-1: left out).
func get(m *Move, f field) int {
	switch f {
	case fFavor:
		return m.Favor
	case fOther:
		return m.Other
	case fBill:
		return m.Bill
	case fLeader:
		return m.Leader
	case fPleasure:
		return m.Pleasure
	case fWaive:
		return int(m.Waive)
	case fMinion:
		if m.Minion == NoMinion {
			return -1
		}
		return int(m.Minion)
	case fTarget:
		return m.Target
	case fCard:
		return m.Card
	case fPos:
		return m.Pos
	}
	if m.Yes {
		return 1
	}
	return 0
}

func set(m *Move, f field, v int) {
	switch f {
	case fFavor:
		m.Favor = v
	case fOther:
		m.Other = v
	case fBill:
		m.Bill = v
	case fLeader:
		m.Leader = v
	case fPleasure:
		m.Pleasure = v
	case fWaive:
		m.Waive = uint8(v)
	case fMinion:
		m.Minion = NoMinion
		if v >= 0 {
			m.Minion = Minion(v)
		}
	case fTarget:
		m.Target = v
	case fCard:
		m.Card = v
	case fPos:
		m.Pos = v
	case fYes:
		m.Yes = v == 1
	}
}

// fieldsOf lists the arguments of m's encoding (the card must be known for a chaos move).
func fieldsOf(m *Move) ([]field, error) {
	fs, ok := kindCode[m.Kind]
	if !ok {
		return nil, fmt.Errorf("move: a %s is not encoded as a move", m.Kind)
	}
	if m.Kind == MoveChaos {
		if m.Card < 0 || m.Card >= NumChaos {
			return nil, fmt.Errorf("move: chaos: card %d is no chaos card", m.Card)
		}
		fs = append(fs[:len(fs):len(fs)], effectFields[chaosCards[m.Card].Effect]...)
	}
	return fs, nil
}

// EncodeMove is the canonical encoding of m. A pass encodes as the empty move; a vote is not a
// move (see Game.Action).
func EncodeMove(m Move) ([]byte, error) {
	if m.Kind == MovePass {
		return []byte{}, nil
	}
	fs, err := fieldsOf(&m)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 1, 1+len(fs))
	b[0] = byte(m.Kind)
	for _, f := range fs {
		base := f &^ optional
		v := get(&m, base)
		switch {
		case v == -1 && f&optional != 0:
			b = append(b, noneByte)
		case v < 0 || v >= limit(base):
			return nil, fmt.Errorf("move: %s: %s %d is out of range", m.Kind, fieldNames[base], v)
		default:
			b = append(b, byte(v))
		}
	}
	return b, nil
}

// DecodeMove reads seat's move from its canonical encoding. Its errors say what is wrong: an
// unknown kind, a missing or trailing byte, an argument out of range.
func DecodeMove(seat int, b []byte) (Move, error) {
	if len(b) == 0 {
		return PassMove(seat), nil
	}
	k := MoveKind(b[0])
	if _, ok := kindCode[k]; !ok {
		return Move{}, fmt.Errorf("move: unknown kind %d", b[0])
	}
	m := none(k, seat)
	if k == MoveChaos {
		if len(b) < 3 {
			return Move{}, fmt.Errorf("move: chaos: %d bytes of arguments, want at least 2", len(b)-1)
		}
		m.Card = int(b[1])
	}
	fs, err := fieldsOf(&m)
	if err != nil {
		return Move{}, err
	}
	if len(b) != 1+len(fs) {
		return Move{}, fmt.Errorf("move: %s: %d bytes of arguments, want %d", k, len(b)-1, len(fs))
	}
	for i, f := range fs {
		v, base := int(b[1+i]), f&^optional
		switch {
		case v == noneByte && f&optional != 0:
			set(&m, base, -1)
		case v >= limit(base):
			return Move{}, fmt.Errorf("move: %s: %s %d is out of range", k, fieldNames[base], v)
		default:
			set(&m, base, v)
		}
	}
	return m, nil
}

// Votes travel as a choice's hidden value.
var (
	voteYes = []byte("yes")
	voteNo  = []byte("no")
)

// decodeVote reads a vote's hidden value.
func decodeVote(v []byte) (bool, error) {
	switch string(v) {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, errors.New("a vote is \"yes\" or \"no\"")
}
