package seat

import (
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

	// The hooks of what only a laptop's command line has (hooks.go); a phone's seat leaves
	// them zero.
	Page    func(*ui.Config)                                             // amends the page's configuration
	Sit     func(ctx context.Context, c ui.TableChoice) (Sitting, error) // wraps each table
	Front   Front                                                        // the person, in place of the page
	OnLobby func()                                                       // the person is in the lobby
	// Slot, if set, is where Run attaches the node of the table the seat sits at (a Front
	// says and pauses through it); nil: a slot of Run's own, the page's.
	Slot *ui.NodeSlot
	// LobbyKey checks the senders of the lobby's announcements (a laptop's own node:
	// p2p.PeerKey); nil: no check (a phone: its laptop checked what it relays).
	LobbyKey tablenet.PeerKey
	// KeepData: the Store is kept as a command line's data directory: no table is noted for
	// a reload (the command resumes a table given its --data and --table) and no secrets are
	// wiped.
	KeepData bool
	// Fatal: a table that cannot start ends Run with the reason (the command line exits with
	// it), rather than on its results.
	Fatal bool
	// ShowStopped: a table stopped by Run's context, or left, is shown how it ended too (the
	// terminal's word on Ctrl-C).
	ShowStopped bool
}

// Run runs the person's seat until ctx ends (the page closes, or the page's Quit). The
// person's loop (docs/UI.md, "The person's loop"): a name, asked first when the seat has none
// for this laptop; the table the seat sat at before a reload, if it is not over; else the seat
// the laptop gives, or the lobby; a table and its rematches; and back to the lobby when the
// person leaves it or goes back from its results. A table that cannot be played (the laptop
// refuses its name, its node fails to start) ends on its results, with the reason in words,
// and the person goes back to the lobby from there. Its error is one of setting up, a hook's
// (Sit, Fatal), or ctx's.
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
	if cfg.Slot == nil {
		cfg.Slot = &ui.NodeSlot{}
	}
	key, err := cfg.Store.Identity()
	if err != nil {
		return fmt.Errorf("seat: %w", err)
	}
	if cfg.Front != nil {
		return runFront(ctx, cfg, key)
	}
	name := cfg.Name
	if name == "" {
		name = loadName(cfg.Store)
	}
	human := ui.NewHuman(nil)
	defaults := cfg.Given
	if defaults.Game == "" {
		defaults = ui.TableChoice{Game: cfg.Boards[0].Game(), Players: 4}
	}
	pc := ui.Config{Name: name, Board: cfg.Boards[0], Boards: cfg.Boards, Human: human,
		Defaults: defaults, Rematch: true, Escrow: cfg.Clock.Escrow, Say: cfg.Slot.Say, Pause: cfg.Slot.Pause}
	if cfg.Page != nil {
		cfg.Page(&pc)
	}
	srv, err := ui.NewServer(pc)
	if err != nil {
		return fmt.Errorf("seat: %w", err)
	}
	defer srv.Close()
	ctx, quit := context.WithCancel(ctx)
	defer quit()
	go func() { // the page's Quit (a laptop's): Run ends as when ctx does
		select {
		case <-srv.Quit():
			quit()
		case <-ctx.Done():
		}
	}()
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
	lobby, err := tablenet.JoinLobby(cfg.Net, cfg.LobbyKey)
	if err != nil {
		return fmt.Errorf("seat: the lobby: %w", err)
	}
	defer lobby.Leave()
	self := key.Public().(ed25519.PublicKey)
	given, clock := cfg.Given, cfg.Clock
	if given.Table == "" && !cfg.KeepData {
		if cur, ok := loadCurrent(cfg.Store); ok { // a reload: back to the table the seat sat at
			cfg.Logf("resuming table %q", cur.Choice.Table)
			given, clock = cur.Choice, cur.Clock
		}
	}
	if given.Table == "" && cfg.Laptop != nil {
		given, clock = askSeat(ctx, cfg, self)
	}
	l := loop{cfg: cfg, srv: srv, human: human, lobby: lobby, key: key}
	for {
		if given.Table == "" && cfg.OnLobby != nil {
			cfg.OnLobby()
		}
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
		if err := l.playTables(ctx, clock, choice); err != nil {
			return err
		}
		srv.ToLobby()
	}
}

// loop is the page's loop of Run, once its server and the lobby exist.
type loop struct {
	cfg   Config
	srv   *ui.Server
	human *ui.Human
	lobby *tablenet.Net
	key   ed25519.PrivateKey
}

