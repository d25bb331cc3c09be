package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/p2p"
	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
)

// Phones, without a browser: a native "phone" seat is a protocol.Node whose network is the
// bridge's client over a real WebSocket on 127.0.0.1, with a bot for a player, against a
// laptop's corruption (a subprocess, or a session in this process).

// phoneLine is the line a laptop prints for phones.
var phoneLine = regexp.MustCompile(`^join from a phone: (http://127\.0\.0\.1:\d+/\?t=[0-9a-z]+)$`)

// phoneTableTimeout bounds a phone's whole table.
const phoneTableTimeout = 90 * time.Second

// nativePhone is a phone's seat in this process: its storage, its key and its bridge.
type nativePhone struct {
	name   string
	client *bridge.Client
	store  *protocol.Store
	key    ed25519.PrivateKey
	dials  atomic.Int32 // the connections made
	// wrap, when set, wraps the table's network (a test that drops some of what it says).
	wrap func(protocol.Network) protocol.Network
}

func newNativePhone(t *testing.T, name, page string) *nativePhone {
	t.Helper()
	u, err := bridge.BridgeURL(page)
	if err != nil {
		t.Fatal(err)
	}
	p := &nativePhone{name: name}
	ws := bridge.DialWebSocket(u)
	p.client, err = bridge.NewClient(bridge.ClientConfig{Logf: func(f string, a ...any) { t.Logf(name+": "+f, a...) },
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
		Dial: func(ctx context.Context) (bridge.Conn, error) {
			c, err := ws(ctx)
			if err == nil {
				p.dials.Add(1)
			}
			return c, err
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.client.Close() })
	if p.store, err = protocol.OpenStore(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.store.Close() })
	if p.key, err = p.store.Identity(); err != nil {
		t.Fatal(err)
	}
	p.client.Identify(p.key)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.client.WaitConnected(ctx); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

func (p *nativePhone) pub() ed25519.PublicKey { return p.key.Public().(ed25519.PublicKey) }

// sit plays the table w to its end with a bot; onChange (when not nil) hears the table's
// changes. It returns the outcome and the audit of the phone's log.
func (p *nativePhone) sit(ctx context.Context, t *testing.T, w *tablenet.Wish, onChange func(protocol.Status)) (*protocol.Outcome, *protocol.Report, error) {
	return p.sitAt(ctx, t, w, nil, onChange)
}

// sitAt is sit, at the private table pt when it is not nil (w then comes from pt).
func (p *nativePhone) sitAt(ctx context.Context, t *testing.T, w *tablenet.Wish, pt *protocol.PrivateTable, onChange func(protocol.Status)) (*protocol.Outcome, *protocol.Report, error) {
	if pt != nil {
		w = &tablenet.Wish{Table: pt.Name(), Game: pt.Game, Config: pt.Config, Players: pt.Players}
	}
	g := games[w.Game]
	if g == nil {
		return nil, nil, fmt.Errorf("no game %q", w.Game)
	}
	player, err := botPlayer(g, uint64(len(p.name)))
	if err != nil {
		return nil, nil, err
	}
	var tn protocol.Network
	var leave func() error
	if pt != nil {
		tn, leave, err = tablenet.JoinPrivate(p.client, pt)
	} else {
		var bn *tablenet.Net
		if bn, err = tablenet.JoinTable(p.client, w.Table); err == nil {
			tn, leave = bn, bn.Leave
		}
	}
	if err != nil {
		return nil, nil, err
	}
	defer leave()
	if p.wrap != nil {
		tn = p.wrap(tn)
	}
	node, err := protocol.NewNode(protocol.NodeConfig{Table: w.Table, Game: w.Game, Config: w.Config, Players: w.Players,
		Name: p.name, Timeout: 60 * time.Second, Allowance: time.Duration(w.AllowanceMS) * time.Millisecond,
		Bank: time.Duration(w.BankMS) * time.Millisecond, Escrow: w.Escrow, Identity: p.key, Store: p.store,
		Player: player, Net: tn, OnChange: onChange, Private: pt, Logf: func(f string, a ...any) { t.Logf(p.name+": "+f, a...) }})
	if err != nil {
		return nil, nil, err
	}
	out, err := node.Run(ctx)
	if err != nil {
		return out, nil, err
	}
	f, err := os.Open(p.store.LogPath(w.Table))
	if err != nil {
		return out, nil, err
	}
	defer f.Close()
	rep, err := protocol.Audit(f, engine.Options{})
	return out, rep, err
}

// TestPhoneDemo: demo --phones gives the person's seat to the first phone that asks for it (a
// second phone is told to choose in its lobby); the phone's native seat plays the whole table
// with the demo's bots through the laptop's hub, for each game at a small table; the phone's
// log audits, and the laptop prints the outcome with the phone's seat as "(you)".
func TestPhoneDemo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game string
		bots int
	}{{"corruption", 2}, {"kingdoms", 1}, {"corruptia", 1}} {
		t.Run(tc.game, func(t *testing.T) {
			if testing.Short() && tc.game != "kingdoms" {
				t.Skip("one game in -short mode")
			}
			t.Parallel() // its own demo and phone
			ctx, cancel := context.WithTimeout(context.Background(), phoneTableTimeout)
			defer cancel()
			demo := start(ctx, t, "demo", "demo", "--phones", "--phones-addr", "127.0.0.1:0", "--game", tc.game,
				"--bots", fmt.Sprint(tc.bots), "--no-open", "--name", "laptop")
			page := demo.waitLine(t, phoneLine, 30*time.Second)[1]
			phone := newNativePhone(t, "phone", page)
			w, err := tablenet.AskSeat(ctx, phone.client, phone.pub())
			if err != nil {
				t.Fatal(err)
			}
			if w.Game != tc.game || w.Players != tc.bots+1 || w.Escrow {
				t.Fatalf("the seat given: %+v", w)
			}
			other := newNativePhone(t, "other phone", page)
			if _, err := tablenet.AskSeat(ctx, other.client, other.pub()); !errors.Is(err, tablenet.ErrNoSeat) {
				t.Errorf("a second phone asked for the seat: %v, want ErrNoSeat", err)
			}
			if again, err := tablenet.AskSeat(ctx, phone.client, phone.pub()); err != nil || again.Table != w.Table {
				t.Errorf("the same phone again (a reload): %+v, %v", again, err)
			}
			out, rep, err := phone.sit(ctx, t, w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Finished || out.Verdict != nil || !rep.Valid {
				t.Fatalf("the phone's table: finished %v, verdict %v; audit: %+v", out.Finished, out.Verdict, rep)
			}
			if code := demo.wait(t, 30*time.Second); code != 0 {
				t.Fatalf("demo --phones exited %d", code)
			}
			want := regexp.MustCompile(`phone\S* \(seat \d\).*\(you\)`)
			if s := demo.stdout.String(); !want.MatchString(s) || !regexp.MustCompile("Digest: "+out.Digest).MatchString(s) {
				t.Errorf("demo's outcome does not name the phone's seat (you) with the phone's digest %s:\n%s", out.Digest, s)
			}
		})
	}
}

