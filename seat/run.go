package seat

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/ui"

	// Every game (ui/games), with its stand-in: a seat replays the moves of any seat whose
	// player left.
	_ "corruption/ui/games"
)

// Clock is a table's clock as the seat sets it at a table it creates (the genesis carries
// its creator's), whether it escrows, and how long the seat waits for the table to form.
type Clock struct {
	Timeout, Allowance, Bank, Wait time.Duration
	Escrow                         bool
}

// PhoneClock is the clock of a table with a phone seat. A phone whose screen locks freezes
// the page: the seat writes nothing until the screen is back. Its automatic entries (keys,
// shuffles, shares) get Timeout, three minutes, so that a screen locked for a minute, and the
// catch-up after it, does not name the seat silent; its decisions get Allowance and then its
// Bank, as at any table: past both, the seat departs like any other (the others play on with
// a bot in its seat when the table escrows). Laptops that create a table with phone seats
// (play --phones, host) give it this clock too.
var PhoneClock = Clock{Timeout: 3 * time.Minute, Allowance: 90 * time.Second, Bank: 5 * time.Minute, Wait: 30 * time.Minute, Escrow: true}

// Config configures Run. Store, Net and Boards are required.
type Config struct {
	Store *protocol.Store
	Net   tablenet.Node
	// Name is the person's name at the table; "" asks it on the page's first screen, once
	// (the seat keeps it: loadName), the field filled with DefaultName.
	Name        string
	DefaultName string
	// Boards are every game's board, the lobby form's first.
	Boards []ui.Board
	// Given is a table to sit at at once (a laptop's `demo --phones` names it); Table "" sends
	// the person to the lobby.
	Given ui.TableChoice
	Clock Clock // zero: PhoneClock
	// Player, if set, plays in the person's place (tests); nil: the page's person.
	Player func(human *ui.Human) engine.Player
	// Autoplay: the seat decides by itself, with the game's stand-in bot, as a seat whose
	// player left (the page's &bot=1: browser tests, figures, a table to watch).
	Autoplay bool
	// OnServer is told the page's server as soon as it exists, before the seat does anything
	// else: the browser registers its in-process API then.
	OnServer func(*ui.Server)
	// OnTurn, if set, is told true each time a decision of the person's is due (the page's
	// alert), and false once it is no longer.
	OnTurn func(due bool)
	// OnTable, if set, is told each table as the seat sits at it; OnFinish how it ended, once
	// the page shows it (and the table's secrets are wiped, when it is over).
	OnTable  func(ui.TableChoice)
	OnFinish func(ui.Result)
	// Laptop, if set, is the laptop the seat goes through (a *bridge.Client): Run asks it for
	// the seat it gives (demo --phones) when no table is Given, and for its bots at a table
	// the person creates with bots, and sits with the clock and escrow the laptop answers.
	Laptop Laptop
	Logf   func(format string, args ...any) // the node's events
	Notef  func(format string, args ...any) // what the person should know
}

// Laptop is the laptop a seat goes through, as the seat asks it (*bridge.Client): its peer id,
// requests to it (tablenet.AskSeat, AskBots), and a wait until it is reached.
type Laptop interface {
	tablenet.Laptop
	WaitConnected(ctx context.Context) error
}

// askTimeout bounds a question to the laptop (the seat it gives, its bots).
const askTimeout = 20 * time.Second

