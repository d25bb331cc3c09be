package ui

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
)

const testKey = "k3y"

// testNow is the servers' clock in these tests.
var testNow = time.UnixMilli(1_700_000_000_000)

func newServer(t *testing.T, bots int) (*Server, *Human, *httptest.Server) {
	t.Helper()
	h := NewHuman(nil)
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: h, Bots: bots, Key: testKey, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return s, h, ts
}

// call sends a request with the session key (unless key is "") and decodes a JSON answer.
func call(t *testing.T, ts *httptest.Server, method, path, key, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-Corruption-Key", key)
	}
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

type apiError struct {
	Error string `json:"error"`
}

func TestAccess(t *testing.T) {
	_, _, ts := newServer(t, 0)
	var e apiError
	if code := call(t, ts, "GET", "/api/state", "", "", &e); code != http.StatusForbidden || !strings.Contains(e.Error, "session key") {
		t.Errorf("no key: %d %q", code, e.Error)
	}
	if code := call(t, ts, "GET", "/api/state", "wrong", "", nil); code != http.StatusForbidden {
		t.Errorf("wrong key: %d", code)
	}
	var st State
	if code := call(t, ts, "GET", "/api/state", testKey, "", &st); code != http.StatusOK || st.Mode != "lobby" || st.Me.Name != "\u2068ann\u2069" {
		t.Errorf("with the key: %d %+v", code, st)
	}

	// A name other than localhost as host: refused (DNS rebinding).
	req, _ := http.NewRequest("GET", ts.URL+"/api/state", nil)
	req.Host = "corruption.example:80"
	req.Header.Set("X-Corruption-Key", testKey)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("Host corruption.example: %d, want 403", resp.StatusCode)
	}

	// /?key=K sets the cookie and redirects; the cookie then opens the API.
	noRedirect := *ts.Client()
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err = noRedirect.Get(ts.URL + "/?key=nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("/?key=nope: %d", resp.StatusCode)
	}
	resp, err = noRedirect.Get(ts.URL + "/?key=" + testKey)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookies := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || len(cookies) != 1 || cookies[0].Value != testKey || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("/?key=K: %d, cookies %v", resp.StatusCode, cookies)
	}
	req, _ = http.NewRequest("GET", ts.URL+"/api/state", nil)
	req.AddCookie(cookies[0])
	resp, err = ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("with the cookie: %d", resp.StatusCode)
	}

	// A POST that is not JSON is refused (no form posts from other sites).
	req, _ = http.NewRequest("POST", ts.URL+"/api/move", strings.NewReader("text=pass"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Corruption-Key", testKey)
	resp, err = ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("form POST: %d, want 415", resp.StatusCode)
	}
}

func announce(s *Server, game, table, name string, players int, config ...byte) {
	pub, _, _ := ed25519.GenerateKey(nil)
	s.Announce(&protocol.Announcement{Table: table, Game: game, Players: players, Config: config, Name: name, Key: pub})
}

