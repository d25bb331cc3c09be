package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
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
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the bot's choices", DefaultText: "random"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object"},
		),
		Action: runBot,
	}
}

// tableFlags are the flags of every command that sits at a network table.
func tableFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "table", Usage: "the table's `NAME`: nodes with the same name sit together (required)"},
		&cli.IntFlag{Name: "players", Usage: "`N` players at the table, 3 to 7 (required)", DefaultText: "none"},
		&cli.StringFlag{Name: "variant", Value: "standard", Usage: "standard, down-the-river, free-stud or closed"},
		&cli.BoolFlag{Name: "lbb", Usage: "play with the little black book (two peeks each; not with closed)"},
	}, append(networkFlags(),
		&cli.StringFlag{Name: "out", Usage: "write the table's log to `LOG` at the end (for corruption audit and replay)"},
		&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "how long a player may stay silent on its turn before the table names it and ends"},
		&cli.BoolFlag{Name: "verbose", Usage: "log network and protocol events to stderr"},
	)...)
}

// networkFlags are the flags of every command that runs a node on the network: where it keeps
// its data, where it listens, how it finds its peers.
func networkFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "data", Usage: "the data `DIR` for identity, secrets and log (default: a temporary directory, removed at exit)"},
		&cli.StringSliceFlag{Name: "listen", Usage: "a `MULTIADDR` to listen on (default " + p2p.LANListen + ", every interface)"},
		&cli.StringSliceFlag{Name: "peer", Usage: "a peer's `MULTIADDR` (ending /p2p/ID) to dial, for networks without multicast"},
		&cli.BoolFlag{Name: "no-mdns", Usage: "do not look for peers with mDNS (use --peer)"},
	}
}

// tableSettings are the checked values of tableFlags.
type tableSettings struct {
	table   string
	players int
	variant corruption.Variant
	lbb     bool
	timeout time.Duration
}

func readTableFlags(c *cli.Context) (tableSettings, error) {
	if err := requireFlags(c, "table", "players"); err != nil {
		return tableSettings{}, err
	}
	s := tableSettings{table: c.String("table"), players: c.Int("players"), lbb: c.Bool("lbb"), timeout: c.Duration("timeout")}
	if s.table == "" || len(s.table) > maxTableBytes || strings.ContainsAny(s.table, "/\\") || s.table == "." || s.table == ".." {
		return s, usageError("--table: %q is not a table name (1 to %d characters, no slashes)", s.table, maxTableBytes)
	}
	if s.players < corruption.MinPlayers || s.players > corruption.MaxPlayers {
		return s, usageError("--players: %d, want %d to %d", s.players, corruption.MinPlayers, corruption.MaxPlayers)
	}
	v, err := corruption.ParseVariant(c.String("variant"))
	if err != nil {
		return s, usageError("--variant: %v", err)
	}
	s.variant = v
	if s.lbb && v == corruption.Closed {
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
	logf    func(string, ...any) // --verbose only
	notef   func(string, ...any) // always
	tmpData string               // the temporary data directory, removed at exit unless kept
}

// keep keeps a temporary data directory (it holds a log that could not be saved elsewhere).
func (s *session) keep() { s.tmpData = "" }

func (s *session) close() {
	for i := len(s.cleanup) - 1; i >= 0; i-- {
		s.cleanup[i]()
	}
}

func openSession(ctx context.Context, c *cli.Context, ts tableSettings) (*session, error) {
	s := &session{logf: func(string, ...any) {}}
	s.notef = func(f string, a ...any) {
		fmt.Fprintln(c.App.ErrWriter, "corruption: "+oneLine(fmt.Sprintf(f, a...)))
	}
	if c.Bool("verbose") {
		s.logf = s.notef
	}
	dir := c.String("data")
	if dir == "" {
		tmp, err := os.MkdirTemp("", "corruption-")
		if err != nil {
			return nil, cli.Exit(fmt.Sprintf("cannot make a data directory: %v", err), 1)
		}
		dir = tmp
		s.tmpData = tmp
		s.cleanup = append(s.cleanup, func() {
			if s.tmpData != "" {
				os.RemoveAll(s.tmpData)
			}
		})
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

// oneLine folds a multi-line message (libp2p's dial errors) onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func runBot(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("bot takes no arguments (got %q); see corruption bot --help", c.Args().First())
	}
	ts, err := readTableFlags(c)
	if err != nil {
		return err
	}
	if err := checkOut(c.String("out")); err != nil {
		return usageError("--out: %v", err)
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
		Player: protocol.BotPlayer(b), Net: s.net, Logf: s.logf, Notef: s.notef})
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	out, runErr := node.Run(ctx)
	return finishRun(c, s, ts, node, out, runErr)
}

