package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"corruption/protocol/tablenet"
	"github.com/urfave/cli/v2"
)

func hostCommand() *cli.Command {
	return &cli.Command{
		Name:      "host",
		Usage:     "serve phones: friends sit at tables in their phones' browsers, with bots of this machine if they ask",
		ArgsUsage: " ",
		Description: "Sits at no table itself: it prints a line 'join from a phone: URL' and the URL as a\n" +
			"QR code. Each phone on your Wi-Fi that opens it gets a seat in its browser, which holds its\n" +
			"keys and cards: this machine only carries its messages. On a phone, the lobby lists the\n" +
			"tables on your network, creates one (with bots of this machine in empty seats, if asked)\n" +
			"or joins a private table by its code. Ctrl-C stops it (and its bots).\n\n" +
			"--data DIR keeps the address (its port and token) across restarts, and the bots' logs:\n" +
			"restarted with the same --data, the phones reconnect and their tables go on.\n\n" +
			"Examples:\n" +
			"  corruption host --data ~/corruption-host\n" +
			"  corruption host --phones-addr 192.168.1.20:8080   # the address of the Wi-Fi, a fixed port",
		Flags: append(append(append(clockFlags(playClock), networkFlags()...), phoneFlags(false, true)...),
			&cli.BoolFlag{Name: "verbose", Usage: "log network and protocol events to stderr"}),
		Action: runHost,
	}
}

func runHost(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("host takes no arguments (got %q); see corruption host --help", c.Args().First())
	}
	o, err := readPhones(c, true, "")
	if err != nil {
		return err
	}
	clock, err := readClock(c)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := readNetworkFlags(c)
	cfg.holdAddrs = true
	s, err := openSession(ctx, cfg)
	if err != nil {
		return err
	}
	defer s.close()
	ph, err := s.openPhones(o)
	if err != nil {
		return err
	}
	s.net.Handle(tablenet.SeatProto, noSeat)
	bots := newPhoneBots(ctx, s, clock)
	defer bots.stop()
	s.net.Handle(tablenet.BotsProto, bots.serve)
	ph.print(c.App.ErrWriter)
	bots.resume()
	if cfg.data == "" {
		fmt.Fprintln(c.App.ErrWriter, "corruption: without --data the phones' address changes at the next start")
	}
	if c.Bool("verbose") {
		s.printAddrs()
	}
	<-ctx.Done()
	fmt.Fprintln(c.App.ErrWriter, "corruption: host stopped")
	return nil
}

// demoPhones is demo --phones: the person's seat goes to the first phone that opens the
// address; the bots of this machine wait for it. The laptop sits at no seat; at the end it
// prints the outcome as the bots saw it (and saves --out from the first bot's log).
func demoPhones(c *cli.Context, pc playConfig) error {
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errw := c.App.ErrWriter
	s, err := openSession(ctx, pc.session)
	if err != nil {
		return err
	}
	defer s.close()
	ph, err := s.openPhones(pc.phones)
	if err != nil {
		return err
	}
	choice := pc.choice
	pc.clock.escrow = escrowFor(pc.clock.escrow, choice.Players, choice.Bots, s.notef, choice.Table)
	w := tablenet.Wish{Table: choice.Table, Game: choice.Game, Players: choice.Players, Config: choice.Config, Bots: choice.Bots,
		Escrow: pc.clock.escrow, TimeoutMS: pc.clock.timeout.Milliseconds(), AllowanceMS: pc.clock.allowance.Milliseconds(),
		BankMS: pc.clock.bank.Milliseconds()}
	gift := newSeatGift(w, s.notef)
	s.net.Handle(tablenet.SeatProto, gift.serve)
	s.net.Handle(tablenet.BotsProto, func(string, []byte) ([]byte, error) {
		return nil, fmt.Errorf("demo seats its own bots: this machine starts no others")
	})
	ph.print(errw)
	fmt.Fprintf(errw, "corruption: demo keeps nothing: the address changes at the next start\n")
	waiters := "the bot waits"
	if choice.Bots > 1 {
		waiters = fmt.Sprintf("%d bots wait", choice.Bots)
	}
	fmt.Fprintf(errw, "the seat at table %s is the first phone's to open the address: %s for it\n", choice, waiters)
	if pc.addrs {
		s.printAddrs()
	}
	bots, err := startLocalBots(ctx, s, pc, choice, "")
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	defer bots.stop()
	select {
	case <-bots.over:
	case <-ctx.Done():
	}
	r := bots.result(0)
	if r == nil || ctx.Err() != nil {
		return cli.Exit(fmt.Sprintf("interrupted: table %q, its seat %s", choice.Table, seatWords(gift)), 1)
	}
	if pc.out != "" && r.node.Table() != nil {
		if err := saveLog(pc.out, bots.sessions[0].store, choice.Table); err != nil {
			return cli.Exit(fmt.Sprintf("--out: %v", err), 1)
		}
	}
	if r.err != nil {
		return cli.Exit(fmt.Sprintf("table %q: %v", choice.Table, r.err), 1)
	}
	out := *r.out
	out.Seat = -1
	if t := r.node.Table(); t != nil {
		for i, m := range t.Players() {
			if m.Key.Equal(gift.seatKey()) {
				out.Seat = i
			}
		}
	}
	r.out = &out
	printOutcome(c.App.Writer, r, games[choice.Game])
	if out.Verdict != nil || !out.Finished {
		return cli.Exit("", 1)
	}
	return nil
}

// seatWords says where the gifted seat stands.
func seatWords(g *seatGift) string {
	if g.seatKey() == nil {
		return "no phone took it"
	}
	return "taken by a phone"
}
