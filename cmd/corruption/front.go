package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/protocol"
	"corruption/ui"
)

// A person is the human side of a table, in the browser (page) or in the terminal (terminal):
// the node's player, told the table's changes and the game's events, and at the end how it
// went.
type person interface {
	engine.Player
	Update(protocol.Status)
	Event(engine.Event)
	Finish(ui.Result)
	Chat(protocol.ChatMessage) // a message of the table's chat
	// choose is the table to sit at: given (--table), or chosen in the lobby.
	choose(ctx context.Context, s *session, given ui.TableChoice) (ui.TableChoice, error)
	// watch shows how the session's node finds others (the page's lobby), until it closes.
	watch(s *session, mdns bool)
	// left is closed when the person quits the program (the page's Quit).
	left() <-chan struct{}
	// leaves delivers the person's asks to leave the table (the page's Leave: back to the
	// lobby).
	leaves() <-chan struct{}
	// stay keeps the results in sight until the person chooses what next: a rematch (the next
	// table), the lobby, or to quit (also when ctx ends).
	stay(ctx context.Context) (next ui.TableChoice, act stayAct)
	// toLobby puts the person back in the lobby.
	toLobby()
	// seat shows the person the next table (a rematch) before it forms.
	seat(c ui.TableChoice)
	// showPrivate shows the private table the node created (--private): its join codes and
	// the failed attempts to join it, as they come, until ctx ends.
	showPrivate(ctx context.Context, h *hostedPrivate)
	// showPhones shows the address phones open (--phones), with its QR code.
	showPhones(ph *phones)
	close()
}

// openPerson opens the page, or with --text the terminal, which speaks the language of the
// locale (LANG).
func openPerson(c *cli.Context, pc playConfig) (person, error) {
	if pc.text {
		t := ui.NewTerminal(pc.game.text, c.App.Reader, c.App.Writer)
		t.SetLang(ui.LangFromEnv(os.Getenv))
		t.SetChat(pc.chat.say) // the table's chat, game-free (protocol/chat.go)
		t.SetPause(pc.pause.answer)
		return terminal{t}, nil
	}
	return openPage(pc, c.App.ErrWriter)
}

// terminal is the person at this terminal.
type terminal struct{ *ui.Terminal }

func (t terminal) choose(_ context.Context, _ *session, given ui.TableChoice) (ui.TableChoice, error) {
	if given.Table == "" {
		return given, usageError("a terminal front end needs a --table")
	}
	return given, nil
}

func (t terminal) watch(*session, bool)                           {}
func (t terminal) left() <-chan struct{}                          { return nil }
func (t terminal) leaves() <-chan struct{}                        { return nil }
func (t terminal) stay(context.Context) (ui.TableChoice, stayAct) { return ui.TableChoice{}, actQuit }
func (t terminal) toLobby()                                       {}
func (t terminal) seat(ui.TableChoice)                            {}
func (t terminal) showPrivate(context.Context, *hostedPrivate)    {}
func (t terminal) showPhones(*phones)                             {}
func (t terminal) close()                                         { t.Close() }

// page is the person in the browser: the shell's server with every game's board (the lobby
// offers each, --game's first), served on --ui, and the Human it asks.
type page struct {
	*ui.Server
	human    *ui.Human
	url      string
	errw     io.Writer
	shutdown func()
	done     chan struct{} // closed at close
}

// openPage serves the page on pc.uiAddr and prints (and opens, where it can) its address.
func openPage(pc playConfig, errw io.Writer) (*page, error) {
	human := ui.NewHuman(nil)
	var boards []ui.Board
	for _, id := range playable() {
		boards = append(boards, games[id].board)
	}
	cfg := ui.Config{Name: pc.name, Board: pc.game.board, Boards: boards, Human: human, Bots: pc.bots, Defaults: pc.choice, Say: pc.chat.say,
		Pause: pc.pause.answer, Dial: pc.dial, Rematch: pc.private == nil, // no rematch of a private table yet
		Escrow: pc.clock.escrow, // the page tells the promise of the tables this node creates
		Levels: levelNames(), Level: pc.level.name(), CheckSit: pc.checkSit, RenewPhones: pc.renewPhones, Quit: true}
	if pc.join != nil {
		cfg.JoinPrivate = pc.join.join // the lobby's field to join a private table by its code
		cfg.JoinLimit = min(pc.join.wait, ui.DefaultJoinLimit)
	}
	srv, err := ui.NewServer(cfg)
	if err != nil {
		return nil, cli.Exit(err.Error(), 1)
	}
	ln, err := net.Listen("tcp", pc.uiAddr)
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("--ui: %v", err), 1)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	done := make(chan struct{})
	p := &page{Server: srv, human: human, errw: errw, done: done, shutdown: func() {
		close(done)
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
	}}
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(errw, "warning: --ui %s serves the page beyond this machine; its address carries the only key to your hand\n", pc.uiAddr)
	}
	if addr.IP.IsUnspecified() {
		addr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: addr.Port} // open it here through loopback
	}
	p.url = srv.URL(addr.String())
	fmt.Fprintf(errw, "open %s\n", p.url)
	if pc.open {
		openBrowser(p.url, errw)
	}
	return p, nil
}

