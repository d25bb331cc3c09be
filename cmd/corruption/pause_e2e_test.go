package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPause: a person at 1366x768 with one local bot, and a bot process that asks to
// pause the table once its log holds 10 entries (--pause-at). The page shows the banner, "bot-…
// asks to pause the table: 2 of 3 agree", with Agree and Keep playing; the person clicks Agree,
// and the page says the table is paused and gives the command that resumes it (the same, with
// --data). axe-core checks the banner and the paused screen in English, Spanish and French.
func TestBrowserPause(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := artifacts(t)
	data := filepath.Join(t.TempDir(), "ann")
	p := start(ctx, t, "play", "play", "--name", "ann", "--data", data, "--table", "evening", "--players", "3", "--bots", "1",
		"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open", "--timeout", "30s")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	addr := p.waitLine(t, listenLine, 20*time.Second)[1]
	asker := start(ctx, t, "bot", "bot", "--table", "evening", "--players", "3", "--name", "bea", "--data", filepath.Join(t.TempDir(), "bea"),
		"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--peer", addr, "--pause-at", "10", "--timeout", "30s")
	bctx := browserAt(t, ctx, 1366, 768, false)
	loadPage(t, bctx, url, "pause")
	waitFor(t, bctx, "bea's question", `!!document.querySelector('#pause-agree') && document.querySelector('#pause-text').textContent.startsWith('\u2068bea\u2069 (seat ') && document.querySelector('#pause-text').textContent.includes(') asks to pause the table')`)
	screenshot(t, bctx, dir, "pause-asked", false)
	checkAxe(t, bctx, "the pause asked")
	inLanguages(t, bctx, "the pause asked", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#pause-agree').textContent === 'Aceptar'`,
		"fr": `document.querySelector('#pause-keep').textContent === 'Continuer à jouer'`})
	// On a phone the banner and the header's button (shown here as it is while nobody asks)
	// never make the page scroll sideways.
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => { document.querySelector('#pause-ask').hidden = false; return true; })()`)); err != nil {
		t.Fatal(err)
	}
	checkInSight(t, bctx, "the pause on a phone", false)
	screenshot(t, bctx, dir, "pause-asked-phone", false)
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(1366, 768)); err != nil {
		t.Fatal(err)
	}
	click(t, bctx, "#pause-agree")
	waitFor(t, bctx, "the paused table", `document.querySelector('#results') && document.querySelector('#results').dataset.status === 'paused' && !!document.querySelector('#resume-command')`)
	cmd, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#resume-command').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"corruption play", "--data " + data, "--table evening"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("the command to resume %q lacks %q", cmd, want)
		}
	}
	screenshot(t, bctx, dir, "paused", false)
	checkAxe(t, bctx, "the paused table")
	inLanguages(t, bctx, "the paused table", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#results h2').textContent === 'Mesa en pausa'`,
		"fr": `document.querySelector('#results h2').textContent === 'Table en pause'`})
	if code := asker.wait(t, 30*time.Second); code != 0 {
		t.Errorf("the bot that asked exited %d, want 0 (paused)\nstdout:\n%s", code, asker.stdout.String())
	} else if !strings.Contains(asker.stdout.String(), fmt.Sprintf("Table %q is paused at entry", "evening")) {
		t.Errorf("the bot that asked says:\n%s", asker.stdout.String())
	}
	click(t, bctx, "#quit")
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Errorf("play exited %d, want 0 (paused)\nstdout:\n%s\nstderr:\n%s", code, p.stdout.String(), p.stderr.String())
	}
}
