package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"corruption/ui"
	"os"
)

// The browser seat through the real laptop: demo --phones serves the phones' page, the
// committed .wasm and the bridge on loopback; headless Chromium with a phone's viewport and
// touch opens the address it prints. The seat plays by itself (&bot=1): the boards' clicks are
// the laptop page's tests' (the same page, the same API).

// phoneResult is the browser seat's state once it has a result, as its page gets it.
const phoneResult = `new Promise((resolve) => {
  const tick = () => corruptionSeat.request('GET', '/api/state?lang=en', '').then((r) => {
    if (JSON.parse(r.body).result) resolve(r.body); else setTimeout(tick, 200);
  });
  tick();
})`

// TestBrowserPhoneDemo: a phone's browser seat takes demo --phones's seat and plays the whole
// table with the demo's bots; its page shows it finished with an audit that checks, and demo
// prints the outcome with the phone's seat as "(you)". At Corrupted Kingdoms the phone also
// goes through what phones go through in mid-game: a Wi-Fi that drops for a spell (wifi: its
// connection cut, its attempts to connect refused), a reload (it resumes its seat from the
// browser's storage) and a frozen page (the page lifecycle's freeze, as a locked screen), each
// within the clock. It runs with the whole set of evenings (CORRUPTION_EVENING_ALL=1): the test
// command's TestReadmeEvening plays `demo --phones` (and a reload, a locked screen and a dropped
// Wi-Fi at a table of phones) the way a person does, and a whole Kingdoms table in a phone's
// WebAssembly is over a minute and a half of the test command's ten.
func TestBrowserPhoneDemo(t *testing.T) {
	if os.Getenv("CORRUPTION_EVENING_ALL") != "1" {
		t.Skip("with the whole set of evenings: CORRUPTION_EVENING_ALL=1 (TestReadmeEvening plays demo --phones in the test command)")
	}
	t.Parallel()
	for _, tc := range []struct {
		game string
		bots int
	}{{"kingdoms", 1}, {"corruption", 2}, {"corruptia", 1}} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel() // its own demo and phone
			ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
			defer cancel()
			demo := start(ctx, t, "demo", "demo", "--phones", "--phones-addr", "127.0.0.1:0", "--game", tc.game,
				"--bots", fmt.Sprint(tc.bots), "--no-open", "--name", "laptop")
			air := newWifi(t, demo.waitLine(t, phoneLine, 30*time.Second)[1]) // the phone's Wi-Fi
			bctx := browserAt(t, ctx, 390, 844, true)
			if _, err := chromedp.Call(bctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: countSockets}); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(bctx, chromedp.Navigate(air.url+"&bot=1&name=phone")); err != nil {
				t.Fatal(err)
			}
			mode := func(js string, within time.Duration) {
				t.Helper()
				// By interval: a page once frozen may not run its animation frames.
				if _, err := poll[bool](bctx, js, within); err != nil {
					shown, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset) + ' ' + document.getElementById('main').innerText.slice(0, 300)`))
					t.Fatalf("the phone's page: waiting for %s: %v; the page: %s", js, err, shown)
				}
			}
			if tc.game == "kingdoms" {
				mode(`document.body.dataset.mode === 'game'`, 3*time.Minute)
				// The Wi-Fi gone for a spell, first, while the table surely waits for the phone:
				// the page says it lost the laptop, its attempts to connect fail until the Wi-Fi is
				// back, and then one succeeds.
				air.drop()
				mode(`document.body.dataset.bridge === 'down'`, 30*time.Second)
				mode(`bridgeSockets.failed > 0`, 30*time.Second)
				air.restore()
				mode(`bridgeSockets.opened > 1`, 30*time.Second)
				if err := chromedp.Do(bctx, chromedp.Reload()); err != nil {
					t.Fatalf("reload: %v", err)
				}
				mode(`['setup', 'game', 'over'].includes(document.body.dataset.mode)`, 2*time.Minute)
				// A locked screen: the page is frozen, its timers and its seat stopped, for a
				// spell well within the clock (the spell is the scenario, not a wait).
				if _, err := chromedp.Call(bctx, cdppage.SetWebLifecycleState, cdppage.SetWebLifecycleStateParams{State: cdppage.SetWebLifecycleStateStateFrozen}); err != nil {
					t.Fatalf("freeze: %v", err)
				}
				<-time.After(3 * time.Second)
				if _, err := chromedp.Call(bctx, cdppage.SetWebLifecycleState, cdppage.SetWebLifecycleStateParams{State: cdppage.SetWebLifecycleStateStateActive}); err != nil {
					t.Fatalf("unfreeze: %v", err)
				}
			}
			mode(`document.body.dataset.mode === 'over'`, 5*time.Minute)
			text, err := chromedp.Run(bctx, chromedp.Evaluate[string](phoneResult, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			var st ui.State
			if err := json.Unmarshal([]byte(text), &st); err != nil {
				t.Fatal(err)
			}
			if r := st.Result; r == nil || !r.Finished || !r.Valid {
				t.Fatalf("the phone's table: %+v", st.Result)
			}
			if code := demo.wait(t, 60*time.Second); code != 0 {
				t.Fatalf("demo --phones exited %d", code)
			}
			want := regexp.MustCompile(`phone\S* \(seat \d\).*\(you\)`)
			if s := demo.stdout.String(); !want.MatchString(s) || !regexp.MustCompile("Digest: "+st.Result.Digest).MatchString(s) {
				t.Errorf("demo's outcome does not name the phone's seat (you) with the phone's digest %s:\n%s", st.Result.Digest, s)
			}
		})
	}
}
