package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"corruption/engine/corruption"
)

// MoveSyntax is how a move is typed (in a terminal, or as the "text" of a move request).
const MoveSyntax = `CARD PLACE ("4000 airport", "8000 swiss:city", "reporter monument"), peek N, ` +
	`faceup [P...] ("faceup 1 3", "faceup" for none), assign CONTRACT, kill N, remove N, pass`

// ParseMove reads a typed move (see MoveSyntax). The Seat is left for the caller to fill in;
// whether the move is legal now is Check's business.
func ParseMove(text string) (corruption.Move, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return corruption.Move{}, errors.New("type a move")
	}
	var m corruption.Move
	args := f[1:]
	nargs := func(n int, usage string) error {
		if len(args) != n {
			return fmt.Errorf("%q: want %s", text, usage)
		}
		return nil
	}
	switch f[0] {
	case "pass":
		if err := nargs(0, "pass alone"); err != nil {
			return m, err
		}
		m.Kind = corruption.MovePass
	case "peek", "kill", "remove":
		if err := nargs(1, f[0]+" and a card number, e.g. "+f[0]+" 5"); err != nil {
			return m, err
		}
		i, err := cardIndex(args[0])
		if err != nil {
			return m, err
		}
		m.Kind, m.Index = map[string]corruption.MoveKind{"peek": corruption.MovePeek, "kill": corruption.MoveKill, "remove": corruption.MoveRemove}[f[0]], i
	case "assign":
		if err := nargs(1, "assign and a contract, e.g. assign monument"); err != nil {
			return m, err
		}
		c, err := corruption.ParseContract(args[0])
		if err != nil {
			return m, err
		}
		m.Kind, m.Contract = corruption.MoveAssign, c
	case "faceup":
		if len(args) == 1 && args[0] == "none" {
			args = nil
		}
		ps := make([]int, len(args))
		for k, a := range args {
			p, err := strconv.Atoi(a)
			if err != nil {
				return m, fmt.Errorf("faceup: %q is not a position (1 to %d)", a, corruption.CardsPerRound)
			}
			ps[k] = p
		}
		pos, err := corruption.PositionsOf(ps...)
		if err != nil {
			return m, err
		}
		m.Kind, m.Positions = corruption.MoveFaceUp, pos
	default:
		if f[0] == "place" {
			args = f[1:]
		} else {
			args = f
		}
		if len(args) != 2 {
			return m, fmt.Errorf("%q is not a move: want %s", text, MoveSyntax)
		}
		card, err := corruption.ParseCard(args[0])
		if err != nil {
			return m, err
		}
		spot, err := corruption.ParseSpot(args[1])
		if err != nil {
			return m, err
		}
		m.Kind, m.Card, m.Spot = corruption.MovePlace, card, spot
	}
	return m, nil
}

func cardIndex(s string) (int, error) {
	i, err := strconv.Atoi(strings.TrimPrefix(s, "#"))
	if err != nil || i < 1 {
		return 0, fmt.Errorf("%q is not a card number (the number shown on each card placed this round)", s)
	}
	return i, nil
}

// MoveRequest is a move as the page sends it (POST /api/move). Either Text (typed syntax) or
// Kind with its fields.
type MoveRequest struct {
	ID        int    `json:"id,omitempty"` // the decision it answers (0: whatever is due)
	Text      string `json:"text,omitempty"`
	Kind      string `json:"kind,omitempty"` // place peek faceup assign kill remove pass
	Card      string `json:"card,omitempty"`
	Spot      string `json:"spot,omitempty"`
	Contract  string `json:"contract,omitempty"`
	Index     int    `json:"index,omitempty"`
	Positions []int  `json:"positions,omitempty"`
}

// Move reads the request as an engine move (the Seat is left for the caller).
func (r MoveRequest) Move() (corruption.Move, error) {
	if r.Text != "" {
		return ParseMove(r.Text)
	}
	var m corruption.Move
	var err error
	switch r.Kind {
	case "place":
		m.Kind = corruption.MovePlace
		if m.Card, err = corruption.ParseCard(r.Card); err != nil {
			return m, err
		}
		m.Spot, err = corruption.ParseSpot(r.Spot)
	case "peek", "kill", "remove":
		m.Kind, m.Index = map[string]corruption.MoveKind{"peek": corruption.MovePeek, "kill": corruption.MoveKill, "remove": corruption.MoveRemove}[r.Kind], r.Index
		if r.Index < 1 {
			err = fmt.Errorf("%s: card %d is not a card number", r.Kind, r.Index)
		}
	case "assign":
		m.Kind = corruption.MoveAssign
		m.Contract, err = corruption.ParseContract(r.Contract)
	case "faceup":
		m.Kind = corruption.MoveFaceUp
		m.Positions, err = corruption.PositionsOf(r.Positions...)
	case "pass":
		m.Kind = corruption.MovePass
	case "":
		err = errors.New("the move has no kind")
	default:
		err = fmt.Errorf("unknown move kind %q (want place, peek, faceup, assign, kill, remove or pass)", r.Kind)
	}
	return m, err
}
