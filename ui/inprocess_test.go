package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
)

// TestInProcess: the page's whole API driven in process, with no listener (what the browser
// seat's page does through api.js): the event stream from its first state to its end at
// Close, the lobby, a move refused and one taken, in the page's language.
func TestInProcess(t *testing.T) {
	h := NewHuman(nil)
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: h, Key: testKey, Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	c := NewInProcess(s)
	ctx := context.Background()
	states := make(chan State, 64)
	ended := make(chan int, 1)
	go func() {
		code, _ := c.Subscribe(ctx, "/api/events?lang=fr", func(event string, data []byte) {
			var st State
			if event != "state" || json.Unmarshal(data, &st) != nil {
				t.Errorf("event %q: %s", event, data)
			}
			states <- st
		})
		ended <- code
	}()
	next := func(what string, ok func(State) bool) State {
		t.Helper()
		for {
			select {
			case st := <-states:
				if ok(st) {
					return st
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no state with %s", what)
			}
		}
	}
	next("the lobby in French", func(st State) bool { return st.Mode == "lobby" && st.Lang == "fr" })
	if code, body := c.Do(ctx, "POST", "/api/lobby/create?lang=fr", []byte(`{"table":"t","players":9,"speed":"slow"}`)); code != 422 || !strings.Contains(string(body), "players: 9") {
		t.Errorf("a table of 9: %d %s", code, body)
	}
	if code, body := c.Do(ctx, "POST", "/api/lobby/create", []byte(`{"table":"t","players":3,"speed":"fast"}`)); code != 200 {
		t.Fatalf("create: %d %s", code, body)
	}
	if ch := <-s.Choices(); ch.Table != "t" || ch.Players != 3 || string(ch.Config) != "\x01" {
		t.Errorf("choice: %+v", ch)
	}
	next("the waiting screen", func(st State) bool { return st.Mode == "waiting" && st.Table != nil && st.Table.Name == "t" })
	g := newPick(3)
	s.Update(protocol.Status{Table: "t", Game: "pick", Seat: 0, Names: []string{"ann", "bob", "cy"}, State: g.Clone(), Due: 0, Timeout: time.Minute})
	got := make(chan engine.Action, 1)
	go func() {
		a, _ := h.Decide(ctx, g.Clone(), 0)
		got <- a
	}()
	d := next("a decision", func(st State) bool { return st.Decision != nil }).Decision
	if code, body := c.Do(ctx, "POST", "/api/move?lang=fr", []byte(`{"n":5}`)); code != 422 || !strings.Contains(string(body), "5 is more than 3") {
		t.Errorf("an illegal move: %d %s", code, body)
	}
	if code, body := c.Do(ctx, "POST", "/api/move", []byte(`{"id":`+itoa(d.ID)+`,"n":2}`)); code != 200 || string(body) != "{\"ok\":true}\n" {
		t.Errorf("a legal move: %d %s", code, body)
	}
	if a := <-got; string(a.Move) != "\x02" {
		t.Errorf("the move taken: %v", a.Move)
	}
	if code, body := c.Do(ctx, "POST", "/api/move", []byte(`{"n":`)); code != 400 || !strings.Contains(string(body), "not valid JSON") {
		t.Errorf("bad JSON: %d %s", code, body)
	}
	if code, _ := c.Do(ctx, "GET", "/api/nothing", nil); code != http.StatusNotFound {
		t.Errorf("a path the API does not have: %d", code)
	}
	var st State
	code, body := c.Do(ctx, "GET", "/api/state?lang=es", nil)
	if err := json.Unmarshal(body, &st); code != 200 || err != nil || st.Lang != "es" || st.Table.Name != "t" {
		t.Errorf("the state: %d %v %+v", code, err, st)
	}
	s.Close()
	select {
	case code := <-ended:
		if code != 200 {
			t.Errorf("the stream ended with %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end at Close")
	}
	// A stream refused is said at once, as over HTTP.
	bad := &InProcess{h: s.Handler(), key: "wrong"}
	if code, body := bad.Subscribe(ctx, "/api/events", func(string, []byte) { t.Error("an event without the key") }); code != 403 || !strings.Contains(string(body), "session key") {
		t.Errorf("a stream without the key: %d %s", code, body)
	}
}

// TestOneDoor: the page's scripts, the shell's and every board's, reach their seat through
// api.js alone: no other calls fetch, opens an EventSource, or touches the browser's storage or
// cookies (two nodes' pages in one browser would then clash).
func TestOneDoor(t *testing.T) {
	files, err := filepath.Glob("static/*.js")
	if err != nil {
		t.Fatal(err)
	}
	boards, err := filepath.Glob("*/static/*.js")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, boards...)
	if len(boards) < 3 || len(files) < 6 {
		t.Fatalf("the page's scripts: %v", files)
	}
	door := regexp.MustCompile(`\bfetch\s*\(|new\s+EventSource\b|\blocalStorage\b|\bsessionStorage\b|document\.cookie`)
	seen := false
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if f == filepath.Join("static", "api.js") {
			seen = door.Match(b)
			continue
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := door.FindString(line); m != "" {
				t.Errorf("%s:%d: %q: only api.js reaches the seat and the browser's storage", f, i+1, m)
			}
		}
	}
	if !seen {
		t.Error("api.js does not reach the seat")
	}
}

// TestNodeNames: each node's page keeps its key in a cookie of its own name and names its
// storage after its node, so that two tables' pages in one browser (cookies are kept per host,
// whatever the port) never wipe each other's key.
func TestNodeNames(t *testing.T) {
	type node struct {
		s      *Server
		url    string
		cookie *http.Cookie
	}
	var nodes []node
	for _, key := range []string{"k3y", "k4y"} {
		s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Key: key})
		if err != nil {
			t.Fatal(err)
		}
		ts := newHTTP(t, s)
		client := *ts.Client()
		client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, err := client.Get(ts.URL + "/?key=" + key)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		cs := resp.Cookies()
		if len(cs) != 1 || cs[0].Value != key || cs[0].Name != "corruption_key_"+s.Node() {
			t.Fatalf("/?key=%s: cookies %v", key, cs)
		}
		resp, err = client.Get(ts.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		page := readAll(t, resp)
		if !strings.Contains(page, `<meta name="corruption-node" content="`+s.Node()+`">`) {
			t.Errorf("the page does not name its node %s", s.Node())
		}
		nodes = append(nodes, node{s, ts.URL, cs[0]})
	}
	if nodes[0].cookie.Name == nodes[1].cookie.Name {
		t.Fatalf("two nodes keep their keys in one cookie, %s: the second page wipes the first's key", nodes[0].cookie.Name)
	}
	// The browser sends both cookies to both ports: each node finds its own key among them;
	// the other's alone opens neither.
	for i, n := range nodes {
		for _, cookies := range [][]*http.Cookie{{nodes[0].cookie, nodes[1].cookie}, {nodes[1-i].cookie}} {
			req, _ := http.NewRequest("GET", n.url+"/api/state", nil)
			for _, c := range cookies {
				req.AddCookie(c)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if want := map[bool]int{true: 200, false: 403}[len(cookies) == 2]; resp.StatusCode != want {
				t.Errorf("node %d with %d cookies: %d, want %d", i, len(cookies), resp.StatusCode, want)
			}
		}
	}
	if again, _ := NewServer(Config{Board: pickBoard{}, Key: "k3y"}); again.Node() != nodes[0].s.Node() {
		t.Errorf("the same key names another node: %s, %s", again.Node(), nodes[0].s.Node())
	}
}
