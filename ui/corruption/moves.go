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

// moveSyntax is how a move is typed, in English (the words' "syntax" in each language).
const moveSyntax = `CARD PLACE ("4000 airport", "8000 swiss:city", "reporter monument"), peek N, ` +
	`faceup [P...] ("faceup 1 3", "faceup" for none), assign CONTRACT, kill N, remove N, pass`

// parseMove reads a move typed exactly, with the cards' and places' ids (see moveSyntax). The
// Seat is left for the caller to fill in; whether the move is legal now is check's business.
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
	if len(args) == 1 && (args[0] == "none" || args[0] == "-") {
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

// check reports, in English, whether m (made by v's seat) answers the decision due in v.
func check(v rules.View, m rules.Move) error { return Board{}.check(v, m) }

// notAsked reports whether v's seat has nothing to decide now.
func (b Board) notAsked(v rules.View) bool {
	d := v.Next()
	return d.Seat != v.Seat() || d.Kind == rules.DecideNothing
}

// check reports whether m (made by v's seat) answers the decision due in v, and if not, why,
// in words that call the person "you". It uses what the View says a seat may do: CanPlay,
// Peekable, AssignOptions, KillTargets and RemoveOptions.
func (b Board) check(v rules.View, m rules.Move) error {
	d := v.Next()
	if b.notAsked(v) {
		return ui.ErrNotAsked
	}
	if m.Seat != v.Seat() {
		return fmt.Errorf("the move is seat %d's, and this is seat %d", m.Seat, v.Seat())
	}
	var what string // the decision due, when m is not a move for it
	switch d.Kind {
	case rules.DecideFaceUp:
		if m.Kind == rules.MoveFaceUp {
			return b.checkFaceUp(m)
		}
		what = "faceup"
	case rules.DecidePlace:
		if m.Kind == rules.MovePlace {
			return b.checkPlace(v, m)
		}
		if m.Kind == rules.MovePeek {
			return b.checkPeek(v, m)
		}
		what = "place"
	case rules.DecideAssign:
		if m.Kind == rules.MoveAssign {
			return b.checkAssign(v, d, m)
		}
		what = "assign"
	case rules.DecideKill:
		if m.Kind == rules.MoveKill {
			return b.checkKill(v, d, m)
		}
		what = "kill"
	case rules.DecideRemove:
		if m.Kind == rules.MoveRemove || m.Kind == rules.MovePass {
			return b.checkRemove(v, d, m)
		}
		what = "remove"
	default:
		return fmt.Errorf("the table waits for %s, which is not a person's to make", d)
	}
	return errors.New(b.say("err.turn", "what", b.say("what."+what), "kind", b.say("kind."+m.Kind.String())))
}

func (b Board) checkFaceUp(m rules.Move) error {
	if m.Positions&^rules.AllPositions != 0 {
		return errors.New(b.say("err.faceup", "n", rules.CardsPerRound))
	}
	return nil
}

// checkPlace says why a card cannot go to a place, in the person's words (the engine's
// reasons name seats).
func (b Board) checkPlace(v rules.View, m rules.Move) error {
	err := v.CanPlay(m.Card, m.Spot)
	if err == nil {
		return nil
	}
	card := b.cardWords(m.Card)
	switch {
	case !m.Spot.IsSwiss() && !v.OnTable(m.Spot.Contract()):
		return errors.New(b.say("err.place.table", "place", b.spotName(m.Spot)))
	case m.Card.IsCharacter() && v.Config().Variant == rules.Closed:
		return errors.New(b.say("err.place.closed"))
	case m.Card.IsCharacter() && m.Spot.IsSwiss():
		return errors.New(b.say("err.place.swiss", "card", capital(card)))
	case !slices.Contains(v.Hand(), m.Card) && m.Card.IsBribe():
		return errors.New(b.say("err.place.used", "card", card))
	case !slices.Contains(v.Hand(), m.Card):
		return errors.New(b.say("err.place.none", "card", card))
	}
	return err
}

func (b Board) checkKill(v rules.View, d rules.Decision, m rules.Move) error {
	if !slices.Contains(v.KillTargets(), m.Index) {
		return errors.New(b.say("err.kill", "index", d.Index, "target", m.Index, "list", b.indexList(v.KillTargets())))
	}
	return nil
}

func (b Board) checkRemove(v rules.View, d rules.Decision, m rules.Move) error {
	if m.Kind == rules.MoveRemove && !slices.Contains(v.RemoveOptions(), m.Index) {
		return errors.New(b.say("err.remove", "index", d.Index, "target", m.Index, "list", b.indexList(v.RemoveOptions())))
	}
	return nil
}

func (b Board) checkPeek(v rules.View, m rules.Move) error {
	if !v.Next().CanPeek {
		return errors.New(b.say("err.peek.now"))
	}
	if !slices.Contains(v.Peekable(), m.Index) {
		return errors.New(b.say("err.peek", "index", m.Index, "list", b.indexList(v.Peekable())))
	}
	return nil
}

func (b Board) checkAssign(v rules.View, d rules.Decision, m rules.Move) error {
	if !slices.Contains(v.AssignOptions(), m.Contract) {
		names := make([]string, 0, len(v.AssignOptions()))
		for _, c := range v.AssignOptions() {
			names = append(names, b.contractName(c))
		}
		return errors.New(b.say("err.assign", "index", d.Index, "contract", b.contractName(m.Contract), "list", b.joinAnd(names)))
	}
	return nil
}

// indexList is "cards 3, 5 and 7", or "none".
func (b Board) indexList(is []int) string {
	if len(is) == 0 {
		return b.say("list.none")
	}
	ws := make([]string, len(is))
	for k, i := range is {
		ws[k] = strconv.Itoa(i)
	}
	return b.say("list.cards", "list", b.joinAnd(ws))
}
