package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/tablenet"
)

// TestWasmCheckAsDocumented (the third outside review): the check of the served .wasm that
// docs/SECURITY.md gives a careful player, run as written (curl, without --compressed, piped to
// sha256sum) against a real `corruption host`, prints the digest `corruption --version` ends
// with.
func TestWasmCheckAsDocumented(t *testing.T) {
	if testing.Short() {
		t.Skip("a real process and curl: the test command runs it")
	}
	doc, err := os.ReadFile("../../docs/SECURITY.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*(curl [^#\n]*http://LAPTOP:PORT/seat\.wasm \| sha256sum)`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/SECURITY.md has no `curl ... http://LAPTOP:PORT/seat.wasm | sha256sum` check")
	}
	for _, tool := range []string{"curl", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the documented check needs %s: %v", tool, err)
			}
			t.Skipf("the documented check needs %s: %v", tool, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	host := start(ctx, t, "host", "host", "--phones-addr", "127.0.0.1:0", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0")
	page := host.waitLine(t, phoneLine, 30*time.Second)[1]
	laptop := strings.TrimSuffix(strings.SplitN(strings.TrimPrefix(page, "http://"), "/", 2)[0], "")
	check := strings.Replace(string(m[1]), "LAPTOP:PORT", laptop, 1)
	out, err := exec.CommandContext(ctx, "sh", "-c", check).Output()
	if err != nil {
		t.Fatalf("%s: %v", check, err)
	}
	version := runCLI(t, "--version").stdout
	digest := strings.Fields(string(out))
	if len(digest) == 0 || !strings.Contains(version, "browser seat sha256 "+digest[0]) {
		t.Errorf("%s printed %q; --version says %q", check, out, strings.TrimSpace(version))
	}
}

// TestPhonesRenewed (the third outside review): the laptop's page gives phones a new address
// while a phone plays at a table with two of the laptop's bots, and a guest's phone is
// connected. Both are cut off and told why (their pages say so: moved); the old address admits
// nobody (403, and a phone that dials it is refused); the terminal prints the new address; the
// phone whose person scans the new code comes back to its seat (its store, its keys) and the
// table finishes, its log auditing. A laptop started again with --data and --new-token prints
// the same port with another token, and the last one admits nobody.
func TestPhonesRenewed(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes: the test command runs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), phoneTableTimeout)
	defer cancel()
	data := t.TempDir()
	p := start(ctx, t, "play", "play", "--name", "ann", "--phones", "--phones-addr", "127.0.0.1:0", "--data", data,
		"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open", "--timeout", "30s")
	api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
	old := p.waitLine(t, phoneLine, 20*time.Second)[1]
	fp := p.waitLine(t, regexp.MustCompile(`^phones will show this laptop as ann, fingerprint ([0-9a-z]{4}-[0-9a-z]{4})$`), 20*time.Second)[1]

	troubles := func(name string, got *atomic.Value) bridge.ClientConfig {
		return bridge.ClientConfig{MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
			Logf:      func(f string, a ...any) { t.Logf(name+": "+f, a...) },
			OnTrouble: func(tr bridge.Trouble) { got.Store(tr.Kind) }}
	}
	var guestTrouble, phoneTrouble atomic.Value
	guest, err := bridge.NewClient(withDial(troubles("guest", &guestTrouble), old))
	if err != nil {
		t.Fatal(err)
	}
	defer guest.Close()
	phone := newNativePhone(t, "phone", old)
	if label, got := phone.client.Label(), bridge.Fingerprint(phone.client.Node()); label != "ann" || got != fp {
		t.Errorf("the phone reached %q, fingerprint %s; the laptop says ann, %s", label, got, fp)
	}
	w, err := tablenet.AskBots(ctx, phone.client, tablenet.Wish{Table: "renewed-" + tableName(t), Game: "corruption", Players: 3,
		Config: defaultConfig(t, "corruption"), Bots: 2, Escrow: true})
	if err != nil {
		t.Fatal(err)
	}
	// The phone plays until the address changes under it (its page is gone with it).
	first, stop := context.WithCancel(ctx)
	renewed := make(chan struct{})
	var once atomic.Bool
	go func() {
		<-renewed
		for phoneTrouble.Load() != bridge.Moved {
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond): // the bye on its way
			}
		}
		stop()
	}()
	cfg := troubles("phone", &phoneTrouble)
	phone.client.Close()
	if phone.client, err = bridge.NewClient(withDial(cfg, old)); err != nil {
		t.Fatal(err)
	}
	phone.client.Identify(phone.key)
	phone.client.WaitConnected(ctx)
	_, _, err = phone.sit(first, t, w, func(st protocol.Status) {
		if st.Entries >= 30 && once.CompareAndSwap(false, true) {
			go func() {
				if code, body := api.post(t, "/api/phones/renew", struct{}{}); code != http.StatusOK {
					t.Errorf("the page's New address: %d %s", code, body)
				}
				close(renewed)
			}()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the phone's first run: %v, want it stopped by the new address", err)
	}
	p.waitLine(t, regexp.MustCompile(`^phones have a new address; the old one admits nobody:$`), 20*time.Second)
	fresh := p.waitLineN(t, phoneLine, 20*time.Second, 2)[1]
	if fresh == old {
		t.Fatalf("the new address is the old one: %s", old)
	}
	for guestTrouble.Load() != bridge.Moved {
		select {
		case <-ctx.Done():
			t.Fatalf("the guest's phone was not told the address changed: %v", guestTrouble.Load())
		case <-time.After(10 * time.Millisecond): // the bye on its way
		}
	}
	if u, _ := bridge.BridgeURL(old); forbidden(t, u) != http.StatusForbidden {
		t.Error("the old address still admits to the bridge")
	}
	// The person scans the new code: the same store and keys, a new connection.
	phone.client.Close()
	if phone.client, err = bridge.NewClient(withDial(cfg, fresh)); err != nil {
		t.Fatal(err)
	}
	phone.client.Identify(phone.key)
	out, rep, err := phone.sit(ctx, t, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Finished || !rep.Valid {
		t.Fatalf("the phone's table after the new address: finished %v, audit %+v", out.Finished, rep)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("quit: %d %s", code, body)
	}
	p.wait(t, 30*time.Second)

	// --new-token at a start: the same port, another token.
	again := start(ctx, t, "play again", "play", "--name", "ann", "--phones", "--phones-addr", "127.0.0.1:0", "--data", data,
		"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open", "--new-token")
	third := again.waitLine(t, phoneLine, 20*time.Second)[1]
	if third == fresh || strings.Split(third, "?")[0] != strings.Split(fresh, "?")[0] {
		t.Errorf("--new-token: %s after %s; want the same port, another token", third, fresh)
	}
	if u, _ := bridge.BridgeURL(fresh); forbidden(t, u) != http.StatusForbidden {
		t.Error("after --new-token the last address still admits")
	}
}

// withDial is cfg dialing the bridge of the page address page.
func withDial(cfg bridge.ClientConfig, page string) bridge.ClientConfig {
	u, err := bridge.BridgeURL(page)
	if err != nil {
		panic(err)
	}
	cfg.Dial = bridge.DialWebSocket(u)
	return cfg
}

// forbidden is the status of a WebSocket upgrade asked of the bridge address u over plain HTTP.
func forbidden(t *testing.T, u string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", strings.Replace(u, "ws://", "http://", 1), nil)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(fmt.Errorf("the bridge: %w", err))
	}
	resp.Body.Close()
	return resp.StatusCode
}
