package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/engine/bot"
	"corruption/p2p"
	"corruption/protocol"
)

func botCommand() *cli.Command {
	return &cli.Command{
		Name:      "bot",
		Usage:     "seat a computer player at a network table and play it to the end",
		ArgsUsage: " ",
		Description: "Starts a node that plays with the heuristic bot. Start N of them with the same --table\n" +
			"and --players (and the same --variant and --lbb): they find each other on the LAN\n" +
			"(mDNS) or through --peer, form one table, shuffle the contracts together, play the\n" +
			"game, write the log and print the outcome. Each prints its listen addresses at\n" +
			"start, for others' --peer.\n\n" +
			"With --data, the node keeps its identity, secrets and log there: stopped or killed,\n" +
			"it resumes from where it was when started again with the same --data and --table.\n\n" +
			"Examples (three terminals, one machine):\n" +
			"  corruption bot --table t1 --players 3 --listen /ip4/127.0.0.1/tcp/4001 --no-mdns\n" +
			"  corruption bot --table t1 --players 3 --listen /ip4/127.0.0.1/tcp/0 --no-mdns --peer /ip4/127.0.0.1/tcp/4001/p2p/ID\n" +
			"  (and a third like the second)",
		Flags: append(tableFlags(),
			&cli.StringFlag{Name: "name", Usage: "the player's `NAME` at the table (default: bot and the first letters of its key)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the bot's choices (default: random)"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object"},
		),
		Action: runBot,
	}
}

// tableFlags are the flags of every command that sits at a network table.
func tableFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "table", Usage: "the table's `NAME`: nodes with the same name sit together", Required: true},
		&cli.IntFlag{Name: "players", Usage: "players at the table, 3 to 7", Required: true},
		&cli.StringFlag{Name: "variant", Value: "standard", Usage: "standard, down-the-river, free-stud or closed"},
		&cli.BoolFlag{Name: "lbb", Usage: "play with the little black book (two peeks each; not with closed)"},
		&cli.StringFlag{Name: "data", Usage: "the data `DIR` for identity, secrets and log (default: a temporary directory, removed at exit)"},
		&cli.StringFlag{Name: "out", Usage: "write the table's log to `LOG` at the end (for corruption audit and replay)"},
		&cli.StringSliceFlag{Name: "listen", Usage: "a `MULTIADDR` to listen on (default " + p2p.LANListen + ", every interface)"},
		&cli.StringSliceFlag{Name: "peer", Usage: "a peer's `MULTIADDR` (ending /p2p/ID) to dial, for networks without multicast"},
		&cli.BoolFlag{Name: "no-mdns", Usage: "do not look for peers with mDNS (use --peer)"},
		&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "how long a player may stay silent on its turn before the table names it and ends"},
		&cli.BoolFlag{Name: "verbose", Usage: "log network and protocol events to stderr"},
	}
}

// tableSettings are the checked values of tableFlags.
type tableSettings struct {
	table   string
	players int
	variant engine.Variant
	lbb     bool
	timeout time.Duration
}

func readTableFlags(c *cli.Context) (tableSettings, error) {
	s := tableSettings{table: c.String("table"), players: c.Int("players"), lbb: c.Bool("lbb"), timeout: c.Duration("timeout")}
	if s.table == "" || len(s.table) > maxTableBytes || strings.ContainsAny(s.table, "/\\") || s.table == "." || s.table == ".." {
		return s, usageError("--table: %q is not a table name (1 to %d characters, no slashes)", s.table, maxTableBytes)
	}
	if s.players < engine.MinPlayers || s.players > engine.MaxPlayers {
		return s, usageError("--players: %d, want %d to %d", s.players, engine.MinPlayers, engine.MaxPlayers)
	}
	v, err := engine.ParseVariant(c.String("variant"))
	if err != nil {
		return s, usageError("--variant: %v", err)
	}
	s.variant = v
	if s.lbb && v == engine.Closed {
		return s, usageError("--lbb: the little black book cannot be played with the closed variant")
	}
	if s.timeout < time.Second {
		return s, usageError("--timeout: %v is too short (at least 1s)", s.timeout)
	}
	return s, nil
}

// session is a running node's surroundings: data directory, p2p host, table network.
type session struct {
	store   *protocol.Store
	node    *p2p.Node
	net     *tableNet
	cleanup []func()
	logf    func(string, ...any)
}

func (s *session) close() {
	for i := len(s.cleanup) - 1; i >= 0; i-- {
		s.cleanup[i]()
	}
}