// Run runs the person's seat until ctx ends (the page closes). The person's loop
// (docs/UI.md, "The person's loop"): a name, asked first when the seat has none for this
// laptop; the table the seat sat at before a reload, if it is not over; else the seat the
// laptop gives, or the lobby; a table and its rematches; and back to the lobby when the person
// leaves it or goes back from its results. A table that cannot be played (the laptop refuses
// its name, its node fails to start) ends on its results, with the reason in words, and the
// person goes back to the lobby from there. Its error is one of setting up, or ctx's.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Store == nil || cfg.Net == nil || len(cfg.Boards) == 0 {
		return errors.New("seat: a seat needs a Store, a Net and the games' Boards")
	}
	if cfg.Clock == (Clock{}) {
		cfg.Clock = PhoneClock
	}
	for _, f := range []*func(string, ...any){&cfg.Logf, &cfg.Notef} {
		if *f == nil {
			*f = func(string, ...any) {}
		}
	}
	key, err := cfg.Store.Identity()
	if err != nil {
		return fmt.Errorf("seat: %w", err)
	}
	self := key.Public().(ed25519.PublicKey)
	name := cfg.Name
	if name == "" {
		name = loadName(cfg.Store)
	}
	human := ui.NewHuman(nil)
	relay := &ui.NodeSlot{}
	defaults := cfg.Given
	if defaults.Game == "" {
		defaults = ui.TableChoice{Game: cfg.Boards[0].Game(), Players: 4}
	}
	srv, err := ui.NewServer(ui.Config{Name: name, Board: cfg.Boards[0], Boards: cfg.Boards, Human: human,
		Defaults: defaults, Rematch: true, Escrow: cfg.Clock.Escrow, Say: relay.Say, Pause: relay.Pause})
	if err != nil {
		return fmt.Errorf("seat: %w", err)
	}
	defer srv.Close()
	if cfg.OnServer != nil {
		cfg.OnServer(srv)
	}
	if name == "" { // the first screen asks it, by the rules of --name, and the seat keeps it
		select {
		case name = <-srv.AskName(cfg.DefaultName):
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := saveName(cfg.Store, name); err != nil {
			cfg.Notef("cannot keep your name for your next visit: %v", err)
		}
	}
	cfg.Name = name
	lobby, err := tablenet.JoinLobby(cfg.Net, nil) // the laptop checked the senders of what it relays
	if err != nil {
		return fmt.Errorf("seat: the lobby: %w", err)
	}
	defer lobby.Leave()
	given, clock := cfg.Given, cfg.Clock
	if given.Table == "" {
		if cur, ok := loadCurrent(cfg.Store); ok { // a reload: back to the table the seat sat at
			cfg.Logf("resuming table %q", cur.Choice.Table)
			given, clock = cur.Choice, cur.Clock
		}
	}
	if given.Table == "" && cfg.Laptop != nil {
		given, clock = askSeat(ctx, cfg, self)
	}
	for {
		choice, err := choose(ctx, srv, lobby, self, given)
		if err != nil {
			return err
		}
		if choice.Bots > 0 && given.Table == "" && cfg.Laptop != nil {
			clock = askBots(ctx, cfg, choice)
		} else if given.Table == "" {
			clock = cfg.Clock
		}
		given = ui.TableChoice{}
		if err := playTables(ctx, cfg, clock, srv, relay, lobby, key, human, choice); err != nil {
			return err
		}
		srv.ToLobby()
	}
}

