package seat

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	bus "corruption/protocol/tablenet/memnode"
	"corruption/ui"
)

// hooked records what a Sitting's hooks are told.
type hooked struct {
	mu      sync.Mutex
	sat     []ui.TableChoice
	ends    []End
	results []ui.Result
	nodes   []*protocol.Node
	closed  int
}

func (h *hooked) sit(clock Clock) func(context.Context, ui.TableChoice) (Sitting, error) {
	return func(_ context.Context, c ui.TableChoice) (Sitting, error) {
		h.mu.Lock()
		h.sat = append(h.sat, c)
		h.mu.Unlock()
		return Sitting{Clock: &clock,
			Resume: func(o *protocol.Outcome) string { return "resume " + o.Table },
			Ended: func(n *protocol.Node, res ui.Result, end End) {
				h.mu.Lock()
				defer h.mu.Unlock()
				h.ends, h.results, h.nodes = append(h.ends, end), append(h.results, res), append(h.nodes, n)
			},
			Close: func() {
				h.mu.Lock()
				h.closed++
				h.mu.Unlock()
			}}, nil
	}
}

// TestSeatLaptopHooks: the loop as a laptop's command line runs it (docs/ARCHITECTURE.md, "The
// person's loop"): the page's configuration amended (Quit), the table wrapped by Sit (its
// clock, its Resume, told how it Ended with its node, Closed once the person moves on), the
// Store kept as a data directory (no table noted for a reload, the seed kept), and the page's
// Quit ends Run.
func TestSeatLaptopHooks(t *testing.T) {
	config, err := boards[1].ParseSettings(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	choice := ui.TableChoice{Table: "laptop's", Game: "kingdoms", Players: 2, Config: config}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := bus.New()
	done, errs := bots(t, ctx, b, choice, 1)
	s := store(t)
	p := newPage()
	h := &hooked{}
	lobbied := 0
	ran := make(chan error, 1)
	go func() {
		ran <- Run(ctx, Config{Store: s, Net: b.Member(), Name: "ann", Boards: boards, Given: choice, Autoplay: true,
			KeepData: true, OnServer: p.onServer, Page: func(c *ui.Config) { c.Quit = true },
			Sit: h.sit(Clock{Timeout: time.Minute, Wait: time.Minute}), OnLobby: func() { lobbied++ }})
	}()
	st := p.wait(t, ctx, "the results", func(st ui.State) bool { return st.Mode == "over" && st.Result != nil })
	if st.Result.Error != "" {
		t.Fatalf("the table did not finish: %+v", st.Result)
	}
	if _, ok := loadCurrent(s); ok {
		t.Error("a laptop's seat noted its table for a reload")
	}
	if _, err := s.TableSeed(choice.Table); err != nil {
		t.Errorf("a laptop's seat wiped its table's seed: %v", err)
	}
	if code, body := p.do(t, "POST", "/api/quit", struct{}{}); code != 200 {
		t.Fatalf("quit: %d %s", code, body)
	}
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after the page's Quit: %v", err)
	}
	<-done
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sat) != 1 || h.sat[0].Table != choice.Table {
		t.Errorf("Sit was told %+v, want the given table once", h.sat)
	}
	if len(h.ends) != 1 || h.ends[0] != Over || h.nodes[0] == nil {
		t.Fatalf("Ended was told %v (nodes %v), want Over once with the node", h.ends, h.nodes)
	}
	res := h.results[0]
	if res.Outcome == nil || !res.Outcome.Finished || res.Audit == nil || !res.Audit.Valid {
		t.Errorf("Ended's result: %+v", res)
	}
	if res.Resume != "resume "+choice.Table {
		t.Errorf("the result's Resume is %q, not the hook's", res.Resume)
	}
	if h.closed != 1 {
		t.Errorf("Close was called %d times, want once", h.closed)
	}
	if lobbied != 0 {
		t.Errorf("OnLobby was told %d times, with a given table and no lobby", lobbied)
	}
}

// front is a Front that plays with the game's stand-in and keeps how the table ended.
type front struct {
	standIn
	mu       sync.Mutex
	finished []ui.Result
	updates  int
}

func (f *front) Update(protocol.Status)    { f.mu.Lock(); f.updates++; f.mu.Unlock() }
func (f *front) Event(engine.Event)        {}
func (f *front) Chat(protocol.ChatMessage) {}
func (f *front) Finish(r ui.Result) {
	f.mu.Lock()
	f.finished = append(f.finished, r)
	f.mu.Unlock()
}

