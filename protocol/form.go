package protocol

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Formation: before the genesis, nodes that want the same table (name, game, configuration and
// number of players) say hello; when a node has heard enough of them, the one with the lowest
// key among the lowest keys writes the genesis with them in key order, and every node it seats
// adopts it.

// former is the node's formation state.
type former struct {
	members   map[string]*hello // by identity key, before the genesis
	warned    map[string]bool   // nodes already named for wanting other settings
	genesisAt time.Time         // when the node last republished the genesis for a latecomer
}

func (f *former) init() {
	f.members = map[string]*hello{}
	f.warned = map[string]bool{}
}

// myHello is this node's hello.
func (n *Node) myHello() *hello {
	h := &hello{table: n.cfg.Table, game: n.cfg.Game, config: n.cfg.Config, players: n.cfg.Players,
		name: n.cfg.Name, key: n.self.Public()}
	h.sig = ed25519.Sign(n.cfg.Identity, h.unsigned())
	return h
}

// hello asks for a seat, until the genesis comes.
func (n *Node) hello(ctx context.Context) {
	if n.table != nil {
		return
	}
	h := n.myHello()
	n.publish(ctx, h.marshal())
	if n.cfg.Lobby != nil {
		if err := n.cfg.Lobby.Publish(ctx, h.marshal()); err != nil && ctx.Err() == nil {
			n.cfg.Logf("lobby: %v", err)
		}
	}
	n.hear(ctx, h, "")
}

// hear takes note of a node that wants a seat. When N nodes want one, the one with the lowest
// key writes the genesis: the roster is the N lowest keys, in key order.
func (n *Node) hear(ctx context.Context, h *hello, from string) {
	if h.table != n.cfg.Table {
		return
	}
	if t := n.table; t != nil {
		// A roster member that missed the genesis: send it again (once a tick at most).
		if t.g.SeatOf(h.key) >= 0 && from != "" && n.clock.Now().Sub(n.genesisAt) > n.cfg.Tick {
			n.genesisAt = n.clock.Now()
			n.publish(ctx, append([]byte{msgEntry}, t.entries[0].Marshal()...))
		}
		return
	}
	mine := n.myHello()
	if !h.sameSettings(mine) {
		if !n.warned[string(h.key)] {
			n.warned[string(h.key)] = true
			n.cfg.Notef("%q also wants table %q, but with %s: it will not sit with us", h.name, h.table, n.settingsDiff(h))
		}
		return
	}
	n.members[string(h.key)] = h
	if len(n.members) < n.cfg.Players {
		return
	}
	keys := make([]string, 0, len(n.members))
	for k := range n.members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	keys = keys[:n.cfg.Players]
	if keys[0] != string(n.self.Public()) {
		return
	}
	g := &Genesis{Name: n.cfg.Table, Game: n.cfg.Game, Config: n.cfg.Config, Timeout: n.cfg.Timeout}
	for _, k := range keys {
		m := n.members[k]
		g.Roster = append(g.Roster, Member{Name: m.name, Key: m.key})
	}
	e, err := NewGenesis(n.cfg.Rand, n.cfg.Identity, g)
	if err != nil {
		n.cfg.Logf("cannot create the table: %v", err)
		return
	}
	n.adopt(ctx, e)
}

// settingsDiff says, in words, how a hello's settings differ from this node's.
func (n *Node) settingsDiff(h *hello) string {
	var d []string
	if h.game != n.cfg.Game {
		d = append(d, fmt.Sprintf("the game %q (we play %q)", h.game, n.cfg.Game))
	}
	if h.players != n.cfg.Players {
		d = append(d, fmt.Sprintf("%d players (we want %d)", h.players, n.cfg.Players))
	}
	if h.game == n.cfg.Game && string(h.config) != string(n.cfg.Config) {
		d = append(d, fmt.Sprintf("%s (we want %s)", describeConfig(h.game, h.config), describeConfig(n.cfg.Game, n.cfg.Config)))
	}
	return strings.Join(d, " and ")
}

// describeConfig is a game's configuration in words, or its bytes for a game this build does
// not know.
func describeConfig(game string, config []byte) string {
	g := &Genesis{Game: game}
	r, err := g.Rules()
	if err != nil {
		return fmt.Sprintf("configuration %x", config)
	}
	return r.DescribeConfig(config)
}

// Heard is how many nodes (this one included) have asked for a seat at the table so far.
// Only safe once Run has returned.
func (n *Node) Heard() int { return len(n.members) }

// adopt takes a genesis that seats this node.
func (n *Node) adopt(ctx context.Context, e *Entry) {
	g, err := ParseGenesis(e.Body)
	if err != nil || g.Name != n.cfg.Table || g.SeatOf(n.self.Public()) < 0 {
		return
	}
	if len(g.Roster) != n.cfg.Players || g.Game != n.cfg.Game || string(g.Config) != string(n.cfg.Config) {
		n.cfg.Logf("ignoring a genesis for %q with other settings", g.Name)
		return
	}
	t, err := NewTable(e, n.self, n.gameOpts())
	if err != nil {
		n.cfg.Logf("ignoring a genesis: %v", err)
		return
	}
	// A table this node sat at before, whose log it no longer has: sitting again would derive
	// its old secrets anew (a replayed genesis), so it never does.
	if played, err := n.cfg.Store.Played(e.Table); err != nil || played {
		if err == nil && !n.warned["played "+string(e.Table[:])] {
			n.warned["played "+string(e.Table[:])] = true
			n.cfg.Notef("refusing table %q (id %x): this node sat at it before and no longer has its log; it never sits at one table twice", g.Name, e.Table[:8])
		}
		if err != nil {
			n.cfg.Logf("%v", err)
		}
		return
	}
	if err := n.cfg.Store.MarkPlayed(e.Table); err != nil {
		n.cfg.Logf("%v", err)
		return
	}
	if err := n.cfg.Store.Append(e, true); err != nil {
		n.cfg.Logf("%v", err)
		return
	}
	n.table = t
	n.progress = n.clock.Now()
	n.share()
	n.cfg.Logf("table %q formed: seat %d of %d", g.Name, n.self.seat, len(g.Roster))
	n.publish(ctx, append([]byte{msgEntry}, e.Marshal()...))
}