// TestLobby: the lobby lists the board's game's tables with their settings in the board's
// words, creates and joins tables through the board's settings, and refuses what cannot be.
func TestLobby(t *testing.T) {
	s, _, ts := newServer(t, 1)
	announce(s, "pick", "friday", "bob", 4, 1)
	announce(s, "pick", "friday", "carol", 4, 1)
	announce(s, "pick", "tight", "dan", 3, 0)
	announce(s, "pick", "tight", "eve", 3, 0)
	announce(s, "pick", "friday", "zed", 2, 0)   // another table of the same name
	announce(s, "chess", "elsewhere", "fred", 2) // another game: not for this page
	var raw struct {
		Lobby struct {
			Tables []map[string]any `json:"tables"`
			Games  []struct {
				Speeds []string `json:"speeds"`
			} `json:"games"`
		} `json:"lobby"`
	}
	call(t, ts, "GET", "/api/state", testKey, "", &raw)
	if len(raw.Lobby.Tables) != 3 || len(raw.Lobby.Games) != 1 || len(raw.Lobby.Games[0].Speeds) != 2 || raw.Lobby.Tables[1]["speed"] != "fast" || raw.Lobby.Tables[1]["game"] != "pick" {
		t.Errorf("the lobby does not show the tables with the board's settings and choices: %+v", raw.Lobby)
	}
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Lobby == nil || len(st.Lobby.Tables) != 3 {
		t.Fatalf("lobby: %+v", st.Lobby)
	}
	fri := st.Lobby.Tables[1]
	if fri.Table != "friday" || fri.Players != 4 || strings.Join(fri.Seated, ",") != "\u2068bob\u2069,\u2068carol\u2069" || fri.Full || !fri.Room {
		t.Errorf("friday: %+v", fri)
	}
	if tight := st.Lobby.Tables[2]; tight.Room || tight.Full {
		t.Errorf("tight (2 of 3 seated, the person has a bot): %+v", tight)
	}
	if g := st.Lobby.Games[0]; st.Lobby.Defaults.Players != 4 || st.Lobby.Defaults.Table != "ann's table" || st.Lobby.Game != "pick" || g.Game != "pick" || g.MinPlayers != 2 || g.MaxPlayers != 4 {
		t.Errorf("defaults: %+v of %q (%+v)", st.Lobby.Defaults, st.Lobby.Game, st.Lobby.Games)
	}

	var e apiError
	for _, tt := range []struct{ path, body, err string }{
		{"/api/lobby/create", `{"table":"a/b","players":4,"speed":"slow"}`, "not a table name"},
		{"/api/lobby/create", `{"table":"a\u202eb","players":4,"speed":"slow"}`, "holds U+202E, a bidi control"},
		{"/api/lobby/create", `{"table":"x","players":9,"speed":"slow"}`, "players: 9, want 2 to 4"},
		{"/api/lobby/create", `{"table":"x","players":4,"speed":"warp"}`, "unknown speed"},
		{"/api/lobby/create", `{"table":"friday","players":4,"speed":"slow"}`, "already open"},
		{"/api/lobby/join", `{"table":"tight"}`, "no room"},
		{"/api/lobby/join", `{"table":"nowhere"}`, "No table of that name"},
		{"/api/lobby/join", `{"table":"friday","players":4,"speed":"slow"}`, "No table of that name"},
		{"/api/lobby/join?lang=fr", `{"table":"nowhere"}`, "Aucune table de ce nom"},
		{"/api/lobby/join", `{"table":"friday","players":4,"speed":"warp"}`, "unknown speed"},
		{"/api/lobby/join", `{"table":`, "not valid JSON"},
	} {
		e = apiError{}
		if code := call(t, ts, "POST", tt.path, testKey, tt.body, &e); code < 400 || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s %s: %d %q, want an error with %q", tt.path, tt.body, code, e.Error, tt.err)
		}
	}
	select {
	case c := <-s.Choices():
		t.Fatalf("a refused request chose %v", c)
	default:
	}

	if code := call(t, ts, "POST", "/api/lobby/join", testKey, `{"table":"friday","players":4,"speed":"fast"}`, nil); code != http.StatusOK {
		t.Fatalf("join friday: %d", code)
	}
	c := <-s.Choices()
	if c.Table != "friday" || c.Game != "pick" || c.Players != 4 || string(c.Config) != "\x01" {
		t.Errorf("choice: %+v", c)
	}
	if code := call(t, ts, "POST", "/api/lobby/create", testKey, `{"table":"mine","players":4,"speed":"slow"}`, &e); code != http.StatusConflict {
		t.Errorf("a second choice: %d %q", code, e.Error)
	}
	var tbl struct {
		Mode  string         `json:"mode"`
		Table map[string]any `json:"table"`
		Lobby any            `json:"lobby"`
	}
	call(t, ts, "GET", "/api/state", testKey, "", &tbl)
	if tbl.Mode != "waiting" || tbl.Table["name"] != "friday" || tbl.Table["game"] != "pick" || tbl.Table["speed"] != "fast" || tbl.Lobby != nil {
		t.Errorf("after joining: mode %q, table %+v", tbl.Mode, tbl.Table)
	}
}

