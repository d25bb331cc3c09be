package main

import (
	"bytes"
	"compress/gzip"
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
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/p2p"
	"corruption/p2p/bridge"
	"corruption/protocol"
)

// Phones (issue 24): a laptop that runs corruption serves phones on a listener of its own
// (--phones-addr): the browser seat's page, its .wasm and the bridge (p2p/bridge), nothing
// else. A phone's seat runs in its browser; the laptop relays its bytes through its hub, which
// its own seat uses too, so that they hear each other. A short random token in the address
// admits to the bridge; with --data the port and the token are kept across restarts.

// phonesFile is where --data keeps the phones listener's port and token.
const phonesFile = "phones.json"

// phoneFlags are --phones-addr (and, for play and demo, --phones).
func phoneFlags(withSwitch bool) []cli.Flag {
	usage := "the `HOST:PORT` phones reach this machine on: an address of the Wi-Fi they are on, or none for every interface; port 0 for a free one (with --data, the port of the last run)"
	if withSwitch {
		usage = "with --phones: " + usage
	}
	fl := []cli.Flag{&cli.StringFlag{Name: "phones-addr", Value: ":0", Usage: usage}}
	if withSwitch {
		fl = append([]cli.Flag{&cli.BoolFlag{Name: "phones",
			Usage: "let phones on your Wi-Fi sit at tables too, in their browsers: prints an address and a QR code to open on a phone"}}, fl...)
	}
	return fl
}

// readPhonesAddr reads --phones-addr: "" when phones are off.
func readPhonesAddr(c *cli.Context, on bool) (string, error) {
	addr := c.String("phones-addr")
	if !on {
		if c.IsSet("phones-addr") {
			return "", usageError("--phones-addr: give --phones too")
		}
		return "", nil
	}
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

// hubPolicy is what the laptop relays for its phones: the table kit's topics and protocols.
func hubPolicy() bridge.Policy {
	return bridge.Policy{
		Topic: func(topic string) (func(string, []byte) int, bool) {
			switch {
			case topic == lobbyTopic:
				return checkLobby, true
			case topic == joinTopic:
				return checkJoinAd, true
			case strings.HasPrefix(topic, topicPrefix):
				if checkTableName(strings.TrimPrefix(topic, topicPrefix)) != nil {
					return nil, false
				}
				return checkTableMessage, true
			case strings.HasPrefix(topic, privatePrefix):
				if !isChannel(strings.TrimPrefix(topic, privatePrefix)) {
					return nil, false
				}
				// The laptop holds no secret of a phone's private table: it passes what could
				// be sealed, and the members drop what does not open.
				return func(_ string, data []byte) int {
					if len(data) < protocol.SealOverhead {
						return p2p.Reject
					}
					return p2p.Accept
				}, true
			}
			return nil, false
		},
		Protocols: []string{entriesProto, joinProto},
		Members:   []string{bridge.SeatProto, bridge.BotsProto},
	}
}

// isChannel says whether s is a private table's channel name: 32 lowercase hex digits.
func isChannel(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// phones is a session's door for phones: the hub, the listener, the address a phone opens.
type phones struct {
	url    string
	chosen string // how the URL's address was chosen, for the person ("" when given)
	hub    *bridge.Hub
}

// savedPhones is what --data keeps of the phones listener.
type savedPhones struct {
	Port  int    `json:"port"`
	Token string `json:"token"`
}

// openPhones starts the session's hub (its own seat then goes through it) and the phones
// listener on addr.
func (s *session) openPhones(addr string) (*phones, error) {
	s.hub = bridge.NewHub(s.host, hubPolicy(), s.logf)
	s.net = s.hub.Local()
	s.cleanup = append(s.cleanup, func() { s.hub.Close() })
	var saved savedPhones
	path := ""
	if s.cfg.data != "" {
		path = filepath.Join(s.cfg.data, phonesFile)
		if b, err := os.ReadFile(path); err == nil {
			if err := json.Unmarshal(b, &saved); err != nil {
				return nil, cli.Exit(fmt.Sprintf("--data: %s: %v", path, err), 1)
			}
		}
	}
	token := saved.Token
	if token == "" {
		var err error
		if token, err = newToken(); err != nil {
			return nil, cli.Exit(err.Error(), 1)
		}
	}
	host, port, _ := net.SplitHostPort(addr)
	var ln net.Listener
	var err error
	if port == "0" && saved.Port != 0 {
		// The port of the last run, so that the phones' address stays the same.
		if ln, err = net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(saved.Port))); err != nil {
			s.notef("the phones' port of the last run, %d, is taken: the phones need the new address", saved.Port)
		}
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", addr); err != nil {
			return nil, cli.Exit(fmt.Sprintf("--phones-addr: %v", err), 1)
		}
	}
	got := ln.Addr().(*net.TCPAddr)
	if path != "" {
		b, _ := json.Marshal(savedPhones{Port: got.Port, Token: token})
		if err := os.WriteFile(path, b, 0o600); err != nil {
			ln.Close()
			return nil, cli.Exit(fmt.Sprintf("--data: cannot keep the phones' port and token: %v", err), 1)
		}
	}
	p := &phones{hub: s.hub}
	shown := host
	if ip := net.ParseIP(host); host == "" || ip.IsUnspecified() {
		shown, p.chosen = lanAddress(got.Port)
	}
	p.url = (&url.URL{Scheme: "http", Host: net.JoinHostPort(shown, strconv.Itoa(got.Port)), Path: "/",
		RawQuery: url.Values{bridge.TokenParam: {token}}.Encode()}).String()
	hs := &http.Server{Handler: phonesHandler(s.hub, token), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	s.cleanup = append(s.cleanup, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		hs.Close()
	})
	return p, nil
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

// print prints the phones' line, its QR code and how the address was chosen.
func (p *phones) print(w io.Writer) {
	fmt.Fprintf(w, "join from a phone: %s\n", p.url)
	writeQR(w, p.url)
	if p.chosen != "" {
		fmt.Fprintln(w, p.chosen)
	}
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

// phoneSite is what the phones listener serves besides the bridge: the browser seat's page
// (and its static files) and its .wasm, pre-compressed with gzip. The browser seat's build
// sets them (cmd/corruption-seat); until it does, a page that says so.
var phoneSite = struct {
	Page   http.Handler
	WasmGz []byte
}{Page: http.HandlerFunc(placeholderPage), WasmGz: placeholderWasm}

// WasmPath is where the phones listener serves the browser seat's .wasm.
const WasmPath = "/seat.wasm"

// placeholderWasm is an empty WebAssembly module (its magic and version), gzip-compressed.
var placeholderWasm = func() []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte("\x00asm\x01\x00\x00\x00"))
	z.Close()
	return b.Bytes()
}()

func placeholderPage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\"><title>corruption</title>"+
		"<h1>corruption</h1><p>This laptop runs corruption, but this build has no seat for a browser yet.</p>\n")
}

// phonesHandler serves the phones listener: the page, the .wasm and the bridge, nothing else.
func phonesHandler(hub *bridge.Hub, token string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+bridge.BridgePath, hub.Handler(token))
	mux.HandleFunc("GET "+WasmPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(phoneSite.WasmGz)))
		w.Write(phoneSite.WasmGz)
	})
	mux.Handle("GET /", phoneSite.Page)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer") // the address carries the token
		w.Header().Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})
}