// defaultConfig is a game's configuration with its flags' defaults.
func defaultConfig(t *testing.T, id string) []byte {
	t.Helper()
	g := games[id]
	var config []byte
	app := &cli.App{Name: "corruption", Flags: g.flags(""), Action: func(c *cli.Context) (err error) {
		config, err = g.settings(c)
		return err
	}}
	if err := app.Run([]string{"corruption"}); err != nil {
		t.Fatal(err)
	}
	return config
}

// TestHostRestarted: a phone creates a table with two bots of `corruption host --data DIR`;
// in mid-game the host is killed and started again with the same --data: it prints the same
// address (port and token kept), resumes its bots from their data, the phone reconnects by
// itself, and the table finishes.
func TestHostRestarted(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), phoneTableTimeout)
	defer cancel()
	data := t.TempDir()
	args := []string{"host", "--data", data, "--phones-addr", "127.0.0.1:0", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0"}
	host := start(ctx, t, "host", args...)
	page := host.waitLine(t, phoneLine, 30*time.Second)[1]
	phone := newNativePhone(t, "phone", page)
	if _, err := tablenet.AskSeat(ctx, phone.client, phone.pub()); !errors.Is(err, tablenet.ErrNoSeat) {
		t.Errorf("host gave a seat: %v, want ErrNoSeat", err)
	}
	w := &tablenet.Wish{Table: "hosted-" + tableName(t), Game: "corruption", Players: 3, Config: defaultConfig(t, "corruption"), Bots: 2, Escrow: true}
	w, err := tablenet.AskBots(ctx, phone.client, *w)
	if err != nil {
		t.Fatal(err)
	}
	if w.Escrow {
		t.Error("the host's bots escrow at a table where they hold every seat but the phone's")
	}
	if _, err := tablenet.AskBots(ctx, phone.client, *w); err == nil {
		t.Error("bots asked twice for one table")
	}
	bad := *w
	bad.Table, bad.Players = "too-many", 2
	if _, err := tablenet.AskBots(ctx, phone.client, bad); err == nil {
		t.Error("2 bots at a table of 2")
	}
	var escrow atomic.Bool
	var again *proc
	restarted := make(chan struct{})
	var once sync.Once
	out, rep, err := phone.sit(ctx, t, w, func(st protocol.Status) {
		if st.Seat >= 0 {
			escrow.Store(st.Escrow)
		}
		if st.Entries >= 30 {
			once.Do(func() {
				go func() { // not on the node's loop
					defer close(restarted)
					host.cmd.Process.Kill()
					<-host.done
					again = start(ctx, t, "host again", args...)
					if got := again.waitLine(t, phoneLine, 30*time.Second)[1]; got != page {
						t.Errorf("the restarted host's address is %s, was %s", got, page)
					}
				}()
			})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	<-restarted
	if !out.Finished || !rep.Valid {
		t.Fatalf("the phone's table: finished %v; audit %+v", out.Finished, rep)
	}
	if phone.dials.Load() < 2 {
		t.Errorf("the phone connected %d times, want again after the restart", phone.dials.Load())
	}
	if escrow.Load() {
		t.Error("a table where the host's bots hold every seat but the phone's escrows")
	}
}

// join runs the join exchange (version 2) with the creator that announces code's nameplate,
// through the laptop: the phone states its key, which the exchange binds.
func (p *nativePhone) join(ctx context.Context, code protocol.JoinCode) (*protocol.PrivateTable, error) {
	if err := p.client.Join(tablenet.JoinTopic, tablenet.CheckJoinAd); err != nil {
		return nil, err
	}
	defer p.client.Leave(tablenet.JoinTopic)
	for {
		from, data, err := p.client.Next(ctx, tablenet.JoinTopic)
		if err != nil {
			return nil, err
		}
		np, creator, err := protocol.ParseJoinAd(data)
		if err != nil || np != code.Nameplate {
			continue
		}
		return protocol.Join(ctx, nil, code, p.pub(), creator, func(ctx context.Context, req []byte) ([]byte, error) {
			return p.client.Request(ctx, from, tablenet.JoinProto, req)
		})
	}
}

// TestPhoneJoinsPrivateTable: a phone joins a private table by its code through the laptop
// (join version 2: the phone's key, stated in its request, is the one admitted, though the
// exchange arrives over the laptop's connection) and plays it to the end with the creator and
// a node that joined with --join.
func TestPhoneJoinsPrivateTable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), phoneTableTimeout)
	defer cancel()
	ps := newPlayers(t, 2)
	creator := start(ctx, t, "creator", append([]string{"bot", "--data", ps[0].data, "--private", "--players", "3", "--timeout", "30s"}, loopback...)...)
	addr := creator.waitLine(t, listenLine, 20*time.Second)[1]
	text := creator.waitLine(t, joinCodeLine, 20*time.Second)[1]
	code, err := protocol.ParseJoinCode(text)
	if err != nil {
		t.Fatal(err)
	}
	_, ph := laptopWithPhones(t, ctx, addr)
	phone := newNativePhone(t, "phone", ph.URL())
	pt, err := phone.join(ctx, code)
	if err != nil {
		t.Fatalf("the phone's join through the laptop: %v", err)
	}
	creator.waitLine(t, regexp.MustCompile(`a player joined with the join code \(2 of 3 seats taken\)`), 20*time.Second)
	friend := start(ctx, t, "friend", append([]string{"bot", "--data", ps[1].data, "--join", text, "--peer", addr, "--timeout", "30s"}, loopback...)...)
	out, rep, err := phone.sitAt(ctx, t, nil, pt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Finished || !rep.Valid || out.Table != pt.Name() {
		t.Fatalf("the phone's private table: %+v; audit %+v", out, rep)
	}
	for _, p := range []*proc{creator, friend} {
		if code := p.wait(t, 30*time.Second); code != 0 {
			t.Errorf("%s exited %d", p.name, code)
		}
	}
}

// laptopWithPhones is a laptop's session dialing peers, with its phones' listener on loopback;
// both close when the test ends.
func laptopWithPhones(t *testing.T, ctx context.Context, peers ...string) (*session, *phones) {
	t.Helper()
	s, err := openSession(ctx, sessionConfig{listen: []string{p2p.DefaultListen}, peers: peers,
		logf: func(f string, a ...any) { t.Logf("laptop: "+f, a...) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.close)
	ph, err := s.openPhones(phonesOptions{addr: "127.0.0.1:0", label: "laptop"})
	if err != nil {
		t.Fatal(err)
	}
	return s, ph
}