func TestLobbyExpires(t *testing.T) {
	var l lobby
	now := time.Now()
	pub, _, _ := ed25519.GenerateKey(nil)
	a := &protocol.Announcement{Table: "t", Game: "pick", Players: 3, Config: []byte{0}, Name: "bob", Key: pub}
	if !l.add(a, now) || l.add(a, now.Add(time.Second)) {
		t.Error("add: a new player changes the listing, the same one again does not")
	}
	if l.prune(now.Add(lobbyTTL)) || len(l.list(0, func(_ string, c []byte) any { return pickBoard{}.ShowSettings(c) })) != 1 {
		t.Error("pruned too early")
	}
	if !l.prune(now.Add(time.Second+lobbyTTL+time.Millisecond)) || len(l.list(0, func(_ string, c []byte) any { return pickBoard{}.ShowSettings(c) })) != 0 {
		t.Errorf("not pruned: %+v", l.list(0, func(_ string, c []byte) any { return pickBoard{}.ShowSettings(c) }))
	}
}

// TestMoveAPI: POST /api/move answers the pending decision through the board; illegal, stale
// or malformed moves are refused with a message, and the decision stays.
func TestMoveAPI(t *testing.T) {
	s, h, ts := newServer(t, 0)
	var e apiError
	if code := call(t, ts, "POST", "/api/move", testKey, `{"n":1}`, &e); code != http.StatusConflict || !strings.Contains(e.Error, "not your turn") {
		t.Errorf("nothing asked: %d %q", code, e.Error)
	}
	g := newPick(3)
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 3, Config: []byte{0}})
	s.Update(protocol.Status{Table: "t", Game: "pick", Seat: 0, Names: []string{"ann", "bob", "cy"}, State: g.Clone(), Due: 0, Timeout: time.Minute})
	type result struct {
		a   engine.Action
		err error
	}
	got := make(chan result, 1)
	go func() {
		a, err := h.Decide(context.Background(), g.Clone(), 0)
		got <- result{a, err}
	}()
	waitPending(s, h)
	var st struct {
		Decision struct {
			ID      int    `json:"id"`
			SinceMS int64  `json:"since_ms"`
			Kind    string `json:"kind"`
			Choices []int  `json:"choices"`
		} `json:"decision"`
	}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	d := st.Decision
	if d.ID == 0 || d.SinceMS != testNow.UnixMilli() || d.Kind != "pick" || len(d.Choices) != 3 {
		t.Fatalf("the decision does not join the shell's fields and the board's: %+v", d)
	}
	for _, tt := range []struct {
		body string
		code int
		err  string
	}{
		{`{"n":5}`, 422, "5 is more than 3"},
		{`{"n":0}`, 422, "pick a number"},
		{`{"id":99,"n":1}`, 409, "earlier decision"},
		{`{"id":"x","n":1}`, 400, "not valid JSON"},
		{`{"n":`, 400, "not valid JSON"},
	} {
		e = apiError{}
		if code := call(t, ts, "POST", "/api/move", testKey, tt.body, &e); code != tt.code || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s: %d %q, want %d with %q", tt.body, code, e.Error, tt.code, tt.err)
		}
	}
	if _, ok := h.current(); !ok {
		t.Fatal("a refused move ended the decision")
	}
	if code := call(t, ts, "POST", "/api/move", testKey, `{"id":`+itoa(d.ID)+`,"n":2}`, &e); code != http.StatusOK {
		t.Fatalf("legal move: %d %q", code, e.Error)
	}
	if r := <-got; r.err != nil || string(r.a.Move) != "\x02" {
		t.Errorf("Decide returned %+v, %v", r.a, r.err)
	}
	if code := call(t, ts, "POST", "/api/move", testKey, `{"n":2}`, &e); code != http.StatusConflict {
		t.Errorf("a move once the decision was answered: %d %q", code, e.Error)
	}
}

