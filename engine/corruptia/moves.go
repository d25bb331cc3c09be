package corruptia

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"corruption/engine"
)

// Die is a face of the people's die: a department, or the revolution.
type Die int8

const (
	DieNone    Die = -1 // not rolled yet
	Revolution Die = NumDepartments
	dieFaces       = NumDepartments + 1
)

func (d Die) String() string {
	switch {
	case d == Revolution:
		return "R"
	case d >= 0 && d < Revolution:
		return Department(d).String()
	}
	return "none"
}

// ParseDie reads a face of the die: a department's name, or "R".
func ParseDie(s string) (Die, error) {
	if s == "R" {
		return Revolution, nil
	}
	d, err := ParseDepartment(s)
	if err != nil {
		return DieNone, fmt.Errorf("unknown face %q of the people's die (want a department or R)", s)
	}
	return Die(d), nil
}

// Vote is a senator's vote, or a blackmail's demand.
type Vote uint8

const (
	VoteNone Vote = iota // no vote (yet)
	VoteYes
	VoteNo
	VoteAbsent
)

var voteNames = [...]string{"none", "yes", "no", "absent"}

func (v Vote) String() string {
	if int(v) < len(voteNames) {
		return voteNames[v]
	}
	return fmt.Sprintf("vote(%d)", uint8(v))
}

// ParseVote reads a vote as a StepChoose opens it: "yes", "no" or "absent".
func ParseVote(s string) (Vote, error) {
	for v := VoteYes; v <= VoteAbsent; v++ {
		if voteNames[v] == s {
			return v, nil
		}
	}
	return VoteNone, fmt.Errorf("%q is not a vote (want yes, no or absent)", s)
}

// Worker is one of the three people a proposal puts in a bill's vacancies: a public official
// of the program, or a well-connected employee from a senator's reserve.
type Worker struct {
	Employee bool
	Income   int // an official's income expectation, 1 to 3 (0 for an employee)
	From     int // an official's bill, by its index in the program; an employee's senator
}

func (w Worker) key() int {
	if w.Employee {
		return 1<<16 | w.From
	}
	return w.From<<2 | w.Income
}

func (w Worker) String() string {
	if w.Employee {
		return fmt.Sprintf("an employee of seat %d", w.From)
	}
	return fmt.Sprintf("a $%d official from bill %d", w.Income, w.From)
}

// Proposal is a bill put forward for the program: a bill of the active senator's hand, where
// it goes, and who fills its three vacancies.
type Proposal struct {
	Slot    int  // the bill's place in the active senator's hand, from 0
	Bill    Bill // the bill (as claimed, until it is shown)
	At      Cell
	Workers [WorkersPerBill]Worker
}

// Canonical is p with its workers in the canonical order: officials by bill and income, then
// employees by senator.
func (p Proposal) Canonical() Proposal {
	slices.SortFunc(p.Workers[:], func(a, b Worker) int { return a.key() - b.key() })
	return p
}

// MoveKind says what a seat does.
type MoveKind uint8

const (
	MovePass      MoveKind = iota // a response or a swap declined: the empty move
	MoveDiscard                   // Slot: the opening discard, face down
	MovePropose                   // Proposal: the active senator's bill
	MoveNoBill                    // the active senator has no bill it may propose, and shows its hand
	MoveOffer                     // one employee of the mover's reserve, offered for this proposal
	MoveBlackmail                 // Target, Demand: a blackmail card played on Target
	MoveAmend                     // Proposal: the active senator changes its proposal
	MoveCall                      // the active senator calls the vote
	MoveSwap                      // Slot, Take: an absent senator swaps a bill for one of the pile
	numMoveKinds
)

var moveNames = [numMoveKinds]string{"pass", "discard", "propose", "nobill", "offer", "blackmail", "amend", "call", "swap"}

func (k MoveKind) String() string { return engine.KindName(moveNames[:], uint8(k), "move") }

// Move is a seat's decision at a StepMove. The seat is not part of it: the table knows who
// signed.
type Move struct {
	Kind     MoveKind
	Slot     int      // MoveDiscard, MoveSwap: a card of the mover's hand, from 0
	Proposal Proposal // MovePropose, MoveAmend
	Target   int      // MoveBlackmail: the senator blackmailed
	Demand   Vote     // MoveBlackmail: VoteYes or VoteNo
	Take     Bill     // MoveSwap: the bill taken from the discard pile
}

func (m Move) String() string {
	switch m.Kind {
	case MoveDiscard:
		return fmt.Sprintf("discard slot %d", m.Slot)
	case MovePropose, MoveAmend:
		p := m.Proposal
		ws := make([]string, len(p.Workers))
		for i, w := range p.Workers {
			ws[i] = w.String()
		}
		return fmt.Sprintf("%s %s (slot %d) at %s with %s", m.Kind, p.Bill, p.Slot, p.At, strings.Join(ws, ", "))
	case MoveBlackmail:
		return fmt.Sprintf("blackmail seat %d to vote %s", m.Target, m.Demand)
	case MoveSwap:
		return fmt.Sprintf("swap slot %d for %s", m.Slot, m.Take)
	}
	return m.Kind.String()
}

