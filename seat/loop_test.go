package seat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol/tablenet"
	bus "corruption/protocol/tablenet/memnode"
	"corruption/ui"
)

// page drives a seat's page through its API, as the page's script does.
type page struct {
	mu sync.Mutex
	ip *ui.InProcess
	ok chan struct{} // closed once the server exists
}

func newPage() *page { return &page{ok: make(chan struct{})} }

func (p *page) onServer(s *ui.Server) {
	p.mu.Lock()
	p.ip = ui.NewInProcess(s)
	p.mu.Unlock()
	close(p.ok)
}

func (p *page) do(t *testing.T, method, path string, body any) (int, string) {
	t.Helper()
	<-p.ok
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	code, out := p.ip.Do(context.Background(), method, path, b)
	return code, string(out)
}

// wait waits until the page's state satisfies cond, and returns it.
func (p *page) wait(t *testing.T, ctx context.Context, what string, cond func(ui.State) bool) ui.State {
	t.Helper()
	for {
		_, body := p.do(t, "GET", "/api/state", nil)
		var st ui.State
		if err := json.Unmarshal([]byte(body), &st); err == nil && cond(st) {
			return st
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the page never showed %s; last: %.300s", what, body)
		case <-time.After(5 * time.Millisecond): // the seat's next change
		}
	}
}

// TestSeatLoop (the game night's findings 1 and 3): a seat with no name asks it first, by the
// rules of --name, and keeps it; the person creates a table in the lobby; the page goes away in
// mid-game (a reload); the next run, on the same store, asks no name and comes back to that
// table at once, plays it to its end, and goes back to the lobby from its results; a third
// run lands in the lobby, the name kept.
func TestSeatLoop(t *testing.T) {
	const game = "corruptia"
	config, err := boards[2].ParseSettings(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	choice := ui.TableChoice{Table: "ann's table — Ψ 🎲", Game: game, Players: 2, Config: config}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := bus.New()
	done, errs := bots(t, ctx, b, choice, 1)
	s := store(t)
	bot := &standIn{f: engine.LookupStandIn(game), n: 9 << 32}

	// The first run: the name, the lobby, the table, and a reload in mid-game.
	p := newPage()
	first, stop := context.WithCancel(ctx)
	cfg := Config{Store: s, Net: b.Member(), Boards: boards, DefaultName: "phone-7", Clock: Clock{Timeout: time.Minute, Wait: time.Minute},
		OnServer: p.onServer, Player: func(*ui.Human) engine.Player { return &stopAfter{p: bot, n: 3, stop: stop} }}
	ran := make(chan error, 1)
	go func() { ran <- Run(first, cfg) }()
	st := p.wait(t, ctx, "the name screen", func(st ui.State) bool { return st.Mode == "name" })
	if st.NameDefault != "phone-7" {
		t.Errorf("the name field is filled with %q, want the default", st.NameDefault)
	}
	for _, bad := range []string{"", "  ", "ann\u202e", strings.Repeat("x", 65)} {
		if code, body := p.do(t, "POST", "/api/name", map[string]string{"name": bad}); code != 422 {
			t.Errorf("the name %q: %d %s, want 422", bad, code, body)
		}
	}
	if code, body := p.do(t, "POST", "/api/name?lang=fr", map[string]string{"name": ""}); !strings.Contains(body, "Tapez un nom") {
		t.Errorf("an empty name in French: %d %s", code, body)
	}
	if code, body := p.do(t, "POST", "/api/name", map[string]string{"name": "Zoë"}); code != 200 {
		t.Fatalf("the name Zoë: %d %s", code, body)
	}
	p.wait(t, ctx, "the lobby", func(st ui.State) bool { return st.Mode == "lobby" && st.Me.Name == ui.Isolate("Zoë") })
	if code, body := p.do(t, "POST", "/api/lobby/create", map[string]any{"game": game, "table": choice.Table, "players": 2, "bots": 0}); code != 200 {
		t.Fatalf("creating the table in the lobby: %d %s", code, body)
	}
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Fatalf("the first run: %v", err)
	}
	if got := loadName(s); got != "Zoë" {
		t.Errorf("the seat kept the name %q, want Zoë", got)
	}
	if c, ok := loadCurrent(s); !ok || c.Choice.Table != choice.Table {
		t.Fatalf("the seat noted %+v, %v; want the table it sat at", c, ok)
	}

	// The reload: no name asked, the same table at once, to its end, then the lobby.
	p = newPage()
	second, stop2 := context.WithCancel(ctx)
	defer stop2()
	var seated []string
	var res *ui.Result
	finished := make(chan struct{})
	cfg.Net, cfg.OnServer = b.Member(), p.onServer
	cfg.Player = func(*ui.Human) engine.Player { return bot }
	cfg.OnTable = func(c ui.TableChoice) { seated = append(seated, c.Table) }
	cfg.OnFinish = func(r ui.Result) { res = &r; close(finished) }
	go func() { ran <- Run(second, cfg) }()
	select {
	case <-finished:
	case <-ctx.Done():
		t.Fatal("the resumed table never finished")
	}
	if len(seated) != 1 || seated[0] != choice.Table {
		t.Fatalf("after the reload the seat sat at %q, want %q at once", seated, choice.Table)
	}
	if res.Err != nil || !res.Outcome.Finished || !res.Audit.Valid {
		t.Fatalf("the resumed table: %+v", res)
	}
	p.wait(t, ctx, "the results", func(st ui.State) bool { return st.Mode == "over" && st.Result != nil })
	if code, body := p.do(t, "POST", "/api/leave", struct{}{}); code != 200 {
		t.Fatalf("back to the lobby: %d %s", code, body)
	}
	p.wait(t, ctx, "the lobby again", func(st ui.State) bool { return st.Mode == "lobby" && st.Table == nil && len(st.Log) == 0 })
	if _, ok := loadCurrent(s); ok {
		t.Error("the seat still notes a table that is over")
	}
	stop2()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Fatalf("the second run: %v", err)
	}
	<-done
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	// A third run: the lobby, the name kept.
	p = newPage()
	third, stop3 := context.WithCancel(ctx)
	cfg.OnTable, cfg.OnFinish, cfg.OnServer = nil, nil, p.onServer
	go func() { ran <- Run(third, cfg) }()
	p.wait(t, ctx, "the lobby, with the name kept", func(st ui.State) bool { return st.Mode == "lobby" && st.Me.Name == ui.Isolate("Zoë") })
	stop3()
	<-ran
}

