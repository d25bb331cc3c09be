package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine/corruption"
	"corruption/p2p"
	"corruption/protocol"
	"corruption/ui"
)

// humanTimeout is how long a seat may stay silent at a table with a person (people think).
const humanTimeout = 2 * time.Minute

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
			"page shows the results and the audit of the log until you leave it (or press Ctrl-C).\n\n" +
			"Examples:\n" +
			"  corruption play --name ann                       # the lobby, on the LAN\n" +
			"  corruption play --name ann --table friday --players 4\n" +
			"  corruption play --name ann --table t1 --bots 2   # you and two bots\n" +
			"  corruption demo                                  # you against 3 bots, nothing else to set up",
		Flags: append(append(playFlags(), networkFlags()...),
			&cli.StringFlag{Name: "table", Usage: "sit at the table `NAME` at once (default: choose in the lobby)"},
			&cli.IntFlag{Name: "players", Usage: "`N` players at --table, 3 to 7", DefaultText: "--bots + 1, at least 3"},
			&cli.StringFlag{Name: "variant", Value: "standard", Usage: "with --table: standard, down-the-river, free-stud or closed"},
			&cli.BoolFlag{Name: "lbb", Usage: "with --table: play with the little black book (two peeks each)"},
			&cli.IntFlag{Name: "bots", Usage: "seat `K` heuristic bots of this machine at your table"},
		),
		Action: runPlay,
	}
}

// playFlags are the flags play and demo share.
func playFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "name", Usage: "your `NAME` at the table (default: your user name)"},
		&cli.StringFlag{Name: "ui", Value: "127.0.0.1:0", Usage: "the `HOST:PORT` to serve the page on (port 0: any free port)"},
		&cli.BoolFlag{Name: "no-open", Usage: "do not open a browser; just print the page's address"},
		&cli.DurationFlag{Name: "timeout", Value: humanTimeout, Usage: "how long a player may stay silent on its turn before the table names it and ends"},
		&cli.StringFlag{Name: "out", Usage: "write the table's log to `LOG` at the end (for corruption audit and replay)"},
		&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object at the end"},
		&cli.BoolFlag{Name: "verbose", Usage: "log network and protocol events to stderr"},
	}
}

// playConfig is everything play and demo need to seat a person at a table.
type playConfig struct {
	name    string
	choice  ui.TableChoice // the table; Table "" sends the person to the lobby
	bots    int
	uiAddr  string
	open    bool
	text    bool // a terminal instead of a page
	data    string
	out     string
	listen  []string
	peers   []string
	mdns    bool
	timeout time.Duration
	json    bool
	verbose bool
}

func runPlay(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("play takes no arguments (got %q); see corruption play --help", c.Args().First())
	}
	pc, err := readPlayFlags(c)
	if err != nil {
		return err
	}
	pc.data, pc.listen, pc.peers, pc.mdns = c.String("data"), c.StringSlice("listen"), c.StringSlice("peer"), !c.Bool("no-mdns")
	if len(pc.listen) == 0 {
		pc.listen = []string{p2p.LANListen}
	}
	pc.bots = c.Int("bots")
	if pc.bots < 0 || pc.bots > corruption.MaxPlayers-1 {
		return usageError("--bots: %d, want 0 to %d", pc.bots, corruption.MaxPlayers-1)
	}
	v, err := corruption.ParseVariant(c.String("variant"))
	if err != nil {
		return usageError("--variant: %v", err)
	}
	players := c.Int("players")
	if !c.IsSet("players") {
		players = max(pc.bots+1, corruption.MinPlayers)
		if pc.bots == 0 {
			players = 4
		}
	}
	pc.choice = ui.TableChoice{Table: c.String("table"), Players: players, Variant: v, LBB: c.Bool("lbb")}
	if pc.choice.Table != "" {
		if pc.bots == 0 && !c.IsSet("players") {
			return usageError("--players: say how many players sit at table %q (%d to %d), or seat --bots", pc.choice.Table, corruption.MinPlayers, corruption.MaxPlayers)
		}
		if err := ui.CheckTable(pc.choice, pc.bots); err != nil {
			return usageError("table %q: %v", pc.choice.Table, err)
		}
	} else if c.IsSet("players") || c.IsSet("variant") || c.IsSet("lbb") {
		if err := ui.CheckTable(ui.TableChoice{Table: "lobby", Players: players, Variant: v, LBB: pc.choice.LBB}, pc.bots); err != nil {
			return usageError("%v", err)
		}
	}
	return playTable(c, pc)
}

