package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"

	"corruption/engine"
)

// A Board is one game's part of the page: everything the shell does not know of a game. The
// shell (Server) keeps the session, the lobby, the log, the clock and the results; the board
// turns the game as the person's seat knows it into the JSON its script draws, and the page's
// moves and table settings into the game's. A board is chosen by game id (Game) and never sees
// another seat's hidden information unless the engine.Game it is given holds it, which the
// node's copy never does.
//
// The objects a board returns for the State's seats, decision, table and lobby are JSON objects
// whose fields join the shell's own: they must not reuse the shell's names (see State).
//
// The players' names a board is given (names, by seat) are as the shell shows them: escaped,
// bidi-isolated and with their seats ("⁨ann⁩ (seat 2)"; names.go). A board prints them as they
// are, and never takes a player's name from anywhere else.
//
// A board that speaks more than English is also a Localizer: the shell then asks it, for each
// request, the board in the page's language. A board may also give each log line Data for its
// script (Corruption's draws a round's awarding again from it).
type Board interface {
	// Game is the id of the game the board draws, as engine's registry knows it.
	Game() string
	// Assets are the board's static files, served under /static/boards/GAME/: board.js (an
	// ES module, see static/app.js for what it exports; it imports the shell's ../../kit.js)
	// and board.css.
	Assets() fs.FS

	// ParseSettings reads a table's settings from a lobby form, the JSON object the page
	// posts (whose "table" and "players" are the shell's), into the game's canonical
	// configuration. Its errors say what is wrong, for the person.
	ParseSettings(form json.RawMessage) ([]byte, error)
	// ShowSettings is a configuration as the page shows it, an object: in the lobby's tables
	// and form, and in the State's table.
	ShowSettings(config []byte) any
	// LobbyChoices is what the lobby's form offers to choose from, an object joining the
	// lobby's fields (nil: nothing).
	LobbyChoices() any

	// Draw is the game as seat sees it in g, with the players' names: the State's game and,
	// for each seat, an object joining the shell's SeatState. g is nil before the table forms.
	Draw(g engine.Game, seat int, names []string) Drawing
	// Decision is the decision g waits for from seat, with every legal choice: an object
	// joining the shell's Decision fields.
	Decision(g engine.Game, seat int, names []string) any
	// ParseMove reads a move the page posts to /api/move (the shell reads its "id").
	ParseMove(req json.RawMessage) (Move, error)
	// Tell says an event of the game in words, for seat me.
	Tell(e engine.Event, names []string, me int) LogLine
	// Notes are what seat alone may know of g, as log lines (what its peeks showed): the shell
	// adds each Note.Key once.
	Notes(g engine.Game, seat int, names []string) []Note
}

// Drawing is the game as a board draws it for the page.
type Drawing struct {
	// Started is false while the table sets up (exchanging keys, shuffling): the page says so
	// instead of drawing the game.
	Started bool
	Game    any   // the State's "game" (nil when not Started)
	Seats   []any // one object per seat (nil: no fields of the board's)
}

// A TextBoard is one game's part of the terminal: how it is shown and typed. The shell
// (Terminal) keeps the loop: it prints, prompts, reads a line, asks again after a mistake and
// stops at the end of the input or of the context. Its names are as the shell shows them too
// (see Board).
type TextBoard interface {
	// Tell says an event in words, for seat me (as Board.Tell).
	Tell(e engine.Event, names []string, me int) LogLine
	// Show is the game as seat sees it, with the decision g waits for from it and its choices.
	Show(g engine.Game, seat int, names []string) string
	// Choices lists the legal choices of that decision again, with the move syntax (help).
	Choices(g engine.Game, seat int, names []string) string
	// ParseText reads a typed move.
	ParseText(line string) (Move, error)
}

// A Move is a move as a board read it from the page or a terminal, not yet checked.
type Move interface {
	// Action checks the move against the decision g waits for from seat and encodes it; an
	// illegal move's error says why (ErrNotAsked when nothing is asked of seat).
	Action(g engine.Game, seat int) (engine.Action, error)
}

// LogLine is one line of the game log. Data, when a board gives it, is what the event says for
// the board's script (to draw a round again as it went); it must say no more than Text.
type LogLine struct {
	Round int    `json:"round"`
	Kind  string `json:"kind"` // the event kind, or note, peek, verdict, audit
	Text  string `json:"text"`
	Data  any    `json:"data,omitempty"`
}

// A Note is a log line of the board's own (a peek's answer); Key makes it once only.
type Note struct {
	Key string
	LogLine
}

// joinFields is the JSON object base with the fields of the object extra added (extra may be
// nil). Both must encode as JSON objects.
func joinFields(base, extra any) ([]byte, error) {
	b, err := json.Marshal(base)
	if err != nil || extra == nil {
		return b, err
	}
	x, err := json.Marshal(extra)
	if err != nil {
		return nil, err
	}
	if bytes.Equal(x, []byte("null")) {
		return b, nil
	}
	if len(b) < 2 || b[0] != '{' || len(x) < 2 || x[0] != '{' {
		return nil, fmt.Errorf("cannot join %s and %s: not JSON objects", b, x)
	}
	if bytes.Equal(x, []byte("{}")) {
		return b, nil
	}
	if bytes.Equal(b, []byte("{}")) {
		return x, nil
	}
	return append(append(b[:len(b)-1:len(b)-1], ','), x[1:]...), nil
}
