package main

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	corruptia "corruption/engine/corruptia"
	"corruption/ui"
)

// TestBrowserLobbyGames: the lobby of corruption play (no --game, no --bots) in headless
// Chromium at 1366x768, by mouse and the page's menus: it lists the Corruptia table another
// player's node announces, with its game; a join code that no creator answers says within
// about 5 s that no table with that code was heard yet and that it still looks, with Cancel,
// which stops it; then the form's game set to Corrupted Kingdoms, its players to 4 and its bots
// to 3 creates a table that the page shows with Kingdoms' board. axe-core checks the lobby
// with Kingdoms' settings, in English. Interrupted at the board (exit 1). About 25 s.
func TestBrowserLobbyGames(t *testing.T) {
	if testing.Short() {
		t.Skip("the plain pass runs it; -short (the race pass) plays only TestBrowserGame's")
	}
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := artifacts(t)
	p := start(ctx, t, "play", "play", "--name", "ann", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	addr := p.waitLine(t, listenLine, 20*time.Second)[1]
	config, err := corruptia.EncodeConfig(corruptia.Config{Amendments: 2})
	if err != nil {
		t.Fatal(err)
	}
	strangerAt(t, ctx, addr, "bob", ui.TableChoice{Table: "senate", Game: "corruptia", Players: 5, Config: config})

	bctx := browserAt(t, ctx, 1366, 768, false)
	loadPage(t, bctx, url, "lobby of every game")
	waitFor(t, bctx, "bob's Corruptia table, listed with its game and settings", `(() => {
	  const li = document.querySelector('li.lobby-table[data-table="senate"][data-game="corruptia"]');
	  return !!li && li.querySelector('.game').textContent === 'Corruptia' && li.innerText.includes('up to 2 amendments a turn');
	})()`)

	// A join code nobody answers: "still looking" within about 5 s, and Cancel.
	typeInto(t, bctx, "#private-code", "2s-fn8-de6")
	click(t, bctx, "#private-go")
	began := time.Now()
	waitFor(t, bctx, "the lobby saying no table with that code was heard yet", `(() => {
	  const p = document.querySelector('#private-joining');
	  return !p.hidden && p.dataset.quiet === '1' && p.textContent.startsWith('No table with that code heard yet, still looking (for up to 2 min in all)') &&
	    !document.querySelector('#private-cancel').hidden;
	})()`)
	// A figure, not an assertion: the lobby says it at 5 s, on the next tick of its clock.
	t.Logf("\"still looking\" shown %v after the code was sent", time.Since(began).Round(100*time.Millisecond))
	checkAxe(t, bctx, "the lobby, looking for a private table")
	click(t, bctx, "#private-cancel")
	waitFor(t, bctx, "the search cancelled", `document.querySelector('#private-joining').hidden && document.querySelector('#private-cancel').hidden &&
	  !document.querySelector('#private-go').disabled && document.querySelector('#alerts').innerText === ''`)

	// Corrupted Kingdoms, 4 players, 3 bots of this machine.
	choose := func(sel, value string) {
		t.Helper()
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, sel, value))); err != nil {
			t.Fatal(err)
		}
	}
	choose("#game", "kingdoms")
	waitFor(t, bctx, "Kingdoms' settings in the form", `document.querySelector('#rules-choice') !== null && document.querySelector('#title').textContent === 'Corrupted Kingdoms'`)
	choose("#players", "4")
	choose("#bots", "3")
	waitFor(t, bctx, "3 bots chosen", `document.querySelector('#bots').value === '3' && document.querySelector('#bots-hint').textContent.startsWith('3 bots')`)
	checkInSight(t, bctx, "the lobby with Kingdoms' settings", false)
	screenshot(t, bctx, dir, "lobby-games", false)
	checkAxe(t, bctx, "the lobby with Kingdoms' settings")
	click(t, bctx, "#create")
	waitFor(t, bctx, "Kingdoms' board", `document.body.dataset.mode === 'game' &&
	  ['.senate .leader', '.kingdom .bill', '.market .favor'].every((s) => document.querySelector(s) !== null)`)
	screenshot(t, bctx, dir, "lobby-games-kingdoms", false)
	table, err := chromedp.Run(bctx, chromedp.Evaluate[string](`fetch('/api/state').then((r) => r.json()).then((st) =>
	  [st.table.game, st.table.players, st.table.bots, st.seats.map((s) => s.name).join(',')].join(' '))`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.HasPrefix(table, "kingdoms 4 3 ") || strings.Count(table, "bot ") != 3 {
		t.Errorf("the table: %q (%v), want Kingdoms with 4 players, 3 of them bots", table, err)
	}
	p.cmd.Process.Signal(syscall.SIGINT)
	if code := p.wait(t, 30*time.Second); code != 1 {
		t.Errorf("interrupted at the table: exit %d", code)
	}
}
