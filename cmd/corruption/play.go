package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/ui"
)

func playCommand() *cli.Command {
	return &cli.Command{
		Name:      "play",
		Usage:     "sit at a network table yourself, in your browser",
		ArgsUsage: " ",
		Description: "Starts your node and serves the table as a web page on this machine; it prints the\n" +
			"page's address and opens it in your browser where there is one (--no-open not to).\n\n" +
			"Without --table the page opens on the lobby: the tables that players on your network\n" +
			"announce, and a form to create one. With --table you sit at that table at once.\n" +
			"--bots K seats K computer players of this machine at your table too (on 127.0.0.1).\n\n" +
			"The page's address carries a key: only who has it sees your hand. After the game the\n" +
			"page shows the results and the audit of the log until you leave it (or press Ctrl-C),\n" +
			"or click Rematch: the same players and settings at the next table (NAME #2).\n\n" +
			"--phones lets friends on your Wi-Fi sit with their phones: it prints a line 'join from a\n" +
			"phone: URL' and the URL as a QR code (also on your page); a phone that opens it plays in\n" +
			"its browser, its cards kept from this machine. --data DIR keeps the phones' address\n" +
			"across restarts.\n\n" +
			"Examples:\n" +
			"  corruption play --name ann                       # the lobby, on the LAN\n" +
			"  corruption play --name ann --table friday --players 4\n" +
			"  corruption play --name ann --table t1 --bots 2   # you and two bots\n" +
			"  corruption play --name ann --phones --data ~/corruption   # you, and friends' phones\n" +
			"  corruption demo                                  # you against 3 bots, nothing else to set up",
		Flags: append(append(append(append(playFlags(playClock), networkFlags()...),
			&cli.StringFlag{Name: "table", Usage: "sit at the table `NAME` at once (default: choose in the lobby)"},
			&cli.IntFlag{Name: "players", Usage: "`N` players at --table, 3 to 7 for Corruption", DefaultText: "--bots + 1, at least 3"},
			&cli.IntFlag{Name: "bots", Usage: "seat `K` bots of this machine at your table"},
		), phoneFlags(true, true)...), append(settingsFlags("with --table: "), privateFlags()...)...),
		Action: runPlay,
	}
}

// playFlags are the flags play and demo share, with the command's clock.
func playFlags(clock tableClock) []cli.Flag {
	return append(append(clockFlags(clock),
		gameFlag(),
		&cli.StringFlag{Name: "name", Usage: "your `NAME` at the table (default: your user name)"},
		&cli.StringFlag{Name: "ui", Value: "127.0.0.1:0", Usage: "the `HOST:PORT` to serve the page on (port 0: any free port)"},
		&cli.BoolFlag{Name: "no-open", Usage: "do not open a browser; just print the page's address"},
		&cli.StringFlag{Name: "out", Usage: "write the table's log to `LOG` at the end (for corruption audit and replay)"},
		&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object at the end"},
		&cli.BoolFlag{Name: "verbose", Usage: "log network and protocol events to stderr"},
	), levelFlags()...)
}

// playConfig is everything play and demo need to seat a person at a table.
type playConfig struct {
	game    *game
	rules   engine.Rules
	name    string
	choice  ui.TableChoice // the table; Table "" sends the person to the lobby
	bots    int
	level   botChoice // the level of the bots this machine seats (localbots.go)
	uiAddr  string
	open    bool
	text    bool // a terminal instead of a page
	session sessionConfig
	clock   tableClock
	out     string
	json    bool
	chat    *chatRelay              // the table's chat, between the node and the person
	pause   *pauseRelay             // the person's answers to a pause of the table (pause.go)
	dial    func(addr string) error // the node dials a player's address (the page's lobby)
	addrs   bool                    // print the node's addresses, for the other players' --peer
	private *privateWish            // --private or --join (private.go)
	table   *protocol.PrivateTable  // the private table, once created or joined
	join    *pageJoin               // the page's join by code (private.go), without --private or --join
	phones  phonesOptions           // --phones-addr and --new-token, with --phones (addr "": no phones)
	// With --phones: the page's button for a new address, the check of the tables the person
	// sits at (not where this machine's bots would hold every seat but a phone's), and the
	// bots of the phones' tables.
	renewPhones func() error
	checkSit    func(ui.TableChoice) error
	phoneBots   *phoneBots
}

