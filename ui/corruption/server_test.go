package corruption

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/protocol"
	"corruption/ui"
	"corruption/ui/boardtest"
)

const testKey = boardtest.Key

// page is the shell's server with Corruption's board.
func page(t *testing.T, bots int) (*ui.Server, *ui.Human, *httptest.Server) {
	t.Helper()
	h := ui.NewHuman(nil)
	s, ts := boardtest.Page(t, ui.Config{Name: "ann", Board: Board{}, Human: h, Bots: bots})
	return s, h, ts
}

// call sends a request with the session key and decodes a JSON answer (boardtest.Call).
func call(t *testing.T, ts *httptest.Server, method, path, body string, out any) int {
	t.Helper()
	return boardtest.Call(t, ts, method, path, body, out)
}

type apiError struct {
	Error string `json:"error"`
}

// state is the part of ui.State that Corruption's board fills.
type state struct {
	Mode     string     `json:"mode"`
	Game     *gameState `json:"game"`
	Decision *struct {
		ID int `json:"id"`
		Decision
	} `json:"decision"`
	Seats []struct {
		Seat   int  `json:"seat"`
		Me     bool `json:"me"`
		Placed int  `json:"placed"`
		Score  int  `json:"score"`
	} `json:"seats"`
	Table map[string]any `json:"table"`
	Lobby *struct {
		Tables []map[string]any `json:"tables"`
		Games  []struct {
			Defaults map[string]any `json:"defaults"`
			Variants []string       `json:"variants"`
		} `json:"games"`
	} `json:"lobby"`
	Log []ui.LogLine `json:"log"`
}

// waitPending waits until the person is asked for a decision.
func waitPending(t *testing.T, ts *httptest.Server) state {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.URL+"/api/events", nil)
	req.Header.Set("X-Corruption-Key", testKey)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 1<<20)
	var data strings.Builder
	for {
		n, err := resp.Body.Read(buf)
		data.Write(buf[:n])
		for _, line := range strings.Split(data.String(), "\n") {
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			var st state
			if json.Unmarshal([]byte(line[len("data: "):]), &st) == nil && st.Decision != nil {
				return st
			}
		}
		if err != nil {
			t.Fatalf("the event stream ended before a decision: %v", err)
		}
	}
}

// TestMoveAPI: the page's moves reach the person's decision as the game's encoded action; an
// illegal one is refused with the rule it breaks.
func TestMoveAPI(t *testing.T) {
	s, h, ts := page(t, 0)
	tb := newTable(t, 3, rules.Standard, false)
	s.SetTable(ui.TableChoice{Table: "t", Game: "corruption", Players: 3, Config: rules.EncodeConfig(rules.Standard, false)})
	s.Update(protocol.Status{Table: "t", Game: "corruption", Seat: 0, Names: []string{"ann", "bob", "cy"}, State: tb.game(0), Due: 0, Timeout: time.Minute})
	got := make(chan engine.Action, 1)
	go func() {
		a, _ := h.Decide(context.Background(), tb.game(0), 0)
		got <- a
	}()
	st := waitPending(t, ts)
	d := st.Decision
	if d.Kind != "place" || len(d.Cards) != 9 || d.Placed != 0 || d.ID == 0 {
		t.Fatalf("decision: %+v", d)
	}
	for _, c := range d.Cards {
		want := 9 // six contracts and three Swiss accounts
		if c.Card == "da" || c.Card == "reporter" || c.Card == "hitman" {
			want = 6
		}
		if len(c.Spots) != want {
			t.Errorf("%s may go to %v, want %d places", c.Card, c.Spots, want)
		}
	}
	var e apiError
	for _, tt := range []struct {
		body string
		code int
		err  string
	}{
		{`{"kind":"place","card":"da","spot":"swiss:city"}`, 422, "District attorney goes only under a contract"},
		{`{"kind":"assign","contract":"school"}`, 422, "not to assign"},
		{`{"id":99,"kind":"place","card":"1000","spot":"school"}`, 409, "earlier decision"},
		{`{"text":"4000 moon"}`, 422, `Unknown place "moon"`},
		{`{"text":"4000 p"}`, 422, `"p" could be library, police, postoffice`},
		{`{"kind":"bribe"}`, 422, `unknown move kind "bribe"`},
		{`{"kind":"kill","index":"x"}`, 422, "not valid"},
		{`{"kind":`, 400, "not valid JSON"},
	} {
		e = apiError{}
		if code := call(t, ts, "POST", "/api/move", tt.body, &e); code != tt.code || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s: %d %q, want %d with %q", tt.body, code, e.Error, tt.code, tt.err)
		}
	}
	if code := call(t, ts, "POST", "/api/move", fmt.Sprintf(`{"id":%d,"kind":"place","card":"4000","spot":"monument"}`, d.ID), &e); code != http.StatusOK {
		t.Fatalf("legal move: %d %q", code, e.Error)
	}
	a := <-got
	m, err := rules.DecodeMove(0, a.Move)
	if err != nil || m != (rules.Move{Kind: rules.MovePlace, Seat: 0, Card: rules.Bribe4000, Spot: 1}) || len(a.Hidden) != 0 {
		t.Errorf("Decide returned %+v (%+v, %v), want $4,000 face up on the monument", a, m, err)
	}
}