// refusingNet is a seat's network that refuses every table's topic (a laptop that cannot
// carry its name).
type refusingNet struct{ tablenet.Node }

func (n refusingNet) Join(topic string, v func(string, []byte) int) error {
	if strings.HasPrefix(topic, tablenet.TablePrefix) {
		return errors.New("bridge: join: topic refused")
	}
	return n.Node.Join(topic, v)
}

// TestSeatTableFails: a table that cannot be played (the laptop refuses its topic) ends on
// its results with the reason, not with the seat; the person leaves and is in the lobby, the
// table forgotten; and a leave while a table forms goes back to the lobby too.
func TestSeatTableFails(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := store(t)
	p := newPage()
	run, stop := context.WithCancel(ctx)
	defer stop()
	ran := make(chan error, 1)
	go func() {
		ran <- Run(run, Config{Store: s, Net: refusingNet{bus.New().Member()}, Name: "ann", Boards: boards, OnServer: p.onServer})
	}()
	p.wait(t, ctx, "the lobby", func(st ui.State) bool { return st.Mode == "lobby" })
	if code, body := p.do(t, "POST", "/api/lobby/create", map[string]any{"game": "kingdoms", "table": "t", "players": 2, "bots": 0}); code != 200 {
		t.Fatalf("creating a table: %d %s", code, body)
	}
	st := p.wait(t, ctx, "the results", func(st ui.State) bool { return st.Mode == "over" && st.Result != nil })
	if !strings.Contains(st.Result.Error, "topic refused") {
		t.Errorf("the results say %+v, want the reason", st.Result)
	}
	if _, ok := loadCurrent(s); ok {
		t.Error("a table that could not be played is still noted for a reload")
	}
	p.do(t, "POST", "/api/leave", struct{}{})
	p.wait(t, ctx, "the lobby again", func(st ui.State) bool { return st.Mode == "lobby" })
	select {
	case err := <-ran:
		t.Fatalf("the seat stopped: %v", err)
	default:
	}
}