// Codec bounds: a hand never holds more than 13 bills, a program more than 28.
const (
	maxSlot      = 31
	maxBillIndex = 63
	tagEmployee  = 4
)

// EncodeMove is the canonical encoding of m: a kind byte and its arguments, one byte each;
// the empty move for a pass. A proposal is slot, bill, row, column (signed bytes) and three
// workers of two bytes each (income 1..3 and bill index for an official, 4 and the senator for
// an employee), in the canonical order, which EncodeMove puts them in.
func EncodeMove(m Move) ([]byte, error) {
	switch m.Kind {
	case MovePass:
		return []byte{}, nil
	case MoveNoBill, MoveOffer, MoveCall:
		return []byte{byte(m.Kind)}, nil
	case MoveDiscard:
		if m.Slot < 0 || m.Slot > maxSlot {
			return nil, fmt.Errorf("move: discard: slot %d is not between 0 and %d", m.Slot, maxSlot)
		}
		return []byte{byte(m.Kind), byte(m.Slot)}, nil
	case MoveSwap:
		if m.Slot < 0 || m.Slot > maxSlot || !m.Take.Valid() {
			return nil, fmt.Errorf("move: swap: slot %d for %s", m.Slot, m.Take)
		}
		return []byte{byte(m.Kind), byte(m.Slot), byte(m.Take)}, nil
	case MoveBlackmail:
		if m.Target < 0 || m.Target >= MaxPlayers || (m.Demand != VoteYes && m.Demand != VoteNo) {
			return nil, fmt.Errorf("move: blackmail: seat %d to vote %s", m.Target, m.Demand)
		}
		return []byte{byte(m.Kind), byte(m.Target), byte(m.Demand)}, nil
	case MovePropose, MoveAmend:
		return encodeProposal(m.Kind, m.Proposal)
	}
	return nil, fmt.Errorf("move: unknown kind %d", m.Kind)
}

func encodeProposal(k MoveKind, p Proposal) ([]byte, error) {
	p = p.Canonical()
	if p.Slot < 0 || p.Slot > maxSlot || !p.Bill.Valid() {
		return nil, fmt.Errorf("move: %s: slot %d, bill %s", k, p.Slot, p.Bill)
	}
	if p.At.Row < -128 || p.At.Row > 127 || p.At.Col < -128 || p.At.Col > 127 {
		return nil, fmt.Errorf("move: %s: cell %s is out of range", k, p.At)
	}
	b := []byte{byte(k), byte(p.Slot), byte(p.Bill), byte(int8(p.At.Row)), byte(int8(p.At.Col))}
	for _, w := range p.Workers {
		switch {
		case w.Employee && w.From >= 0 && w.From < MaxPlayers && w.Income == 0:
			b = append(b, tagEmployee, byte(w.From))
		case !w.Employee && w.Income >= 1 && w.Income <= Incomes && w.From >= 0 && w.From <= maxBillIndex:
			b = append(b, byte(w.Income), byte(w.From))
		default:
			return nil, fmt.Errorf("move: %s: worker %+v is neither an official ($1 to $3, bill 0 to %d) nor an employee (seat 0 to %d)",
				k, w, maxBillIndex, MaxPlayers-1)
		}
	}
	return b, nil
}

var moveArgs = [numMoveKinds]int{MoveDiscard: 1, MovePropose: 10, MoveBlackmail: 2, MoveAmend: 10, MoveSwap: 2}

// DecodeMove reads a move from its canonical encoding. Its errors say what is wrong: an
// unknown kind, a missing or trailing byte, an argument out of range, workers out of order.
func DecodeMove(b []byte) (Move, error) {
	if len(b) == 0 {
		return Move{Kind: MovePass}, nil
	}
	k := MoveKind(b[0])
	if k == MovePass || k >= numMoveKinds {
		return Move{}, fmt.Errorf("move: unknown kind %d", b[0])
	}
	if len(b) != 1+moveArgs[k] {
		return Move{}, fmt.Errorf("move: %s: %d bytes of arguments, want %d", k, len(b)-1, moveArgs[k])
	}
	m := Move{Kind: k}
	switch k {
	case MoveDiscard:
		m.Slot = int(b[1])
	case MoveSwap:
		m.Slot, m.Take = int(b[1]), Bill(b[2])
	case MoveBlackmail:
		m.Target, m.Demand = int(b[1]), Vote(b[2])
	case MovePropose, MoveAmend:
		p := &m.Proposal
		p.Slot, p.Bill, p.At = int(b[1]), Bill(b[2]), Cell{int(int8(b[3])), int(int8(b[4]))}
		for i := range p.Workers {
			tag, arg := b[5+2*i], int(b[6+2*i])
			p.Workers[i] = Worker{Employee: tag == tagEmployee, From: arg}
			if tag != tagEmployee {
				p.Workers[i].Income = int(tag)
			}
		}
		if p.Canonical() != *p {
			return Move{}, errors.New("move: " + k.String() + ": workers out of the canonical order")
		}
	}
	if _, err := EncodeMove(m); err != nil { // the ranges are the encoder's
		return Move{}, err
	}
	return m, nil
}