// playTables plays choice and its rematches until the person leaves (back to the lobby: nil)
// or ctx ends (its error). The seat remembers the table it sits at (current), so that a reload
// comes back to it; it forgets it once the table is over, or the person leaves it.
func (l *loop) playTables(ctx context.Context, clock Clock, choice ui.TableChoice) error {
	for {
		next, again, err := l.playTable(ctx, clock, choice)
		if err != nil || !again {
			return err
		}
		choice = next
		l.srv.NewTable(choice)
	}
}

// playTable plays one table, then keeps its results in sight until the person chooses what
// next: again, the rematch next; or not, the lobby.
func (l *loop) playTable(ctx context.Context, clock Clock, choice ui.TableChoice) (next ui.TableChoice, again bool, err error) {
	cfg := l.cfg
	var player engine.Player = l.human
	switch {
	case cfg.Player != nil:
		player = cfg.Player(l.human)
	case cfg.Autoplay:
		player = &standIn{f: engine.LookupStandIn(choice.Game)}
	}
	if cfg.OnTurn != nil {
		player = alerting{player, cfg.OnTurn}
	}
	if cfg.OnTable != nil {
		cfg.OnTable(choice)
	}
	sit, err := cfg.sit(ctx, choice)
	if err != nil {
		return next, false, err
	}
	defer sit.close()
	if sit.Clock != nil {
		clock = *sit.Clock
	}
	if !cfg.KeepData {
		if err := saveCurrent(cfg.Store, current{Choice: choice, Clock: clock}); err != nil {
			cfg.Notef("cannot note the table for a reload: %v", err)
		}
	}
	tctx, stop := context.WithCancel(ctx)
	left, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-l.srv.Leaves():
			close(left)
			stop()
		case <-tctx.Done():
		}
	}()
	res, node, err := playOne(tctx, cfg, table{choice: choice, clock: clock, sit: sit, player: player, show: l.srv,
		slot: cfg.Slot, lobby: l.lobby, key: l.key, forget: l.forget})
	stop()
	// The watcher is done before the leave is looked at: one that took a leave as the table
	// ended (both were ready) has said so, else that leave would be lost and the results never
	// left (TestSeatLoop, once, on a loaded machine).
	<-watched
	if err != nil {
		return next, false, err
	}
	select {
	case <-left:
		l.forget()
		sit.ended(node, res, Left)
		return next, false, nil
	default:
	}
	if ctx.Err() != nil && res.Err != nil {
		// The page closed before the table ended: the table stays noted, for the next load. (A
		// table that ended, its results shown, is over even if the page closes right after:
		// TestSeatLaptopHooks quit as the results came, once, on a loaded machine.)
		sit.ended(node, res, Stopped)
		return next, false, ctx.Err()
	}
	// Over, or never played: playOne forgot the table before it showed the end, so that a
	// reload goes to the lobby (TestSeatTableFails).
	sit.ended(node, res, Over)
	select {
	case next := <-l.srv.Rematches():
		return next, !sit.NoRematch, nil
	case <-l.srv.Leaves():
		return next, false, nil
	case <-ctx.Done():
		return next, false, ctx.Err()
	}
}

// forget forgets the table the seat sat at (KeepData: it noted none).
func (l *loop) forget() {
	if !l.cfg.KeepData {
		forgetCurrent(l.cfg.Store, l.cfg.Notef)
	}
}

// runFront plays the given table once with the person at a Front, and returns after its
// results (nil) or ctx's end (its error).
func runFront(ctx context.Context, cfg Config, key ed25519.PrivateKey) error {
	if cfg.Given.Table == "" {
		return errors.New("seat: a front end other than the page needs a table")
	}
	sit, err := cfg.sit(ctx, cfg.Given)
	if err != nil {
		return err
	}
	defer sit.close()
	clock := cfg.Clock
	if sit.Clock != nil {
		clock = *sit.Clock
	}
	lobby, err := tablenet.JoinLobby(cfg.Net, cfg.LobbyKey)
	if err != nil {
		return fmt.Errorf("seat: the lobby: %w", err)
	}
	defer lobby.Leave()
	res, node, err := playOne(ctx, cfg, table{choice: cfg.Given, clock: clock, sit: sit, player: cfg.Front, show: cfg.Front,
		slot: cfg.Slot, lobby: lobby, key: key})
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		sit.ended(node, res, Stopped)
		return ctx.Err()
	}
	sit.ended(node, res, Over)
	return nil
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