// waitPending waits until the person is asked for a decision.
func waitPending(s *Server, h *Human) {
	for {
		s.mu.Lock()
		ch := s.notify
		s.mu.Unlock()
		if _, ok := h.current(); ok {
			return
		}
		<-ch
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestStateJoinsTheBoard: the state is the shell's, with the board's game and the board's
// fields in each seat; the mode follows the table (waiting, setup, game, over); the board's
// notes enter the log once.
func TestStateJoinsTheBoard(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 2, Config: []byte{1}})
	type state struct {
		Mode  string           `json:"mode"`
		Game  map[string][]int `json:"game"`
		Seats []map[string]any `json:"seats"`
		Log   []LogLine        `json:"log"`
	}
	get := func() state {
		t.Helper()
		var st state
		call(t, ts, "GET", "/api/state", testKey, "", &st)
		return st
	}
	if st := get(); st.Mode != "waiting" || st.Seats != nil {
		t.Errorf("before the table forms: %+v", st)
	}
	names := []string{"ann", "bob"}
	s.Update(protocol.Status{Table: "t", Seat: 1, Names: names, Due: -1})
	if st := get(); st.Mode != "setup" || len(st.Seats) != 2 || st.Seats[0]["total"] != 0.0 || st.Game != nil {
		t.Errorf("before the game starts: %+v", st)
	}
	s.Update(protocol.Status{Table: "t", Seat: 1, Names: names, State: newPick(2, 3, 1), Due: 0})
	st := get()
	if st.Mode != "game" || len(st.Game["picks"]) != 2 || st.Seats[0]["total"] != 3.0 || st.Seats[1]["me"] != true ||
		st.Seats[0]["due"] != true || st.Seats[1]["name"] != "\u2068bob\u2069 (seat 1)" {
		t.Errorf("in the game: %+v", st)
	}
	s.Update(protocol.Status{Table: "t", Seat: 1, Names: names, State: newPick(2, 3, 1, 1, 2), Due: -1, Done: true})
	st = get()
	if st.Mode != "over" || st.Seats[0]["winner"] != true || st.Seats[1]["winner"] != false {
		t.Errorf("at the end: %+v", st)
	}
	notes := 0
	for _, l := range st.Log {
		if l.Text == "Pick high." {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("the board's note is %d times in the log, want once: %+v", notes, st.Log)
	}
}

// TestShellKnowsNoGame: the shell imports no game and no board; the page it serves loads the
// board's script and styles, which come from the board chosen for the game.
func TestShellKnowsNoGame(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "corruption/ui").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "corruption/engine/") || strings.HasPrefix(dep, "corruption/ui/") {
			t.Errorf("package ui depends on %s: the shell must know no game", dep)
		}
	}
	if _, err := NewServer(Config{Name: "ann"}); err == nil {
		t.Error("a server without a board was made")
	}
	_, _, ts := newServer(t, 0)
	resp, err := ts.Client().Get(ts.URL + "/static/boards/pick/board.js")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(b) != pickScript {
		t.Errorf("/static/boards/pick/board.js: %d %q, want the pick board's script", resp.StatusCode, b)
	}
}

func TestJoinFields(t *testing.T) {
	type base struct {
		A int `json:"a"`
	}
	for _, tt := range []struct {
		extra any
		want  string
	}{
		{nil, `{"a":1}`},
		{struct{}{}, `{"a":1}`},
		{(*base)(nil), `{"a":1}`},
		{map[string]int{"b": 2}, `{"a":1,"b":2}`},
		{[]int{2}, "error"},
	} {
		got, err := joinFields(base{1}, tt.extra)
		if err != nil {
			got = []byte("error")
		}
		if string(got) != tt.want {
			t.Errorf("joinFields(%v) = %s, want %s", tt.extra, got, tt.want)
		}
	}
}

