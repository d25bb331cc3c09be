// Package kingdoms is Corrupted Kingdoms' board for the shell of package ui: the page's JSON of
// a table (the senates and kingdoms with their leaders, costs and preferences, the bills with
// their favors and markers, the market, the guilty pleasures, the person's minions and secret
// cards, the vote under way, revealed all at once), the moves the page and the terminal may
// send and how they are read and checked, the game's events in words, the board's script
// (static/board.js) and styles, and the timing of the response rounds' answers: the bots'
// (Responder) and the terminal's (TextBoard).
//
// What it promises: everything it draws comes from the person's seat's kingdoms.View, which
// holds no other seat's shareholder card, chaos card, discard or vote before it is shown, but
// for an open seat's secret cards (its player left and every node knows them, openCards); a
// move is checked against that View's legal moves, with a reason a person understands, before
// the game encodes it (kingdoms.Game.Action).
package kingdoms

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/ui"
)

//go:embed static
var static embed.FS

// The components, read once (the engine hands out copies).
var (
	favors       = rules.Favors()
	pleasures    = rules.Pleasures()
	leaders      = rules.Leaders()
	senates      = rules.Senates()
	realms       = rules.Kingdoms()
	corporations = rules.Corporations()
	chaosCards   = rules.ChaosCards()
)

// Board is Corrupted Kingdoms' board, for the page (ui.Board) and the terminal (ui.TextBoard),
// speaking its language (Localize). The zero value is ready to use, in English.
type Board struct {
	lang string // one of ui.Languages; "" is English
}

var (
	_ ui.Board     = Board{}
	_ ui.TextBoard = Board{}
	_ ui.Localizer = Board{}
)

// Localize is the board speaking lang (English when it speaks no such language).
func (b Board) Localize(lang string) any {
	for _, l := range boardWords.Speaks() {
		if l == lang {
			b.lang = lang
			return b
		}
	}
	b.lang = ""
	return b
}

// teller is the board's teller for seat me with the players' names.
func (b Board) teller(names []string, me int) teller { return teller{names, me, b.lang} }

// Game is "kingdoms".
func (Board) Game() string { return rules.Rules{}.ID() }

// Assets are board.js and board.css.
func (Board) Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil { // only for an invalid path, which "static" is not
		return static
	}
	return sub
}

// view is seat's view of g, and false before the corporations are drawn (or for another game).
func view(g engine.Game, seat int) (*rules.Game, rules.View, bool) {
	kg, ok := g.(*rules.Game)
	if !ok || kg == nil || seat < 0 {
		return nil, rules.View{}, false
	}
	v := kg.View(seat)
	return kg, v, v.Started
}

// settings are a table's settings as the page shows and posts them.
type settings struct {
	Rules     string `json:"rules"`      // basic, advanced, bonuses, chaos; +even with the house rules
	RulesText string `json:"rules_text"` // in words
}

// ParseSettings reads "rules" from a lobby form (advanced when left out).
func (Board) ParseSettings(form json.RawMessage) ([]byte, error) {
	var f struct {
		Rules string `json:"rules"`
	}
	if err := json.Unmarshal(form, &f); err != nil {
		return nil, fmt.Errorf("the table's settings: %v", err)
	}
	if f.Rules == "" {
		f.Rules = rules.Advanced.String()
	}
	c, err := rules.ParseConfig(f.Rules)
	if err != nil {
		return nil, err
	}
	return rules.EncodeConfig(c), nil
}

// ShowSettings is {"rules":..., "rules_text":...}; a configuration that does not decode (none
// given) shows as the advanced rules.
func (b Board) ShowSettings(config []byte) any {
	c, err := rules.DecodeConfig(config)
	if err != nil {
		c = rules.Advanced
	}
	return settings{Rules: c.String(), RulesText: b.teller(nil, -1).rulesWords(c)}
}

// ruleChoice is one set of rules the lobby offers.
type ruleChoice struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// LobbyChoices are the sets of rules, the sheet's and then the basic and advanced rules with the
// house rules "even" (the shell gives the table sizes, from the rules).
func (b Board) LobbyChoices() any {
	var cs []ruleChoice
	even := "+" + rules.HouseEven
	for _, n := range append(rules.ConfigNames(), "basic"+even, "advanced"+even) {
		c, _ := rules.ParseConfig(n)
		cs = append(cs, ruleChoice{ID: n, Text: b.teller(nil, -1).rulesWords(c)})
	}
	return struct {
		RuleChoices []ruleChoice `json:"rule_choices"`
	}{cs}
}

