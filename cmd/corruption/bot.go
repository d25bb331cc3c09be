package main

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/protocol"
	"corruption/ui"
)

func botCommand() *cli.Command {
	return &cli.Command{
		Name:      "bot",
		Usage:     "seat a computer player at a network table and play it to the end",
		ArgsUsage: " ",
		Description: "Starts a node that plays with the game's heuristic bot (--level easy, normal or hard\n" +
			"chooses another: hard searches, --think sets its budget in playouts). Start N\n" +
			"of them with the same --table and --players (and the same --game and settings, for\n" +
			"Corruption --variant and --lbb): they find each other on the LAN (mDNS) or through\n" +
			"--peer, form one table, shuffle together, play the game, write the log and print the\n" +
			"outcome. Each prints its listen addresses at start, for others' --peer.\n\n" +
			"With --data, the node keeps its identity, secrets and log there: stopped or killed,\n" +
			"it resumes from where it was when started again with the same --data and --table.\n\n" +
			"Examples (three terminals, one machine):\n" +
			"  corruption bot --table t1 --players 3 --listen /ip4/127.0.0.1/tcp/4001 --no-mdns\n" +
			"  corruption bot --table t1 --players 3 --listen /ip4/127.0.0.1/tcp/0 --no-mdns --peer /ip4/127.0.0.1/tcp/4001/p2p/ID\n" +
			"  (and a third like the second)",
		Flags: append(append(append(tableFlags(), privateFlags()...),
			&cli.StringFlag{Name: "name", Usage: "the player's `NAME` at the table (default: bot and the first letters of its key)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the bot's choices", DefaultText: "random"},
			&cli.BoolFlag{Name: "json", Usage: "print the outcome as one JSON object"},
			&cli.StringFlag{Name: "level", Value: "normal", Usage: "the bot's `LEVEL`: easy, normal or hard (hard searches: about a quarter of a second a move)"},
			&cli.IntFlag{Name: "think", Usage: "a hard bot's budget: `N` playouts a decision", DefaultText: "the game's default"},
			&cli.IntFlag{Name: "pause-at", Usage: "ask the table to pause once its log holds `N` entries (the bots agree; start again with the same --data to resume)"},
		), adversaryFlags...),
		Action: runBot,
	}
}

// The adversary build (go build -tags adversary, adversary.go) adds its flags to bot, and reads
// them into a tamper for the bot's node (protocol/cheat); the default build has neither.
var (
	adversaryFlags []cli.Flag
	// adversary reads the adversary build's flags: done (bot --cheat list, printed) or the
	// node's tamper for the identity key (nil: honest).
	adversary = func(*cli.Context) (done bool, tamper func(ed25519.PrivateKey) func(*protocol.Entry) (*protocol.Entry, []*protocol.Entry), err error) {
		return false, nil, nil
	}
)

// tableFlags are the flags of every command that sits at a network table given on the command
// line.
func tableFlags() []cli.Flag {
	flags := []cli.Flag{
		gameFlag(),
		&cli.StringFlag{Name: "table", Usage: "the table's `NAME`: nodes with the same name sit together (required)"},
		&cli.IntFlag{Name: "players", Usage: "`N` players at the table, 3 to 7 for Corruption (required)", DefaultText: "none"},
	}
	flags = append(flags, settingsFlags("")...)
	flags = append(append(flags, networkFlags()...), clockFlags(botClock)...)
	return append(flags,
		&cli.StringFlag{Name: "out", Usage: "write the table's log to `LOG` at the end (for corruption audit and replay)"},
		&cli.BoolFlag{Name: "verbose", Usage: "log network and protocol events to stderr"},
	)
}

// networkFlags are the flags of every command that runs a node on the network: where it keeps
// its data, where it listens, how it finds its peers.
func networkFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "data", Usage: "the data `DIR` for identity, secrets and log (default: a temporary directory, removed at exit)"},
		&cli.StringSliceFlag{Name: "listen", Usage: "a `MULTIADDR` to listen on (default " + p2p.LANListen + ", every interface; none: nowhere, reachable only through --relay)"},
		&cli.StringSliceFlag{Name: "peer", Usage: "a peer's `MULTIADDR` (ending /p2p/ID) to dial, for networks without multicast"},
		&cli.BoolFlag{Name: "no-mdns", Usage: "do not look for peers with mDNS (use --peer)"},
		&cli.StringSliceFlag{Name: "relay", Usage: "a relay's `MULTIADDR` (what corruption relay prints): meet the other players there and reach them through it, from behind a NAT"},
	}
}

