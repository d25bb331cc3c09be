package main

// Corruptia in the browser: a person plays a whole game against three local bots in headless
// Chromium, by clicking (a bill of the hand, a cell of the wall, a worker for each vacancy), and
// says something in the table's chat beside the proposal.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
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

// ctiaPickWorker fills vacancy k with the first official of its income, else the first
// employee, that the vacancies before it leave free.
const ctiaPickWorker = `((k) => {
  const sels = [...document.querySelectorAll('#decision .worker-select')];
  const used = {};
  sels.slice(0, k).forEach((s) => { used[s.value] = (used[s.value] || 0) + 1; });
  const opts = [...sels[k].options].filter((o) => o.value);
  const free = (o) => (used[o.value] || 0) < Number(o.dataset.count);
  const pick = opts.find((o) => o.dataset.kind === 'official' && free(o)) || opts.find(free);
  if (!pick) return false;
  sels[k].value = pick.value;
  sels[k].dispatchEvent(new Event('change', {bubbles: true}));
  return true;
})(%d)`

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

// TestCorruptiaBrowserGame: a person sits at a table of four with three local bots, says a line
// in the chat (and a line of markup, shown as text), and plays the whole game by clicking; the page never holds another senator's
// bills, its final scores are the node's outcome, and the audit is valid.
func TestCorruptiaBrowserGame(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
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
	said, shots := false, map[string]bool{}
	last, proposals, votes := 0, 0, 0
	for {
		d, err := chromedp.Run(bctx, chromedp.Poll[ctiaDecision](fmt.Sprintf(ctiaReadDecision, last), chromedp.WithPollingTimeout(60*time.Second)))
		if err != nil {
			screenshot(t, bctx, dir, "corruptia-stuck", true)
			alert, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#alerts').textContent`))
			t.Fatalf("waiting for a decision after decision %d: %v (alerts: %s)", last, err, alert)
		}
		if d.Mode == "over" {
			break
		}
		last = d.ID
		if private, err := chromedp.Run(bctx, chromedp.Evaluate[bool](ctiaPrivacy, chromedp.EvalAwaitPromise)); err != nil || !private {
			t.Fatalf("decision %d: the page's state holds what the person may not see (or cannot be read: %v)", d.ID, err)
		}
		if !said {
			typeInto(t, bctx, "#chat-input", "I vote yes to any education bill, if you offer me an employee")
			click(t, bctx, "#chat-send")
			if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`[...document.querySelectorAll('#chat-lines li.chatme')].some((l) => l.textContent.includes('offer me an employee'))`,
				chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatalf("the chat does not show the person's line: %v", err)
			}
			// Markup in a chat line is text: no element is made of it, no script runs.
			typeInto(t, bctx, "#chat-input", markupLine)
			click(t, bctx, "#chat-send")
			if _, err := chromedp.Run(bctx, chromedp.Poll[bool](markupShown, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				html, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#chat-lines').innerHTML`))
				t.Fatalf("the chat does not show the markup as text, with its speaker isolated and seated: %v\n%s", err, html)
			}
			said = true
		}
		if !shots[d.Kind] && (d.Kind == "propose" || d.Kind == "vote" || d.Kind == "respond") {
			shots[d.Kind] = true
			screenshot(t, bctx, dir, "corruptia-"+d.Kind, false)
		}
		switch d.Kind {
		case "discard":
			click(t, bctx, "#decision .hand-card")
		case "propose":
			if d.NoBill {
				click(t, bctx, `#decision [data-key="nobill"]`)
				continue
			}
			pickProposal(t, bctx, d.ID)
			if proposals == 0 {
				screenshot(t, bctx, dir, "corruptia-proposal", false)
			}
			proposals++
			click(t, bctx, "#propose")
		case "respond", "swap":
			click(t, bctx, `#decision [data-key="pass"]`)
		case "negotiate":
			click(t, bctx, `#decision [data-key="call"]`)
		case "vote":
			votes++
			click(t, bctx, `#decision [data-key="vote:yes"]`)
		default:
			t.Fatalf("unknown decision %q", d.Kind)
		}
	}
	type pageResult struct {
		Scores map[string]int `json:"scores"`
		Valid  bool           `json:"valid"`
		Audit  string         `json:"audit"`
		Chat   string         `json:"chat"`
	}
	res, err := chromedp.Run(bctx, chromedp.Evaluate[pageResult](`({
	  scores: Object.fromEntries([...document.querySelectorAll('.final-score')].map((e) => [e.dataset.seat, Number(e.dataset.value)])),
	  valid: document.querySelector('#audit').dataset.valid === '1',
	  audit: document.querySelector('#audit').textContent,
	  chat: (document.querySelector('#chat-lines') || {textContent: ''}).textContent})`))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, bctx, dir, "corruptia-results", false)
	if !res.Valid {
		t.Errorf("the page's audit: %s", res.Audit)
	}
	if !strings.Contains(res.Chat, "offer me an employee") {
		t.Errorf("the chat at the end shows %q", res.Chat)
	}
	click(t, bctx, "#leave")
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("play exited %d\nstderr:\n%s", code, p.stderr.String())
	}
	var out outcome
	if err := json.Unmarshal([]byte(lastLine(p.stdout.String())), &out); err != nil {
		t.Fatalf("play --json: %v\n%s", err, p.stdout.String())
	}
	if !out.Finished || len(out.Scores) != 4 {
		t.Fatalf("outcome: %+v", out)
	}
	for seat, score := range out.Scores {
		if got, ok := res.Scores[fmt.Sprint(seat)]; !ok || got != score {
			t.Errorf("seat %d: the page shows %d, the node's outcome says %d", seat, got, score)
		}
	}
	t.Logf("%d proposals and %d votes clicked; final scores %v (seat %d is the person); %s", proposals, votes, out.Scores, out.Seat, res.Audit)
}

// pickProposal picks, in the decision panel, a bill of the hand, its first open cell and a
// worker for each of its three vacancies. The picks are clicks at the points where the buttons
// were drawn: a click that lands elsewhere because the page moved in between (a state arriving
// between finding a button and clicking it) leaves the vacancies unshown, and the picks are
// made again, up to three times; the page must keep picks that did land.
func pickProposal(t *testing.T, bctx context.Context, id int) {
	t.Helper()
	const vacancies = `document.querySelectorAll('#decision .worker-select').length === 3`
	for try := 1; ; try++ {
		click(t, bctx, "#decision .hand-card:not([disabled])")
		click(t, bctx, "#decision .cell-choice")
		shown, err := chromedp.Run(bctx, chromedp.Poll[bool](vacancies, chromedp.WithPollingTimeout(5*time.Second)))
		if err == nil && shown {
			break
		}
		panel, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`(document.querySelector('#decision') || {}).innerText || ''`))
		if try == 3 {
			screenshot(t, bctx, artifacts(t), failShot(t, "corruptia-no-vacancies"), true)
			t.Fatalf("decision %d: no vacancies to fill after picking a bill and a cell %d times; the panel says:\n%s", id, try, panel)
		}
		t.Logf("decision %d: no vacancies shown after picking a bill and a cell (try %d); the panel says:\n%s", id, try, panel)
	}
	for k := range 3 {
		ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(ctiaPickWorker, k)))
		if err != nil || !ok {
			t.Fatalf("decision %d, vacancy %d: no worker to pick (%v)", id, k, err)
		}
	}
}
