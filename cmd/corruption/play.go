package main

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"corruption/engine"
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
	dial    func(addr string) error // the node dials a player's address (the page's lobby)
	addrs   bool                    // print the node's addresses, for the other players' --peer
	private *privateWish            // --private or --join (private.go)
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

// rematchOut is where --out LOG saves the log of the person's nth table (a rematch): LOG with
// the number before its extension (game.log, game-2.log, game-3.log).
func rematchOut(out string, n int) string {
	if out == "" {
		return ""
	}
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + "-" + strconv.Itoa(n) + ext
}