func (p *page) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	return p.human.Decide(ctx, g, seat)
}

// choose seats the person at the given table, or waits for the table the person creates or
// joins in the page's lobby.
func (p *page) choose(ctx context.Context, s *session, given ui.TableChoice) (ui.TableChoice, error) {
	if given.Table != "" {
		p.SetTable(given)
		return given, nil
	}
	lobby, err := s.joinLobby()
	if err != nil {
		return given, err
	}
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go p.ReadLobby(lctx, s.key.Public().(ed25519.PublicKey), lobby.NextData)
	select {
	case c := <-p.Choices():
		return c, nil
	case <-ctx.Done():
		return given, cli.Exit("stopped in the lobby", 1)
	}
}

// watch shows the page how the node finds others: by mDNS or not, its addresses, how many
// peers it is connected to and how it reaches each (direct or relayed, what --verbose logs),
// as that changes. A relayed connection may turn direct (hole punching) with no peer coming
// or going: the kinds are read again every connKindEvery.
func (p *page) watch(s *session, mdns bool) {
	addrs := s.host.Addrs()
	var mu sync.Mutex
	peers := map[string]bool{}
	var last []ui.PeerConn
	show := func(force bool) { // with mu held
		conns := make([]ui.PeerConn, 0, len(peers))
		for id := range peers {
			if kind := s.host.Relayed(id); kind != "" {
				conns = append(conns, ui.PeerConn{ID: id, Kind: kind})
			}
		}
		sort.Slice(conns, func(i, j int) bool { return conns[i].ID < conns[j].ID })
		if !force && slices.Equal(conns, last) {
			return
		}
		last = conns
		p.SetNetwork(ui.Network{MDNS: mdns, Peers: len(peers), Addrs: addrs, Conns: conns})
	}
	p.SetNetwork(ui.Network{MDNS: mdns, Addrs: addrs})
	s.host.OnPeer(func(peer string, up bool) { // one at a time, on the host's goroutine
		mu.Lock()
		defer mu.Unlock()
		if up {
			peers[peer] = true
		} else {
			delete(peers, peer)
		}
		show(true)
	})
	go func() {
		t := time.NewTicker(connKindEvery)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
				mu.Lock()
				show(false)
				mu.Unlock()
			}
		}
	}()
}

// connKindEvery is how often the page reads again how the node reaches its peers.
const connKindEvery = 2 * time.Second

// showPrivate shows the private table the node created and, as its node learns them, the
// failed attempts to join it.
func (p *page) showPrivate(ctx context.Context, h *hostedPrivate) {
	p.SetPrivate(h.info())
	go func() {
		for {
			select {
			case <-h.heard:
				p.SetPrivate(h.info())
			case <-ctx.Done():
				return
			case <-p.done:
				return
			}
		}
	}()
}

// showPhones shows the phones' address on the page, with how phones name this laptop, and
// again at each new address (its button, or renew).
func (p *page) showPhones(ph *phones) {
	label, fp := ph.laptop()
	show := func(url string) { p.SetPhones(ui.Phones{URL: url, QR: qrDataURL(url), Laptop: label, Fingerprint: fp}) }
	ph.onRenew(show)
	show(ph.URL())
}

func (p *page) left() <-chan struct{}   { return p.Quit() }
func (p *page) leaves() <-chan struct{} { return p.Leaves() }
func (p *page) toLobby()                { p.ToLobby() }

// stay keeps the page and its results up until the person goes back to the lobby there, asks
// for a rematch, or quits.
func (p *page) stay(ctx context.Context) (ui.TableChoice, stayAct) {
	if ctx.Err() != nil {
		return ui.TableChoice{}, actQuit
	}
	fmt.Fprintf(p.errw, "the results stay at %s until you go back to the lobby there, ask for a rematch or quit (or press Ctrl-C)\n", p.url)
	select {
	case next := <-p.Rematches():
		return next, actRematch
	case <-p.Leaves():
		return ui.TableChoice{}, actLobby
	case <-p.Quit():
	case <-ctx.Done():
	}
	return ui.TableChoice{}, actQuit
}

func (p *page) seat(c ui.TableChoice) { p.NewTable(c) }

func (p *page) close() { p.shutdown() }

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
