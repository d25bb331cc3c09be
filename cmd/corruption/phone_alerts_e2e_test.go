package main

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// stubAlerts counts, in a page, the vibrations it asks for and the tones it starts (Chromium
// headless has neither a vibrator nor a speaker). It runs before the page's scripts.
const stubAlerts = `(() => {
  globalThis.alertsSeen = {vibrations: 0, tones: 0};
  navigator.vibrate = () => { alertsSeen.vibrations++; return true; };
  const Ctx = globalThis.AudioContext;
  globalThis.AudioContext = class extends Ctx {
    createOscillator() {
      const o = super.createOscillator();
      const start = o.start.bind(o);
      o.start = (...a) => { alertsSeen.tones++; return start(...a); };
      return o;
    }
  };
})();`

// TestBrowserPhoneTurnAlerts (the game night's finding 9): a phone's page in a pocket (hidden,
// as a locked screen leaves it before the phone freezes it) is told its turn: it vibrates, it
// sounds a tone (a hidden page's vibration may go unfelt), and its title is marked. With the
// page's Turn alerts switched off, the next turn marks the title only.
func TestBrowserPhoneTurnAlerts(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	demo := start(ctx, t, "demo", "demo", "--phones", "--phones-addr", "127.0.0.1:0", "--game", "kingdoms", "--bots", "1", "--no-open")
	url := demo.waitLine(t, phoneLine, 30*time.Second)[1]
	p := &eveningPage{name: "ann", touch: true, lang: "en", bctx: browserAt(t, ctx, 390, 844, true)}
	if _, err := chromedp.Call(p.bctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: stubAlerts}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(p.bctx, chromedp.Navigate(url+"&name=ann")); err != nil {
		t.Fatal(err)
	}
	p.wait(t, "the table", `['setup', 'game'].includes(document.body.dataset.mode)`, 3*time.Minute)
	p.tap(t, "#main") // a first touch: the page may sound from now on (browsers' rule)
	hide := func() {
		// A locked screen: frozen, then running again but hidden (headless Chromium's page
		// once unfrozen is hidden until focused).
		for _, s := range []cdppage.SetWebLifecycleStateState{cdppage.SetWebLifecycleStateStateFrozen, cdppage.SetWebLifecycleStateStateActive} {
			if _, err := chromedp.Call(p.bctx, cdppage.SetWebLifecycleState, cdppage.SetWebLifecycleStateParams{State: s}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := chromedp.Call(p.bctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: false}); err != nil {
			t.Fatal(err)
		}
		p.wait(t, "the page hidden", `document.hidden`, 30*time.Second)
	}
	show := func() {
		if _, err := chromedp.Call(p.bctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
			t.Fatal(err)
		}
		p.wait(t, "the page shown", `!document.hidden`, 30*time.Second)
	}
	type seen struct {
		Vibrations int    `json:"vibrations"`
		Tones      int    `json:"tones"`
		Title      string `json:"title"`
		Alerted    string `json:"alerted"`
	}
	read := func() seen {
		s, err := chromedp.Run(p.bctx, chromedp.Evaluate[seen](`({vibrations: alertsSeen.vibrations, tones: alertsSeen.tones, title: document.title, alerted: document.body.dataset.alerted || ''})`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// One turn, in the pocket.
	p.wait(t, "no turn due", `document.body.dataset.turn !== 'due'`, 3*time.Minute)
	hide()
	p.wait(t, "a turn, hidden", `document.body.dataset.turn === 'due'`, 3*time.Minute)
	first := read()
	if first.Vibrations < 1 || first.Tones < 1 || first.Title[:len("●")] != "●" || first.Alerted != "vibrate tone" {
		t.Errorf("a turn while hidden: %+v; want a vibration, a tone and the title's mark", first)
	}
	// The alerts off; the turn played; the next, in the pocket again.
	show()
	p.tap(t, "#alerts-button")
	p.wait(t, "the alerts off", `document.body.dataset.alerts === 'off' && document.querySelector('#alerts-button').getAttribute('aria-pressed') === 'false'`, 10*time.Second)
	p.playUntil(t, ctx, kingdomsLearn, `document.body.dataset.turn !== 'due'`)
	hide()
	p.wait(t, "the next turn, hidden", `document.body.dataset.turn === 'due'`, 3*time.Minute)
	second := read()
	if second.Vibrations != first.Vibrations || second.Tones != first.Tones || second.Alerted != "quiet" || second.Title[:len("●")] != "●" {
		t.Errorf("a turn with the alerts off: %+v after %+v; want the title's mark only", second, first)
	}
	show()
	// The setting is kept for the next visit.
	if err := chromedp.Do(p.bctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.wait(t, "the alerts still off after a reload", `document.body.dataset.alerts === 'off'`, 2*time.Minute)
}
