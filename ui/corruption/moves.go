package corruption

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	rules "corruption/engine/corruption"
	"corruption/ui"
)

// moveSyntax is how a move is typed (in a terminal, or as the "text" of a move request).
const moveSyntax = `CARD PLACE ("4000 airport", "8000 swiss:city", "reporter monument"), peek N, ` +
	`faceup [P...] ("faceup 1 3", "faceup" for none), assign CONTRACT, kill N, remove N, pass`

// parseMove reads a typed move (see moveSyntax). The Seat is left for the caller to fill in;
// whether the move is legal now is check's business.
func parseMove(text string) (rules.Move, error) {
	f := strings.Fields(strings.ToLower(text))
	if len(f) == 0 {
		return rules.Move{}, errors.New("type a move")
	}
	args := f[1:]
	nargs := func(n int, usage string) error {
		if len(args) != n {
			return fmt.Errorf("%q: want %s", text, usage)
		}
		return nil
	}
	switch f[0] {
	case "pass":
		return rules.Move{Kind: rules.MovePass}, nargs(0, "pass alone")
	case "peek", "kill", "remove":
		if err := nargs(1, f[0]+" and a card number, e.g. "+f[0]+" 5"); err != nil {
			return rules.Move{}, err
		}
		i, err := cardIndex(args[0])
		return rules.Move{Kind: indexKinds[f[0]], Index: i}, err
	case "assign":
		if err := nargs(1, "assign and a contract, e.g. assign monument"); err != nil {
			return rules.Move{}, err
		}
		c, err := rules.ParseContract(args[0])
		return rules.Move{Kind: rules.MoveAssign, Contract: c}, err
	case "faceup":
		return parseFaceUp(args)
	case "place":
		args = f[1:]
	default:
		args = f
	}
	if len(args) != 2 {
		return rules.Move{}, fmt.Errorf("%q is not a move: want %s", text, moveSyntax)
	}
	return parsePlace(args[0], args[1])
}

// indexKinds are the moves that name a card by its number.
var indexKinds = map[string]rules.MoveKind{"peek": rules.MovePeek, "kill": rules.MoveKill, "remove": rules.MoveRemove}

// parseFaceUp reads the positions of "faceup 1 3" ("faceup" or "faceup none": none).
func parseFaceUp(args []string) (rules.Move, error) {
	if len(args) == 1 && args[0] == "none" {
		args = nil
	}
	ps := make([]int, len(args))
	for k, a := range args {
		p, err := strconv.Atoi(a)
		if err != nil {
			return rules.Move{}, fmt.Errorf("faceup: %q is not a position (1 to %d)", a, rules.CardsPerRound)
		}
		ps[k] = p
	}
	pos, err := rules.PositionsOf(ps...)
	return rules.Move{Kind: rules.MoveFaceUp, Positions: pos}, err
}

