package main

// Corruptia in the browser: a person at a table with three local bots in headless Chromium says
// something in the table's chat beside the proposal, and plays its first decisions by clicking
// (a bill of the hand, a place, a worker for each vacancy).

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ctiaDecision is what the test reads of Corruptia's decision panel.
type ctiaDecision struct {
	Mode   string `json:"mode"`
	Kind   string `json:"kind"`
	ID     int    `json:"id"`
	NoBill bool   `json:"nobill"`
}

const ctiaReadDecision = `(() => {
  const b = document.body, d = document.querySelector('#decision');
  if (b.dataset.mode === 'over' && document.querySelector('#audit')) return {mode: 'over'};
  if (!d || d.dataset.kind === 'none' || Number(d.dataset.id) <= %d) return null;
  if (d.dataset.busy === '1') return null;
  return {mode: b.dataset.mode, kind: d.dataset.kind, id: Number(d.dataset.id), nobill: !!d.querySelector('[data-key="nobill"]')};
})()`

// ctiaPrivacy is true when no bill of another senator's hand that the page could not know is
// in the page's state: the page's hand is the person's, and the other seats show counts only.
const ctiaPrivacy = `fetch('/api/state').then((r) => r.json()).then((st) => !st.game ||
  (st.seats.every((s) => !('hand' in s)) && st.game.hand.length === st.seats[st.me.seat].bills))`

// markupLine is a chat line of markup, and markupShown is true once the page shows it as text:
// in the chat and in the log, as the person's own line, the speaker's name isolated with its
// seat, and no element or script made of it.
const (
	markupLine  = `<b>not bold</b> <img src=x onerror="document.body.dataset.pwned=1">`
	markupShown = `(() => {
  const lines = [...document.querySelectorAll('#chat-lines li.chatme, #log li.chatme')].filter((l) => l.textContent.includes('<img src=x onerror='));
  return lines.length === 2 && lines.every((l) => l.querySelector('.speaker bdi').textContent.startsWith('\u2068ann\u2069 (seat ') &&
    l.querySelector('bdi.said').textContent.includes('<b>not bold</b>')) &&
    document.querySelectorAll('#chat-lines img, #chat-lines b:not(.speaker), #log img').length === 0 && !document.body.dataset.pwned;
})()`
)

// TestCorruptiaBrowserChat: a person sits at a table of four with three local bots, says a line
// in the chat (and a line of markup, shown as text, its speaker isolated with the seat), at
// the first decisions; the page never holds another senator's bills. (The whole game, by the
// page's roles and names, is TestCorruptiaLearn's.)
func TestCorruptiaBrowserChat(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := artifacts(t)
	table := fmt.Sprintf("ctia-%d", time.Now().UnixNano()%1e6)
	p := start(ctx, t, "play", "play", "--game", "corruptia", "--name", "ann", "--table", table, "--players", "4", "--bots", "3",
		"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--ui", "127.0.0.1:0", "--no-open", "--json", "--timeout", "30s")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	bctx := browser(t, ctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatalf("the page does not load: %v", err)
	}
	last := 0
	for decisions := 0; decisions < 3; decisions++ {
		d, err := poll[ctiaDecision](bctx, fmt.Sprintf(ctiaReadDecision, last), 60*time.Second)
		if err != nil {
			screenshot(t, bctx, dir, "corruptia-stuck", true)
			t.Fatalf("waiting for a decision after decision %d: %v", last, err)
		}
		last = d.ID
		if private, err := chromedp.Run(bctx, chromedp.Evaluate[bool](ctiaPrivacy, chromedp.EvalAwaitPromise)); err != nil || !private {
			t.Fatalf("decision %d: the page's state holds what the person may not see (or cannot be read: %v)", d.ID, err)
		}
		if decisions == 0 {
			typeInto(t, bctx, "#chat-input", "I vote yes to any education bill, if you offer me an employee")
			click(t, bctx, "#chat-send")
			if _, err := poll[bool](bctx, `[...document.querySelectorAll('#chat-lines li.chatme')].some((l) => l.textContent.includes('offer me an employee'))`, 20*time.Second); err != nil {
				t.Fatalf("the chat does not show the person's line: %v", err)
			}
			// Markup in a chat line is text: no element is made of it, no script runs.
			typeInto(t, bctx, "#chat-input", markupLine)
			click(t, bctx, "#chat-send")
			if _, err := poll[bool](bctx, markupShown, 20*time.Second); err != nil {
				html, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#chat-lines').innerHTML`))
				t.Fatalf("the chat does not show the markup as text, with its speaker isolated and seated: %v\n%s", err, html)
			}
		}
		switch d.Kind {
		case "discard":
			click(t, bctx, "#decision .hand-card")
		case "propose":
			if d.NoBill {
				click(t, bctx, `#decision [data-key="nobill"]`)
				continue
			}
			click(t, bctx, "#decision .hand-card:not([disabled])")
			click(t, bctx, "#decision .cell-choice")
			for range 3 {
				click(t, bctx, "#decision .worker-choice")
			}
			click(t, bctx, "#propose")
		case "respond", "swap":
			click(t, bctx, `#decision [data-key="pass"]`)
		case "negotiate":
			click(t, bctx, `#decision [data-key="call"]`)
		case "vote":
			click(t, bctx, `#decision [data-key="vote:yes"]`)
		default:
			t.Fatalf("unknown decision %q", d.Kind)
		}
	}
}