// TestEvents: /api/events streams the state at once and after every change, each time with the
// log lines not sent yet.
func TestEvents(t *testing.T) {
	s, _, ts := newServer(t, 0)
	req, _ := http.NewRequest("GET", ts.URL+"/api/events", nil)
	req.Header.Set("X-Corruption-Key", testKey)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	next := func() State {
		t.Helper()
		var data string
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("the stream ended: %v", err)
			}
			line = strings.TrimRight(line, "\n")
			if strings.HasPrefix(line, "data: ") {
				data = line[len("data: "):]
			}
			if line == "" && data != "" {
				var st State
				if err := json.Unmarshal([]byte(data), &st); err != nil {
					t.Fatal(err)
				}
				return st
			}
		}
	}
	if st := next(); st.Mode != "lobby" || len(st.Log) != 0 {
		t.Fatalf("first event: %+v", st)
	}
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 3, Config: []byte{0}})
	if st := next(); st.Mode != "waiting" {
		t.Fatalf("after SetTable: %+v", st)
	}
	s.Update(protocol.Status{Table: "t", Seat: 1, Names: []string{"ann", "bob", "cy"}, State: newPick(3)})
	if st := next(); len(st.Log) != 1 || st.Log[0].Text != "Pick high." {
		t.Fatalf("the board's note: %+v", st.Log)
	}
	s.Event(engine.Event{Text: "seat 0 picks 3", Data: pickEvent{0, 3}})
	st := next()
	if st.LogStart != 1 || len(st.Log) != 1 || st.Log[0].Text != "\u2068ann\u2069 (seat 0): 3" || st.Log[0].Kind != "pick" {
		t.Fatalf("log: %d %+v", st.LogStart, st.Log)
	}
	s.Event(engine.Event{Text: "seat 1 picks 2", Data: pickEvent{1, 2}})
	st = next()
	if st.LogStart != 2 || len(st.Log) != 1 || st.Log[0].Text != "you: 2" {
		t.Fatalf("log: %d %+v", st.LogStart, st.Log)
	}
	s.Event(engine.Event{Text: "something else"})
	if st = next(); st.Log[0].Text != "something else" {
		t.Fatalf("an event the board does not know: %+v", st.Log)
	}
	// A rematch: the stream sends the next table's log from its start.
	s.NewTable(TableChoice{Table: "t-2", Game: "pick", Players: 3, Config: []byte{0}})
	if st = next(); st.TableGen != 1 || st.Mode != "waiting" || st.LogStart != 0 || len(st.Log) != 0 {
		t.Fatalf("after NewTable: gen %d mode %q log %d %+v", st.TableGen, st.Mode, st.LogStart, st.Log)
	}
	s.Update(protocol.Status{Table: "t-2", Seat: 1, Names: []string{"ann", "bob", "cy"}, State: newPick(3)})
	if st = next(); st.LogStart != 0 || len(st.Log) != 1 || st.Log[0].Text != "Pick high." {
		t.Fatalf("the next table's log: %d %+v", st.LogStart, st.Log)
	}
	s.Close()
	if _, err := io.ReadAll(r); err != nil {
		t.Errorf("the stream did not end cleanly at Close: %v", err)
	}
}