func runPlay(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("play takes no arguments (got %q); see corruption play --help", c.Args().First())
	}
	pc, err := readPlayFlags(c)
	if err != nil {
		return err
	}
	pc.session = readNetworkFlags(c)
	pc.session.holdAddrs, pc.addrs = true, true // after the page's address
	lo, hi := pc.rules.Players()
	if pc.bots = c.Int("bots"); pc.bots < 0 || pc.bots > hi-1 {
		return usageError("--bots: %d, want 0 to %d", pc.bots, hi-1)
	}
	if pc.private, err = readPrivateFlags(c); err != nil {
		return err
	}
	pc.session = pc.private.relays(pc.session)
	if pc.private != nil && pc.bots > 0 {
		return usageError("--bots: local bots sit at open tables only, not with --private or --join")
	}
	if pc.choice, err = readPlayTable(c, pc, lo); err != nil {
		return err
	}
	if pc.phones, err = readPhones(c, c.Bool("phones"), pc.name); err != nil {
		return err
	}
	return playTable(c, pc)
}

// readPlayTable reads play's --table, --players and settings: the table to sit at, or (with
// no --table) the lobby's defaults.
func readPlayTable(c *cli.Context, pc playConfig, minPlayers int) (ui.TableChoice, error) {
	players := c.Int("players")
	if !c.IsSet("players") {
		players = max(pc.bots+1, minPlayers)
		if pc.bots == 0 {
			players = max(4, minPlayers)
		}
	}
	config, err := pc.game.settings(c)
	if err != nil {
		return ui.TableChoice{}, err
	}
	choice := ui.TableChoice{Table: c.String("table"), Game: pc.game.ID, Players: players, Config: config, Bots: pc.bots}
	if choice.Table == "" {
		if c.IsSet("players") || settingsSet(c, pc.game) {
			lobby := choice
			lobby.Table = "lobby"
			if err := ui.CheckTable(lobby, pc.bots); err != nil {
				return choice, usageError("%v", err)
			}
		}
		return choice, nil
	}
	if pc.bots == 0 && !c.IsSet("players") {
		lo, hi := pc.rules.Players()
		return choice, usageError("--players: say how many players sit at table %q (%d to %d), or seat --bots", choice.Table, lo, hi)
	}
	if err := ui.CheckTable(choice, pc.bots); err != nil {
		return choice, usageError("table %q: %v", choice.Table, err)
	}
	return choice, nil
}

// settingsSet reports whether any of the game's settings flags is given.
func settingsSet(c *cli.Context, g *game) bool {
	for _, f := range g.flags("") {
		if c.IsSet(f.Names()[0]) {
			return true
		}
	}
	return false
}

// readPlayFlags reads the flags play and demo share.
func readPlayFlags(c *cli.Context) (playConfig, error) {
	g, rules, err := gameOf(c)
	if err != nil {
		return playConfig{}, err
	}
	pc := playConfig{game: g, rules: rules, name: c.String("name"), uiAddr: c.String("ui"), open: !c.Bool("no-open"),
		out: c.String("out"), json: c.Bool("json")}
	if pc.name == "" {
		pc.name = os.Getenv("USER")
		if pc.name == "" {
			pc.name = "player"
		}
	}
	if err := checkPlayerName(pc.name); err != nil {
		return pc, err
	}
	if _, _, err := net.SplitHostPort(pc.uiAddr); err != nil {
		return pc, usageError("--ui: %q is not HOST:PORT (e.g. 127.0.0.1:8080): %v", pc.uiAddr, err)
	}
	if pc.clock, err = readClock(c); err != nil {
		return pc, err
	}
	if pc.level, err = readBotChoice(c); err != nil {
		return pc, err
	}
	if err := checkOut(pc.out); err != nil {
		return pc, usageError("--out: %v", err)
	}
	return pc, nil
}

