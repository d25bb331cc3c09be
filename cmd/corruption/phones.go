package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
)

// Phones (issue 24): a laptop that runs corruption serves phones on a listener of its own
// (--phones-addr): the browser seat's page, its .wasm and the bridge (p2p/bridge), nothing
// else. A phone's seat runs in its browser; the laptop relays its bytes through its hub, which
// its own seat uses too, so that they hear each other. A short random token in the address
// admits to the bridge; with --data the port and the token are kept across restarts.

// phonesFile is where --data keeps the phones listener's port and token.
const phonesFile = "phones.json"

// phoneFlags are --phones-addr (and, for play and demo, --phones; for play and host, which
// keep the address with --data, --new-token).
func phoneFlags(withSwitch, renewable bool) []cli.Flag {
	prefix := ""
	if withSwitch {
		prefix = "with --phones: "
	}
	fl := []cli.Flag{&cli.StringFlag{Name: "phones-addr", Value: ":0",
		Usage: prefix + "the `HOST:PORT` phones reach this machine on: an address of the Wi-Fi they are on, or none for every interface; port 0 for a free one (with --data, the port of the last run)"}}
	if renewable {
		fl = append(fl, &cli.BoolFlag{Name: "new-token",
			Usage: prefix + "give phones a new address (a new token in it; --data keeps it from then on): the old address admits nobody, and every phone must scan the new code. Use it when a guest who had the address is no longer welcome"})
	}
	if withSwitch {
		fl = append([]cli.Flag{&cli.BoolFlag{Name: "phones",
			Usage: "let phones on your Wi-Fi sit at tables too, in their browsers: prints an address and a QR code to open on a phone"}}, fl...)
	}
	return fl
}

// readPhones reads --phones-addr and --new-token: addr "" when phones are off. label is how
// the phones' pages name this laptop ("": the machine's name).
func readPhones(c *cli.Context, on bool, label string) (phonesOptions, error) {
	if label == "" {
		label = machineName()
	}
	o := phonesOptions{label: label, newToken: c.Bool("new-token")}
	if !on {
		for _, f := range []string{"phones-addr", "new-token"} {
			if c.IsSet(f) {
				return o, usageError("--%s: give --phones too", f)
			}
		}
		return o, nil
	}
	var err error
	o.addr, err = readPhonesAddr(c)
	return o, err
}

// machineName is this machine's name, for the phones' pages: its host name up to the first
// dot ("ann-laptop"), or "this laptop".
func machineName() string {
	h, err := os.Hostname()
	if h, _, _ = strings.Cut(h, "."); err != nil || protocol.CheckName(h) != nil || h == "" {
		return "this laptop"
	}
	return h
}

// readPhonesAddr reads --phones-addr.
func readPhonesAddr(c *cli.Context) (string, error) {
	addr := c.String("phones-addr")
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", usageError("--phones-addr: %q is not HOST:PORT (e.g. :8080, or 192.168.1.20:8080): %v", addr, err)
	}
	if host != "" && net.ParseIP(host) == nil {
		return "", usageError("--phones-addr: %q is not an IP address of this machine", host)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return "", usageError("--phones-addr: port %q, want 0 to 65535", port)
	}
	return addr, nil
}

// phones is a session's door for phones: the hub, the listener, the address a phone opens.
type phones struct {
	hub    *bridge.Hub
	chosen string // how the URL's address was chosen, for the person ("" when given)
	shown  string // HOST:PORT of the address
	path   string // where --data keeps the port and the token ("" without --data)
	port   int

	mu    sync.Mutex
	token string
	onNew []func(url string) // told of a new address (the page's box)
}

// savedPhones is what --data keeps of the phones listener.
type savedPhones struct {
	Port  int    `json:"port"`
	Token string `json:"token"`
}

// phonesOptions are how a session opens its phones' listener.
type phonesOptions struct {
	addr     string // --phones-addr
	label    string // whose laptop, as the phones' pages say: the person's name, or the machine's
	newToken bool   // --new-token: draw a new token, though --data keeps one
}

// openPhones starts the session's hub (its own seat then goes through it) and the phones
// listener on o.addr.
func (s *session) openPhones(o phonesOptions) (*phones, error) {
	hub, err := bridge.NewHubWith(s.host, tablenet.PhonesPolicy(p2p.PeerKey), bridge.HubConfig{Logf: s.logf, Label: o.label})
	if err != nil {
		return nil, cli.Exit(err.Error(), 1)
	}
	s.hub = hub
	s.net = s.hub.Local()
	s.cleanup = append(s.cleanup, func() { s.hub.Close() })
	var saved savedPhones
	p := &phones{hub: s.hub}
	if s.cfg.data != "" {
		p.path = filepath.Join(s.cfg.data, phonesFile)
		if b, err := os.ReadFile(p.path); err == nil {
			if err := json.Unmarshal(b, &saved); err != nil {
				return nil, cli.Exit(fmt.Sprintf("--data: %s: %v", p.path, err), 1)
			}
		}
	}
	p.token = saved.Token
	if p.token == "" || o.newToken {
		if p.token, err = newToken(); err != nil {
			return nil, cli.Exit(err.Error(), 1)
		}
	}
	host, port, _ := net.SplitHostPort(o.addr)
	var ln net.Listener
	if port == "0" && saved.Port != 0 {
		// The port of the last run, so that the phones' address stays the same.
		if ln, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(saved.Port))); err != nil {
			s.notef("the phones' port of the last run, %d, is taken: the phones need the new address", saved.Port)
		}
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", o.addr); err != nil {
			return nil, cli.Exit(fmt.Sprintf("--phones-addr: %v", err), 1)
		}
	}
	p.port = ln.Addr().(*net.TCPAddr).Port
	if err := p.save(); err != nil {
		ln.Close()
		return nil, err
	}
	shown := host
	if ip := net.ParseIP(host); host == "" || ip.IsUnspecified() {
		shown, p.chosen = lanAddress(p.port)
	}
	p.shown = net.JoinHostPort(shown, strconv.Itoa(p.port))
	door := bridge.NewDoor(ln, bridge.DoorConfig{Logf: s.notef})
	hs := &http.Server{Handler: phonesHandler(s.hub, p.currentToken, host), ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout: bridge.IdleTimeout, ConnState: door.ConnState}
	go hs.Serve(door)
	s.cleanup = append(s.cleanup, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		hs.Close()
	})
	return p, nil
}

