package ui

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"corruption/engine/corruption"
	"corruption/protocol"
)

const testKey = "k3y"

func newServer(t *testing.T, bots int) (*Server, *Human, *httptest.Server) {
	t.Helper()
	h := NewHuman(nil)
	s := NewServer(Config{Name: "ann", Human: h, Bots: bots, Key: testKey})
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
	if code := call(t, ts, "GET", "/api/state", testKey, "", &st); code != http.StatusOK || st.Mode != "lobby" || st.Me.Name != "ann" {
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

func announce(s *Server, table, name string, players int, v corruption.Variant) {
	pub, _, _ := ed25519.GenerateKey(nil)
	s.Announce(&protocol.Announcement{Table: table, Players: players, Variant: v, Name: name, Key: pub})
}

func TestLobby(t *testing.T) {
	s, _, ts := newServer(t, 1)
	announce(s, "friday", "bob", 4, corruption.FreeStud)
	announce(s, "friday", "carol", 4, corruption.FreeStud)
	announce(s, "tight", "dan", 3, corruption.Standard)
	announce(s, "tight", "eve", 3, corruption.Standard)
	announce(s, "friday", "zed", 7, corruption.Standard) // another table of the same name
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Lobby == nil || len(st.Lobby.Tables) != 3 {
		t.Fatalf("lobby: %+v", st.Lobby)
	}
	fri := st.Lobby.Tables[0]
	if fri.Table != "friday" || fri.Players != 4 || fri.Variant != "free-stud" || strings.Join(fri.Seated, ",") != "bob,carol" || fri.Full || !fri.Room {
		t.Errorf("friday: %+v", fri)
	}
	if tight := st.Lobby.Tables[2]; tight.Room || tight.Full {
		t.Errorf("tight (2 of 3 seated, the person has a bot): %+v", tight)
	}
	if st.Lobby.Defaults.Players != 4 || st.Lobby.Defaults.Table != "ann's table" {
		t.Errorf("defaults: %+v", st.Lobby.Defaults)
	}

	var e apiError
	for _, tt := range []struct{ path, body, err string }{
		{"/api/lobby/create", `{"table":"a/b","players":4,"variant":"standard"}`, "not a table name"},
		{"/api/lobby/create", `{"table":"x","players":9,"variant":"standard"}`, "players: 9"},
		{"/api/lobby/create", `{"table":"x","players":4,"variant":"poker"}`, "unknown variant"},
		{"/api/lobby/create", `{"table":"x","players":4,"variant":"closed","lbb":true}`, "little black book"},
		{"/api/lobby/create", `{"table":"friday","players":4,"variant":"standard"}`, "already open"},
		{"/api/lobby/join", `{"table":"tight"}`, "no room"},
		{"/api/lobby/join", `{"table":"nowhere"}`, "no table of that name"},
		{"/api/lobby/join", `{"table":"friday","players":5,"variant":"free-stud"}`, "no table of that name"},
		{"/api/lobby/join", `{"table":"friday","players":4,"variant":"poker"}`, "unknown variant"},
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

	if code := call(t, ts, "POST", "/api/lobby/join", testKey, `{"table":"friday","players":4,"variant":"free-stud"}`, nil); code != http.StatusOK {
		t.Fatalf("join friday: %d", code)
	}
	c := <-s.Choices()
	if c != (TableChoice{Table: "friday", Players: 4, Variant: corruption.FreeStud}) {
		t.Errorf("choice: %+v", c)
	}
	if code := call(t, ts, "POST", "/api/lobby/create", testKey, `{"table":"mine","players":4,"variant":"standard"}`, &e); code != http.StatusConflict {
		t.Errorf("a second choice: %d %q", code, e.Error)
	}
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "waiting" || st.Table == nil || st.Table.Name != "friday" || st.Lobby != nil {
		t.Errorf("after joining: mode %q, table %+v", st.Mode, st.Table)
	}
}

func TestLobbyExpires(t *testing.T) {
	var l lobby
	now := time.Now()
	pub, _, _ := ed25519.GenerateKey(nil)
	a := &protocol.Announcement{Table: "t", Players: 3, Name: "bob", Key: pub}
	if !l.add(a, now) || l.add(a, now.Add(time.Second)) {
		t.Error("add: a new player changes the listing, the same one again does not")
	}
	if l.prune(now.Add(LobbyTTL)) || len(l.list(0)) != 1 {
		t.Error("pruned too early")
	}
	if !l.prune(now.Add(time.Second+LobbyTTL+time.Millisecond)) || len(l.list(0)) != 0 {
		t.Errorf("not pruned: %+v", l.list(0))
	}
}

// TestMoveAPI: POST /api/move answers the pending decision; illegal, stale or malformed moves
// are refused with a message, and the decision stays.
func TestMoveAPI(t *testing.T) {
	s, h, ts := newServer(t, 0)
	var e apiError
	if code := call(t, ts, "POST", "/api/move", testKey, `{"kind":"pass"}`, &e); code != http.StatusConflict || !strings.Contains(e.Error, "not your turn") {
		t.Errorf("nothing asked: %d %q", code, e.Error)
	}
	g := newGame(t, 3)
	s.SetTable(TableChoice{Table: "t", Players: 3})
	s.Update(protocol.Status{Table: "t", Seat: 0, Names: []string{"ann", "bob", "cy"}, Game: g.Clone(), Due: 0, Timeout: time.Minute})
	got := make(chan corruption.Move, 1)
	go func() {
		m, _ := h.Decide(context.Background(), g.Clone().View(0))
		got <- m
	}()
	waitPending(s, h)
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	d := st.Decision
	if d == nil {
		t.Fatal("no decision in the state")
	}
	if d.Kind != "place" || len(d.Cards) != 9 || d.Placed != 0 {
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
	for _, tt := range []struct {
		body string
		code int
		err  string
	}{
		{`{"kind":"place","card":"da","spot":"swiss:city"}`, 422, "cannot"},
		{`{"kind":"assign","contract":"school"}`, 422, "not to assign"},
		{`{"id":99,"kind":"place","card":"1000","spot":"school"}`, 409, "earlier decision"},
		{`{"text":"4000 moon"}`, 422, "unknown place"},
		{`{"kind":`, 400, "not valid JSON"},
	} {
		e = apiError{}
		if code := call(t, ts, "POST", "/api/move", testKey, tt.body, &e); code != tt.code || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s: %d %q, want %d with %q", tt.body, code, e.Error, tt.code, tt.err)
		}
	}
	if code := call(t, ts, "POST", "/api/move", testKey, `{"id":`+itoa(d.ID)+`,"kind":"place","card":"4000","spot":"monument"}`, &e); code != http.StatusOK {
		t.Fatalf("legal move: %d %q", code, e.Error)
	}
	if m := <-got; m != (corruption.Move{Kind: corruption.MovePlace, Seat: 0, Card: corruption.Bribe4000, Spot: 1}) {
		t.Errorf("Decide returned %+v", m)
	}
}

// waitPending waits until the person is asked for a decision.
func waitPending(s *Server, h *Human) {
	for {
		s.mu.Lock()
		ch := s.notify
		s.mu.Unlock()
		if _, ok := h.Pending(); ok {
			return
		}
		<-ch
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestStateShowsOnlyTheView: the page's state shows the person's own face-down cards and those
// it peeked at, never another seat's.
func TestStateShowsOnlyTheView(t *testing.T) {
	s, _, ts := newServer(t, 0)
	g := newGame(t, 3, func(c *corruption.Config) { c.LittleBlackBook = true })
	// Each player's first card is face up (standard, round 1); the others face down. Seat 2
	// peeks at seat 1's $10,000 (card 5).
	apply(t, g, "1000 school", "1000 monument", "1000 library", "8000 swiss:county", "10000 school", "peek 5", "6000 monument")
	s.SetTable(TableChoice{Table: "t", Players: 3})
	for _, seat := range []int{0, 2} {
		s.Update(protocol.Status{Table: "t", Seat: seat, Names: []string{"ann", "bob", "cy"}, Game: g.Clone(), Due: 2})
		var raw map[string]any
		call(t, ts, "GET", "/api/state", testKey, "", &raw)
		var st State
		b, _ := json.Marshal(raw)
		json.Unmarshal(b, &st)
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
	}
	// Seat 2's peek is in its log once the answer is known.
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	found := false
	for _, l := range st.Log {
		found = found || (l.Kind == "peek" && strings.Contains(l.Text, "card 5") && strings.Contains(l.Text, "$10,000"))
	}
	if !found {
		t.Errorf("no peek line in the log: %+v", st.Log)
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
	s.SetTable(TableChoice{Table: "t", Players: 3})
	if st := next(); st.Mode != "waiting" {
		t.Fatalf("after SetTable: %+v", st)
	}
	s.Update(protocol.Status{Table: "t", Seat: 1, Names: []string{"ann", "bob", "cy"}})
	next()
	s.Event(corruption.Event{Kind: corruption.EventDealt, Round: 1, Contract: 22, Body: corruption.City})
	st := next()
	if st.LogStart != 0 || len(st.Log) != 1 || st.Log[0].Text != "Airport ($1,100,000) is dealt under City Hall." {
		t.Fatalf("log: %d %+v", st.LogStart, st.Log)
	}
	s.Event(corruption.Event{Kind: corruption.EventAwarded, Round: 1, Seat: 1, Contract: 22, Amount: 14000})
	st = next()
	if st.LogStart != 1 || len(st.Log) != 1 || st.Log[0].Text != "Airport goes to you for $14,000 in bribes." {
		t.Fatalf("log: %d %+v", st.LogStart, st.Log)
	}
	s.Close()
	if _, err := io.ReadAll(r); err != nil {
		t.Errorf("the stream did not end cleanly at Close: %v", err)
	}
}

// TestVerdictsAndResult: a halted table and the end of a game show in words.
func TestVerdictsAndResult(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetTable(TableChoice{Table: "t", Players: 3})
	names := []string{"ann", "bob", "cy"}
	for _, tt := range []struct {
		v    protocol.Verdict
		want string
	}{
		{protocol.Verdict{Kind: protocol.VerdictAbandoned, Seq: 40, Seat: 2, Reason: "silent for 1m0s"}, "cy is gone: silent for 1m0s"},
		{protocol.Verdict{Kind: protocol.VerdictCheat, Seq: 41, Seat: 1, Reason: "bad shuffle proof"}, "bob was caught cheating at entry 41: bad shuffle proof"},
		{protocol.Verdict{Kind: protocol.VerdictEquivocation, Seq: 7, Seat: 0, Reason: "two entries"}, "Your node was caught cheating"},
	} {
		v := tt.v
		s.Update(protocol.Status{Table: "t", Seat: 0, Names: names, Verdict: &v, Due: -1})
		var st State
		call(t, ts, "GET", "/api/state", testKey, "", &st)
		if len(st.Alerts) != 1 || st.Alerts[0].Level != "error" || !strings.Contains(st.Alerts[0].Text, tt.want) {
			t.Errorf("%v: alerts %+v, want %q", tt.v.Kind, st.Alerts, tt.want)
		}
	}
	g := newGame(t, 3)
	s.Update(protocol.Status{Table: "t", Seat: 0, Names: names, Game: g.Clone(), Due: 1, DueSince: time.UnixMilli(1000), Timeout: time.Minute})
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Clock == nil || st.Clock.Due != 1 || st.Clock.Name != "bob" || st.Clock.SinceMS != 1000 || st.Clock.TimeoutMS != 60000 {
		t.Errorf("clock: %+v", st.Clock)
	}
	s.Finish(Result{Outcome: &protocol.Outcome{Finished: true, Scores: []int{100000, 0, 5}, Winners: []int{0}, Digest: "ab", Entries: 300},
		Audit: &protocol.Report{Outcome: protocol.Outcome{Entries: 300, Digest: "abcdef"}, Valid: true}})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "over" || st.Result == nil || !st.Result.Valid || !strings.Contains(st.Result.Audit, "the log checks") ||
		st.Result.Scores[0] != 100000 || st.Clock != nil || st.Decision != nil {
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

// TestAssets: the page is whole, loads nothing from elsewhere, weighs under 300 KB, and loads
// over loopback in well under a second.
func TestAssets(t *testing.T) {
	total := 0
	fs.WalkDir(Assets(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(Assets(), path)
		total += len(b)
		if regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|@import|url\(\s*["']?https?:`).Match(b) {
			t.Errorf("%s loads something from elsewhere", path)
		}
		return nil
	})
	t.Logf("embedded assets: %d bytes", total)
	if total >= 300<<10 {
		t.Errorf("the assets weigh %d bytes, want under 300 KB", total)
	}

	_, _, ts := newServer(t, 0)
	begin := time.Now()
	resp, err := ts.Client().Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	refs := regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`).FindAllStringSubmatch(string(page), -1)
	if len(refs) < 2 {
		t.Fatalf("the page names %d assets", len(refs))
	}
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
	took := time.Since(begin)
	t.Logf("the page, its %d assets and the state over loopback: %v", len(refs), took)
	if took > time.Second {
		t.Errorf("loading took %v, want under 1 s", took)
	}
}
