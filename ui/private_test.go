package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"corruption/protocol"
)

// TestPrivateCodes: the creator's waiting screen has the join code, the internet join code and
// the failed attempts its node counted, as they change; the lobby has none.
func TestPrivateCodes(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetPrivate(Private{Code: "2s-fn8-de6", Internet: "2s-fn8-de6@/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWr"})
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "lobby" || st.Private != nil {
		t.Errorf("lobby: mode %q, private %+v", st.Mode, st.Private)
	}
	s.SetTable(TableChoice{Table: "private-x", Game: "pick", Players: 3})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if p := st.Private; st.Mode != "waiting" || p == nil || p.Code != "2s-fn8-de6" || !strings.HasSuffix(p.Internet, "/p2p/12D3KooWr") || p.Failed != 0 {
		t.Fatalf("waiting: mode %q, private %+v", st.Mode, st.Private)
	}
	if st.Table == nil || !st.Table.Private {
		t.Errorf("the table is not said private: %+v", st.Table)
	}
	s.SetPrivate(Private{Code: "2s-fn8-de6", Failed: 2})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if p := st.Private; p == nil || p.Failed != 2 || p.Internet != "" {
		t.Errorf("after two failures: %+v", st.Private)
	}
	// Once the table forms, the codes are gone from the page.
	s.Update(protocol.Status{Table: "private-x", Seat: 0, Names: []string{"ann", "bob", "cy"}, Due: -1})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode == "waiting" || st.Private != nil {
		t.Errorf("formed: mode %q, private %+v", st.Mode, st.Private)
	}
}

// TestPeerConns: the network state says how the node reaches each peer, direct or relayed.
func TestPeerConns(t *testing.T) {
	s, _, ts := newServer(t, 0)
	s.SetNetwork(Network{Peers: 1})
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Network == nil || st.Network.Conns == nil || len(st.Network.Conns) != 0 {
		t.Errorf("no peers: %+v", st.Network)
	}
	s.SetNetwork(Network{Peers: 2, Conns: []PeerConn{{ID: "12D3KooWa", Kind: "direct"}, {ID: "12D3KooWb", Kind: "relayed"}}})
	s.SetTable(TableChoice{Table: "t", Game: "pick", Players: 3})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if n := st.Network; n == nil || len(n.Conns) != 2 || n.Conns[0] != (PeerConn{"12D3KooWa", "direct"}) || n.Conns[1] != (PeerConn{"12D3KooWb", "relayed"}) {
		t.Errorf("waiting: %+v", st.Network)
	}
}

// fakeJoins is a Config.JoinPrivate whose answer depends on the code (by its String).
type fakeJoins struct {
	answers map[string]error
	table   TableChoice
	codes   []string // the codes asked, as posted
	started chan struct{}
	release chan error // when set, the join waits for its answer
}

func (f *fakeJoins) join(ctx context.Context, text string, heard func()) (TableChoice, error) {
	f.codes = append(f.codes, text)
	bare, _, _ := strings.Cut(text, "@")
	code, err := protocol.ParseJoinCode(bare)
	if err != nil {
		return TableChoice{}, fmt.Errorf("the page posted a bad code %q", text)
	}
	if f.release != nil {
		f.started <- struct{}{}
		if err := <-f.release; err != nil {
			return TableChoice{}, err
		}
	}
	if err, ok := f.answers[code.String()]; ok {
		return TableChoice{}, err
	}
	return f.table, nil
}

func newCode(t *testing.T) string {
	t.Helper()
	c, err := protocol.NewJoinCode(nil)
	if err != nil {
		t.Fatal(err)
	}
	return c.String()
}

