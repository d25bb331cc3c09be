package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/p2p"
	"corruption/protocol"
	"corruption/ui"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:      "demo",
		Usage:     "play against bots of this machine, in your browser (or --text in this terminal)",
		ArgsUsage: " ",
		Description: "Seats you at a new table with --bots heuristic bots (3 by default), all on this\n" +
			"machine over 127.0.0.1: real nodes, real cryptography, no network needed. It prints the\n" +
			"page's address and opens your browser where there is one; --text plays in this\n" +
			"terminal instead (type moves such as: 4000 airport, 8000 swiss:city, peek 5,\n" +
			"assign monument, kill 7, remove 12, pass, faceup 1 3).\n\n" +
			"Examples:\n" +
			"  corruption demo\n" +
			"  corruption demo --bots 5 --variant free-stud --lbb\n" +
			"  corruption demo --text",
		Flags: append(playFlags(),
			&cli.IntFlag{Name: "bots", Value: 3, Usage: "`K` bots: the table has K+1 players (2 to 6)"},
			&cli.StringFlag{Name: "variant", Value: "standard", Usage: "standard, down-the-river, free-stud or closed"},
			&cli.BoolFlag{Name: "lbb", Usage: "play with the little black book (two peeks each; not with closed)"},
			&cli.BoolFlag{Name: "text", Usage: "play in this terminal rather than in a browser"},
		),
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
	pc.bots = c.Int("bots")
	if pc.bots < corruption.MinPlayers-1 || pc.bots > corruption.MaxPlayers-1 {
		return usageError("--bots: %d, want %d to %d", pc.bots, corruption.MinPlayers-1, corruption.MaxPlayers-1)
	}
	v, err := corruption.ParseVariant(c.String("variant"))
	if err != nil {
		return usageError("--variant: %v", err)
	}
	var nonce [4]byte
	rand.Read(nonce[:])
	pc.choice = ui.TableChoice{Table: fmt.Sprintf("demo-%x", nonce), Players: pc.bots + 1, Variant: v, LBB: c.Bool("lbb")}
	if err := ui.CheckTable(pc.choice, pc.bots); err != nil {
		return usageError("%v", err)
	}
	pc.text = c.Bool("text")
	pc.listen, pc.mdns = []string{p2p.DefaultListen}, false
	return playTable(c, pc)
}

// localBots are heuristic bot nodes in this process, each with its own p2p host on 127.0.0.1
// (no mDNS) peered to the person's node, and its own temporary data directory.
type localBots struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	nodes  []*p2p.Node
	dirs   []string
	once   sync.Once
}

// startLocalBots seats k bots at the table c, dialing the person's node on loopback.
func startLocalBots(ctx context.Context, person *p2p.Node, c ui.TableChoice, k int, timeout time.Duration, logf func(string, ...any)) (*localBots, error) {
	peer, err := loopbackAddr(person)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	b := &localBots{cancel: cancel}
	for i := 1; i <= k; i++ {
		if err := b.start(ctx, i, peer, c, timeout, logf); err != nil {
			b.stop()
			return nil, fmt.Errorf("bot %d: %w", i, err)
		}
	}
	return b, nil
}

func (b *localBots) start(ctx context.Context, i int, peer string, c ui.TableChoice, timeout time.Duration, logf func(string, ...any)) error {
	dir, err := os.MkdirTemp("", "corruption-bot-")
	if err != nil {
		return err
	}
	b.dirs = append(b.dirs, dir)
	store, err := protocol.OpenStore(dir)
	if err != nil {
		return err
	}
	key, err := store.Identity()
	if err != nil {
		return err
	}
	nd, err := p2p.New(ctx, p2p.Config{Identity: key, Listen: []string{p2p.DefaultListen}, Peers: []string{peer}})
	if err != nil {
		return err
	}
	b.nodes = append(b.nodes, nd)
	tn, err := joinTable(nd, c.Table)
	if err != nil {
		return err
	}
	var seed [8]byte
	rand.Read(seed[:])
	player, _ := bot.New("heuristic", binary.LittleEndian.Uint64(seed[:]))
	name := fmt.Sprintf("bot %d", i)
	node, err := protocol.NewNode(protocol.NodeConfig{Table: c.Table, Players: c.Players, Variant: c.Variant, LBB: c.LBB,
		Name: name, Timeout: timeout, Identity: key, Store: store, Player: protocol.BotPlayer(player), Net: tn,
		Logf: func(f string, a ...any) { logf(name+": "+f, a...) }})
	if err != nil {
		return err
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		if _, err := node.Run(ctx); err != nil && ctx.Err() == nil {
			logf("%s: %v", name, err)
		}
	}()
	return nil
}

// wait gives the bots up to d (or until ctx ends) to finish their table.
func (b *localBots) wait(ctx context.Context, d time.Duration) {
	done := make(chan struct{})
	go func() {
		b.wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// stop ends the bots and removes everything they made.
func (b *localBots) stop() {
	b.once.Do(func() {
		b.cancel()
		b.wg.Wait()
		for _, nd := range b.nodes {
			nd.Close()
		}
		for _, d := range b.dirs {
			os.RemoveAll(d)
		}
	})
}