// finishRun saves the log, prints the outcome and chooses the exit status of a node's run.
func finishRun(c *cli.Context, s *session, ts tableSettings, node *protocol.Node, out *protocol.Outcome, runErr error) error {
	if path := c.String("out"); path != "" && node.Table() != nil {
		if err := saveLog(path, s.store, ts.table); err != nil {
			s.keep()
			return cli.Exit(fmt.Sprintf("--out: %v (the log stays in %s)", err, s.store.LogPath(ts.table)), 1)
		}
	}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			return cli.Exit(fmt.Sprintf("interrupted: %s", stoppedWhere(node, out, ts)), 1)
		}
		return cli.Exit(fmt.Sprintf("table %q: %v", ts.table, runErr), 1)
	}
	if c.Bool("json") {
		if err := json.NewEncoder(c.App.Writer).Encode(out); err != nil {
			return err
		}
		if out.Verdict != nil {
			fmt.Fprintf(c.App.ErrWriter, "table %q halted: %v\n", ts.table, out.Verdict)
		}
	} else {
		printOutcome(c.App.Writer, out, node.Table())
	}
	if out.Verdict != nil || !out.Finished {
		return cli.Exit("", 1)
	}
	return nil
}

// stoppedWhere says where a table stood when its node was stopped.
func stoppedWhere(node *protocol.Node, out *protocol.Outcome, ts tableSettings) string {
	t := node.Table()
	if t == nil {
		return fmt.Sprintf("table %q had not formed yet (%d of %d players heard)", ts.table, node.Heard(), ts.players)
	}
	return fmt.Sprintf("table %q stopped at entry %d, waiting for %s; start again with the same --data to resume", ts.table, t.Len(), t.DueString())
}

// checkOut makes sure the --out file can be written, before the game rather than after it,
// and leaves nothing behind: no empty file, no temporary one.
func checkOut(path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
		}
	}
	// The log is written to a temporary file beside path, then renamed over it: try that.
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		if st, serr := os.Stat(dir); serr == nil && st.IsDir() && errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot create a file in %s", dir) // /proc, say
		}
		return fmt.Errorf("cannot write in %s: %v", dir, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	if err := os.Rename(name, name+"~"); err != nil {
		return fmt.Errorf("cannot write in %s: %v", filepath.Dir(path), unwrapPath(err))
	}
	os.Remove(name + "~")
	return nil
}

// unwrapPath drops the path and operation from a *PathError or *LinkError, which the caller
// already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// saveLog copies the table's log file (entries and any closing note) to path: a temporary file
// beside it, synced, then renamed over it, so that path is never left half written, and the
// temporary file is removed on any failure.
func saveLog(path string, store *protocol.Store, table string) (err error) {
	src, err := os.Open(store.LogPath(table))
	if err != nil {
		return err
	}
	defer src.Close()
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if _, err = io.Copy(f, src); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
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
		fmt.Fprintf(w, "  seat %d %-16s $%s%s\n", seat, m.Name, corruption.Money(score), me)
	}
	if len(o.Winners) > 0 && o.Finished {
		fmt.Fprintf(w, "Winners: %v\n", o.Winners)
	}
	if o.Digest != "" {
		fmt.Fprintf(w, "Digest: %s\n", o.Digest)
	}
}