// playTables plays choice and its rematches until the person leaves (back to the lobby: nil)
// or ctx ends (its error). The seat remembers the table it sits at (current), so that a reload
// comes back to it; it forgets it once the table is over, or the person leaves it.
func playTables(ctx context.Context, cfg Config, clock Clock, srv *ui.Server, relay *ui.NodeSlot, lobby *tablenet.Net, key ed25519.PrivateKey,
	human *ui.Human, choice ui.TableChoice) error {
	for {
		var player engine.Player = human
		switch {
		case cfg.Player != nil:
			player = cfg.Player(human)
		case cfg.Autoplay:
			player = &standIn{f: engine.LookupStandIn(choice.Game)}
		}
		if cfg.OnTurn != nil {
			player = alerting{player, cfg.OnTurn}
		}
		if cfg.OnTable != nil {
			cfg.OnTable(choice)
		}
		if err := saveCurrent(cfg.Store, current{Choice: choice, Clock: clock}); err != nil {
			cfg.Notef("cannot note the table for a reload: %v", err)
		}
		tctx, stop := context.WithCancel(ctx)
		left := make(chan struct{})
		go func() {
			select {
			case <-srv.Leaves():
				close(left)
				stop()
			case <-tctx.Done():
			}
		}()
		res := playOne(tctx, cfg, clock, srv, relay, lobby, key, player, choice)
		stop()
		select {
		case <-left:
			forgetCurrent(cfg.Store, cfg.Notef)
			return nil
		default:
		}
		if ctx.Err() != nil {
			return ctx.Err() // the page closes: the table stays noted, for the next load
		}
		if res.Outcome == nil || !res.Outcome.Paused {
			forgetCurrent(cfg.Store, cfg.Notef) // over, or never played: a reload goes to the lobby
		}
		select {
		case next := <-srv.Rematches():
			choice = next
			srv.NewTable(choice)
		case <-srv.Leaves():
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// askSeat asks the laptop for the seat it gives: its table and its clock, or none (the lobby).
func askSeat(ctx context.Context, cfg Config, key ed25519.PublicKey) (ui.TableChoice, Clock) {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	if err := cfg.Laptop.WaitConnected(ctx); err != nil {
		cfg.Notef("the laptop is not reachable yet: the lobby")
		return ui.TableChoice{}, cfg.Clock
	}
	w, err := tablenet.AskSeat(ctx, cfg.Laptop, key)
	if err != nil {
		if !errors.Is(err, tablenet.ErrNoSeat) {
			cfg.Notef("the laptop gave no seat: %v", err)
		}
		return ui.TableChoice{}, cfg.Clock
	}
	return ui.TableChoice{Table: w.Table, Game: w.Game, Players: w.Players, Config: w.Config, Bots: w.Bots}, clockOf(cfg.Clock, w)
}

// askBots asks the laptop for its bots at the table the person created, and returns the clock
// to create it with (the laptop's word on escrow and clock).
func askBots(ctx context.Context, cfg Config, c ui.TableChoice) Clock {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	w, err := tablenet.AskBots(ctx, cfg.Laptop, tablenet.Wish{Table: c.Table, Game: c.Game, Players: c.Players, Config: c.Config, Bots: c.Bots,
		Escrow: cfg.Clock.Escrow, TimeoutMS: cfg.Clock.Timeout.Milliseconds(), AllowanceMS: cfg.Clock.Allowance.Milliseconds(), BankMS: cfg.Clock.Bank.Milliseconds()})
	if err != nil {
		cfg.Notef("the laptop seats no bots at table %q: %v", c.Table, err)
		return cfg.Clock
	}
	return clockOf(cfg.Clock, w)
}

// clockOf is the clock a laptop's answer gives (its zero fields: def's), with its escrow.
func clockOf(def Clock, w *tablenet.Wish) Clock {
	k := def
	if w.TimeoutMS > 0 {
		k.Timeout = time.Duration(w.TimeoutMS) * time.Millisecond
	}
	if w.AllowanceMS > 0 {
		k.Allowance = time.Duration(w.AllowanceMS) * time.Millisecond
	}
	if w.BankMS > 0 {
		k.Bank = time.Duration(w.BankMS) * time.Millisecond
	}
	k.Escrow = w.Escrow
	return k
}

// choose is the given table, or the one the person creates or joins in the page's lobby.
func choose(ctx context.Context, srv *ui.Server, lobby *tablenet.Net, self ed25519.PublicKey, given ui.TableChoice) (ui.TableChoice, error) {
	if given.Table != "" {
		srv.SetTable(given)
		return given, nil
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go srv.ReadLobby(lctx, self, lobby.NextData)
	select {
	case c := <-srv.Choices():
		return c, nil
	case <-ctx.Done():
		return given, ctx.Err()
	}
}

// playOne plays one table to its end (or until ctx ends) and shows the person how it went: a
// table that cannot start ends on its results too, with the reason in words.
func playOne(ctx context.Context, cfg Config, k Clock, srv *ui.Server, relay *ui.NodeSlot, lobby *tablenet.Net, key ed25519.PrivateKey, player engine.Player, choice ui.TableChoice) ui.Result {
	fail := func(err error) ui.Result {
		res := ui.Result{Err: err}
		srv.Finish(res)
		if cfg.OnFinish != nil {
			cfg.OnFinish(res)
		}
		return res
	}
	tn, err := tablenet.JoinTable(cfg.Net, choice.Table)
	if err != nil {
		return fail(fmt.Errorf("the laptop cannot carry table %q: %w", choice.Table, err))
	}
	defer tn.Leave()
	node, err := protocol.NewNode(protocol.NodeConfig{Table: choice.Table, Game: choice.Game, Config: choice.Config,
		Players: choice.Players, Name: cfg.Name, Timeout: k.Timeout, Allowance: k.Allowance, Bank: k.Bank,
		FormTimeout: k.Wait, Escrow: k.Escrow, Identity: key, Store: cfg.Store, Player: player, Net: tn, Lobby: lobby,
		Logf: cfg.Logf, Notef: cfg.Notef, OnEvent: srv.Event, OnChange: srv.Update, OnChat: srv.Chat})
	if err != nil {
		return fail(fmt.Errorf("cannot sit at table %q: %w", choice.Table, err))
	}
	relay.Attach(node)
	defer relay.Attach(nil)
	out, runErr := node.Run(ctx)
	res := ui.Result{Outcome: out, Err: runErr}
	if node.Table() != nil {
		b, err := cfg.Store.ReadTableFile(choice.Table, "log")
		if err == nil {
			res.Audit, err = protocol.Audit(bytes.NewReader(b), engine.Options{})
		}
		if err != nil {
			cfg.Notef("cannot audit the log: %v", err)
		}
	}
	if runErr == nil && out != nil && !out.Paused {
		// Over: what the log cannot be read without goes (the log stays), before the page
		// shows the end.
		if err := cfg.Store.WipeSecrets(choice.Table); err != nil {
			cfg.Notef("cannot wipe the table's secrets: %v", err)
		}
	}
	if ctx.Err() == nil || runErr == nil {
		srv.Finish(res)
		if cfg.OnFinish != nil {
			cfg.OnFinish(res)
		}
	}
	return res
}

// standIn decides with a game's stand-in bot (Autoplay).
type standIn struct {
	f engine.StandIn
	n uint64
}

func (p *standIn) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if p.f == nil {
		return engine.Action{}, errors.New("seat: this game has no stand-in bot to play by itself")
	}
	p.n++
	return p.f(g, seat, p.n)
}

// alerting tells OnTurn before each decision of the person's.
type alerting struct {
	engine.Player
	onTurn func(due bool)
}

func (a alerting) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	a.onTurn(true)
	defer a.onTurn(false)
	return a.Player.Decide(ctx, g, seat)
}
