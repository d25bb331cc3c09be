package seat

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	bus "corruption/protocol/tablenet/memnode"
	"corruption/ui"
	corruptiaboard "corruption/ui/corruptia"
	corruptionboard "corruption/ui/corruption"
	kingdomsboard "corruption/ui/kingdoms"
)

var boards = []ui.Board{corruptionboard.Board{}, kingdomsboard.Board{}, corruptiaboard.Board{}}

func store(t *testing.T) *protocol.Store {
	t.Helper()
	s, err := protocol.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// bots starts n bot nodes of game at table choice on the bus; done is closed when all have
// returned, and errs holds what each returned.
func bots(t *testing.T, ctx context.Context, b *bus.Bus, choice ui.TableChoice, n int) (done chan struct{}, errs []error) {
	done = make(chan struct{})
	errs = make([]error, n)
	var left atomic.Int32
	left.Store(int32(n))
	for i := range n {
		s := store(t)
		key, err := s.Identity()
		if err != nil {
			t.Fatal(err)
		}
		m := b.Member()
		tn, err := tablenet.JoinTable(m, choice.Table)
		if err != nil {
			t.Fatal(err)
		}
		node, err := protocol.NewNode(protocol.NodeConfig{Table: choice.Table, Game: choice.Game, Config: choice.Config,
			Players: choice.Players, Name: fmt.Sprintf("bot%d", i), Timeout: time.Minute, FormTimeout: time.Minute,
			Identity: key, Store: s, Net: tn, Player: &standIn{f: engine.LookupStandIn(choice.Game), n: uint64(i) << 32}})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			out, err := node.Run(ctx)
			if err == nil && (out.Verdict != nil || !out.Finished) {
				err = fmt.Errorf("bot %d: the table did not finish: %+v", i, out)
			}
			errs[i] = err
			if left.Add(-1) == 0 {
				close(done)
			}
		}()
	}
	return done, errs
}

// TestSeatPlays: the seat's loop plays a whole table of each game at its smallest size with
// bot nodes, shows the results with an audit that checks, and wipes the table's seed (its log
// stays).
func TestSeatPlays(t *testing.T) {
	for _, game := range []string{"corruption", "kingdoms", "corruptia"} {
		t.Run(game, func(t *testing.T) {
			rules, err := engine.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			lo, _ := rules.Players()
			var config []byte
			for _, b := range boards {
				if b.Game() == game {
					if config, err = b.ParseSettings(json.RawMessage(`{"variant":"standard"}`)); err != nil {
						t.Fatal(err)
					}
				}
			}
			choice := ui.TableChoice{Table: "t-" + game, Game: game, Players: lo, Config: config}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			b := bus.New()
			done, errs := bots(t, ctx, b, choice, lo-1)
			s := store(t)
			var res *ui.Result
			seatCtx, stop := context.WithCancel(ctx)
			err = Run(seatCtx, Config{Store: s, Net: b.Member(), Name: "ann", Boards: boards, Given: choice,
				Clock:    Clock{Timeout: time.Minute, Wait: time.Minute},
				Autoplay: true,
				OnFinish: func(r ui.Result) { res = &r; stop() }})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run: %v", err)
			}
			if res == nil || res.Err != nil || res.Outcome == nil || !res.Outcome.Finished || res.Outcome.Verdict != nil {
				t.Fatalf("the seat's table did not finish: %+v", res)
			}
			if res.Audit == nil || !res.Audit.Valid {
				t.Fatalf("the audit of the seat's log: %+v", res.Audit)
			}
			<-done
			for _, err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			if _, err := s.TableSeed(choice.Table); err == nil {
				t.Error("the table's seed is still in the store once the table is over")
			}
			if b, err := s.ReadTableFile(choice.Table, "log"); err != nil || len(b) < 1000 {
				t.Errorf("the table's log did not stay: %d bytes, %v", len(b), err)
			}
		})
	}
}

// stopAfter plays as p and stops its run (stop) at its nth decision, as a reload does.
type stopAfter struct {
	p    engine.Player
	n    int
	stop func()
}

func (s *stopAfter) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if s.n--; s.n == 0 {
		s.stop()
		<-ctx.Done()
		return engine.Action{}, ctx.Err()
	}
	return s.p.Decide(ctx, g, seat)
}