func privateServer(t *testing.T, f *fakeJoins) (*Server, *httptest.Server) {
	t.Helper()
	s, err := NewServer(Config{Name: "ann", Board: pickBoard{}, Human: NewHuman(nil), Key: testKey, Now: func() time.Time { return testNow },
		JoinPrivate: f.join, Rematch: true})
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

// TestJoinPrivate: the lobby's field joins a private table by its code; every refusal is said
// in plain words, in the page's language; the table joined is the person's choice.
func TestJoinPrivate(t *testing.T) {
	wrong, full, wait, nobody, other := newCode(t), newCode(t), newCode(t), newCode(t), newCode(t)
	f := &fakeJoins{answers: map[string]error{
		wrong:  protocol.ErrWrongCode,
		full:   protocol.ErrTableFull,
		wait:   &protocol.JoinWaitError{Wait: 9500 * time.Millisecond},
		nobody: ErrNoCreator,
	}, table: TableChoice{Table: "private-abc", Game: "pick", Players: 3, Config: []byte{1}}}
	s, ts := privateServer(t, f)
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Lobby == nil || !st.Lobby.Private || st.Lobby.Joining {
		t.Fatalf("lobby: %+v", st.Lobby)
	}
	for _, tt := range []struct {
		body, lang string
		code       int
		err        string
	}{
		{`{"code":"` + wrong + `"}`, "en", 422, "The join code is wrong"},
		{`{"code":"` + wrong + `"}`, "fr", 422, "Le code d'accès est faux"},
		{`{"code":"` + full + `"}`, "en", 422, "That private table is full"},
		{`{"code":"` + wait + `"}`, "en", 422, "try again in 10 s"},
		{`{"code":"` + wait + `"}`, "es", 422, "vuelve a intentarlo en 10 s"},
		{`{"code":"` + nobody + `"}`, "en", 422, "No creator of a private table with that code answered in time"},
		{`{"code":"no such code"}`, "en", 422, "no such code is not a join code"},
		{`{"code":"` + other + `@/ip4/1.2.3.4/tcp/1"}`, "en", 422, "is not a join code"},
		{`{"code":"  "}`, "en", 422, "Type the join code"},
		{`{"code":`, "en", 400, "not valid JSON"},
	} {
		var e apiError
		if code := call(t, ts, "POST", "/api/lobby/private?lang="+tt.lang, testKey, tt.body, &e); code != tt.code || !strings.Contains(e.Error, tt.err) {
			t.Errorf("%s (%s): %d %q, want %d with %q", tt.body, tt.lang, code, e.Error, tt.code, tt.err)
		}
	}
	if len(f.codes) != 6 {
		t.Errorf("the node was asked %d times (%v), want 6: a malformed code never reaches it", len(f.codes), f.codes)
	}
	select {
	case c := <-s.Choices():
		t.Fatalf("a refused join chose %v", c)
	default:
	}
	// An internet join code, typed with spaces around: the node gets it whole.
	relayed := other + "@/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWr"
	if code := call(t, ts, "POST", "/api/lobby/private", testKey, `{"code":" `+relayed+` "}`, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	if got := f.codes[len(f.codes)-1]; got != relayed {
		t.Errorf("the node got %q, want %q", got, relayed)
	}
	select {
	case c := <-s.Choices():
		if c.Table != "private-abc" || c.Players != 3 {
			t.Errorf("chose %v", c)
		}
	default:
		t.Fatal("a join by code chose no table")
	}
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "waiting" || st.Table == nil || !st.Table.Private || st.Private != nil {
		t.Errorf("joined: mode %q, table %+v, codes %+v", st.Mode, st.Table, st.Private)
	}
	var e apiError
	if code := call(t, ts, "POST", "/api/lobby/private", testKey, `{"code":"`+other+`"}`, &e); code != http.StatusConflict || !strings.Contains(e.Error, "private-abc") {
		t.Errorf("a second join: %d %q", code, e.Error)
	}
	// No rematch of a private table: the next table would be open.
	s.Finish(Result{Outcome: &protocol.Outcome{Table: "private-abc", Finished: true}})
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Rematch != "" {
		t.Errorf("a private table offers a rematch at %q", st.Rematch)
	}
}

// TestJoinPrivateBusy: while the node looks for a table, the lobby says so and another code
// waits; a table of another game is refused.
func TestJoinPrivateBusy(t *testing.T) {
	f := &fakeJoins{table: TableChoice{Table: "private-abc", Game: "othergame", Players: 3},
		started: make(chan struct{}), release: make(chan error)}
	s, ts := privateServer(t, f)
	code := newCode(t)
	first := make(chan apiError, 1)
	go func() {
		var e apiError
		call(t, ts, "POST", "/api/lobby/private", testKey, `{"code":"`+code+`"}`, &e)
		first <- e
	}()
	<-f.started
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Lobby == nil || !st.Lobby.Joining {
		t.Errorf("joining: %+v", st.Lobby)
	}
	var e apiError
	if c := call(t, ts, "POST", "/api/lobby/private", testKey, `{"code":"`+code+`"}`, &e); c != http.StatusConflict || !strings.Contains(e.Error, "already looking") {
		t.Errorf("a second code while joining: %d %q", c, e.Error)
	}
	e = apiError{}
	if c := call(t, ts, "POST", "/api/lobby/create", testKey, `{"table":"open one","players":3,"speed":"slow"}`, &e); c != http.StatusConflict || !strings.Contains(e.Error, "already looking") {
		t.Errorf("creating a table while joining by code: %d %q", c, e.Error)
	}
	f.release <- nil
	if e := <-first; !strings.Contains(e.Error, "plays othergame") {
		t.Errorf("a table of another game: %q", e.Error)
	}
	st = State{}
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Mode != "lobby" || st.Lobby.Joining {
		t.Errorf("after: mode %q, %+v", st.Mode, st.Lobby)
	}
	// Refused: the person can try again.
	go func() { f.release <- errors.New("boom") }()
	go func() { <-f.started }()
	if c := call(t, ts, "POST", "/api/lobby/private", testKey, `{"code":"`+code+`"}`, &e); c != 422 || e.Error != "boom" {
		t.Errorf("again: %d %q", c, e.Error)
	}
	_ = s
}

// TestNoJoinPrivate: without Config.JoinPrivate the lobby offers no field and the API refuses.
func TestNoJoinPrivate(t *testing.T) {
	_, _, ts := newServer(t, 0)
	var st State
	call(t, ts, "GET", "/api/state", testKey, "", &st)
	if st.Lobby == nil || st.Lobby.Private {
		t.Errorf("lobby: %+v", st.Lobby)
	}
	var e apiError
	if c := call(t, ts, "POST", "/api/lobby/private", testKey, `{"code":"2s-fn8-de6"}`, &e); c != http.StatusConflict || e.Error == "" {
		t.Errorf("join without JoinPrivate: %d %q", c, e.Error)
	}
}