// TestStateShowsOnlyTheView: the page's state shows the person's own face-down cards and those
// it peeked at, never another seat's.
func TestStateShowsOnlyTheView(t *testing.T) {
	s, _, ts := page(t, 0)
	tb := newTable(t, 3, rules.Standard, true)
	// Each player's first card is face up (standard, round 1); the others face down. Seat 2
	// peeks at seat 1's $10,000 (card 5).
	tb.play("1000 school", "1000 monument", "1000 library", "8000 swiss:county", "10000 school", "peek 5", "6000 monument")
	s.SetTable(ui.TableChoice{Table: "t", Game: "corruption", Players: 3, Config: rules.EncodeConfig(rules.Standard, true)})
	for _, seat := range []int{0, 2} {
		s.Update(protocol.Status{Table: "t", Seat: seat, Names: []string{"ann", "bob", "cy"}, State: tb.game(seat), Due: 2})
		var st state
		call(t, ts, "GET", "/api/state", "", &st)
		if st.Mode != "game" || st.Game == nil || len(st.Game.Cards) != 6 {
			t.Fatalf("seat %d: %+v", seat, st)
		}
		for _, c := range st.Game.Cards {
			visible := c.Revealed || c.Seat == seat || (seat == 2 && c.Index == 5)
			if (c.Card != "") != visible {
				t.Errorf("seat %d sees card %d (seat %d, %s) as %q", seat, c.Index, c.Seat, c.Spot, c.Card)
			}
		}
		if len(st.Seats) != 3 || !st.Seats[seat].Me || st.Seats[1].Placed != 2 {
			t.Errorf("seats: %+v", st.Seats)
		}
		if st.Table["variant"] != "standard" || st.Table["lbb"] != true {
			t.Errorf("table: %+v", st.Table)
		}
	}
	// Seat 2's peek is in its log once the answer is known.
	var st state
	call(t, ts, "GET", "/api/state", "", &st)
	found := false
	for _, l := range st.Log {
		found = found || (l.Kind == "peek" && strings.Contains(l.Text, "card 5") && strings.Contains(l.Text, "$10,000"))
	}
	if !found {
		t.Errorf("no peek line in the log: %+v", st.Log)
	}
}

// TestLobbySettings: the lobby shows Corruption's settings and refuses the ones it does not
// play.
func TestLobbySettings(t *testing.T) {
	s, _, ts := page(t, 1)
	pub, _, _ := ed25519.GenerateKey(nil)
	s.Announce(&protocol.Announcement{Table: "friday", Game: "corruption", Players: 4, Config: rules.EncodeConfig(rules.FreeStud, true), Name: "bob", Key: pub})
	var st state
	call(t, ts, "GET", "/api/state", "", &st)
	if st.Lobby == nil || len(st.Lobby.Tables) != 1 || len(st.Lobby.Games) != 1 || len(st.Lobby.Games[0].Variants) != 4 || st.Lobby.Games[0].Defaults["variant"] != "standard" {
		t.Fatalf("lobby: %+v", st.Lobby)
	}
	if fri := st.Lobby.Tables[0]; fri["variant"] != "free-stud" || fri["lbb"] != true {
		t.Errorf("friday: %+v", fri)
	}
	var e apiError
	for _, tt := range []struct{ path, body, err string }{
		{"/api/lobby/create", `{"table":"x","players":4,"variant":"poker"}`, "unknown variant"},
		{"/api/lobby/create", `{"table":"x","players":4,"variant":"closed","lbb":true}`, "little black book"},
		{"/api/lobby/create", `{"table":"x","players":9,"variant":"standard"}`, "players: 9, want 3 to 7"},
		{"/api/lobby/join", `{"table":"friday","players":4,"variant":"poker"}`, "unknown variant"},
		{"/api/lobby/join", `{"table":"friday","players":4,"variant":"free-stud"}`, "No table of that name"},
	} {
		e = apiError{}
		if code := call(t, ts, "POST", tt.path, tt.body, &e); code != http.StatusUnprocessableEntity || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s %s: %d %q, want 422 with %q", tt.path, tt.body, code, e.Error, tt.err)
		}
	}
	if code := call(t, ts, "POST", "/api/lobby/join", `{"table":"friday","players":4,"variant":"free-stud","lbb":true}`, &e); code != http.StatusOK {
		t.Fatalf("join: %d %q", code, e.Error)
	}
	if c := <-s.Choices(); c.Game != "corruption" || string(c.Config) != string(rules.EncodeConfig(rules.FreeStud, true)) {
		t.Errorf("choice %+v", c)
	}
}