// parsePlace reads a placement: a card and a place.
func parsePlace(card, spot string) (rules.Move, error) {
	c, err := rules.ParseCard(card)
	if err != nil {
		return rules.Move{}, err
	}
	sp, err := rules.ParseSpot(spot)
	if err != nil {
		return rules.Move{}, err
	}
	return rules.Move{Kind: rules.MovePlace, Card: c, Spot: sp}, nil
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

// move reads the request as the game's move (the Seat is left for the caller).
func (r MoveRequest) move() (rules.Move, error) {
	if r.Text != "" {
		return parseMove(r.Text)
	}
	var m rules.Move
	var err error
	switch r.Kind {
	case "place":
		m.Kind = rules.MovePlace
		if m.Card, err = rules.ParseCard(r.Card); err != nil {
			return m, err
		}
		m.Spot, err = rules.ParseSpot(r.Spot)
	case "peek", "kill", "remove":
		m.Kind, m.Index = indexKinds[r.Kind], r.Index
		if r.Index < 1 {
			err = fmt.Errorf("%s: card %d is not a card number", r.Kind, r.Index)
		}
	case "assign":
		m.Kind = rules.MoveAssign
		m.Contract, err = rules.ParseContract(r.Contract)
	case "faceup":
		m.Kind = rules.MoveFaceUp
		m.Positions, err = rules.PositionsOf(r.Positions...)
	case "pass":
		m.Kind = rules.MovePass
	case "":
		err = errors.New("the move has no kind")
	default:
		err = fmt.Errorf("unknown move kind %q (want place, peek, faceup, assign, kill, remove or pass)", r.Kind)
	}
	return m, err
}

// check reports whether m (made by v's seat) answers the decision due in v, and if not, why.
// It uses what the View says a seat may do: CanPlay, Peekable, AssignOptions, KillTargets and
// RemoveOptions.
func check(v rules.View, m rules.Move) error {
	d := v.Next()
	if d.Seat != v.Seat() || d.Kind == rules.DecideNothing {
		return ui.ErrNotAsked
	}
	if m.Seat != v.Seat() {
		return fmt.Errorf("the move is seat %d's, and this is seat %d", m.Seat, v.Seat())
	}
	var what string // the decision due, when m is not a move for it
	switch d.Kind {
	case rules.DecideFaceUp:
		if m.Kind == rules.MoveFaceUp {
			return checkFaceUp(m)
		}
		what = "choose the face-up positions"
	case rules.DecidePlace:
		if m.Kind == rules.MovePlace {
			return v.CanPlay(m.Card, m.Spot)
		}
		if m.Kind == rules.MovePeek {
			return checkPeek(v, d, m)
		}
		what = "place a card"
	case rules.DecideAssign:
		if m.Kind == rules.MoveAssign {
			return checkAssign(v, d, m)
		}
		what = "assign your Swiss bribe"
	case rules.DecideKill:
		if m.Kind == rules.MoveKill {
			return checkKill(v, d, m)
		}
		what = "choose your hit man's target"
	case rules.DecideRemove:
		if m.Kind == rules.MoveRemove || m.Kind == rules.MovePass {
			return checkRemove(v, d, m)
		}
		what = "use your reporter (remove a bribe or pass)"
	default:
		return fmt.Errorf("the table waits for %s, which is not a person's to make", d)
	}
	return fmt.Errorf("it is your turn to %s, not to %s", what, m.Kind)
}

func checkFaceUp(m rules.Move) error {
	if m.Positions&^rules.AllPositions != 0 {
		return fmt.Errorf("face-up positions are 1 to %d", rules.CardsPerRound)
	}
	return nil
}

func checkKill(v rules.View, d rules.Decision, m rules.Move) error {
	if !slices.Contains(v.KillTargets(), m.Index) {
		return fmt.Errorf("your hit man (card %d) cannot kill card %d (targets: %s)", d.Index, m.Index, indexList(v.KillTargets()))
	}
	return nil
}

func checkRemove(v rules.View, d rules.Decision, m rules.Move) error {
	if m.Kind == rules.MoveRemove && !slices.Contains(v.RemoveOptions(), m.Index) {
		return fmt.Errorf("your reporter (card %d) cannot remove card %d (it may remove %s, or pass)", d.Index, m.Index, indexList(v.RemoveOptions()))
	}
	return nil
}

func checkPeek(v rules.View, d rules.Decision, m rules.Move) error {
	if !d.CanPeek {
		return errors.New("you cannot peek now (no peek left, one already this turn, or nothing to peek at)")
	}
	if !slices.Contains(v.Peekable(), m.Index) {
		return fmt.Errorf("you cannot peek at card %d: peek at a face-down card under a contract, not yours, not seen yet (%s)", m.Index, indexList(v.Peekable()))
	}
	return nil
}

func checkAssign(v rules.View, d rules.Decision, m rules.Move) error {
	if !slices.Contains(v.AssignOptions(), m.Contract) {
		return fmt.Errorf("your Swiss bribe (card %d) cannot go to %s: it goes to a contract on the table under its body (%s)", d.Index, m.Contract.Name(), contractList(v.AssignOptions()))
	}
	return nil
}

func indexList(is []int) string {
	if len(is) == 0 {
		return "none"
	}
	s := ""
	for k, i := range is {
		if k > 0 {
			s += ", "
		}
		s += fmt.Sprint(i)
	}
	return "cards " + s
}

func contractList(cs []rules.Contract) string {
	s := ""
	for k, c := range cs {
		if k > 0 {
			s += ", "
		}
		s += c.Name()
	}
	return s
}