// Draw is the board and each seat's corporation, minions, guilty pleasures, score pile and
// chaos cards left; an open seat's secret cards too, as the person's node knows them
// (openCards).
func (b Board) Draw(g engine.Game, seat int, names []string) ui.Drawing {
	t := b.teller(names, seat)
	kg, v, ok := view(g, seat)
	n := len(names)
	if ok {
		n = v.Players
	}
	seats := make([]any, n)
	for s := range seats {
		f := seatFields(v, ok, s, t)
		if ok {
			f.Known = openCards(kg, seat, s, t)
		}
		seats[s] = f
	}
	if !ok {
		return ui.Drawing{Seats: seats}
	}
	return ui.Drawing{Started: true, Game: buildGame(v, t), Seats: seats}
}

// Decision is the person's decision due, with every legal choice.
func (b Board) Decision(g engine.Game, seat int, names []string) any {
	_, v, ok := view(g, seat)
	if !ok || !asked(v) {
		return nil
	}
	return buildDecision(v, b.teller(names, seat))
}

// MoveRequest is a move as the page sends it (POST /api/move): the typed syntax, which every
// choice of a Decision carries.
type MoveRequest struct {
	ID   int    `json:"id,omitempty"` // the decision it answers (0: whatever is due)
	Text string `json:"text"`
}

// ParseMove reads a MoveRequest.
func (Board) ParseMove(req json.RawMessage) (ui.Move, error) {
	var r MoveRequest
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, fmt.Errorf("the move is not valid: %v", err)
	}
	if strings.TrimSpace(r.Text) == "" {
		return nil, errors.New("the move has no text (a move such as: take magic-4)")
	}
	return Board{}.ParseText(r.Text)
}

// ParseText reads a typed move (see moveSyntax).
func (Board) ParseText(line string) (ui.Move, error) {
	t, err := parseMove(line)
	if err != nil {
		return nil, err
	}
	return move{t}, nil
}

// move is a move read from the page or the terminal, its seat not yet known.
type move struct{ t typed }

// Action checks the move against seat's view (check) and has the game encode it.
func (mv move) Action(g engine.Game, seat int) (engine.Action, error) {
	kg, v, ok := view(g, seat)
	if !ok || !asked(v) {
		return engine.Action{}, ui.ErrNotAsked
	}
	m, err := resolve(v, mv.t)
	if err != nil {
		return engine.Action{}, err
	}
	if err := check(kg, v, m); err != nil {
		return engine.Action{}, err
	}
	return kg.Action(m)
}

// Tell says an event in words (an event of another game, in its own words).
func (b Board) Tell(e engine.Event, names []string, me int) ui.LogLine {
	ke, ok := e.Data.(rules.Event)
	if !ok {
		return ui.LogLine{Kind: "event", Text: e.Text}
	}
	return ui.LogLine{Round: ke.Round, Kind: eventKind(ke.Kind), Text: describe(ke, names, me, b.lang)}
}

// Notes are what the person alone knows: its shareholder cards and its chaos cards, once each,
// and which one it discarded.
func (b Board) Notes(g engine.Game, seat int, names []string) []ui.Note {
	_, v, ok := view(g, seat)
	if !ok {
		return nil
	}
	t := b.teller(names, seat)
	var out []ui.Note
	note := func(key, text string) {
		out = append(out, ui.Note{Key: key, LogLine: ui.LogLine{Round: v.Round, Kind: "note", Text: text}})
	}
	if len(v.Shareholders) > 0 {
		note("shareholders", t.plural(len(v.Shareholders), "note.shareholders", "types", t.typesWords(v.Shareholders)))
	}
	if known := knownHand(v); len(known) == len(v.Hand) && len(known) > 0 {
		note("chaos", t.say("note.chaos", "cards", t.handWords(v)))
	}
	for _, h := range v.Hand {
		if h.Discarded && h.Card >= 0 {
			note("discard", t.say("note.discard", "card", chaosName(h.Card)))
		}
	}
	return out
}

// knownHand is the chaos cards of v's hand that its seat knows.
func knownHand(v rules.View) []rules.HeldCard {
	var out []rules.HeldCard
	for _, h := range v.Hand {
		if h.Card >= 0 {
			out = append(out, h)
		}
	}
	return out
}