// TestSeatFront: with a Front (the command line's terminal), Run plays the given table once,
// tells the Front its changes and how it ended, and returns; without a given table it refuses.
func TestSeatFront(t *testing.T) {
	config, err := boards[1].ParseSettings(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	choice := ui.TableChoice{Table: "terminal", Game: "kingdoms", Players: 2, Config: config}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := bus.New()
	done, errs := bots(t, ctx, b, choice, 1)
	f := &front{standIn: standIn{f: engine.LookupStandIn(choice.Game)}}
	h := &hooked{}
	cfg := Config{Store: store(t), Net: b.Member(), Name: "ann", Boards: boards, Given: choice, Front: f,
		Sit: h.sit(Clock{Timeout: time.Minute, Wait: time.Minute})}
	if err := Run(ctx, cfg); err != nil {
		t.Fatalf("Run with a Front: %v", err)
	}
	<-done
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	f.mu.Lock()
	if len(f.finished) != 1 || f.finished[0].Outcome == nil || !f.finished[0].Outcome.Finished || f.updates == 0 {
		t.Errorf("the Front was told %d changes and the ends %+v, want changes and one finished table", f.updates, f.finished)
	}
	f.mu.Unlock()
	h.mu.Lock()
	if len(h.ends) != 1 || h.ends[0] != Over || h.closed != 1 {
		t.Errorf("Ended was told %v, Close called %d times; want Over, once", h.ends, h.closed)
	}
	h.mu.Unlock()
	cfg.Given = ui.TableChoice{}
	if err := Run(ctx, cfg); err == nil || !strings.Contains(err.Error(), "needs a table") {
		t.Errorf("Run with a Front and no table: %v", err)
	}
}

// TestSeatFatal: with Fatal (the command line's), a table that cannot start ends Run with the
// reason instead of showing it on the results.
func TestSeatFatal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	choice := ui.TableChoice{Table: "t", Game: "kingdoms", Players: 2}
	err := Run(ctx, Config{Store: store(t), Net: refusingNet{bus.New().Member()}, Name: "ann", Boards: boards, Given: choice,
		Fatal: true, KeepData: true})
	if err == nil || !strings.Contains(err.Error(), "topic refused") {
		t.Fatalf("Run: %v, want the reason the table cannot start", err)
	}
}

// TestSeatPrivateSitting: a table Sit names private is played on its sealed channel: the
// seat creates a private table of two, a bot admitted by its join code sits with it, and the
// table plays to its end. (A private table has no lobby: the node's Lobby is a nil Network,
// never a nil *tablenet.Net, which its first hello would call.)
func TestSeatPrivateSitting(t *testing.T) {
	config, err := boards[1].ParseSettings(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := store(t)
	key, err := s.Identity()
	if err != nil {
		t.Fatal(err)
	}
	creator := key.Public().(ed25519.PublicKey)
	code, err := protocol.NewJoinCode(nil)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := protocol.NewPrivateTable(nil, creator, "kingdoms", config, 2)
	if err != nil {
		t.Fatal(err)
	}
	adm := protocol.NewAdmission(code, pt, nil, nil, nil)
	b := bus.New()
	bs := store(t)
	bkey, err := bs.Identity()
	if err != nil {
		t.Fatal(err)
	}
	joined, err := protocol.Join(ctx, nil, code, bkey.Public().(ed25519.PublicKey), creator, func(_ context.Context, req []byte) ([]byte, error) {
		return adm.Serve("bot", req)
	})
	if err != nil {
		t.Fatal(err)
	}
	tn, leave, err := tablenet.JoinPrivate(b.Member(), joined)
	if err != nil {
		t.Fatal(err)
	}
	defer leave()
	choice := ui.TableChoice{Table: pt.Name(), Game: "kingdoms", Players: 2, Config: config}
	bot, err := protocol.NewNode(protocol.NodeConfig{Table: choice.Table, Game: choice.Game, Config: choice.Config, Players: 2,
		Name: "bot", Timeout: time.Minute, FormTimeout: time.Minute, Identity: bkey, Store: bs, Net: tn, Private: joined,
		Player: &standIn{f: engine.LookupStandIn(choice.Game)}})
	if err != nil {
		t.Fatal(err)
	}
	botDone := make(chan error, 1)
	go func() {
		out, err := bot.Run(ctx)
		if err == nil && !out.Finished {
			err = fmt.Errorf("the bot's table did not finish: %+v", out)
		}
		botDone <- err
	}()
	clock := Clock{Timeout: time.Minute, Wait: time.Minute}
	var res ui.Result
	err = Run(ctx, Config{Store: s, Net: b.Member(), Name: "ann", Boards: boards, Given: choice, Front: &front{standIn: standIn{f: engine.LookupStandIn(choice.Game)}},
		Sit: func(context.Context, ui.TableChoice) (Sitting, error) {
			return Sitting{Clock: &clock, Private: pt, Ended: func(_ *protocol.Node, r ui.Result, _ End) { res = r }}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-botDone; err != nil {
		t.Fatal(err)
	}
	if res.Outcome == nil || !res.Outcome.Finished || res.Outcome.Table != pt.Name() {
		t.Fatalf("the private table: %+v", res)
	}
}
