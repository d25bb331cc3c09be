package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserPrivate: a private table on the page, on 127.0.0.1 with --no-mdns. Ann's node
// creates it (play --private): her waiting screen shows the join code, copyable, and no
// failed attempt. Bob, in his lobby (play, dialed to Ann with --peer), types a wrong code by
// the keyboard: his page says the code is wrong in plain words, and Ann's counts one failed
// attempt. Bob types the right code: his page sits him at the private table, and both pages
// say how they reach the other node (direct, on loopback). Both leave; each node stops.
func TestBrowserPrivate(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := artifacts(t)
	ann := start(ctx, t, "ann", "play", "--name", "ann", "--private", "--players", "3", "--no-mdns",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
	code := ann.waitLine(t, joinCodeLine, 20*time.Second)[1]
	annURL := ann.waitLine(t, openLine, 20*time.Second)[1]
	addr := ann.waitLine(t, listenLine, 20*time.Second)[1]
	bob := start(ctx, t, "bob", "play", "--name", "bob", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--peer", addr, "--no-open")
	bobURL := bob.waitLine(t, openLine, 20*time.Second)[1]

	actx := browserAt(t, ctx, 1366, 768, false)
	loadPage(t, actx, annURL, "private waiting")
	waitFor(t, actx, "Ann's join code", fmt.Sprintf(`document.body.dataset.mode === 'waiting' && document.querySelector('#join-code')?.value === %q`, code))
	waitFor(t, actx, "no failed attempt yet", `document.querySelector('#private-failed')?.dataset.failed === '0' && !document.querySelector('#join-hint')`)
	checkAxe(t, actx, "the private table's waiting screen")
	// Copy, by the keyboard: focus the button, press Enter.
	if _, err := chromedp.Run(actx, chromedp.Evaluate[bool](`(() => { document.querySelector('[data-key="copy-join-code"]').focus(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	pressKey(t, actx, kb.Enter)
	waitFor(t, actx, "the code copied", `document.querySelector('#private-copied')?.dataset.copied === 'join-code' && document.querySelector('#private-copied').textContent === 'Copied.'`)

	bctx := browserAt(t, ctx, 1366, 768, false)
	loadPage(t, bctx, bobURL, "lobby")
	waitFor(t, bctx, "the field to join by code", `document.body.dataset.mode === 'lobby' && document.querySelector('#private-code') !== null`)
	checkAxe(t, bctx, "the lobby with its join by code")
	// The same nameplate, another secret: Ann's node answers, and counts the failure.
	wrong := code[:len(code)-1] + map[bool]string{true: "3", false: "2"}[strings.HasSuffix(code, "2")]
	typeInto(t, bctx, "#private-code", wrong)
	pressKey(t, bctx, kb.Enter)
	waitFor(t, bctx, "the wrong code said in words", `document.querySelector('#alerts').innerText.includes('The join code is wrong')`)
	waitFor(t, actx, "Ann's page counting the failed attempt", `document.querySelector('#private-failed')?.dataset.failed === '1'`)
	screenshot(t, actx, dir, "private-waiting", false)

	typeInto(t, bctx, "#private-code", code)
	pressKey(t, bctx, kb.Enter)
	waitFor(t, bctx, "Bob at the private table", `document.body.dataset.mode === 'waiting' && document.querySelector('#private-joined') !== null && !document.querySelector('#join-hint')`)
	title, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#waiting-title').textContent`))
	if err != nil || !strings.Contains(title, "private-") {
		t.Errorf("Bob's table: %q (%v)", title, err)
	}
	for who, c := range map[string]context.Context{"Ann": actx, "Bob": bctx} {
		waitFor(t, c, who+"'s page saying the connection is direct", `[...document.querySelectorAll('#conns li')].some((li) => li.dataset.kind === 'direct' && li.innerText.includes('direct'))`)
	}
	inLanguages(t, actx, "the private table's waiting screen", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#private-failed').textContent.startsWith('1 intento fallido')`,
		"fr": `document.querySelector('label[for=join-code]').textContent === "Votre code d'accès"`})

	// Leave, one page after the other. (The button is pressed by script: the other node going
	// away redraws the waiting screen, which a mouse click could straddle.)
	for _, l := range []struct {
		p *proc
		c context.Context
	}{{ann, actx}, {bob, bctx}} {
		if _, err := chromedp.Run(l.c, chromedp.Evaluate[bool](`(() => { document.querySelector('#leave').click(); return true; })()`)); err != nil {
			t.Fatal(err)
		}
		waitAcrossReload(t, l.c, l.p.name+"'s page back in the lobby", `document.body.dataset.mode === 'lobby' && !!document.querySelector('#quit')`)
		click(t, l.c, "#quit")
		if code := l.p.wait(t, 30*time.Second); code != 1 {
			t.Errorf("%s leaving while waiting, then quitting: exit %d\n%s", l.p.name, code, l.p.stderr.String())
		}
	}
}
