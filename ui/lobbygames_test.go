package ui

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"corruption/protocol"
	"corruption/protocol/memnet"
)

// newHTTP serves s on loopback until the test ends.
func newHTTP(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return ts
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLobbyGames: the lobby offers every game the page has a board of, each with its table
// sizes, settings and choices, --game's chosen at first; it lists the tables of every such game with
// their game; the form creates a table of any of them, with the bots it says; the page then
// draws the table's game's board, whose files are served beside the others'.
func TestLobbyGames(t *testing.T) {
	s, err := NewServer(Config{Name: "ann", Board: pockBoard{}, Boards: []Board{pickBoard{}, pockBoard{}}, Human: NewHuman(nil), Bots: 1, Key: testKey,
		Defaults: TableChoice{Config: []byte{1}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := newHTTP(t, s)
	announce(s, "pick", "friday", "bob", 4, 1)
	announce(s, "pock", "friday", "carol", 3, 0)
	announce(s, "chess", "elsewhere", "fred", 2) // no board for it: not listed
	var raw struct {
		Lobby struct {
			Game   string           `json:"game"`
			Bots   int              `json:"bots"`
			Tables []map[string]any `json:"tables"`
			Games  []map[string]any `json:"games"`
		} `json:"lobby"`
	}
	call(t, ts, "GET", "/api/state", testKey, "", &raw)
	lb := raw.Lobby
	if lb.Game != "pock" || lb.Bots != 1 || len(lb.Games) != 2 || lb.Games[0]["game"] != "pick" || lb.Games[1]["game"] != "pock" {
		t.Fatalf("the lobby's games: %q first, %+v", lb.Game, lb.Games)
	}
	pick, pock := lb.Games[0], lb.Games[1]
	if pock["max_players"] != 3.0 || pick["max_players"] != 4.0 || pock["pock"] == nil || pick["pock"] != nil ||
		pock["defaults"].(map[string]any)["speed"] != "fast" || pick["defaults"].(map[string]any)["speed"] != "slow" {
		t.Errorf("each game's sizes, choices and defaults (--game's from Defaults, the others' their board's): %+v", lb.Games)
	}
	if len(lb.Tables) != 2 || lb.Tables[0]["game"] != "pick" || lb.Tables[1]["game"] != "pock" || lb.Tables[1]["speed"] != "slow" {
		t.Errorf("the tables of every game, with their game: %+v", lb.Tables)
	}
	for _, tt := range []struct{ body, err string }{
		{`{"game":"chess","table":"x","players":2}`, `no game "chess"`},
		{`{"game":"pock","table":"x","players":4,"speed":"slow"}`, "players: 4, want 2 to 3"},
		{`{"game":"pick","table":"x","players":3,"bots":3,"speed":"slow"}`, "no room for you and your 3 bots"},
		{`{"game":"pick","table":"x","players":3,"bots":-1,"speed":"slow"}`, "bots: -1"},
	} {
		var e apiError
		if code := call(t, ts, "POST", "/api/lobby/create", testKey, tt.body, &e); code != 422 || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s: %d %q, want %q", tt.body, code, e.Error, tt.err)
		}
	}
	if code := call(t, ts, "POST", "/api/lobby/create", testKey, `{"game":"pick","table":"mine","players":4,"bots":3,"speed":"fast"}`, nil); code != 200 {
		t.Fatalf("create a table of pick: %d", code)
	}
	if c := <-s.Choices(); c.Game != "pick" || c.Players != 4 || c.Bots != 3 || string(c.Config) != "\x01" {
		t.Errorf("the choice: %+v", c)
	}
	var st struct {
		Mode  string         `json:"mode"`
		Table map[string]any `json:"table"`
		Seats []struct {
			Total *int `json:"total"`
		} `json:"seats"`
	}
	s.Update(protocol.Status{Table: "mine", Game: "pick", Seat: 0, Names: []string{"ann", "bot 1", "bot 2", "bot 3"}, State: newPick(4, 3)})
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "game" || st.Table["game"] != "pick" || st.Table["bots"] != 3.0 || len(st.Seats) != 4 || st.Seats[0].Total == nil || *st.Seats[0].Total != 3 {
		t.Errorf("the table, drawn by pick's board: %+v", st)
	}
	for path, want := range map[string]string{"/static/boards/pick/board.js": pickScript, "/static/boards/pock/board.js": pockScript} {
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		if got := readAll(t, resp); resp.StatusCode != 200 || got != want {
			t.Errorf("%s: %d %q", path, resp.StatusCode, got)
		}
	}
}

// TestLobbyJoinGames: a listed table is joined with its game (by name alone, whatever its
// game), the bots of Config.Bots along.
func TestLobbyJoinGames(t *testing.T) {
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Boards: []Board{pockBoard{}}, Human: NewHuman(nil), Bots: 1, Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	ts := newHTTP(t, s)
	announce(s, "pock", "friday", "carol", 3, 1)
	var e apiError
	if code := call(t, ts, "POST", "/api/lobby/join", testKey, `{"game":"pick","table":"friday","players":3,"speed":"fast"}`, &e); code != 422 || !strings.Contains(e.Error, "No table of that name") {
		t.Errorf("friday as a table of pick: %d %q", code, e.Error)
	}
	if code := call(t, ts, "POST", "/api/lobby/join", testKey, `{"table":"friday"}`, &e); code != 200 {
		t.Fatalf("join friday by name: %d %q", code, e.Error)
	}
	if c := <-s.Choices(); c.Game != "pock" || c.Players != 3 || c.Bots != 1 || string(c.Config) != "\x01" {
		t.Errorf("the choice: %+v", c)
	}
}

// joinsOnClock is a Config.JoinPrivate that looks until its context ends (ErrNoCreator), a
// creator is heard (hear), or it is answered (answer).
type joinsOnClock struct {
	started chan string
	hear    chan struct{}
	answer  chan error
}

func (j *joinsOnClock) join(ctx context.Context, code string, heard func()) (TableChoice, error) {
	j.started <- code
	for {
		select {
		case <-ctx.Done():
			return TableChoice{}, ErrNoCreator
		case <-j.hear:
			heard()
		case err := <-j.answer:
			return TableChoice{}, err
		}
	}
}

// TestJoinByCodeClock: the lobby's join by code on a fake clock. It says that it looks and for
// how long at most; past 5 s with no table heard, that no table with that code was heard yet
// and that it still looks; a creator heard, that it joins; Cancel stops it at once; a refusal
// is said as soon as it comes; and at the limit it gives up and says so, in the page's words.
func TestJoinByCodeClock(t *testing.T) {
	clock := memnet.NewClock()
	j := &joinsOnClock{started: make(chan string, 1), hear: make(chan struct{}), answer: make(chan error)}
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: NewHuman(nil), Key: testKey, Clock: clock, JoinLimit: 90 * time.Second, JoinPrivate: j.join})
	if err != nil {
		t.Fatal(err)
	}
	c := NewInProcess(s)
	ctx := context.Background()
	joins := make(chan string, 64) // the lobby's join, as each state says it
	go c.Subscribe(ctx, "/api/events", func(_ string, data []byte) {
		var st State
		json.Unmarshal(data, &st)
		if st.Lobby != nil && st.Lobby.Join != nil {
			joins <- st.Lobby.Join.Text
		} else {
			joins <- ""
		}
	})
	t.Cleanup(s.Close)
	wait := func(what string) string {
		t.Helper()
		for {
			select {
			case text := <-joins:
				if strings.Contains(text, what) {
					return text
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("the lobby never says %q", what)
			}
		}
	}
	type answer struct {
		code int
		body string
	}
	post := func(code string) chan answer {
		out := make(chan answer, 1)
		go func() {
			status, body := c.Do(ctx, "POST", "/api/lobby/private", []byte(`{"code":"`+code+`"}`))
			out <- answer{status, string(body)}
		}()
		<-j.started
		return out
	}
	answered := func(done chan answer) answer {
		t.Helper()
		select {
		case a := <-done:
			return a
		case <-time.After(10 * time.Second):
			t.Fatal("the join by code never answers")
			return answer{}
		}
	}
	state := func(lang string) *JoinState {
		t.Helper()
		var st State
		_, body := c.Do(ctx, "GET", "/api/state?lang="+lang, nil)
		json.Unmarshal(body, &st)
		return st.Lobby.Join
	}

	// Looking, then past 5 s "no table heard yet", in three languages; then Cancel.
	done := post(newCode(t))
	wait("Looking for the private table of that code, for up to 90 s")
	if js := state("en"); js == nil || js.Quiet || js.LimitMS != 90000 || js.SinceMS != clock.Now().UnixMilli() {
		t.Errorf("looking: %+v", js)
	}
	clock.Advance(5 * time.Second)
	wait("No table with that code heard yet, still looking (for up to 90 s in all)")
	for lang, want := range map[string]string{"es": "Todavía no se ha oído ninguna mesa con ese código", "fr": "Aucune table avec ce code entendue"} {
		if js := state(lang); js == nil || !js.Quiet || !strings.HasPrefix(js.Text, want) {
			t.Errorf("still looking in %s: %+v", lang, js)
		}
	}
	if code, body := c.Do(ctx, "POST", "/api/lobby/private/cancel", []byte(`{}`)); code != 200 {
		t.Errorf("cancel: %d %s", code, body)
	}
	if a := answered(done); a.code != 200 || !strings.Contains(a.body, `"cancelled":true`) {
		t.Errorf("the join cancelled: %d %s", a.code, a.body)
	}
	if js := state("en"); js != nil {
		t.Errorf("after Cancel the lobby still looks: %+v", js)
	}
	if code, body := c.Do(ctx, "POST", "/api/lobby/private/cancel", []byte(`{}`)); code != 409 || !strings.Contains(string(body), "not looking") {
		t.Errorf("cancel with nothing to cancel: %d %s", code, body)
	}

	// A creator heard: the lobby says so, and not "no table heard" past 5 s; then it refuses,
	// which is said at once.
	done = post(newCode(t))
	j.hear <- struct{}{}
	wait("A table with that code answered")
	clock.Advance(10 * time.Second)
	j.answer <- protocol.ErrWrongCode
	if a := answered(done); a.code != 422 || !strings.Contains(a.body, "The join code is wrong") {
		t.Errorf("a refusal: %d %s", a.code, a.body)
	}

	// Nobody, to the limit: it gives up and says within what.
	done = post(newCode(t))
	clock.Advance(90 * time.Second)
	if a := answered(done); a.code != 422 || !strings.Contains(a.body, "No table with that code answered within 90 s") {
		t.Errorf("at the limit: %d %s", a.code, a.body)
	}
	if js := state("en"); js != nil {
		t.Errorf("after the limit the lobby still looks: %+v", js)
	}
}

// TestLobbyLevel: the lobby offers the bots' levels the command gives, starting from its
// default; a table created with one carries it, and a level that is not offered is refused,
// naming the levels.
func TestLobbyLevel(t *testing.T) {
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Boards: []Board{pickBoard{}}, Human: NewHuman(nil), Bots: 1, Key: testKey,
		Defaults: TableChoice{Config: []byte{1}}, Levels: []string{"easy", "normal", "hard"}, Level: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	ts := newHTTP(t, s)
	var raw struct {
		Lobby struct {
			Levels []string `json:"levels"`
			Level  string   `json:"level"`
		} `json:"lobby"`
	}
	call(t, ts, "GET", "/api/state", testKey, "", &raw)
	if strings.Join(raw.Lobby.Levels, ",") != "easy,normal,hard" || raw.Lobby.Level != "normal" {
		t.Fatalf("the lobby's levels: %+v", raw.Lobby)
	}
	var e apiError
	if code := call(t, ts, "POST", "/api/lobby/create", testKey, `{"game":"pick","table":"x","players":3,"bots":2,"level":"insane","speed":"slow"}`, &e); code != 422 ||
		!strings.Contains(e.Error, `level "insane" is not one of easy, normal, hard`) {
		t.Errorf("an unknown level: %d %q", code, e.Error)
	}
	if code := call(t, ts, "POST", "/api/lobby/create", testKey, `{"game":"pick","table":"x","players":3,"bots":2,"level":"hard","speed":"slow"}`, nil); code != 200 {
		t.Fatalf("create with hard bots: %d", code)
	}
	if c := <-s.Choices(); c.Level != "hard" || c.Bots != 2 {
		t.Errorf("the choice: %+v", c)
	}
}
