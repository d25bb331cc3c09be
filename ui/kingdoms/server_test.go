package kingdoms

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/protocol"
	"corruption/ui"
	"corruption/ui/boardtest"
)

const testKey = boardtest.Key

// page is the shell's server with Corrupted Kingdoms' board.
func page(t *testing.T) (*ui.Server, *ui.Human, *httptest.Server) {
	t.Helper()
	h := ui.NewHuman(nil)
	s, ts := boardtest.Page(t, ui.Config{Name: "ann", Board: Board{}, Human: h})
	return s, h, ts
}

// call sends a request with the session key and decodes a JSON answer (boardtest.Call).
func call(t *testing.T, ts *httptest.Server, method, path, body string, out any) int {
	t.Helper()
	return boardtest.Call(t, ts, method, path, body, out)
}

// state is the part of ui.State that the board fills.
type state struct {
	Mode     string     `json:"mode"`
	Game     *gameState `json:"game"`
	Decision *struct {
		ID int `json:"id"`
		Decision
	} `json:"decision"`
	Seats []struct {
		Seat int  `json:"seat"`
		Me   bool `json:"me"`
		seatState
	} `json:"seats"`
	Table map[string]any `json:"table"`
}

// TestMoveAPI: the page's state shows the person's decision with every legal choice, each
// posted as its text reaches the person's node as the game's action; a move that breaks the
// rules is refused with the reason.
func TestMoveAPI(t *testing.T) {
	var at *asking
	play(t, table{4, rules.Advanced, "heuristic"}, 21, func(g *rules.Game, seat int) {
		if at == nil && g.Next().Kind == rules.DecideAction && g.View(seat).Round >= 2 {
			at = &asking{g: g.Clone().(*rules.Game), seat: seat}
		}
	})
	s, h, ts := page(t)
	s.SetTable(ui.TableChoice{Table: "t", Game: "kingdoms", Players: 4, Config: rules.EncodeConfig(rules.Advanced)})
	s.Update(protocol.Status{Table: "t", Game: "kingdoms", Seat: at.seat, Names: names[:4], State: at.g.Clone(), Due: at.seat, Timeout: time.Minute})
	got := make(chan engine.Action, 1)
	go func() {
		a, _ := h.Decide(context.Background(), at.g.Clone(), at.seat)
		got <- a
	}()
	var st state
	for st.Decision == nil {
		call(t, ts, "GET", "/api/state", "", &st)
	}
	d := st.Decision
	if d.Kind != "action" || len(d.Choices) != len(at.g.View(at.seat).Legal()) || st.Game == nil || len(st.Game.Kingdoms) != 2 || len(st.Game.Senates) != 2 {
		t.Fatalf("state: %+v", st)
	}
	if st.Table["rules"] != "advanced" || !st.Seats[at.seat].Me {
		t.Errorf("table %+v, seats %+v", st.Table, st.Seats)
	}
	var e struct {
		Error string `json:"error"`
	}
	for _, tt := range []struct {
		body string
		code int
		err  string
	}{
		{`{"text":"vote yes"}`, 422, "it is your turn to take an action"},
		{`{"text":"take magic-11"}`, 422, `unknown favor "magic-11"`},
		{`{"text":"influence magistrate extra devil"}`, 422, "you cannot influence magistrate"},
		{`{"id":99,"text":"pass"}`, 409, "earlier decision"},
		{`{"kind":"take"}`, 422, "the move has no text"},
		{`{"text":`, 400, "not valid JSON"},
	} {
		e.Error = ""
		if code := call(t, ts, "POST", "/api/move", tt.body, &e); code != tt.code || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s: %d %q, want %d with %q", tt.body, code, e.Error, tt.code, tt.err)
		}
	}
	choice := d.Choices[len(d.Choices)/2]
	body, _ := json.Marshal(map[string]any{"id": d.ID, "text": choice.Text})
	if code := call(t, ts, "POST", "/api/move", string(body), &e); code != http.StatusOK {
		t.Fatalf("%q: %d %q", choice.Text, code, e.Error)
	}
	a := <-got
	m, err := rules.DecodeMove(at.seat, a.Move)
	if err != nil || formatMove(at.g.View(at.seat), m) != choice.Text {
		t.Errorf("Decide returned %+v (%v, %v), want %q", a, m, err, choice.Text)
	}
}