// save keeps the port and the token in --data.
func (p *phones) save() error {
	if p.path == "" {
		return nil
	}
	b, _ := json.Marshal(savedPhones{Port: p.port, Token: p.currentToken()})
	if err := os.WriteFile(p.path, b, 0o600); err != nil {
		return cli.Exit(fmt.Sprintf("--data: cannot keep the phones' port and token: %v", err), 1)
	}
	return nil
}

func (p *phones) currentToken() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.token
}

// URL is the address a phone opens now.
func (p *phones) URL() string {
	return (&url.URL{Scheme: "http", Host: p.shown, Path: "/", RawQuery: url.Values{bridge.TokenParam: {p.currentToken()}}.Encode()}).String()
}

// renew draws a new token (kept in --data): the old address admits nobody from now on, and
// every phone connected now is told so and cut off; a phone whose person scans the new code
// comes back to its seat (its keys and tables are in its browser). It returns the new address.
func (p *phones) renew() (string, error) {
	tok, err := newToken()
	if err != nil {
		return "", err
	}
	p.mu.Lock()
	p.token = tok
	onNew := slices.Clone(p.onNew)
	p.mu.Unlock()
	if err := p.save(); err != nil {
		return "", err
	}
	p.hub.DropPhones(bridge.ByeMoved, "this laptop drew a new address for phones: scan its new code to come back to your seat")
	u := p.URL()
	for _, f := range onNew {
		f(u)
	}
	return u, nil
}

// onRenew is told each new address.
func (p *phones) onRenew(f func(url string)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onNew = append(p.onNew, f)
}

// laptop is how the phones' pages name this laptop, and its fingerprint.
func (p *phones) laptop() (label, fingerprint string) {
	return p.hub.Label(), bridge.Fingerprint(p.hub.Local().Node())
}

// tokenAlphabet is the join codes' (Crockford's base 32, lowercase).
const tokenAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// newToken draws the phones' token: 10 characters, 50 bits.
func newToken() (string, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("failed to read randomness: %w", err)
	}
	for i := range b {
		b[i] = tokenAlphabet[b[i]&31]
	}
	return string(b[:]), nil
}

// print prints the phones' line, its QR code, how the address was chosen, and how the phones'
// pages name this laptop.
func (p *phones) print(w io.Writer) {
	u := p.URL()
	fmt.Fprintf(w, "join from a phone: %s\n", u)
	writeQR(w, u)
	if p.chosen != "" {
		fmt.Fprintln(w, p.chosen)
	}
	label, fp := p.laptop()
	fmt.Fprintf(w, "phones will show this laptop as %s, fingerprint %s\n", protocol.Printable(label), fp)
}

// lanAddress is the address of this machine a phone on the same Wi-Fi most likely reaches,
// and, when there are several, a line that says which was chosen and how to choose another.
func lanAddress(port int) (string, string) {
	type cand struct{ ip, iface string }
	var cands []cand
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.To4() == nil || !ipn.IP.IsGlobalUnicast() {
				continue
			}
			c := cand{ipn.IP.String(), ifc.Name}
			if ipn.IP.IsPrivate() { // a home network's: first
				cands = append([]cand{c}, cands...)
			} else {
				cands = append(cands, c)
			}
		}
	}
	switch len(cands) {
	case 0:
		return "127.0.0.1", "phones: this machine is on no network but itself: a phone cannot reach it (join a Wi-Fi, or give --phones-addr)"
	case 1:
		return cands[0].ip, ""
	}
	var others []string
	for _, c := range cands[1:] {
		others = append(others, fmt.Sprintf("%s (%s)", c.ip, c.iface))
	}
	return cands[0].ip, fmt.Sprintf("phones: this machine is on several networks; the address above is on %s (%s). The others: %s. If a phone cannot open it, give --phones-addr ADDRESS:%d with the address of the network the phone is on",
		cands[0].iface, cands[0].ip, strings.Join(others, ", "), port)
}

// phoneSite is what the phones listener serves besides the bridge: the browser seat's page,
// its static files and its .wasm (seat/web.Handler, which sends the .wasm gzipped to a client
// that takes gzip, else whole). The browser seat's build sets it (seatsite.go); until it
// does, a page that says so.
var phoneSite = struct {
	Page http.Handler
}{Page: http.HandlerFunc(placeholderPage)}

func placeholderPage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\"><title>corruption</title>"+
		"<h1>corruption</h1><p>This laptop runs corruption, but this build has no seat for a browser yet.</p>\n")
}

// phonesHandler serves the phones listener: the page, the .wasm and the bridge, nothing else,
// at this machine's own addresses only (host: the one --phones-addr gives), each request for
// a file within its deadline.
func phonesHandler(hub *bridge.Hub, token func() string, host string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+bridge.BridgePath, hub.Handler(token))
	mux.Handle("GET /", phoneSite.Page)
	return bridge.OwnHosts(bridge.PageDeadlines(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer") // the address carries the token
		w.Header().Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})), host)
}
