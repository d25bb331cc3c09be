// Package corruption is Corruption's board for the shell of package ui: the page's JSON of a
// table of Corruption (the bodies, their contracts and Swiss accounts, the cards placed, the
// hand, the decision due with every legal choice), the moves the page and the terminal may
// send and how they are read and checked, the game's events in words, and the board's script
// (static/board.js), styles and card art (static/cards.svg). It speaks English, Spanish and
// French: its words, and the rules panel, are static/lang/LANG.json, one file a language, read
// by the server and the page alike.
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

// Board is Corruption's board, for the page (ui.Board) and the terminal (ui.TextBoard), in one
// language (Localize). The zero value is ready to use, in English.
type Board struct {
	lang string
}

var (
	_ ui.Board     = Board{}
	_ ui.TextBoard = Board{}
	_ ui.Localizer = Board{}
)

// words are the board's strings, the server's and the page's: static/lang/LANG.json.
var words = ui.MustLoadWords(static, "static/lang")

// Localize is the board speaking lang (English when it speaks no such language).
func (Board) Localize(lang string) any {
	for _, l := range words.Speaks() {
		if l == lang {
			return Board{lang: lang}
		}
	}
	return Board{}
}

// In is the board speaking lang, as a Board.
func In(lang string) Board { return Board{}.Localize(lang).(Board) }

// say is the text of key in the board's language.
func (b Board) say(key string, args ...any) string { return words.Say(b.lang, key, args...) }

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
func (b Board) ParseSettings(form json.RawMessage) ([]byte, error) {
	var f settings
	if err := json.Unmarshal(form, &f); err != nil {
		return nil, fmt.Errorf("the table's settings: %v", err)
	}
	v, err := rules.ParseVariant(f.Variant)
	if err != nil {
		return nil, err
	}
	if f.LBB && v == rules.Closed {
		return nil, errors.New(b.say("err.lbb.closed"))
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
func (b Board) Draw(g engine.Game, seat int, names []string) ui.Drawing {
	v, ok := view(g, seat)
	n := len(names)
	if ok {
		n = v.Config().Players
	}
	seats := make([]any, n)
	for s := range seats {
		seats[s] = b.seatFields(v, ok, s)
	}
	if !ok {
		return ui.Drawing{Seats: seats}
	}
	gs := b.buildGame(v, names)
	b.openCards(gs, g.(*rules.Game).State())
	return ui.Drawing{Started: true, Game: gs, Seats: seats}
}

// Decision is the person's decision due, with every legal choice.
func (b Board) Decision(g engine.Game, seat int, names []string) any {
	v, ok := view(g, seat)
	if !ok {
		return nil
	}
	return b.buildDecision(v, names)
}

// ParseMove reads a MoveRequest.
func (b Board) ParseMove(req json.RawMessage) (ui.Move, error) {
	var r MoveRequest
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, fmt.Errorf("the move is not valid: %v", err)
	}
	if r.Text != "" {
		return b.ParseText(r.Text)
	}
	m, err := r.move()
	if err != nil {
		return nil, err
	}
	return move{b: b, m: m}, nil
}

// ParseText reads a typed move (see the words' "syntax"): its cards and places are found on
// the table when the move is checked, by any prefix of their ids or names.
func (b Board) ParseText(line string) (ui.Move, error) {
	return b.parseText(line)
}

// move is a move read from the page or the terminal, its seat not yet known; text moves keep
// their card and place as typed, to be matched against the table (typed).
type move struct {
	b     Board
	m     rules.Move
	typed *typedPlace
}

// Action checks the move against seat's view (check) and has the game encode it.
func (mv move) Action(g engine.Game, seat int) (engine.Action, error) {
	cg, ok := g.(*rules.Game)
	if !ok || cg == nil || cg.State() == nil {
		return engine.Action{}, ui.ErrNotAsked
	}
	v := cg.View(seat)
	m := mv.m
	if mv.typed != nil {
		var err error
		if m, err = mv.b.resolve(v, *mv.typed); err != nil {
			if mv.b.notAsked(v) {
				return engine.Action{}, ui.ErrNotAsked
			}
			return engine.Action{}, err
		}
	}
	m.Seat = seat
	if err := mv.b.check(v, m); err != nil {
		return engine.Action{}, err
	}
	return cg.Action(m)
}

// Tell says an event in words (an event of another game, in its own words), with what it
// says for the page's script.
func (b Board) Tell(e engine.Event, names []string, me int) ui.LogLine {
	ce, ok := e.Data.(rules.Event)
	if !ok {
		return ui.LogLine{Kind: "event", Text: e.Text}
	}
	return ui.LogLine{Round: ce.Round, Kind: eventKind(ce.Kind), Text: b.describe(ce, names, me), Data: data(ce)}
}

// Notes are what the person's peeks showed, once each.
func (b Board) Notes(g engine.Game, seat int, names []string) []ui.Note {
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
			Text: b.say("note.peek", "index", i, "owner", ui.SeatName(names, p.Seat), "place", b.spotPhrase(p.Spot), "card", b.cardTitle(p.Card))}})
	}
	return out
}
