package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	qrcode "github.com/skip2/go-qrcode"

	"corruption/p2p"
	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
	"corruption/seat/web"
)

// TestPhonesListener: the phones listener serves the page (with its static files and the
// seat's scripts), the .wasm (application/wasm, gzip-encoded to a client that takes gzip,
// whole to one that does not: its SHA-256 then is --version's) and the bridge (only with the
// token), and nothing else: not the laptop's API, and nothing to a Host that is not this
// machine's (DNS rebinding).
func TestPhonesListener(t *testing.T) {
	hub := bridge.NewHub(fakeHubNode{}, tablenet.PhonesPolicy(p2p.PeerKey), nil)
	defer hub.Close()
	srv := httptest.NewServer(phonesHandler(hub, func() string { return "tok3n" }, "127.0.0.1"))
	defer srv.Close()
	plain := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := plain.Get(srv.URL + web.WasmPath)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if enc := resp.Header.Get("Content-Encoding"); enc != "" || fmt.Sprintf("%x", sha256.Sum256(raw)) != web.Digest() {
		t.Errorf("the .wasm to a client that takes no gzip: encoding %q, sha256 %x; want it whole, sha256 %s as --version says", enc, sha256.Sum256(raw), web.Digest())
	}
	for _, host := range []string{"evil.example", "evil.example:80", "rebind.attacker.test:" + strings.Split(srv.URL, ":")[2]} {
		req, _ := http.NewRequest("GET", srv.URL+"/", nil)
		req.Host = host
		r, err := plain.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("a request for Host %s (DNS rebinding): %d, want 421", host, r.StatusCode)
		}
	}
	get := func(path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip") // as a browser: the transport would decompress otherwise
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if r := get("/?t=tok3n"); r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || r.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("the page: %d %v", r.StatusCode, r.Header)
	}
	r := get(web.WasmPath)
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/wasm" || r.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("the .wasm: %d %v", r.StatusCode, r.Header)
	}
	z, err := gzip.NewReader(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(z); !bytes.HasPrefix(b, []byte("\x00asm")) {
		t.Errorf("the .wasm does not open as WebAssembly: %x", b)
	}
	for _, path := range []string{"/bridge", "/bridge?t=wrong"} {
		if r := get(path); r.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", path, r.StatusCode)
		}
	}
	for _, path := range []string{"/static/app.js", "/static/boards/corruptia/board.js", "/seat/seat.js", "/seat/wasm_exec.js", "/seat/idb.js"} {
		if r := get(path); r.StatusCode != http.StatusOK {
			t.Errorf("%s: %d, want 200: the page's own files", path, r.StatusCode)
		}
	}
	for _, path := range []string{"/api/state", "/api/events", "/favicon.ico", "/seat.wasm/x"} {
		if r := get(path); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404: the phones listener serves the page, the .wasm and the bridge only", path, r.StatusCode)
		}
	}
	resp, err = http.Post(srv.URL+"/", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d", resp.StatusCode)
	}
}

// fakeHubNode is a node that hears nothing, for a hub no phone uses.
type fakeHubNode struct{}

func (fakeHubNode) ID() string                                          { return "12D3KooWlaptop" }
func (fakeHubNode) Join(string, func(string, []byte) p2p.Verdict) error { return nil }
func (fakeHubNode) Leave(string) error                                  { return nil }
func (fakeHubNode) Publish(context.Context, string, []byte) error       { return nil }
func (fakeHubNode) Next(ctx context.Context, _ string) (string, []byte, error) {
	<-ctx.Done()
	return "", nil, ctx.Err()
}
func (fakeHubNode) TopicPeers(string) []string { return nil }
func (fakeHubNode) Request(context.Context, string, string, []byte) ([]byte, error) {
	return nil, io.EOF
}
func (fakeHubNode) Handle(string, func(string, []byte) ([]byte, error)) {}

