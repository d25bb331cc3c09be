package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"corruption/engine"
	"corruption/protocol"
	browserseat "corruption/seat"
	"corruption/ui"
)

// countSockets counts, in a page, the WebSockets it opens (the seat's bridge to the laptop)
// and those that close without opening, and keeps the last (bridgeSockets); and it counts
// the vibrations the page asks for (the person's turns). It runs before the page's scripts.
const countSockets = `(() => {
  const Socket = globalThis.WebSocket;
  const s = globalThis.bridgeSockets = {opened: 0, failed: 0, last: null};
  globalThis.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      let open = false;
      s.last = this;
      this.addEventListener('open', () => { open = true; s.opened++; });
      this.addEventListener('close', () => { if (!open) s.failed++; });
    }
  };
  navigator.vibrate = () => { globalThis.vibrations = (globalThis.vibrations || 0) + 1; return true; };
})();`

// TestBrowserPhonesLaptopAndBotAtOneTable: two phones' browser seats, each in a browser
// context of its own (its storage, its keys, its WebSocket; a phone's viewport and touch),
// the laptop's own seat and a bot of the laptop sit at one table of four, through the laptop's
// phones listener and hub (the laptop's seat goes through the hub too, so that it and the
// phones hear each other: gossipsub would not loop their messages back). The phones play by
// themselves (&bot=1). In mid-game one phone's Wi-Fi drops for a spell (wifi): its page says
// it lost the laptop, its attempts to connect fail until the Wi-Fi is back, then it connects
// again, catches up and finishes. Every seat ends with the same log; each phone's page shows
// the table over with an audit that checks, its seed wiped and its log kept in the browser's
// storage, and the phone vibrated on its turns; the laptop's log audits.
func TestBrowserPhonesLaptopAndBotAtOneTable(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, ph := laptopWithPhones(t, ctx)
	if !phoneLine.MatchString("join from a phone: " + ph.URL()) {
		t.Fatalf("the phones' address %q is not on the loopback address given", ph.URL())
	}
	// Corruption: of the games a table of four plays, the shortest in a browser (about 165
	// entries; Corrupted Kingdoms took half as long again).
	const game = "corruption"
	choice := ui.TableChoice{Table: "four-" + tableName(t), Game: game, Players: 4, Config: defaultConfig(t, game), Bots: 1}
	// play --phones's clock: the phones' timeout, escrow (the phones' seats escrow too).
	clock := tableClock{timeout: browserseat.PhoneClock.Timeout, wait: 3 * time.Minute, escrow: true}
	bots, err := startLocalBots(ctx, s, playConfig{clock: clock}, choice, "")
	if err != nil {
		t.Fatal(err)
	}
	defer bots.stop()
	player, err := botPlayer(games[game], 7)
	if err != nil {
		t.Fatal(err)
	}
	laptop := make(chan *played, 1)
	began := time.Now()
	go func() {
		r, err := s.play(ctx, seat{choice: choice, name: "laptop", clock: clock, player: player})
		if err != nil {
			t.Error(err)
		}
		laptop <- r
	}()

	// The phones: each opens the address with the table it sits at (as demo --phones gives it).
	given := choice
	given.Bots = 0
	b, err := json.Marshal(given)
	if err != nil {
		t.Fatal(err)
	}
	table := "&bot=1&table=" + base64.RawURLEncoding.EncodeToString(b)
	names := []string{"phone-a", "phone-b"}
	pages := make([]context.Context, len(names))
	air := newWifi(t, ph.URL()) // phone b's Wi-Fi
	for i, name := range names {
		addr := ph.URL()
		if i == 1 {
			addr = air.url
		}
		pages[i] = browserAt(t, ctx, 390, 844, true)
		if _, err := chromedp.Call(pages[i], cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: countSockets}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(pages[i], chromedp.Navigate(addr+"&name="+name+table)); err != nil {
			t.Fatal(err)
		}
	}
	wait := func(i int, what, js string, within time.Duration) {
		t.Helper()
		// Not at every frame: the seat's work may hold the page's animation frames back.
		if _, err := poll[bool](pages[i], js, within); err != nil {
			shown, _ := chromedp.Run(pages[i], chromedp.Evaluate[string](`JSON.stringify(document.body.dataset) + ' ' + document.getElementById('main').innerText.slice(0, 300)`))
			t.Fatalf("%s's page: waiting for %s: %v; the page: %s", names[i], what, err, shown)
		}
	}

	// Phone b's Wi-Fi drops once the game is under way: its page says it lost the laptop,
	// and its attempts to connect again fail until the Wi-Fi is back.
	wait(1, "the game under way", `document.body.dataset.mode === 'game'`, 3*time.Minute)
	air.drop()
	wait(1, "the link to the laptop down", `document.body.dataset.bridge === 'down'`, 30*time.Second)
	wait(1, "an attempt to connect refused", `bridgeSockets.failed > 0`, 30*time.Second)
	air.restore()

	for i := range pages {
		wait(i, "the table over", `document.body.dataset.mode === 'over'`, 4*time.Minute)
	}
	r := <-laptop
	if r == nil || r.err != nil || !r.out.Finished || r.out.Verdict != nil {
		t.Fatalf("the laptop's seat: %+v", r)
	}
	t.Logf("the table: %d entries, escrow %v, %.1fs from the laptop's start", r.out.Entries, r.node.Table().Escrow(), time.Since(began).Seconds())
	<-bots.over
	if bot := bots.result(0); bot == nil || bot.err != nil || bot.out.Digest != r.out.Digest {
		t.Errorf("the laptop's bot: %+v; want the laptop's log, digest %s", bot, r.out.Digest)
	}
	f, err := os.Open(s.store.LogPath(choice.Table))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if rep, err := protocol.Audit(f, engine.Options{}); err != nil || !rep.Valid {
		t.Errorf("the laptop's log: %+v, %v", rep, err)
	}
	for i, name := range names {
		text, err := chromedp.Run(pages[i], chromedp.Evaluate[string](phoneResult, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		var st ui.State
		if err := json.Unmarshal([]byte(text), &st); err != nil {
			t.Fatal(err)
		}
		if res := st.Result; res == nil || !res.Finished || !res.Valid || res.Digest != r.out.Digest {
			t.Errorf("%s's table: %+v; want finished, valid, the laptop's log (digest %s)", name, st.Result, r.out.Digest)
		}
		// In the browser's storage: the table's seed wiped, its log kept.
		kept, err := chromedp.Run(pages[i], chromedp.Evaluate[[]int](fmt.Sprintf(`Promise.all(['seed', 'log'].map((f) =>
		  corruptionIDB.read(corruptionSeat.scope, 'tables/%s/' + f).then((b) => b === null ? -1 : b.length)))`, choice.Table), chromedp.EvalAwaitPromise))
		if err != nil || len(kept) != 2 || kept[0] != -1 || kept[1] < 1000 {
			t.Errorf("%s's storage once the table is over: seed and log %v (%v); want the seed gone (-1), the log kept", name, kept, err)
		}
		// Told each turn: the phone vibrated, and no turn's mark is left.
		counts, err := chromedp.Run(pages[i], chromedp.Evaluate[[]int](`[bridgeSockets.opened, globalThis.vibrations || 0, document.body.dataset.turn === 'due' ? 1 : 0]`))
		if err != nil {
			t.Fatal(err)
		}
		if counts[1] == 0 || counts[2] != 0 {
			t.Errorf("%s's turns told: %d vibrations, the turn's mark left %v; want some, none left", name, counts[1], counts[2] == 1)
		}
		if want := 1 + i; counts[0] < want {
			t.Errorf("%s opened %d WebSockets to the laptop, want at least %d (phone-b: again after the drop)", name, counts[0], want)
		}
	}
}

// wifi stands for the Wi-Fi between a phone and the laptop's phones listener: a TCP relay on
// 127.0.0.1. drop cuts every connection through it and refuses new ones (accepted and closed
// at once, as a network that is gone); restore lets them through again. Chromium's own
// emulation cannot drop a WebSocket: Network.overrideNetworkState only sets navigator.onLine,
// and Network.emulateNetworkConditionsByRule offline holds an open WebSocket's frames without
// closing it (the table stalls; a close asked by the page then may wait past the spell).
type wifi struct {
	url   string // the phones' address through the relay
	to    string // the listener's host:port
	mu    sync.Mutex
	down  bool
	conns map[net.Conn]bool
}

func newWifi(t *testing.T, phonesURL string) *wifi {
	t.Helper()
	u, err := url.Parse(phonesURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w := &wifi{to: u.Host, conns: map[net.Conn]bool{}}
	u.Host = ln.Addr().String()
	w.url = u.String()
	t.Cleanup(func() {
		ln.Close()
		w.drop()
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go w.relay(c)
		}
	}()
	return w
}

// relay carries c to the listener and back, until either end closes or drop cuts it.
func (w *wifi) relay(c net.Conn) {
	w.mu.Lock()
	if w.down {
		w.mu.Unlock()
		c.Close()
		return
	}
	w.conns[c] = true
	w.mu.Unlock()
	defer w.forget(c)
	d, err := net.Dial("tcp", w.to)
	if err != nil {
		return
	}
	defer d.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(d, c); done <- struct{}{} }()
	go func() { io.Copy(c, d); done <- struct{}{} }()
	<-done
}

func (w *wifi) forget(c net.Conn) {
	w.mu.Lock()
	delete(w.conns, c)
	w.mu.Unlock()
	c.Close()
}

func (w *wifi) drop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.down = true
	for c := range w.conns {
		c.Close()
	}
}

func (w *wifi) restore() {
	w.mu.Lock()
	w.down = false
	w.mu.Unlock()
}
