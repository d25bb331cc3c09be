package main

import (
	"crypto/rand"
	"fmt"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/ui"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:      "demo",
		Usage:     "play against bots of this machine, in your browser (or --text in this terminal)",
		ArgsUsage: " ",
		Description: "Seats you at a new table with --bots bots (3 by default), all on this machine over\n" +
			"127.0.0.1: real nodes, real cryptography, no network needed. It prints the page's\n" +
			"address and opens your browser where there is one; --text plays in this terminal\n" +
			"instead (for Corruption, type moves such as: 4000 airport, 8000 swiss:city, peek 5,\n" +
			"assign monument, kill 7, remove 12, pass, faceup 1 3).\n\n" +
			"Examples:\n" +
			"  corruption demo\n" +
			"  corruption demo --bots 5 --variant free-stud --lbb\n" +
			"  corruption demo --text\n" +
			"  corruption demo --phones   # your seat is on your phone: scan the QR code it prints\n\n" +
			"With --phones your seat goes to the first phone that opens the address it prints (on the\n" +
			"same Wi-Fi), instead of this machine's page: the bots wait for it.",
		Flags: append(append(append(playFlags(demoClock),
			&cli.IntFlag{Name: "bots", Value: 3, Usage: "`K` bots: the table has K+1 players (2 to 6 for Corruption)"},
			&cli.BoolFlag{Name: "text", Usage: "play in this terminal rather than in a browser"},
		), phoneFlags(true, false)...), settingsFlags("")...),
		Action: runDemo,
	}
}

func runDemo(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("demo takes no arguments (got %q); see corruption demo --help", c.Args().First())
	}
	pc, err := readPlayFlags(c)
	if err != nil {
		return err
	}
	lo, hi := pc.rules.Players()
	if pc.bots = c.Int("bots"); pc.bots < lo-1 || pc.bots > hi-1 {
		return usageError("--bots: %d, want %d to %d", pc.bots, lo-1, hi-1)
	}
	config, err := pc.game.settings(c)
	if err != nil {
		return err
	}
	var nonce [4]byte
	rand.Read(nonce[:])
	pc.choice = ui.TableChoice{Table: fmt.Sprintf("demo-%x", nonce), Game: pc.game.ID, Players: pc.bots + 1, Config: config, Bots: pc.bots}
	if err := ui.CheckTable(pc.choice, pc.bots); err != nil {
		return usageError("%v", err)
	}
	pc.text = c.Bool("text")
	if pc.phones, err = readPhones(c, c.Bool("phones"), ""); err != nil {
		return err
	}
	if pc.phones.addr != "" && pc.text {
		return usageError("--phones gives your seat to a phone: leave --text out")
	}
	// Everything on this machine: no data kept, no mDNS, loopback only.
	pc.session = sessionConfig{listen: []string{p2p.DefaultListen}, errw: c.App.ErrWriter, holdAddrs: true}
	if c.Bool("verbose") {
		pc.session.logf = readNetworkFlags(c).logf
		pc.addrs = true
	}
	if pc.phones.addr != "" {
		return demoPhones(c, pc)
	}
	return playTable(c, pc)
}
