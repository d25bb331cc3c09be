// Package corruptia is Corruptia's board for the shell of package ui: the page's JSON of a
// table of Corruptia (the brick-wall program with its officials, employees and interview
// zones, the departments' values, the hand, the die, the approval tokens, the blackmail cards,
// the proposal under negotiation with its offers and pressures, the votes revealed together),
// the moves the page and the terminal may send and how they are read and checked, the game's
// events in words, and the board's script (static/board.js) and styles. The page's chat (the
// shell's POST /api/chat, told in the log as lines of kind "chat") is drawn beside the
// proposal.
//
// What it promises: everything it draws comes from the person's seat's corruptia.View, which
// shows another senator's bills only once they are shown and never a vote before the votes are
// revealed together, but for an open seat's hand (its player left and every node knows its
// bills, openHand); a move is checked against that View with a reason a person understands
// before the game encodes it (corruptia.Game.Action, which tries it first).
package corruptia

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/ui"
)

//go:embed static
var static embed.FS

// Board is Corruptia's board, for the page (ui.Board) and the terminal (ui.TextBoard), in one
// language (Localize). The zero value is ready to use, in English.
type Board struct {
	lang string
}

var (
	_ ui.Board     = Board{}
	_ ui.TextBoard = Board{}
	_ ui.Localizer = Board{}
)

// Game is "corruptia".
func (Board) Game() string { return rules.Rules{}.ID() }

// Assets are board.js and board.css.
func (Board) Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil { // only for an invalid path, which "static" is not
		return static
	}
	return sub
}

// view is seat's view of g, and false before the three starting bills are laid (or for
// another game).
func view(g engine.Game, seat int) (*rules.View, bool) {
	cg, ok := g.(*rules.Game)
	if !ok || cg == nil || seat < 0 {
		return nil, false
	}
	v := cg.View(seat)
	return v, len(v.Program) >= rules.StartingBills
}

// settings are a table's settings as the page shows and posts them.
type settings struct {
	Amendments int `json:"amendments"`
}

// ParseSettings reads "amendments" from a lobby form (3 when it is not given).
func (Board) ParseSettings(form json.RawMessage) ([]byte, error) {
	f := struct {
		Amendments *int `json:"amendments"`
	}{}
	if err := json.Unmarshal(form, &f); err != nil {
		return nil, fmt.Errorf("the table's settings: %v", err)
	}
	c := rules.DefaultConfig()
	if f.Amendments != nil {
		c.Amendments = *f.Amendments
	}
	return rules.EncodeConfig(c)
}

// ShowSettings is {"amendments": N}; a configuration that does not decode shows as the
// default.
func (Board) ShowSettings(config []byte) any {
	c, err := rules.DecodeConfig(config)
	if err != nil {
		c = rules.DefaultConfig()
	}
	return settings{Amendments: c.Amendments}
}

// LobbyChoices are the amendments a table may allow a turn.
func (Board) LobbyChoices() any {
	return struct {
		MaxAmendments int `json:"max_amendments"`
	}{rules.MaxAmendsConfig}
}

// Draw is the game as the person sees it, and each seat's approval, reserve, bills, score and
// blackmail this turn; an open seat's hand too, as the person's node knows it (openHand).
func (b Board) Draw(g engine.Game, seat int, names []string) ui.Drawing {
	v, ok := view(g, seat)
	n := len(names)
	if v != nil {
		n = v.Players
	}
	seats := make([]any, n)
	for s := range seats {
		if ok {
			f := b.seatFields(v, s)
			f.Known = b.openHand(g.(*rules.Game), v, s)
			seats[s] = f
		} else {
			seats[s] = b.seatFields(nil, s)
		}
	}
	if !ok {
		return ui.Drawing{Seats: seats}
	}
	return ui.Drawing{Started: true, Game: b.to(names, seat).buildGame(v), Seats: seats}
}

// Decision is the person's decision due, with every legal choice.
func (b Board) Decision(g engine.Game, seat int, names []string) any {
	v, _ := view(g, seat)
	if v == nil {
		return nil
	}
	if d := b.to(names, seat).buildDecision(v); d != nil {
		return d
	}
	return nil
}

// ParseMove reads a MoveRequest.
func (b Board) ParseMove(req json.RawMessage) (ui.Move, error) {
	var r MoveRequest
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", b.say("err.request"), err)
	}
	m, err := b.readRequest(r)
	if err != nil {
		return nil, err
	}
	return boardMove{m, b}, nil
}

// ParseText reads a typed move (see moveSyntax).
func (b Board) ParseText(line string) (ui.Move, error) {
	m, err := b.parseMove(line)
	if err != nil {
		return nil, err
	}
	return boardMove{m, b}, nil
}

// Tell says an event in words (an event of another game, in its own words).
func (b Board) Tell(e engine.Event, names []string, me int) ui.LogLine {
	ce, ok := e.Data.(rules.Event)
	if !ok {
		return ui.LogLine{Kind: "event", Text: e.Text}
	}
	return ui.LogLine{Round: ce.Round, Kind: eventKind(ce.Kind), Text: b.to(names, me).describe(ce)}
}

// Notes are what the person alone knows: its opening discard, once.
func (b Board) Notes(g engine.Game, seat int, names []string) []ui.Note {
	v, ok := view(g, seat)
	if !ok || !v.Opening.Valid() {
		return nil
	}
	return []ui.Note{{Key: "opening", LogLine: ui.LogLine{Kind: "note", Text: b.say("note.opening", "bill", b.bill(v.Opening))}}}
}
