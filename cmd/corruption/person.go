package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	browserseat "corruption/seat"
	"corruption/ui"
)

// The person of play and demo runs the seat's loop (seat.Run, the phone's: docs/
// ARCHITECTURE.md, "The person's loop") on this machine's node. What only the command line
// has comes in through the loop's hooks, here: the page served on --ui (or the terminal), the
// local bots of each table, --out, the outcome printed and the exit status, the private
// table, the phones' listener.

// playTable runs a person's node through its tables, with its page or terminal, its local
// bots and, with --phones, its phones' listener; its error is the last table's exit status.
func playTable(c *cli.Context, pc playConfig) error {
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := openSession(ctx, pc.session)
	if err != nil {
		return err
	}
	defer s.close()
	l := &laptopPerson{c: c, pc: pc, s: s, out: pc.out, n: 1}
	if pc.phones.addr != "" { // before anything joins a topic: the person's seat goes through the hub
		pb, err := l.openPhones(ctx)
		if err != nil {
			return err
		}
		defer pb.stop()
	}
	if pc.private != nil {
		if l.pc.choice, l.table, err = s.openPrivate(ctx, pc.private, pc.choice, pc.clock.wait); err != nil {
			return err
		}
		l.pc.game = games[l.pc.choice.Game]
	}
	l.pc.dial = s.host.Dial
	if pc.private == nil && pc.choice.Table == "" {
		l.pc.join = &pageJoin{s: s, wait: pc.clock.wait}
	}
	cfg := l.config()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if pc.text {
		t := ui.NewTerminal(l.pc.game.text, c.App.Reader, c.App.Writer)
		t.SetLang(ui.LangFromEnv(os.Getenv))
		t.SetChat(cfg.Slot.Say) // the table's chat, game-free (protocol/chat.go)
		t.SetPause(cfg.Slot.Pause)
		defer t.Close()
		cfg.Front = t
		l.ready(wctx, nil)
	} else {
		pg, err := listenPage(l.pc.uiAddr)
		if err != nil {
			return err
		}
		defer pg.close()
		cfg.OnServer = func(srv *ui.Server) {
			l.url = pg.serve(srv, l.pc.uiAddr, l.pc.open, c.App.ErrWriter)
			l.ready(wctx, srv)
		}
	}
	err = browserseat.Run(ctx, cfg)
	var exit cli.ExitCoder
	switch {
	case err == nil:
		return l.exit // the terminal's table
	case errors.Is(err, context.Canceled) && ctx.Err() != nil && l.inLobby:
		return cli.Exit("stopped in the lobby", 1) // Ctrl-C there
	case errors.Is(err, context.Canceled):
		return l.exit // the page's Quit, or Ctrl-C at a table or its results
	case errors.As(err, &exit):
		return err
	}
	return cli.Exit(err.Error(), 1)
}

// laptopPerson is what play and demo add to the seat's loop for this machine's person.
type laptopPerson struct {
	c       *cli.Context
	pc      playConfig
	s       *session
	ph      *phones                // with --phones
	table   *protocol.PrivateTable // --private or --join: the first table's
	url     string                 // the page's address
	out     string                 // --out, the first table's
	n       int                    // the number of the person's next table (--out of a rematch)
	exit    error                  // the last table's exit status
	bots    *localBots             // the bots of the table the person sits at
	inLobby bool
}

// config is the seat's loop as play and demo run it.
func (l *laptopPerson) config() browserseat.Config {
	pc := l.pc
	var boards []ui.Board
	for _, id := range playable() {
		boards = append(boards, games[id].board)
	}
	return browserseat.Config{Store: l.s.store, Net: l.s.net, Name: pc.name, Boards: boards, Given: pc.choice,
		Clock: seatClock(pc.clock), Logf: l.s.logf, Notef: l.s.notef, Slot: &ui.NodeSlot{}, LobbyKey: p2p.PeerKey,
		KeepData: true, Fatal: true, ShowStopped: true, Page: l.page, Sit: l.sit, OnLobby: func() { l.inLobby = true }}
}

// seatClock is a command's clock as the seat's loop takes it.
func seatClock(k tableClock) browserseat.Clock {
	return browserseat.Clock{Timeout: k.timeout, Allowance: k.allowance, Bank: k.bank, Wait: k.wait, Escrow: k.escrow}
}

// page is what the laptop's page offers beyond a phone's.
func (l *laptopPerson) page(cfg *ui.Config) {
	pc := l.pc
	cfg.Board, cfg.Bots, cfg.Dial = pc.game.board, pc.bots, pc.dial
	cfg.Rematch = pc.private == nil // no rematch of a private table yet
	cfg.Levels, cfg.Level = levelNames(), pc.level.name()
	cfg.CheckSit, cfg.RenewPhones, cfg.Quit = pc.checkSit, pc.renewPhones, true
	if pc.join != nil {
		cfg.JoinPrivate = pc.join.join // the lobby's field to join a private table by its code
		cfg.JoinLimit = min(pc.join.wait, ui.DefaultJoinLimit)
	}
}