// readPlayFlags reads the flags play and demo share.
func readPlayFlags(c *cli.Context) (playConfig, error) {
	pc := playConfig{name: c.String("name"), uiAddr: c.String("ui"), open: !c.Bool("no-open"), out: c.String("out"),
		timeout: c.Duration("timeout"), json: c.Bool("json"), verbose: c.Bool("verbose")}
	if pc.name == "" {
		pc.name = os.Getenv("USER")
		if pc.name == "" {
			pc.name = "player"
		}
	}
	if len(pc.name) > protocol.MaxNameSize {
		return pc, usageError("--name: %q is longer than %d bytes", pc.name, protocol.MaxNameSize)
	}
	if _, _, err := net.SplitHostPort(pc.uiAddr); err != nil {
		return pc, usageError("--ui: %q is not HOST:PORT (e.g. 127.0.0.1:8080): %v", pc.uiAddr, err)
	}
	if pc.timeout < time.Second {
		return pc, usageError("--timeout: %v is too short (at least 1s)", pc.timeout)
	}
	if err := checkOut(pc.out); err != nil {
		return pc, usageError("--out: %v", err)
	}
	return pc, nil
}

// frontEnd is the person's side of a table: a page or a terminal.
type frontEnd interface {
	protocol.Player
	Update(protocol.Status)
	Event(corruption.Event)
	Finish(ui.Result)
}

// webFront is the page: the Server fed by the node, and the Human it asks.
type webFront struct {
	*ui.Server
	human *ui.Human
}

func (w webFront) Decide(ctx context.Context, v corruption.View) (corruption.Move, error) {
	return w.human.Decide(ctx, v)
}

// playTable runs a person's node to the end of a table, with its front end and local bots.
func playTable(c *cli.Context, pc playConfig) error {
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errw := c.App.ErrWriter
	logf := func(string, ...any) {}
	if pc.verbose {
		logf = func(f string, a ...any) { fmt.Fprintf(errw, "corruption: "+f+"\n", a...) }
	}
	var cleanup []func()
	defer func() {
		for i := len(cleanup) - 1; i >= 0; i-- {
			cleanup[i]()
		}
	}()
	dir := pc.data
	if dir == "" {
		tmp, err := os.MkdirTemp("", "corruption-")
		if err != nil {
			return cli.Exit(fmt.Sprintf("cannot make a data directory: %v", err), 1)
		}
		dir = tmp
		cleanup = append(cleanup, func() { os.RemoveAll(tmp) })
	}
	store, err := protocol.OpenStore(dir)
	if err != nil {
		return cli.Exit(fmt.Sprintf("--data: %v", err), 1)
	}
	key, err := store.Identity()
	if err != nil {
		return cli.Exit(fmt.Sprintf("--data: %v", err), 1)
	}
	node, err := p2p.New(ctx, p2p.Config{Identity: key, Listen: pc.listen, Peers: pc.peers, MDNS: pc.mdns,
		ServiceTag: serviceTag, Logf: logf})
	if err != nil {
		return cli.Exit(err.Error(), 2)
	}
	cleanup = append(cleanup, func() { node.Close() })
	for _, a := range node.Addrs() {
		fmt.Fprintf(errw, "listening on %s\n", a)
	}
	lobby, err := joinLobby(node)
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}

	// The front end.
	var front frontEnd
	var srv *ui.Server
	var pageURL string
	if pc.text {
		term := ui.NewTerminal(c.App.Reader, c.App.Writer)
		cleanup = append(cleanup, term.Close)
		front = term
	} else {
		human := ui.NewHuman(nil)
		srv = ui.NewServer(ui.Config{Name: pc.name, Human: human, Bots: pc.bots, Defaults: pc.choice})
		ln, err := net.Listen("tcp", pc.uiAddr)
		if err != nil {
			return cli.Exit(fmt.Sprintf("--ui: %v", err), 1)
		}
		hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		cleanup = append(cleanup, func() {
			srv.Close()
			sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			hs.Shutdown(sctx)
		})
		addr := ln.Addr().(*net.TCPAddr)
		if !addr.IP.IsLoopback() {
			fmt.Fprintf(errw, "warning: --ui %s serves the page beyond this machine; its address carries the only key to your hand\n", pc.uiAddr)
		}
		if addr.IP.IsUnspecified() {
			addr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: addr.Port} // open it here through loopback
		}
		pageURL = srv.URL(addr.String())
		fmt.Fprintf(errw, "open %s\n", pageURL)
		if pc.open {
			openBrowser(pageURL, errw)
		}
		front = webFront{srv, human}
	}

	// The table: given, or chosen in the lobby.
	choice := pc.choice
	if choice.Table != "" {
		if srv != nil {
			srv.SetTable(choice)
		}
	} else {
		if srv == nil {
			return usageError("a terminal front end needs a --table")
		}
		lctx, lcancel := context.WithCancel(ctx)
		go srv.ReadLobby(lctx, key.Public().(ed25519.PublicKey), lobby.next)
		select {
		case choice = <-srv.Choices():
			lcancel()
		case <-ctx.Done():
			lcancel()
			return cli.Exit("stopped in the lobby", 1)
		}
	}
	fmt.Fprintf(errw, "sitting at table %s\n", choice)
	tn, err := joinTable(node, choice.Table)
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	var bots *localBots
	if pc.bots > 0 {
		bots, err = startLocalBots(ctx, node, choice, pc.bots, pc.timeout, logf)
		if err != nil {
			return cli.Exit(err.Error(), 1)
		}
		cleanup = append(cleanup, bots.stop)
	}
	pn, err := protocol.NewNode(protocol.NodeConfig{Table: choice.Table, Players: choice.Players, Variant: choice.Variant,
		LBB: choice.LBB, Name: pc.name, Timeout: pc.timeout, Identity: key, Store: store, Player: front, Net: tn,
		Logf: logf, OnEvent: front.Event, OnChange: front.Update, Lobby: lobby})
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	out, runErr := pn.Run(ctx)
	res := ui.Result{Outcome: out, Err: runErr}
	if pn.Table() != nil {
		res.Audit, err = auditTable(store, choice.Table)
		if err != nil {
			fmt.Fprintf(errw, "cannot audit the log: %v\n", err)
		}
	}
	front.Finish(res)
	if path := pc.out; path != "" && pn.Table() != nil {
		if err := saveLog(path, store, choice.Table); err != nil {
			return cli.Exit(fmt.Sprintf("--out: %v", err), 1)
		}
	}
	if pc.json {
		if err := json.NewEncoder(c.App.Writer).Encode(out); err != nil {
			return err
		}
	} else {
		printOutcome(c.App.Writer, out, pn.Table())
	}
	if bots != nil {
		bots.wait(ctx, 10*time.Second)
	}
	if srv != nil && ctx.Err() == nil {
		fmt.Fprintf(errw, "the page stays at %s until you leave it there (or press Ctrl-C)\n", pageURL)
		select {
		case <-srv.Quit():
		case <-ctx.Done():
		}
	}
	if runErr != nil {
		return cli.Exit(fmt.Sprintf("table %q: %v", choice.Table, runErr), 1)
	}
	if out.Verdict != nil || !out.Finished {
		return cli.Exit("", 1)
	}
	return nil
}