// readNetworkFlags reads networkFlags (and --verbose) into a session's configuration.
func readNetworkFlags(c *cli.Context) sessionConfig {
	cfg := sessionConfig{data: c.String("data"), listen: c.StringSlice("listen"), peers: c.StringSlice("peer"),
		relays: c.StringSlice("relay"), mdns: !c.Bool("no-mdns"), errw: c.App.ErrWriter}
	if c.Bool("verbose") {
		cfg.logf = func(f string, a ...any) { fmt.Fprintln(c.App.ErrWriter, "corruption: "+oneLine(fmt.Sprintf(f, a...))) }
	}
	return cfg
}

// checkTableName checks a table's name as every node does.
func checkTableName(name string) error {
	if err := protocol.CheckTableName(name); err != nil {
		return usageError("--table: %v", err)
	}
	return nil
}

// checkPlayerName checks a player's --name as every node does: at most protocol.MaxNameSize
// bytes of UTF-8, and no control, format or bidi character (the error names it: U+001B).
func checkPlayerName(name string) error {
	if err := protocol.CheckName(name); err != nil {
		return usageError("--name: %v", err)
	}
	return nil
}

// readTableFlags reads the table that tableFlags give, and its game.
func readTableFlags(c *cli.Context) (ui.TableChoice, *game, error) {
	g, rules, err := gameOf(c)
	if err != nil {
		return ui.TableChoice{}, nil, err
	}
	if err := requireFlags(c, "table", "players"); err != nil {
		return ui.TableChoice{}, nil, err
	}
	choice := ui.TableChoice{Table: c.String("table"), Game: g.ID, Players: c.Int("players")}
	if err := checkTableName(choice.Table); err != nil {
		return choice, nil, err
	}
	if choice.Config, err = readSettings(c, g, rules, choice.Players); err != nil {
		return choice, nil, err
	}
	if _, err := readClock(c); err != nil {
		return choice, nil, err
	}
	if err := checkOut(c.String("out")); err != nil {
		return choice, nil, usageError("--out: %v", err)
	}
	return choice, g, nil
}

func runBot(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError("bot takes no arguments (got %q); see corruption bot --help", c.Args().First())
	}
	done, tamper, err := adversary(c)
	if done || err != nil {
		return err
	}
	wish, err := readPrivateFlags(c)
	if err != nil {
		return err
	}
	level, err := readBotChoice(c)
	if err != nil {
		return err
	}
	var choice ui.TableChoice
	var g *game
	switch {
	case wish == nil:
		choice, g, err = readTableFlags(c)
	case wish.create:
		choice, g, err = readPrivateTable(c)
	}
	if err != nil {
		return err
	}
	clock, err := readClock(c)
	if err != nil {
		return err
	}
	if err := checkOut(c.String("out")); err != nil {
		return usageError("--out: %v", err)
	}
	if err := checkPlayerName(c.String("name")); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := openSession(ctx, wish.relays(readNetworkFlags(c)))
	if err != nil {
		return err
	}
	defer s.close()
	var private *protocol.PrivateTable
	if wish != nil {
		if choice, private, err = s.openPrivate(ctx, wish, choice, clock.wait); err != nil {
			return err
		}
		g = games[choice.Game]
	}
	name := c.String("name")
	if name == "" {
		name = fmt.Sprintf("bot-%x", s.key.Public().(ed25519.PublicKey)[:3])
	}
	seed := c.Uint64("seed")
	if !c.IsSet("seed") {
		seed = uint64(time.Now().UnixNano())
	}
	player, err := levelPlayer(g, level, seed)
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	slot := &ui.NodeSlot{} // a bot agrees to every pause, and asks for one with --pause-at
	st := seat{choice: choice, name: name, clock: clock, player: player, private: private,
		slot: slot, agreePause: true, onChange: pauseAt(c.Int("pause-at"), slot.Node, nil)}
	if tamper != nil {
		st.tamper = tamper(s.key)
	}
	r, err := s.play(ctx, st)
	if err != nil {
		return err
	}
	return s.finish(r, report{out: c.String("out"), json: c.Bool("json"), stdout: c.App.Writer, game: g})
}
