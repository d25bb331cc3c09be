package main

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// spanishBrowser makes the page's browser speak Spanish first, as a phone set to Spanish does.
const spanishBrowser = `Object.defineProperty(navigator, 'languages', {get: () => ['es-ES', 'es', 'en']});
Object.defineProperty(navigator, 'language', {get: () => 'es-ES'});`

// TestBrowserPhoneStartsInItsLanguage (the game night's finding 6): while a phone's page says it
// is starting its seat (the .wasm held back on its way, as on a slow Wi-Fi), it speaks the
// browser's language, its header included; a language chosen then in the menu is the page's
// once the seat has started, and after a reload.
func TestBrowserPhoneStartsInItsLanguage(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	demo := start(ctx, t, "demo", "demo", "--phones", "--phones-addr", "127.0.0.1:0", "--game", "corruptia", "--bots", "1", "--no-open")
	url := demo.waitLine(t, phoneLine, 30*time.Second)[1]
	p := &eveningPage{name: "ana", touch: true, lang: "es", bctx: browserAt(t, ctx, 390, 844, true)}
	if _, err := chromedp.Call(p.bctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: spanishBrowser}); err != nil {
		t.Fatal(err)
	}
	paused := make(chan fetch.RequestID, 4)
	chromedp.Listen(p.bctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e.RequestID
		}
	})
	if _, err := chromedp.Call(p.bctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/seat.wasm"}}}); err != nil {
		t.Fatal(err)
	}
	go chromedp.Run(p.bctx, chromedp.Navigate(url+"&name=ana")) // returns once the page loads, the .wasm held
	var held fetch.RequestID
	select {
	case held = <-paused:
	case <-ctx.Done():
		t.Fatal("the page never asked for its .wasm")
	}
	p.wait(t, "the page starting in Spanish", `document.documentElement.lang === 'es' && document.querySelector('#main .loading').textContent === 'Iniciando tu asiento…' && document.querySelector('#help-button').textContent === 'Teclas' && document.querySelector('#lang').value === 'es'`, 30*time.Second)
	if _, err := chromedp.Run(p.bctx, chromedp.Evaluate[bool](`(() => { const s = document.querySelector('#lang'); s.value = 'fr'; s.dispatchEvent(new Event('change')); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	p.wait(t, "the starting page in French", `document.documentElement.lang === 'fr' && document.querySelector('#main .loading').textContent === 'Démarrage de votre place…' && document.querySelector('#help-button').textContent === 'Touches'`, 30*time.Second)
	if _, err := chromedp.Call(p.bctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: held}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.bctx, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	p.wait(t, "the seat started, the page in French", `['setup', 'game'].includes(document.body.dataset.mode) && document.body.dataset.lang === 'fr' && document.documentElement.lang === 'fr'`, 3*time.Minute)
	if err := chromedp.Do(p.bctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.wait(t, "the page in French after a reload", `['setup', 'game', 'over'].includes(document.body.dataset.mode) && document.body.dataset.lang === 'fr'`, 3*time.Minute)
}