// TestBoardAssets: the board's script and styles are served with the shell's, load nothing
// from elsewhere, and the page with them weighs under 300 KB.
func TestBoardAssets(t *testing.T) {
	_, _, ts := page(t)
	total := 0
	for _, path := range []string{"/", "/static/app.js", "/static/kit.js", "/static/style.css", "/static/api.js", "/static/boards/kingdoms/board.js", "/static/boards/kingdoms/board.css"} {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("X-Corruption-Key", testKey)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
		total += len(b)
		if regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|@import|url\(\s*["']?https?:|from\s+["']https?:`).Match(b) {
			t.Errorf("%s loads something from elsewhere", path)
		}
	}
	t.Logf("the page with Corrupted Kingdoms' board: %d bytes", total)
	if total >= 300<<10 {
		t.Errorf("the page weighs %d bytes, want under 300 KB", total)
	}
	b, err := fs.ReadFile(Board{}.Assets(), "board.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, export := range []string{"title", "setupText", "helpItems", "settingsOf", "settingsFields", "describeSettings", "joinFlags", "header",
		"onState", "renderBoard", "renderSeats", "renderDecision", "resultColumns", "compareSeats", "formatScore", "onKey", "onEscape"} {
		if !regexp.MustCompile(`export (const|let|function) ` + export + `\b`).Match(b) {
			t.Errorf("board.js does not export %s, which the shell's app.js uses", export)
		}
	}
}

// TestTerminal: the terminal shows the board and the decision with its choices, each typed as
// the move syntax says.
func TestTerminal(t *testing.T) {
	shown := 0
	play(t, table{3, rules.Advanced, "random"}, 8, func(g *rules.Game, seat int) {
		if shown > 40 {
			return
		}
		shown++
		s := Board{}.Show(g, seat, names[:3])
		c := Board{}.Choices(g, seat, names[:3])
		for _, want := range []string{"Corrupted Kingdoms, the advanced rules", "The High Senate:", "Grimhold, King Ironjaw", "Market:", "Players:", "(you)", "for example: "} {
			if !strings.Contains(s, want) {
				t.Fatalf("the terminal's board does not show %q:\n%s", want, s)
			}
		}
		if !strings.Contains(c, "Moves: take FAVOR") || !strings.Contains(c, "embezzle SEAT MINION") {
			t.Fatalf("help:\n%s", c)
		}
		ex := regexp.MustCompile(`for example: (.*)\n`).FindStringSubmatch(s)[1]
		mv, err := Board{}.ParseText(ex)
		if err == nil {
			_, err = mv.Action(g.Clone(), seat)
		}
		if err != nil {
			t.Fatalf("the example %q: %v", ex, err)
		}
	})
	if s := (Board{}).Show(rules.NewGame(rules.Basic, 3, nil), 0, names[:3]); s != "The game has not started.\n" {
		t.Errorf("before the draw: %q", s)
	}
}

// TestLobbySettings: the lobby's form offers the four sets of rules and the basic and advanced
// rules with the house rules "even", advanced by default, and a table it creates is checked as
// Corrupted Kingdoms': a 2-player table plays the advanced rules.
func TestLobbySettings(t *testing.T) {
	s, _, ts := page(t)
	var st struct {
		Lobby struct {
			Games []struct {
				Defaults    map[string]any `json:"defaults"`
				RuleChoices []ruleChoice   `json:"rule_choices"`
			} `json:"games"`
		} `json:"lobby"`
	}
	call(t, ts, "GET", "/api/state", "", &st)
	if g := st.Lobby.Games; len(g) != 1 || g[0].Defaults["rules"] != "advanced" || len(g[0].RuleChoices) != 6 || g[0].RuleChoices[5].ID != "advanced+even" {
		t.Fatalf("lobby: %+v", st.Lobby)
	}
	var e struct {
		Error string `json:"error"`
	}
	for _, tt := range []struct{ body, err string }{
		{`{"table":"x","players":2,"rules":"basic"}`, "the 2-player game uses all the advanced rules"},
		{`{"table":"x","players":2,"rules":"basic+even"}`, "the 2-player game uses all the advanced rules, not basic"},
		{`{"table":"x","players":4,"rules":"expert"}`, `unknown rules "expert"`},
	} {
		e.Error = ""
		if code := call(t, ts, "POST", "/api/lobby/create", tt.body, &e); code != http.StatusUnprocessableEntity || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s: %d %q, want 422 with %q", tt.body, code, e.Error, tt.err)
		}
	}
	if code := call(t, ts, "POST", "/api/lobby/create", `{"table":"x","players":3,"rules":"bonuses"}`, &e); code != http.StatusOK {
		t.Fatalf("create: %d %q", code, e.Error)
	}
	if c := <-s.Choices(); c.Game != "kingdoms" || c.Players != 3 || string(c.Config) != string(rules.EncodeConfig(rules.Config{Bonuses: true})) {
		t.Errorf("choice %+v", c)
	}
}

// TestBoardScriptParses: the board's script is a module Node parses (where Node is installed:
// the browser test runs it for real).
func TestBoardScriptParses(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node to parse the script with")
	}
	b, err := fs.ReadFile(Board{}.Assets(), "board.js")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "board.mjs")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "--check", path).CombinedOutput(); err != nil {
		t.Errorf("board.js does not parse: %v\n%s", err, out)
	}
}