// TestVerdictsAndResult: a halted table and the end of a game show in words, in the page's
// language; an abandoned game is shown as abandoned, not as a finished one.
func TestVerdictsAndResult(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 3, Config: []byte{0}})
	names := []string{"ann", "bob", "cy"}
	for _, tt := range []struct {
		v          protocol.Verdict
		lang, want string
	}{
		{protocol.Verdict{Kind: protocol.VerdictAbandoned, Seq: 40, Seat: 2, Reason: "silent for 1m0s"}, "en", "\u2068cy\u2069 (seat 2) stopped answering: the table waited past its time limit, named them as gone and stopped (entry 40)"},
		{protocol.Verdict{Kind: protocol.VerdictAbandoned, Seq: 40, Seat: 2, Reason: "silent for 1m0s"}, "es", "\u2068cy\u2069 (asiento 2) dejó de responder"},
		{protocol.Verdict{Kind: protocol.VerdictCheat, Seq: 41, Seat: 1, Reason: "bad shuffle proof"}, "en", "\u2068bob\u2069 (seat 1) was caught cheating at entry 41: bad shuffle proof"},
		{protocol.Verdict{Kind: protocol.VerdictEquivocation, Seq: 7, Seat: 0, Reason: "two entries"}, "fr", "Votre nœud a signé deux entrées différentes pour l'entrée 7"},
	} {
		v := tt.v
		s.Update(protocol.Status{Table: "t", Seat: 0, Names: names, Verdict: &v, Due: -1})
		var st State
		call(t, ts, "GET", "/api/state?lang="+tt.lang, testKey, "", &st)
		if len(st.Alerts) != 1 || st.Alerts[0].Level != "error" || !strings.Contains(st.Alerts[0].Text, tt.want) || st.Lang != tt.lang {
			t.Errorf("%v in %s: alerts %+v, want %q", tt.v.Kind, tt.lang, st.Alerts, tt.want)
		}
	}
	s.Update(protocol.Status{Table: "t", Seat: 0, Names: names, State: newPick(3, 1), Due: 1, DueSince: time.UnixMilli(1000), Timeout: time.Minute})
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Clock == nil || st.Clock.Due != 1 || st.Clock.Name != "\u2068bob\u2069 (seat 1)" || st.Clock.SinceMS != 1000 || st.Clock.TimeoutMS != 60000 {
		t.Errorf("clock: %+v", st.Clock)
	}
	s.Finish(Result{Outcome: &protocol.Outcome{Finished: true, Scores: []int{100000, 0, 5}, Winners: []int{0}, Digest: "ab", Entries: 300},
		Audit: &protocol.Report{Outcome: protocol.Outcome{Entries: 300, Digest: "abcdef"}, Valid: true}})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "over" || st.Result == nil || !st.Result.Valid || !strings.Contains(st.Result.Audit, "the log checks") ||
		st.Result.Scores[0] != 100000 || st.Clock != nil || st.Decision != nil || st.Result.Status != "finished" {
		t.Errorf("after Finish: mode %q result %+v clock %+v", st.Mode, st.Result, st.Clock)
	}
	if code := call(t, ts, "POST", "/api/quit", testKey, "{}", nil); code != http.StatusOK {
		t.Errorf("quit: %d", code)
	}
	select {
	case <-s.Quit():
	default:
		t.Error("Quit is not closed after POST /api/quit")
	}
}

// TestEndings: how a table ended, in plain words: finished, abandoned (by another, or by the
// person's own node), halted by a cheat, or stopped (the person left, or the node failed).
func TestEndings(t *testing.T) {
	names := []string{"ann", "bob", "cy"}
	verdict := func(k protocol.VerdictKind, seat int) *protocol.Outcome {
		return &protocol.Outcome{Scores: []int{0, 0, 0}, Winners: []int{1}, Verdict: &protocol.Verdict{Kind: k, Seat: seat, Seq: 9, Reason: "why"}}
	}
	for _, tt := range []struct {
		r            Result
		status, want string
	}{
		{Result{Outcome: &protocol.Outcome{Finished: true, Winners: []int{0}}}, "finished", "The game is over."},
		{Result{Outcome: verdict(protocol.VerdictAbandoned, 2)}, "abandoned", "The game was abandoned: cy stopped answering"},
		{Result{Outcome: verdict(protocol.VerdictAbandoned, 0)}, "abandoned", "your node did not answer in time"},
		{Result{Outcome: verdict(protocol.VerdictCheat, 1)}, "halted", "bob was caught cheating"},
		{Result{Err: context.Canceled}, "stopped", "You left the table before the end"},
		{Result{Err: errors.New("disk full")}, "stopped", "Your node stopped before the end of the game: disk full"},
		// Departures (depart.go): the person's seat opened while away, the person leaving a table
		// that plays on, and a person who came back to watch their seat played to the end.
		{Result{Err: &protocol.SeatOpenedError{Seq: 41}}, "stopped", "The other players agreed that you had left (at entry 41) and play on, with a bot in your seat"},
		{Result{Err: context.Canceled, escrow: true}, "stopped", "the other players' nodes agree that you left and play on, with a bot in your seat"},
		{Result{Outcome: &protocol.Outcome{Finished: true, Winners: []int{1}, Open: []int{0}}}, "finished", "You had left: from then on a bot played your seat"},
		// Convictions (convict.go): the person caught cheating and played on without.
		{Result{Outcome: &protocol.Outcome{Finished: true, Winners: []int{1}, Open: []int{0}, Convicted: []protocol.Conviction{{Seat: 0, Seq: 9}}}}, "finished", "You were caught cheating: a bot played your seat from then on"},
	} {
		r := buildResult("en", &tt.r, names, 0)
		if r.Status != tt.status || !strings.Contains(r.Headline, tt.want) || (tt.status != "finished" && (r.Finished || len(r.Winners) != 0)) {
			t.Errorf("%+v: %+v, want %s with %q and no winner unless finished", tt.r, r, tt.status, tt.want)
		}
	}
	// A table of two halted by a cheat: the other player wins by forfeit, and the results say so.
	forfeit := &protocol.Outcome{Scores: []int{3, 5}, Winners: []int{0}, Forfeit: true, Verdict: &protocol.Verdict{Kind: protocol.VerdictCheat, Seat: 1, Seq: 9, Reason: "why"}}
	if r := buildResult("en", &Result{Outcome: forfeit}, names[:2], 0); r.Status != "halted" || !slices.Equal(r.Winners, []int{0}) ||
		!strings.Contains(r.Headline, "bob was caught cheating: the table halted, and you win by forfeit") {
		t.Errorf("the winner by forfeit's results: %+v", r)
	}
	if r := buildResult("en", &Result{Outcome: forfeit}, names[:2], 1); !strings.Contains(r.Headline, "blaming your node") {
		t.Errorf("the cheater's results at a table of two: %+v", r)
	}
	if a := auditText("en", Result{Err: context.Canceled}); strings.Contains(a, "context canceled") {
		t.Errorf("the audit of a table the person left: %q", a)
	}
}