// auditTable checks the node's saved log as corruption audit would.
func auditTable(store *protocol.Store, table string) (*protocol.Report, error) {
	entries, err := store.LoadLog(table)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := protocol.WriteLog(&buf, entries); err != nil {
		return nil, err
	}
	return protocol.Audit(&buf)
}

// openBrowser opens url in the desktop's browser, where there is one. It never fails: with no
// desktop, or no opener, the person opens the printed address.
func openBrowser(url string, errw io.Writer) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return // no desktop: xdg-open would start a text browser in this terminal
		}
		path, err := exec.LookPath("xdg-open")
		if err != nil {
			return
		}
		cmd = exec.Command(path, url)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(errw, "cannot open a browser (%v): open the address yourself\n", err)
		return
	}
	go cmd.Wait()
}

// lobbyTopic is where nodes that wait for their table announce it, for browsers on the LAN.
const lobbyTopic = "corruption/1/lobby"

// lobbyNet is the lobby topic of a p2p node, as the protocol.Network a node announces on.
type lobbyNet struct{ node *p2p.Node }

func joinLobby(node *p2p.Node) (*lobbyNet, error) {
	err := node.Join(lobbyTopic, func(from string, data []byte) p2p.Verdict {
		a, err := protocol.ParseAnnouncement(data)
		if err != nil {
			return p2p.Reject
		}
		// Only a node announces itself: a hello relayed under another author is dropped.
		if k, err := p2p.PeerKey(from); err != nil || !bytes.Equal(k, a.Key) {
			return p2p.Ignore
		}
		return p2p.Accept
	})
	if err != nil {
		return nil, err
	}
	return &lobbyNet{node}, nil
}

func (l *lobbyNet) next(ctx context.Context) ([]byte, error) {
	_, data, err := l.node.Next(ctx, lobbyTopic)
	return data, err
}

func (l *lobbyNet) Publish(ctx context.Context, data []byte) error {
	return l.node.Publish(ctx, lobbyTopic, data)
}

func (l *lobbyNet) Next(ctx context.Context) (string, []byte, error) {
	return l.node.Next(ctx, lobbyTopic)
}

func (l *lobbyNet) Request(context.Context, string, []byte) ([]byte, error) {
	return nil, errors.New("the lobby takes no requests")
}

func (l *lobbyNet) Serve(func(string, []byte) ([]byte, error)) {}

func (l *lobbyNet) Peers() []string { return l.node.TopicPeers(lobbyTopic) }

var _ protocol.Network = (*lobbyNet)(nil)

// loopbackAddr is one of the node's addresses on 127.0.0.1, for local bots to dial.
func loopbackAddr(node *p2p.Node) (string, error) {
	for _, a := range node.Addrs() {
		if strings.HasPrefix(a, "/ip4/127.0.0.1/") {
			return a, nil
		}
	}
	return "", fmt.Errorf("--bots: the node listens on no 127.0.0.1 address for its bots to reach (listening on %s)", strings.Join(node.Addrs(), ", "))
}
