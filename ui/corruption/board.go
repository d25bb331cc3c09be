// Package corruption is Corruption's board for the shell of package ui: the page's JSON of a
// table of Corruption (the bodies, their contracts and Swiss accounts, the cards placed, the
// hand, the decision due with every legal choice), the moves the page and the terminal may
// send and how they are read and checked, the game's events in words, and the board's script
// (static/board.js) and styles.
//
// What it promises: everything it draws comes from the person's seat's corruption.View, which
// shows another seat's face-down card only once it is revealed or the person peeked at it; a
// move is checked against that View (check) with a reason a person understands before the
// game encodes it (corruption.Game.Action).
package corruption

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/ui"
)

//go:embed static
var static embed.FS

// Board is Corruption's board, for the page (ui.Board) and the terminal (ui.TextBoard). The
// zero value is ready to use.
type Board struct{}

var (
	_ ui.Board     = Board{}
	_ ui.TextBoard = Board{}
)

// Game is "corruption".
func (Board) Game() string { return rules.Rules{}.ID() }

// Assets are board.js and board.css.
func (Board) Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil { // only for an invalid path, which "static" is not
		return static
	}
	return sub
}

// view is seat's view of g, and false before the first player is drawn (or for another game).
func view(g engine.Game, seat int) (rules.View, bool) {
	cg, ok := g.(*rules.Game)
	if !ok || cg == nil || cg.State() == nil || seat < 0 {
		return rules.View{}, false
	}
	return cg.View(seat), true
}

// settings are a table's settings as the page shows and posts them.
type settings struct {
	Variant string `json:"variant"`
	LBB     bool   `json:"lbb"`
}

var variants = []string{"standard", "down-the-river", "free-stud", "closed"}

// ParseSettings reads "variant" and "lbb" from a lobby form.
func (Board) ParseSettings(form json.RawMessage) ([]byte, error) {
	var f settings
	if err := json.Unmarshal(form, &f); err != nil {
		return nil, fmt.Errorf("the table's settings: %v", err)
	}
	v, err := rules.ParseVariant(f.Variant)
	if err != nil {
		return nil, err
	}
	if f.LBB && v == rules.Closed {
		return nil, errors.New("the little black book cannot be played with the closed variant")
	}
	return rules.EncodeConfig(v, f.LBB), nil
}

// ShowSettings is {"variant":..., "lbb":...}; a configuration that does not decode (none
// given) shows as the standard game.
func (Board) ShowSettings(config []byte) any {
	v, lbb, err := rules.DecodeConfig(config)
	if err != nil {
		return settings{Variant: rules.Standard.String()}
	}
	return settings{Variant: v.String(), LBB: lbb}
}

// LobbyChoices are the variants.
func (Board) LobbyChoices() any {
	return struct {
		Variants []string `json:"variants"`
	}{variants}
}

// Draw is the board and each seat's score, contracts, cards placed, characters and peeks left.
func (Board) Draw(g engine.Game, seat int, names []string) ui.Drawing {
	v, ok := view(g, seat)
	n := len(names)
	if ok {
		n = v.Config().Players
	}
	seats := make([]any, n)
	for s := range seats {
		seats[s] = seatFields(v, ok, s)
	}
	if !ok {
		return ui.Drawing{Seats: seats}
	}
	return ui.Drawing{Started: true, Game: buildGame(v, names), Seats: seats}
}

// Decision is the person's decision due, with every legal choice.
func (Board) Decision(g engine.Game, seat int, names []string) any {
	v, ok := view(g, seat)
	if !ok {
		return nil
	}
	return buildDecision(v, names)
}

// ParseMove reads a MoveRequest.
func (Board) ParseMove(req json.RawMessage) (ui.Move, error) {
	var r MoveRequest
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, fmt.Errorf("the move is not valid: %v", err)
	}
	m, err := r.move()
	if err != nil {
		return nil, err
	}
	return move{m}, nil
}

// ParseText reads a typed move (see moveSyntax).
func (Board) ParseText(line string) (ui.Move, error) {
	m, err := parseMove(line)
	if err != nil {
		return nil, err
	}
	return move{m}, nil
}

// move is a move read from the page or the terminal, its seat not yet known.
type move struct{ m rules.Move }

// Action checks the move against seat's view (check) and has the game encode it.
func (mv move) Action(g engine.Game, seat int) (engine.Action, error) {
	cg, ok := g.(*rules.Game)
	if !ok || cg == nil || cg.State() == nil {
		return engine.Action{}, ui.ErrNotAsked
	}
	m := mv.m
	m.Seat = seat
	if err := check(cg.View(seat), m); err != nil {
		return engine.Action{}, err
	}
	return cg.Action(m)
}

// Tell says an event in words (an event of another game, in its own words).
func (Board) Tell(e engine.Event, names []string, me int) ui.LogLine {
	ce, ok := e.Data.(rules.Event)
	if !ok {
		return ui.LogLine{Kind: "event", Text: e.Text}
	}
	return ui.LogLine{Round: ce.Round, Kind: eventKind(ce.Kind), Text: describe(ce, names, me)}
}

// Notes are what the person's peeks showed, once each.
func (Board) Notes(g engine.Game, seat int, names []string) []ui.Note {
	v, ok := view(g, seat)
	if !ok {
		return nil
	}
	var out []ui.Note
	for i := 1; i <= v.NumPlays(); i++ {
		p, _ := v.Play(i)
		if p.PeekedBy&(1<<seat) == 0 || p.Card == rules.CardUnknown {
			continue
		}
		out = append(out, ui.Note{Key: fmt.Sprintf("peek %d %d", v.Round(), i), LogLine: ui.LogLine{Round: v.Round(), Kind: "peek",
			Text: fmt.Sprintf("Your peek: card %d, %s %s, is %s.", i, ui.SeatName(names, p.Seat)+"'s", spotPhrase(p.Spot), p.Card.Title())}})
	}
	return out
}
