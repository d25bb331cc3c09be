// Package boardtest is what every game's board tests (ui/NAME) would otherwise write again: a
// page server with the board and its session key, a keyed call to its API, and the terminal's
// test of players' names. As protocol/backendtest is to the stores, a new board's tests call
// it with their game.
package boardtest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	"corruption/protocol"
	"corruption/ui"
	"io/fs"
)

// Key is the session key of Page's server.
const Key = "k3y"

// Page is the shell's server of cfg (its Key set to Key) on a test HTTP server; both close
// when the test ends.
func Page(t testing.TB, cfg ui.Config) (*ui.Server, *httptest.Server) {
	t.Helper()
	cfg.Key = Key
	s, err := ui.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return s, ts
}

// Call sends a request to ts with the session key, decodes a JSON answer into out (when not
// nil), and gives the status.
func Call(t testing.TB, ts *httptest.Server, method, path, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Corruption-Key", Key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode
}

// TextNames checks that a game's terminal names the players as the shell gives them, escaped,
// isolated and with their seats: a name that would clear the terminal or turn a line around
// shows as text, and two players named alike are told apart by their seat. It plays a game of
// rules with config among players that newPlayer makes (one seed a seat), keeps seat 3's game
// at its fourth decision, and shows it with every event in text's terminal.
func TextNames(t *testing.T, rules engine.Rules, config []byte, text ui.TextBoard, newPlayer func(seed uint64) (engine.Player, error)) {
	t.Helper()
	names := []string{"\x1b[2J\x1b]0;owned\x07", "ann\u202e001\u202c", "ann", "ann"}
	const me = 3
	var events []engine.Event
	var saved engine.Game
	var mu sync.Mutex
	n := 0
	players := make([]engine.Player, len(names))
	for i := range players {
		p, err := newPlayer(uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		players[i] = capture{bot: p, me: me, at: 3, n: &n, mu: &mu, saved: &saved}
	}
	if _, err := enginetest.Play(rules, config, players, 7, enginetest.Events(func(e engine.Event) { events = append(events, e) })); err != nil {
		t.Fatal(err)
	}
	if saved == nil || len(events) == 0 {
		t.Fatalf("the game gave no decision to keep (%d events)", len(events))
	}
	var out strings.Builder
	term := ui.NewTerminal(text, strings.NewReader(""), &out)
	defer term.Close()
	term.Update(protocol.Status{Table: "t", Seat: me, Names: names, State: saved})
	for _, e := range events {
		term.Event(e)
	}
	term.Decide(context.Background(), saved, me) // shows the board, then the input ends
	shown := out.String()
	for _, want := range []string{"\u2068\\x1b[2J\\x1b]0;owned\\x07\u2069 (seat 0)", "\u2068ann\\u202e001\\u202c\u2069 (seat 1)", "\u2068ann\u2069 (seat 2)", "\u2068ann\u2069 (seat 3)"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, shown)
		}
	}
	if strings.ContainsAny(shown, "\x1b\u202e\u202c") {
		t.Errorf("the terminal prints a control or bidi character:\n%q", shown)
	}
}

// capture is seat me's player: at its decision number at (from 0) it keeps a copy of its game,
// then its bot decides.
type capture struct {
	bot   engine.Player
	me    int
	at    int
	n     *int
	mu    *sync.Mutex
	saved *engine.Game
}

func (p capture) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if seat == p.me {
		p.mu.Lock()
		if *p.n == p.at {
			*p.saved = g.Clone()
		}
		*p.n++
		p.mu.Unlock()
	}
	return p.bot.Decide(ctx, g, seat)
}

// Parsed is every move a board reads from in, as a fuzz target feeds it: a typed line
// (ParseText), the page's JSON (ParseMove), and the line posted as the page's text. It reads
// in as a lobby form's settings too (ParseSettings), for a panic only.
func Parsed(page ui.Board, text ui.TextBoard, in string) []ui.Move {
	var moves []ui.Move
	if m, err := text.ParseText(in); err == nil {
		moves = append(moves, m)
	}
	if m, err := page.ParseMove(json.RawMessage(in)); err == nil {
		moves = append(moves, m)
	}
	if b, err := json.Marshal(struct {
		Text string `json:"text,omitempty"`
	}{in}); err == nil {
		if m, err := page.ParseMove(b); err == nil {
			moves = append(moves, m)
		}
	}
	page.ParseSettings(json.RawMessage(in))
	return moves
}

// HasWords checks that each language's words of a board (lang/LANG.json in its assets) hold
// every key.
func HasWords(t *testing.T, assets fs.FS, keys ...string) {
	t.Helper()
	for _, lang := range ui.Languages {
		b, err := fs.ReadFile(assets, "lang/"+lang+".json")
		if err != nil {
			t.Fatal(err)
		}
		var f struct{ Words map[string]string }
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		for _, k := range keys {
			if f.Words[k] == "" {
				t.Errorf("%s: no %s", lang, k)
			}
		}
	}
}
