package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/protocol"
)

// corruption relay: a circuit relay v2 server (p2p/relay.go) for players who cannot dial one
// another (behind NATs): they give its address with --relay, keep a reservation on it, meet
// there (it answers peer exchange with the relayed addresses of the nodes it carries) and play
// through it, each connection end-to-end encrypted between the two players.

func relayCommand() *cli.Command {
	return &cli.Command{
		Name:      "relay",
		Usage:     "run a relay through which players behind NATs reach each other",
		ArgsUsage: " ",
		Description: "Runs on a host the players can all reach (a public address, or one LAN for all): it\n" +
			"prints its addresses, and each player gives one with --relay ADDR. Nodes that keep a\n" +
			"reservation on the relay meet there and play through it; traffic through it is\n" +
			"encrypted end to end between players and every entry is signed, so a relay can drop\n" +
			"or delay (a bad network), not cheat. Its circuits have no time or data limit (a table\n" +
			"lasts as long as it lasts). With --data, the relay keeps its identity, so its address\n" +
			"stays the same from one run to the next. It runs until interrupted.\n\n" +
			"Example:\n" +
			"  corruption relay --listen /ip4/0.0.0.0/tcp/4002 --data relay-data\n" +
			"  corruption bot --private --players 3 --relay /ip4/203.0.113.7/tcp/4002/p2p/12D3KooW...",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "listen", Usage: "a `MULTIADDR` to listen on (default " + p2p.LANListen + ", every interface)"},
			&cli.StringFlag{Name: "data", Usage: "the data `DIR` that keeps the relay's identity (default: a new identity each run)"},
			&cli.BoolFlag{Name: "verbose", Usage: "log connections to stderr"},
		},
		Action: runRelay,
	}
}

func runRelay(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("relay takes no arguments (got %q); see corruption relay --help", c.Args().First())
	}
	var key ed25519.PrivateKey
	if dir := c.String("data"); dir != "" {
		store, err := protocol.OpenStore(dir)
		if err != nil {
			return cli.Exit(fmt.Sprintf("--data: %v", err), 1)
		}
		defer store.Close()
		if key, err = store.Identity(); err != nil {
			return cli.Exit(fmt.Sprintf("--data: %v", err), 1)
		}
	} else {
		var err error
		if _, key, err = ed25519.GenerateKey(rand.Reader); err != nil {
			return cli.Exit(err.Error(), 1)
		}
	}
	listen := c.StringSlice("listen")
	if len(listen) == 0 {
		listen = []string{p2p.LANListen}
	}
	cfg := p2p.Config{Identity: key, Listen: listen, RelayService: true, Exchange: true}
	if c.Bool("verbose") {
		cfg.Logf = func(f string, a ...any) { fmt.Fprintln(c.App.ErrWriter, "corruption: "+oneLine(fmt.Sprintf(f, a...))) }
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	node, err := p2p.New(ctx, cfg)
	if err != nil {
		return cli.Exit(err.Error(), 2)
	}
	defer node.Close()
	for _, a := range node.Addrs() {
		fmt.Fprintf(c.App.ErrWriter, "relay at %s\n", a)
	}
	<-ctx.Done()
	return nil
}