// TestTell: the game's events reach the log in words, for the person.
func TestTell(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	l := Board{}.Tell(engine.Event{Data: rules.Event{Kind: rules.EventAwarded, Round: 2, Seat: 1, Contract: 22, Amount: 14000}}, names, 1)
	if d, ok := l.Data.(eventData); l.Round != 2 || l.Kind != "awarded" || l.Text != "Airport goes to you for $14,000 in bribes." ||
		!ok || d.Contract != "airport" || d.Seat != 1 || d.Amount != 14000 {
		t.Errorf("Tell = %+v", l)
	}
	for lang, want := range map[string]string{"es": "Aeropuerto va para ti por $14.000 en sobornos.", "fr": "Aéroport vous est attribué pour 14\u00a0000\u00a0$ d'enveloppes."} {
		if l := In(lang).Tell(engine.Event{Data: rules.Event{Kind: rules.EventAwarded, Round: 2, Seat: 1, Contract: 22, Amount: 14000}}, names, 1); l.Text != want {
			t.Errorf("Tell in %s = %q, want %q", lang, l.Text, want)
		}
	}
	if l := (Board{}).Tell(engine.Event{Text: "a note"}, names, 1); l.Text != "a note" {
		t.Errorf("Tell of an event that is not Corruption's = %+v", l)
	}
}

// TestBoardAssets: the board's script, styles, card art and words are served with the shell's,
// load nothing from elsewhere, and the page with all of them, in every language, weighs under
// 300 KB.
func TestBoardAssets(t *testing.T) {
	_, _, ts := page(t, 0)
	paths := []string{"/", "/static/app.js", "/static/kit.js", "/static/style.css",
		"/static/api.js", "/static/boards/corruption/board.js", "/static/boards/corruption/board.css", "/static/boards/corruption/cards.svg"}
	for _, l := range ui.Languages {
		paths = append(paths, "/static/lang/"+l+".json", "/static/boards/corruption/lang/"+l+".json")
	}
	total := 0
	for _, path := range paths {
		resp, err := ts.Client().Get(ts.URL + path)
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
	t.Logf("the page with Corruption's board, its art and its words in %d languages: %d bytes", len(ui.Languages), total)
	if total >= 300<<10 {
		t.Errorf("the page weighs %d bytes, want under 300 KB", total)
	}
	if b, err := fs.ReadFile(Board{}.Assets(), "board.js"); err != nil || !strings.Contains(string(b), "export function renderDecision") {
		t.Errorf("the board's script: %v", err)
	}
	// Every art the script names is in the sprite.
	js, _ := fs.ReadFile(Board{}.Assets(), "board.js")
	svg, _ := fs.ReadFile(Board{}.Assets(), "cards.svg")
	for _, id := range []string{"back", "bribe-1000", "bribe-2000", "bribe-4000", "bribe-6000", "bribe-8000", "bribe-10000", "da", "reporter", "hitman", "swiss", "contract", "body-city", "body-county", "body-capitol"} {
		if !strings.Contains(string(svg), `id="`+id+`"`) {
			t.Errorf("cards.svg has no %s", id)
		}
	}
	if !strings.Contains(string(js), "cards.svg") {
		t.Error("the board's script does not use its art")
	}
}

// TestWords: every language has the board's every word, with the same arguments, and the same
// rules panel's sections.
func TestWords(t *testing.T) {
	args := regexp.MustCompile(`\{\w+\}`)
	en := words.Keys("en")
	if len(words.Speaks()) != len(ui.Languages) {
		t.Errorf("the board speaks %v, want %v", words.Speaks(), ui.Languages)
	}
	for _, l := range words.Speaks()[1:] {
		for k, v := range en {
			tr, ok := words.Keys(l)[k]
			if !ok {
				t.Errorf("%s has no %q", l, k)
				continue
			}
			a, b := args.FindAllString(v, -1), args.FindAllString(tr, -1)
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(slices.Compact(a), slices.Compact(b)) {
				t.Errorf("%s %q has arguments %v, English %v", l, k, b, a)
			}
		}
		for k := range words.Keys(l) {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %q, which English has not", l, k)
			}
		}
	}
	sections := map[string]int{}
	for _, l := range ui.Languages {
		b, err := fs.ReadFile(static, "static/lang/"+l+".json")
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Rules []struct {
				Title string   `json:"title"`
				Text  []string `json:"text"`
			} `json:"rules"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		sections[l] = len(f.Rules)
	}
	if sections["es"] != sections["en"] || sections["fr"] != sections["en"] || sections["en"] < 5 {
		t.Errorf("the rules panel's sections: %v", sections)
	}
	// Each contract, body, card and variant has its name in every language.
	for c := rules.Contract(0); c < rules.NumContracts; c++ {
		for _, l := range ui.Languages {
			if n := In(l).contractName(c); n == "" || strings.HasPrefix(n, "contract.") {
				t.Errorf("%s: no name for %s", l, c)
			}
		}
	}
}