// playTable runs a person's node to the end of a table, with its page or terminal and its
// local bots.
func playTable(c *cli.Context, pc playConfig) error {
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := openSession(ctx, pc.session)
	if err != nil {
		return err
	}
	defer s.close()
	var ph *phones
	if pc.phones.addr != "" { // before anything joins a topic: the person's seat goes through the hub
		if ph, err = s.openPhones(pc.phones); err != nil {
			return err
		}
		s.net.Handle(tablenet.SeatProto, noSeat)
		pb := newPhoneBots(ctx, s, pc.clock)
		defer pb.stop()
		s.net.Handle(tablenet.BotsProto, pb.serve)
		pc.phoneBots = pb
		pc.checkSit = func(c ui.TableChoice) error {
			if n := pb.at(c.Table); n > 0 && holdsTheRest(c.Players, 1+c.Bots+n) {
				return ui.ErrHoldsTheRest
			}
			return nil
		}
		pc.renewPhones = func() error {
			u, err := ph.renew()
			if err == nil {
				fmt.Fprintf(c.App.ErrWriter, "phones have a new address; the old one admits nobody:\n")
				ph.print(c.App.ErrWriter)
				_ = u
			}
			return err
		}
	}
	if pc.private != nil {
		if pc.choice, pc.table, err = s.openPrivate(ctx, pc.private, pc.choice, pc.clock.wait); err != nil {
			return err
		}
		pc.game = games[pc.choice.Game]
	}
	pc.chat = &chatRelay{}
	pc.pause = &pauseRelay{}
	pc.dial = s.host.Dial
	if pc.private == nil && pc.choice.Table == "" {
		pc.join = &pageJoin{s: s, wait: pc.clock.wait}
	}
	p, err := openPerson(c, pc)
	if err != nil {
		return err
	}
	defer p.close()
	if ph != nil {
		ph.print(c.App.ErrWriter)
		if pc.session.data == "" {
			fmt.Fprintln(c.App.ErrWriter, "corruption: without --data the phones' address changes at the next start")
		}
		p.showPhones(ph)
	}
	if pc.private != nil && pc.private.hosted != nil {
		p.showPrivate(ctx, pc.private.hosted)
	}
	pc.chat.to(p.Chat)
	if pc.addrs {
		s.printAddrs()
	}
	p.watch(s, pc.session.mdns)
	// Quit, on the page: the program stops, as at Ctrl-C, but with the last table's exit.
	signalled := ctx
	ctx, quit := context.WithCancel(ctx)
	defer quit()
	go func() {
		select {
		case <-p.left():
			quit()
		case <-ctx.Done():
		}
	}()
	// The person's loop: the lobby (or --table), a table and its rematches, and back to the
	// lobby, until the person quits (docs/UI.md, "The person's loop"). The terminal plays
	// --table once.
	given, out, n := pc.choice, pc.out, 1
	var exit error
	for first := true; ; first = false {
		choice, err := p.choose(ctx, s, given)
		if err != nil {
			if signalled.Err() == nil && ctx.Err() != nil {
				return exit // quit in the lobby
			}
			return err
		}
		given = ui.TableChoice{}
		if g := games[choice.Game]; g != nil { // the lobby may choose another game than --game
			pc.game = g
		}
		if !first {
			pc.table = nil // --private or --join seat the first table only
		}
		if pc.join != nil {
			if t := pc.join.take(choice); t != nil { // a private table joined by its code on the page
				pc.table = t
				fmt.Fprintf(c.App.ErrWriter, "joined the private table by its code on the page\n")
			}
		}
		var act stayAct
		for {
			if n > 1 {
				pc.out = rematchOut(out, n) // each table's log beside the first's
			}
			n++
			var next ui.TableChoice
			if next, act, exit, err = playTableOnce(ctx, c, pc, s, p, choice); err != nil {
				return err
			}
			if act != actRematch || pc.table != nil { // no rematch of a private table yet: it would be open
				break
			}
			choice = next
			p.seat(choice)
		}
		if act == actQuit || pc.text {
			return exit
		}
		p.toLobby()
	}
}

