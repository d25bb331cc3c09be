package main

import (
	"context"
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

	"corruption/ui"
)

// pageServer serves the laptop's page (the seat's loop makes its server: person.go) on --ui.
type pageServer struct {
	ln net.Listener
	hs *http.Server
}

// listenPage listens on --ui before the page exists, so that a bad address stops the command
// at once.
func listenPage(addr string) (*pageServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, cli.Exit(fmt.Sprintf("--ui: %v", err), 1)
	}
	return &pageServer{ln: ln}, nil
}

// serve serves srv's page, prints (and opens, where it can) its address, and returns it.
func (p *pageServer) serve(srv *ui.Server, uiAddr string, open bool, errw io.Writer) string {
	p.hs = &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go p.hs.Serve(p.ln)
	addr := p.ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintf(errw, "warning: --ui %s serves the page beyond this machine; its address carries the only key to your hand\n", uiAddr)
	}
	if addr.IP.IsUnspecified() {
		addr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: addr.Port} // open it here through loopback
	}
	url := srv.URL(addr.String())
	fmt.Fprintf(errw, "open %s\n", url)
	if open {
		openBrowser(url, errw)
	}
	return url
}

// close stops serving the page.
func (p *pageServer) close() {
	if p.hs == nil {
		p.ln.Close()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	p.hs.Shutdown(ctx)
}

// watch shows the page how the node finds others: by mDNS or not, its addresses, how many
// peers it is connected to and how it reaches each (direct or relayed, what --verbose logs),
// as that changes. A relayed connection may turn direct (hole punching) with no peer coming
// or going: the kinds are read again every connKindEvery.
func watch(ctx context.Context, p *ui.Server, s *session, mdns bool) {
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
			case <-ctx.Done():
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
func showPrivate(ctx context.Context, p *ui.Server, h *hostedPrivate) {
	p.SetPrivate(h.info())
	go func() {
		for {
			select {
			case <-h.heard:
				p.SetPrivate(h.info())
			case <-ctx.Done():
				return
			case <-ctx.Done():
				return
			}
		}
	}()
}

// showPhones shows the phones' address on the page, with how phones name this laptop, and
// again at each new address (its button, or renew); without a page (nil), nothing.
func showPhones(p *ui.Server, ph *phones) {
	if p == nil {
		return
	}
	label, fp := ph.laptop()
	show := func(url string) { p.SetPhones(ui.Phones{URL: url, QR: qrDataURL(url), Laptop: label, Fingerprint: fp}) }
	ph.onRenew(show)
	show(ph.URL())
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