// TestClock: the clock shows the decision's allowance and the time bank when the protocol's
// Status has them, and says when a decision has no limit.
func TestClock(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 2, Config: []byte{0}})
	st := protocol.Status{Table: "t", Seat: 0, Names: []string{"ann", "bob"}, State: newPick(2), Due: 1, DueSince: time.UnixMilli(1000),
		Timeout: time.Minute, Allowance: 90 * time.Second, Bank: 5 * time.Minute}
	s.Update(st)
	var got State
	call(t, ts, "GET", "/api/state", testKey, "", &got)
	if c := got.Clock; c == nil || c.AllowanceMS == nil || *c.AllowanceMS != 90000 || c.BankMS == nil || *c.BankMS != 300000 || c.NoLimit {
		t.Errorf("clock with a bank: %+v", got.Clock)
	}
	st.Allowance, st.Bank = 24*time.Hour, 0
	s.Update(st)
	got = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &got)
	if c := got.Clock; c == nil || !c.NoLimit || c.AllowanceMS != nil {
		t.Errorf("clock without a limit: %+v", got.Clock)
	}
}

// TestNetworkAndDial: the lobby shows how the node finds others, and the page may ask it to
// dial an address; a bad one is refused with the reason.
func TestNetworkAndDial(t *testing.T) {
	var dialed []string
	h := NewHuman(nil)
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: h, Key: testKey, Now: func() time.Time { return testNow },
		Dial: func(addr string) error {
			if !strings.Contains(addr, "/p2p/") {
				return errors.New("it must end in /p2p/<peer id>")
			}
			dialed = append(dialed, addr)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close()
	s.SetNetwork(Network{MDNS: false, Peers: 2, Addrs: []string{"/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWx"}})
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if n := st.Network; n == nil || n.MDNS || n.Peers != 2 || len(n.Addrs) != 1 || !n.Dial {
		t.Errorf("network: %+v", st.Network)
	}
	var e apiError
	for _, tt := range []struct {
		body string
		code int
		err  string
	}{
		{`{"addr":"/ip4/10.0.0.2/tcp/4001/p2p/12D3KooWy"}`, 200, ""},
		{`{"addr":"/ip4/10.0.0.2/tcp/4001"}`, 422, "Cannot dial /ip4/10.0.0.2/tcp/4001: it must end in /p2p/<peer id>"},
		{`{"addr":"  "}`, 422, "Type a player's address"},
		{`{"addr":`, 400, "not valid JSON"},
	} {
		e = apiError{}
		if code := call(t, ts, "POST", "/api/dial", testKey, tt.body, &e); code != tt.code || !strings.Contains(e.Error, tt.err) {
			t.Errorf("dial %s: %d %q, want %d with %q", tt.body, code, e.Error, tt.code, tt.err)
		}
	}
	if len(dialed) != 1 {
		t.Errorf("dialed %v", dialed)
	}
	// Without Dial in the config, the page cannot dial.
	_, _, ts2 := newServer(t, 0)
	if code := call(t, ts2, "POST", "/api/dial", testKey, `{"addr":"/ip4/1.2.3.4/tcp/1/p2p/x"}`, &e); code != http.StatusConflict {
		t.Errorf("dial without Dial: %d %q", code, e.Error)
	}
}

// TestLanguages: the language a request asks for, from ?lang=, Accept-Language or the locale;
// and every language has the shell's every word, with the same arguments.
func TestLanguages(t *testing.T) {
	for _, tt := range []struct {
		prefs []string
		want  string
	}{
		{[]string{"es-AR"}, "es"}, {[]string{"", "fr-CH, fr;q=0.9, en;q=0.8"}, "fr"}, {[]string{"de, es;q=0.5"}, "es"},
		{[]string{"fr_FR.UTF-8"}, "fr"}, {[]string{"C.UTF-8"}, "en"}, {nil, "en"}, {[]string{"pt", "it"}, "en"},
	} {
		if got := Lang(tt.prefs...); got != tt.want {
			t.Errorf("Lang(%q) = %s, want %s", tt.prefs, got, tt.want)
		}
	}
	env := map[string]string{"LANG": "es_ES.UTF-8", "LC_ALL": "fr_FR.UTF-8"}
	if got := LangFromEnv(func(k string) string { return env[k] }); got != "fr" {
		t.Errorf("LC_ALL before LANG: %s", got)
	}
	checkWords(t, shellWords)
}

// checkWords checks that every language has the English words, and only those, each with the
// same {arguments}.
func checkWords(t *testing.T, w *Words) {
	t.Helper()
	args := regexp.MustCompile(`\{\w+\}`)
	en := w.Keys("en")
	if len(w.Speaks()) != len(Languages) {
		t.Errorf("the words speak %v, want %v", w.Speaks(), Languages)
	}
	for _, l := range w.Speaks()[1:] {
		for k, v := range en {
			tr, ok := w.Keys(l)[k]
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
		for k := range w.Keys(l) {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %q, which English has not", l, k)
			}
		}
	}
}

// TestAssets: the shell's page is whole, loads nothing from elsewhere, weighs under 150 KB,
// and loads with its board's styles over loopback in well under a second.
func TestAssets(t *testing.T) {
	_, _, ts := newServer(t, 0)
	shell, err := fs.Sub(static, "static")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	fs.WalkDir(shell, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(shell, path)
		total += len(b)
		if regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|@import|url\(\s*["']?https?:`).Match(b) {
			t.Errorf("%s loads something from elsewhere", path)
		}
		return nil
	})
	t.Logf("the shell's embedded assets: %d bytes", total)
	if total >= 150<<10 {
		t.Errorf("the shell's assets weigh %d bytes, want under 150 KB (a board adds its own)", total)
	}

	begin := time.Now()
	resp, err := ts.Client().Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	refs := regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`).FindAllStringSubmatch(string(page), -1)
	if len(refs) < 2 {
		t.Fatalf("the page names %d assets: %q", len(refs), refs)
	}
	// The board's styles, which the page loads for the table's game.
	refs = append(refs, []string{"", "/static/boards/pick/board.css"})
	for _, ref := range refs {
		resp, err := ts.Client().Get(ts.URL + ref[1])
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", ref[1], resp.StatusCode)
		}
	}
	call(t, ts, "GET", "/api/state", testKey, "", &State{})
	// A figure, not an assertion: a loaded machine makes any time limit flaky.
	t.Logf("the page, its %d assets and the state over loopback: %v", len(refs), time.Since(begin))
}
