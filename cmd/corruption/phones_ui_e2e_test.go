package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPhonesBox: play --phones prints the page's address first, as without phones,
// then the phones' line; the laptop's page shows that address and its QR code in the lobby,
// and axe-core finds nothing wrong with it, also on a phone's viewport.
func TestBrowserPhonesBox(t *testing.T) {
	if testing.Short() {
		t.Skip("the plain pass runs it")
	}
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := artifacts(t)
	p := start(ctx, t, "play", "play", "--name", "ann", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open",
		"--phones", "--phones-addr", "127.0.0.1:0")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	phones := p.waitLine(t, phoneLine, 20*time.Second)[1]
	if first := p.stderr.String(); !strings.HasPrefix(first, "open http://127.0.0.1:") {
		t.Errorf("the first line is not the page's address:\n%s", first)
	}
	bctx := browserAt(t, ctx, 1366, 768, false)
	loadPage(t, bctx, url, "the lobby with phones")
	waitFor(t, bctx, "the phones' address and its QR code", `(() => {
	  const img = document.querySelector('#phones-qr');
	  return !!img && img.complete && img.naturalWidth > 0 && document.querySelector('#phones-url').textContent === `+jsString(phones)+`;
	})()`)
	screenshot(t, bctx, dir, "lobby-phones", false)
	checkAxe(t, bctx, "the lobby with the phones' address")
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	checkAxe(t, bctx, "the lobby with the phones' address, on a phone")
}