// TestSeatResumes: a seat stopped in mid-game (a reload, a lost connection) and run again on
// its Store, under a new id on the network, resumes its table and plays it to the end; the log
// audits.
func TestSeatResumes(t *testing.T) {
	const game = "kingdoms"
	rules, _ := engine.Lookup(game)
	lo, _ := rules.Players()
	config, err := kingdomsboard.Board{}.ParseSettings(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	choice := ui.TableChoice{Table: "resume", Game: game, Players: lo, Config: config}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := bus.New()
	done, errs := bots(t, ctx, b, choice, lo-1)
	s := store(t)
	bot := &standIn{f: engine.LookupStandIn(game), n: 7 << 32}
	first, stop := context.WithCancel(ctx)
	cfg := Config{Store: s, Net: b.Member(), Name: "ann", Boards: boards, Given: choice, Clock: Clock{Timeout: time.Minute, Wait: time.Minute},
		Player: func(*ui.Human) engine.Player { return &stopAfter{p: bot, n: 3, stop: stop} }}
	finished := false
	cfg.OnFinish = func(r ui.Result) { finished = r.Err == nil }
	if err := Run(first, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("the first run: %v", err)
	}
	if finished {
		t.Fatal("the first run finished the table: it was to stop in mid-game")
	}
	entries, err := s.LoadLog(choice.Table)
	if err != nil || len(entries) < 2 {
		t.Fatalf("the log at the stop: %d entries, %v", len(entries), err)
	}
	s.Close() // the page goes away
	s2, err := protocol.NewStore(s.Backend())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var res *ui.Result
	second, stop2 := context.WithCancel(ctx)
	cfg.Store, cfg.Net = s2, b.Member()
	cfg.Player = func(*ui.Human) engine.Player { return bot }
	cfg.OnFinish = func(r ui.Result) { res = &r; stop2() }
	if err := Run(second, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("the second run: %v", err)
	}
	if res == nil || res.Err != nil || !res.Outcome.Finished || res.Audit == nil || !res.Audit.Valid {
		t.Fatalf("the resumed table: %+v", res)
	}
	if res.Outcome.Entries <= len(entries) {
		t.Fatalf("the resumed table has %d entries, no more than the %d at the stop", res.Outcome.Entries, len(entries))
	}
	<-done
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// fakeLaptop gives a seat (demo --phones) to the key that asks first, and no bots.
type fakeLaptop struct {
	wish  tablenet.Wish
	asked ed25519.PublicKey
}

func (l *fakeLaptop) WaitConnected(context.Context) error { return nil }
func (l *fakeLaptop) Node() string                        { return "12D3KooWlaptop" }

func (l *fakeLaptop) Request(_ context.Context, peer, proto string, req []byte) ([]byte, error) {
	switch proto {
	case tablenet.SeatProto:
		l.asked = ed25519.PublicKey(req)
		return json.Marshal(l.wish)
	case tablenet.BotsProto:
		return nil, errors.New("no bots here")
	}
	return nil, fmt.Errorf("no %s here", proto)
}

// TestSeatTakesTheLaptopsSeat: given no table, the seat asks its laptop for the seat it gives,
// with its own identity key, and plays that table with the laptop's clock.
func TestSeatTakesTheLaptopsSeat(t *testing.T) {
	config, err := corruptiaboard.Board{}.ParseSettings(json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	choice := ui.TableChoice{Table: "given", Game: "corruptia", Players: 2, Config: config}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := bus.New()
	done, errs := bots(t, ctx, b, choice, 1)
	s := store(t)
	laptop := &fakeLaptop{wish: tablenet.Wish{Table: choice.Table, Game: choice.Game, Players: 2, Config: config, Bots: 1, TimeoutMS: 77000}}
	var res *ui.Result
	var seated ui.TableChoice
	run, stop := context.WithCancel(ctx)
	err = Run(run, Config{Store: s, Net: b.Member(), Name: "phone", Boards: boards, Autoplay: true, Laptop: laptop,
		OnTable: func(c ui.TableChoice) { seated = c }, OnFinish: func(r ui.Result) { res = &r; stop() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	key, _ := s.Identity()
	if !key.Public().(ed25519.PublicKey).Equal(laptop.asked) {
		t.Error("the seat asked for its seat with another key than its identity")
	}
	if seated.Table != choice.Table {
		t.Fatalf("the seat sat at %q, want the laptop's %q", seated.Table, choice.Table)
	}
	if res == nil || res.Err != nil || !res.Outcome.Finished {
		t.Fatalf("the given table: %+v", res)
	}
	entries, err := s.ReadTableFile(choice.Table, "log")
	if err != nil || len(entries) == 0 {
		t.Fatal(err)
	}
	<-done
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