func openSession(ctx context.Context, c *cli.Context, ts tableSettings) (*session, error) {
	s := &session{logf: func(string, ...any) {}}
	if c.Bool("verbose") {
		s.logf = func(f string, a ...any) { fmt.Fprintf(c.App.ErrWriter, "corruption: "+f+"\n", a...) }
	}
	dir := c.String("data")
	if dir == "" {
		tmp, err := os.MkdirTemp("", "corruption-")
		if err != nil {
			return nil, cli.Exit(fmt.Sprintf("cannot make a data directory: %v", err), 1)
		}
		dir = tmp
		s.cleanup = append(s.cleanup, func() { os.RemoveAll(tmp) })
	}
	store, err := protocol.OpenStore(dir)
	if err != nil {
		s.close()
		return nil, cli.Exit(fmt.Sprintf("--data: %v", err), 1)
	}
	s.store = store
	key, err := store.Identity()
	if err != nil {
		s.close()
		return nil, cli.Exit(fmt.Sprintf("--data: %v", err), 1)
	}
	listen := c.StringSlice("listen")
	if len(listen) == 0 {
		listen = []string{p2p.LANListen}
	}
	node, err := p2p.New(ctx, p2p.Config{Identity: key, Listen: listen, Peers: c.StringSlice("peer"),
		MDNS: !c.Bool("no-mdns"), ServiceTag: serviceTag, Exchange: true, Logf: s.logf})
	if err != nil {
		s.close()
		return nil, cli.Exit(err.Error(), 2)
	}
	s.node = node
	s.cleanup = append(s.cleanup, func() { node.Close() })
	s.net, err = joinTable(node, ts.table)
	if err != nil {
		s.close()
		return nil, cli.Exit(err.Error(), 1)
	}
	for _, a := range node.Addrs() {
		fmt.Fprintf(c.App.ErrWriter, "listening on %s\n", a)
	}
	return s, nil
}

func runBot(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("bot takes no arguments (got %q); see corruption bot --help", c.Args().First())
	}
	ts, err := readTableFlags(c)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := openSession(ctx, c, ts)
	if err != nil {
		return err
	}
	defer s.close()
	key, _ := s.store.Identity()
	name := c.String("name")
	if name == "" {
		name = fmt.Sprintf("bot-%x", key.Public().(ed25519.PublicKey)[:3])
	}
	seed := c.Uint64("seed")
	if !c.IsSet("seed") {
		seed = uint64(time.Now().UnixNano())
	}
	b, _ := bot.New("heuristic", seed)
	node, err := protocol.NewNode(protocol.NodeConfig{Table: ts.table, Players: ts.players, Variant: ts.variant,
		LBB: ts.lbb, Name: name, Timeout: ts.timeout, Identity: key, Store: s.store,
		Player: protocol.BotPlayer(b), Net: s.net, Logf: s.logf})
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	out, runErr := node.Run(ctx)
	if path := c.String("out"); path != "" && node.Table() != nil {
		if err := saveLog(path, s.store, ts.table); err != nil {
			return cli.Exit(fmt.Sprintf("--out: %v", err), 1)
		}
	}
	if runErr != nil {
		return cli.Exit(fmt.Sprintf("table %q: %v", ts.table, runErr), 1)
	}
	if c.Bool("json") {
		if err := json.NewEncoder(c.App.Writer).Encode(out); err != nil {
			return err
		}
	} else {
		printOutcome(c.App.Writer, out, node.Table())
	}
	if out.Verdict != nil || !out.Finished {
		return cli.Exit("", 1)
	}
	return nil
}

// saveLog copies the table's saved log to path.
func saveLog(path string, store *protocol.Store, table string) error {
	entries, err := store.LoadLog(table)
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := protocol.WriteLog(f, entries); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printOutcome(w io.Writer, o *protocol.Outcome, t *protocol.Table) {
	switch {
	case o.Verdict != nil:
		fmt.Fprintf(w, "Table %q halted: %v\n", o.Table, o.Verdict)
	case o.Finished:
		fmt.Fprintf(w, "Table %q is over (%d entries, every seat signed off).\n", o.Table, o.Entries)
	default:
		fmt.Fprintf(w, "Table %q stopped before the end (%d entries).\n", o.Table, o.Entries)
	}
	if t == nil {
		return
	}
	for seat, m := range t.Genesis().Roster {
		score := 0
		if seat < len(o.Scores) {
			score = o.Scores[seat]
		}
		me := ""
		if seat == o.Seat {
			me = "  (this node)"
		}
		fmt.Fprintf(w, "  seat %d %-16s $%s%s\n", seat, m.Name, engine.Money(score), me)
	}
	if len(o.Winners) > 0 && o.Finished {
		fmt.Fprintf(w, "Winners: %v\n", o.Winners)
	}
	if o.Digest != "" {
		fmt.Fprintf(w, "Digest: %s\n", o.Digest)
	}
}