// stayAct is what the person does once a table is over: a rematch, back to the lobby, or quit.
type stayAct int

const (
	actQuit stayAct = iota
	actLobby
	actRematch
)

// playTableOnce plays one table with the person and the local bots until it ends or the
// person leaves it, then keeps its results in sight until the person chooses what next (a
// person who left goes straight back to the lobby).
func playTableOnce(ctx context.Context, c *cli.Context, pc playConfig, s *session, p person, choice ui.TableChoice) (next ui.TableChoice, act stayAct, exit, err error) {
	tctx, stop := context.WithCancel(ctx)
	defer stop()
	left := make(chan struct{})
	go func() {
		select {
		case <-p.leaves():
			close(left)
			stop()
		case <-tctx.Done():
		}
	}()
	bots, exit, err := playOne(tctx, c, pc, s, p, choice)
	if err != nil {
		return next, actQuit, nil, err
	}
	defer bots.stop()
	select {
	case <-left:
		fmt.Fprintf(c.App.ErrWriter, "left table %q: back to the lobby\n", choice.Table)
		return next, actLobby, exit, nil
	default:
	}
	if ctx.Err() != nil {
		return next, actQuit, exit, nil
	}
	stop() // the person's ask to leave from the results is stay's to read
	next, act = p.stay(ctx)
	return next, act, exit, nil
}

// rematchOut is where --out LOG saves the log of the person's nth table (a rematch): LOG with
// the number before its extension (game.log, game-2.log, game-3.log).
func rematchOut(out string, n int) string {
	if out == "" {
		return ""
	}
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + "-" + strconv.Itoa(n) + ext
}

// playOne plays one table to its end with the person and the local bots, and reports it. exit
// is how the command ends when it is the last table (err: the table could not be played); the
// bots are left to serve the others until the caller stops them.
func playOne(ctx context.Context, c *cli.Context, pc playConfig, s *session, p person, choice ui.TableChoice) (bots *localBots, exit, err error) {
	fmt.Fprintf(c.App.ErrWriter, "sitting at table %s\n", choice)
	pc.clock.escrow = escrowFor(pc.clock.escrow, choice.Players, 1+choice.Bots+pc.phoneBots.at(choice.Table), s.notef, choice.Table)
	bots, err = startLocalBots(ctx, s, pc, choice, "")
	if err != nil {
		return nil, nil, cli.Exit(err.Error(), 1)
	}
	r, err := s.play(ctx, seat{choice: choice, name: pc.name, clock: pc.clock, player: p,
		onEvent: p.Event, onChange: p.Update, lobby: true, chat: pc.chat, pause: pc.pause, private: pc.table})
	if err != nil {
		bots.stop()
		return nil, nil, err
	}
	p.Finish(s.result(r))
	exit = s.finish(r, report{out: pc.out, json: pc.json, stdout: c.App.Writer, game: pc.game})
	if r.err == nil {
		bots.wait(ctx, 10*time.Second) // to sign off and serve the others what they miss
	}
	return bots, exit, nil
}

// result is how the person's node ended, with the audit of its log, for the page.
func (s *session) result(r *played) ui.Result {
	res := ui.Result{Outcome: r.out, Err: r.err, Resume: s.resumeCommand(r)}
	if r.node.Table() == nil {
		return res
	}
	f, err := os.Open(s.store.LogPath(r.seat.choice.Table))
	if err == nil {
		defer f.Close()
		res.Audit, err = protocol.Audit(f, engine.Options{})
	}
	if err != nil {
		s.notef("cannot audit the log: %v", err)
	}
	return res
}