// TestQRText: the terminal's QR code, read back from its half blocks, is the encoder's bitmap
// within its quiet zone of light modules.
func TestQRText(t *testing.T) {
	const url = "http://192.168.1.20:43129/?t=s55yvyknh8"
	q, err := qrcode.New(url, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	q.DisableBorder = true
	bm := q.Bitmap()
	var out bytes.Buffer
	writeQR(&out, url)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	n := len(bm) + 2*qrQuiet
	if len(lines) != (n+1)/2 {
		t.Fatalf("%d lines for %d rows of modules", len(lines), n)
	}
	for i, l := range lines {
		cells := []rune(l)
		if len(cells) != n {
			t.Fatalf("line %d has %d cells, want %d", i, len(cells), n)
		}
		for c, cell := range cells {
			top, bottom := cell == '█' || cell == '▀', cell == '█' || cell == '▄' // light modules
			for k, light := range []bool{top, bottom} {
				r := 2*i + k
				if r >= n {
					continue
				}
				dark := r >= qrQuiet && c >= qrQuiet && r-qrQuiet < len(bm) && c-qrQuiet < len(bm) && bm[r-qrQuiet][c-qrQuiet]
				if light == dark {
					t.Fatalf("module (%d, %d): light %v, dark in the code %v", r, c, light, dark)
				}
			}
		}
	}
	if !strings.HasPrefix(qrDataURL(url), "data:image/png;base64,") {
		t.Error("the page's QR code is not a PNG data: address")
	}
}

// TestLobbyRelayedHello: the lobby counts a hello of version 3 whoever relays it (a laptop
// relays its phones'), since its signature by its key is checked; a forged one is rejected.
func TestLobbyRelayedHello(t *testing.T) {
	hello := lobbyHello(t)
	laptop := "12D3KooWGzdH5hTk4bTStdCjDTqDkXghJqZkSEqPjzoqKu5UBBCU"
	if v := tablenet.LobbyValidator(p2p.PeerKey)(laptop, hello); v != p2p.Accept {
		t.Errorf("a hello relayed by a laptop: verdict %d, want Accept", v)
	}
	forged := bytes.Clone(hello)
	forged[len(forged)-1] ^= 1
	if v := tablenet.LobbyValidator(p2p.PeerKey)(laptop, forged); v != p2p.Reject {
		t.Errorf("a hello with a bad signature: verdict %d, want Reject", v)
	}
}

// lobbyHello is the hello a node announces on the lobby as it waits for its table.
func lobbyHello(t *testing.T) []byte {
	t.Helper()
	store, err := protocol.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	key, err := store.Identity()
	if err != nil {
		t.Fatal(err)
	}
	player, err := botPlayer(games["corruption"], 1)
	if err != nil {
		t.Fatal(err)
	}
	lobby := &capture{said: make(chan []byte, 1)}
	node, err := protocol.NewNode(protocol.NodeConfig{Table: "t", Game: "corruption", Config: defaultConfig(t, "corruption"), Players: 3,
		Name: "ann", Identity: key, Store: store, Player: player, Net: &capture{}, Lobby: lobby})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { node.Run(ctx); close(done) }()
	hello := <-lobby.said
	cancel()
	<-done
	return hello
}

// capture is a network that keeps the first message published on it and hears nothing.
type capture struct{ said chan []byte }

func (c *capture) Publish(_ context.Context, data []byte) error {
	if c.said != nil {
		select {
		case c.said <- bytes.Clone(data):
		default:
		}
	}
	return nil
}
func (c *capture) Next(ctx context.Context) (string, []byte, error) {
	<-ctx.Done()
	return "", nil, ctx.Err()
}
func (c *capture) Request(context.Context, string, []byte) ([]byte, error) {
	return nil, io.EOF
}
func (c *capture) Serve(func(string, []byte) ([]byte, error)) {}
func (c *capture) Peers() []string                            { return nil }
