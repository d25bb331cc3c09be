package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/protocol"
)

// corruption relay: a circuit relay v2 server (p2p/relay.go, p2p/relay_service.go) for players
// who cannot dial one another (behind NATs): they give its address with --relay, keep a
// reservation on it, meet there (it answers peer exchange with the relayed addresses of the
// nodes it carries) and play through it, each connection end-to-end encrypted between the two
// players. Each circuit (two players' connection through it) is cut after --circuit-time or
// --circuit-data each way, whichever comes first; the two players' nodes then open another and
// play on. Reservations are limited in all, per IP address and per IPv6 /64.

func relayCommand() *cli.Command {
	return &cli.Command{
		Name:      "relay",
		Usage:     "run a relay through which players behind NATs reach each other",
		ArgsUsage: " ",
		Description: "Runs on a host the players can all reach (a public address, or one LAN for all): it\n" +
			"prints its addresses, and each player gives one with --relay ADDR. Nodes that keep a\n" +
			"reservation on the relay meet there and play through it; traffic through it is\n" +
			"encrypted end to end between players and every entry is signed, so a relay can drop\n" +
			"or delay (a bad network), not cheat. With --data, the relay keeps its identity, so its\n" +
			"address stays the same from one run to the next. It runs until interrupted.\n\n" +
			"Limits. Two players' connection through the relay (a circuit) is cut after\n" +
			"--circuit-time, or once it has carried --circuit-data either way; their nodes then\n" +
			"open another circuit and the table plays on, so the limits only bound what one\n" +
			"circuit gives. The defaults carry a whole table of the largest size with the slowest\n" +
			"default clock (play's 90 s a decision and 5 min of bank a player). A table's nodes\n" +
			"announce themselves four times a second even when nobody moves, about 7 KB/s each way\n" +
			"on a circuit at 7 players, so the data a circuit needs grows with its time: unless\n" +
			"given, --circuit-data is 16 KiB for each second of --circuit-time (at least 256 KiB). Raise\n" +
			"--circuit-time for tables with a longer --clock or --bank (a table outliving a circuit\n" +
			"only pays a reconnection). At most --reservations players hold a reservation at\n" +
			"once, at most --reservations-per-ip from one IP address and --reservations-per-64\n" +
			"from one IPv6 /64 (a home's or a host's prefix); raise them if several players share\n" +
			"one address (one home, one NAT). --verbose logs each circuit's end with what it\n" +
			"carried, to size the limits by.\n\n" +
			"Examples:\n" +
			"  corruption relay --listen /ip4/0.0.0.0/tcp/4002 --data relay-data\n" +
			"  corruption relay --listen /ip4/0.0.0.0/tcp/4002 --circuit-time 24h --reservations-per-ip 8\n" +
			"  corruption bot --private --players 3 --relay /ip4/203.0.113.7/tcp/4002/p2p/12D3KooW...",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "listen", Usage: "a `MULTIADDR` to listen on (default " + p2p.LANListen + ", every interface)"},
			&cli.StringFlag{Name: "data", Usage: "the data `DIR` that keeps the relay's identity (default: a new identity each run)"},
			&cli.DurationFlag{Name: "circuit-time", Value: p2p.DefaultCircuitTime, Usage: "cut a circuit (two players' connection through the relay) after `DURATION`; their nodes open another"},
			&cli.StringFlag{Name: "circuit-data", Usage: "cut a circuit once it has carried `SIZE` either way (bytes, or with a unit: 500MB, 1.5GiB)",
				DefaultText: "16 KiB a second of --circuit-time: " + formatSize(p2p.CircuitDataFor(p2p.DefaultCircuitTime)) + " for " + fmtHours(p2p.DefaultCircuitTime)},
			&cli.IntFlag{Name: "reservations", Value: p2p.DefaultReservations, Usage: "hold at most `N` reservations (players reachable through the relay) at once"},
			&cli.IntFlag{Name: "reservations-per-ip", Value: p2p.DefaultPerIP, Usage: "of them, at most `N` from one IP address"},
			&cli.IntFlag{Name: "reservations-per-64", Value: p2p.DefaultPer64, Usage: "of them, at most `N` from one IPv6 /64 prefix"},
			&cli.BoolFlag{Name: "verbose", Usage: "log connections and circuits (with what each carried) to stderr"},
		},
		Action: runRelay,
	}
}

func runRelay(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("relay takes no arguments (got %q); see corruption relay --help", c.Args().First())
	}
	limits, err := readRelayLimits(c)
	if err != nil {
		return err
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
	cfg := p2p.Config{Identity: key, Listen: listen, RelayService: true, RelayLimits: limits, Exchange: true}
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
	fmt.Fprintf(c.App.ErrWriter, "circuits cut after %v or %s either way; at most %d reservations, %d per IP address, %d per IPv6 /64\n",
		limits.CircuitTime, formatSize(limits.CircuitData), limits.Reservations, limits.PerIP, limits.Per64)
	<-ctx.Done()
	return nil
}

// readRelayLimits reads the relay's limit flags; a bad one is a usage error that names it.
func readRelayLimits(c *cli.Context) (p2p.RelayLimits, error) {
	l := p2p.RelayLimits{CircuitTime: c.Duration("circuit-time"), Reservations: c.Int("reservations"),
		PerIP: c.Int("reservations-per-ip"), Per64: c.Int("reservations-per-64")}
	if l.CircuitTime < time.Second {
		return l, usageError("--circuit-time: %v is too short (at least 1s)", l.CircuitTime)
	}
	if s := c.String("circuit-data"); s != "" {
		n, err := parseSize(s)
		if err != nil {
			return l, usageError("--circuit-data: %v", err)
		}
		if n < p2p.MinCircuitData {
			return l, usageError("--circuit-data: %s is too small (at least %s: two nodes' greetings and one large entry)", s, formatSize(p2p.MinCircuitData))
		}
		l.CircuitData = n
	} else {
		l.CircuitData = p2p.CircuitDataFor(l.CircuitTime)
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"reservations", l.Reservations}, {"reservations-per-ip", l.PerIP}, {"reservations-per-64", l.Per64}} {
		if f.n < 1 {
			return l, usageError("--%s: %d, want at least 1", f.name, f.n)
		}
	}
	return l, nil
}

// The units parseSize takes, and formatSize writes.
var sizeUnits = []struct {
	name string
	n    float64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}

// parseSize reads a size in bytes: a number of bytes, or a number and a unit (KB, MB, GB, KiB,
// MiB, GiB; any case).
func parseSize(s string) (int64, error) {
	num, unit := s, 1.0
	for _, u := range sizeUnits {
		if len(s) > len(u.name) && strings.EqualFold(s[len(s)-len(u.name):], u.name) {
			num, unit = strings.TrimSpace(s[:len(s)-len(u.name)]), u.n
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || f*unit > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size (bytes, or a number with KB, MB, GB, KiB, MiB or GiB)", s)
	}
	return int64(f * unit), nil
}

// formatSize writes n bytes in the largest binary unit that keeps a number of at least 1, to a
// tenth ("562.5 MiB").
func formatSize(n int64) string {
	for _, u := range sizeUnits[:3] {
		if float64(n) >= u.n {
			return strings.TrimSuffix(strconv.FormatFloat(float64(n)/u.n, 'f', 1, 64), ".0") + " " + u.name
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// fmtHours writes d as hours when it is whole hours ("10h").
func fmtHours(d time.Duration) string {
	if d%time.Hour == 0 {
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return d.String()
}