// ready shows what the person needs first once the page is served (srv; nil: the terminal):
// the phones' address, the private table's codes, the node's addresses, how it finds others.
func (l *laptopPerson) ready(ctx context.Context, srv *ui.Server) {
	errw := l.c.App.ErrWriter
	if l.ph != nil {
		l.ph.print(errw)
		if l.pc.session.data == "" {
			fmt.Fprintln(errw, "corruption: without --data the phones' address changes at the next start")
		}
		showPhones(srv, l.ph)
	}
	if srv != nil && l.pc.private != nil && l.pc.private.hosted != nil {
		showPrivate(ctx, srv, l.pc.private.hosted)
	}
	if l.pc.addrs {
		l.s.printAddrs()
	}
	if srv != nil {
		watch(ctx, srv, l.s, l.pc.session.mdns)
	}
}

// openPhones opens the phones' listener, with the seat and bots services of play --phones.
func (l *laptopPerson) openPhones(ctx context.Context) (*phoneBots, error) {
	ph, err := l.s.openPhones(l.pc.phones)
	if err != nil {
		return nil, err
	}
	l.ph = ph
	l.s.net.Handle(tablenet.SeatProto, noSeat)
	pb := newPhoneBots(ctx, l.s, l.pc.clock)
	l.s.net.Handle(tablenet.BotsProto, pb.serve)
	l.pc.phoneBots = pb
	l.pc.checkSit = func(c ui.TableChoice) error {
		if n := pb.at(c.Table); n > 0 && holdsTheRest(c.Players, 1+c.Bots+n) {
			return ui.ErrHoldsTheRest
		}
		return nil
	}
	l.pc.renewPhones = func() error {
		_, err := ph.renew()
		if err == nil {
			fmt.Fprintf(l.c.App.ErrWriter, "phones have a new address; the old one admits nobody:\n")
			ph.print(l.c.App.ErrWriter)
		}
		return err
	}
	return pb, nil
}

// sit is the loop's Sit: before each table, the game it plays, where --out saves it, its
// escrow and its local bots; after it, --out, the outcome printed and the exit status.
func (l *laptopPerson) sit(ctx context.Context, choice ui.TableChoice) (browserseat.Sitting, error) {
	l.inLobby = false
	pc, s, errw := &l.pc, l.s, l.c.App.ErrWriter
	if g := games[choice.Game]; g != nil { // the lobby may choose another game than --game
		pc.game = g
	}
	private := l.table
	l.table = nil // --private or --join seat the first table only
	if pc.join != nil {
		if t := pc.join.take(choice); t != nil { // a private table joined by its code on the page
			private = t
			fmt.Fprintf(errw, "joined the private table by its code on the page\n")
		}
	}
	out := l.out
	if l.n > 1 {
		out = rematchOut(l.out, l.n) // each table's log beside the first's
	}
	l.n++
	fmt.Fprintf(errw, "sitting at table %s\n", choice)
	withBots := *pc // the bots sit with the table's escrow, as the person does
	withBots.clock.escrow = escrowFor(pc.clock.escrow, choice.Players, 1+choice.Bots+pc.phoneBots.at(choice.Table), s.notef, choice.Table)
	clock := withBots.clock
	bots, err := startLocalBots(ctx, s, withBots, choice, "")
	if err != nil {
		return browserseat.Sitting{}, cli.Exit(err.Error(), 1)
	}
	l.bots = bots
	s.sitAt(choice, clock.escrow)
	k := seatClock(clock)
	game := pc.game
	return browserseat.Sitting{Clock: &k, Private: private, NoRematch: private != nil,
		Resume: func(o *protocol.Outcome) string { return s.resumeCommand(o, choice) },
		Ended: func(node *protocol.Node, res ui.Result, end browserseat.End) {
			s.sitAt(ui.TableChoice{}, false)
			for _, p := range s.host.Peers() { // how each connection ended (--verbose): direct or relayed
				s.logf("p2p: the connection to %s is %s", p, s.host.Relayed(p))
			}
			r := &played{seat: seat{choice: choice}, node: node, out: res.Outcome, err: res.Err}
			l.exit = s.finish(r, report{out: out, json: pc.json, stdout: l.c.App.Writer, game: game})
			switch {
			case end == browserseat.Left:
				fmt.Fprintf(errw, "left table %q: back to the lobby\n", choice.Table)
			case end == browserseat.Over && !pc.text:
				if res.Err == nil {
					bots.wait(ctx, 10*time.Second) // to sign off and serve the others what they miss
				}
				if ctx.Err() == nil {
					fmt.Fprintf(errw, "the results stay at %s until you go back to the lobby there, ask for a rematch or quit (or press Ctrl-C)\n", l.url)
				}
			case end == browserseat.Over && res.Err == nil:
				bots.wait(ctx, 10*time.Second)
			}
		},
		Close: func() { s.sitAt(ui.TableChoice{}, false); bots.stop() }}, nil
}
