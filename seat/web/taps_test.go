package web

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

var tapsTable = flag.String("phone.taps", "", "TestPhoneTaps: the table to play by taps, GAME-N (corruption-7)")

// TestPhoneTaps (-phone.taps GAME-N) plays a person's seat in headless Chromium at a phone's
// size, CPU throttled (-phone.throttle, 4 by default here), by touch: at each decision of the
// person's it taps a control of the decision (a choice, else a target on the board), as a
// person's finger does, against bots. The page itself times each tap, from the touch to the
// frame that first shows a change (the page's feedback), and for a tap that answers the
// decision, to the frame that shows the decision gone (the move taken by the seat and drawn).
// It prints their medians and 95th percentiles. A tool for docs/PERFORMANCE.md ("The browser
// seat"), not a test: it asserts nothing of the times.
//
//	go test ./seat/web -run TestPhoneTaps -v -args -phone.taps corruption-7 [-phone.throttle 4]
func TestPhoneTaps(t *testing.T) {
	game, n := toolTable(t, "TestPhoneTaps", "phone.taps", *tapsTable)
	rate := *profileRate
	if rate == 1 {
		rate = 4
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	l := newLaptop(t)
	choice := defaultChoice(t, "taps-"+game, game, n)
	bctx := phone(t, ctx)
	if _, err := chromedp.Call(bctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(choice)
	if err != nil {
		t.Fatal(err)
	}
	openSeat(t, bctx, l.url+"&name=ann&table="+base64.RawURLEncoding.EncodeToString(b)) // a person's seat: no &bot=1
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](tapTimer)); err != nil {
		t.Fatal(err)
	}
	nodes, wait := l.bots(t, ctx, choice, n-1, nil)
	tapped := map[string]bool{} // the controls tapped for the decision under way
	lastID, taps := "", 0
	for {
		keys, _ := json.Marshal(slices.AppendSeq(make([]string, 0, len(tapped)), maps.Keys(tapped))) // [] when none: never null
		target, err := chromedp.Run(bctx, chromedp.Poll[tapTarget](tapFind+"("+string(keys)+")", chromedp.WithPollingInterval(20*time.Millisecond),
			chromedp.WithPollingTimeout(2*time.Minute)))
		if err != nil {
			shown, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset) + ' ' + (document.getElementById('decision') || document.body).outerHTML.slice(0, 3000)`))
			t.Fatalf("after %d taps: %v; the page: %s", taps, err, shown)
		}
		if target.Over {
			break
		}
		if target.ID != lastID {
			clear(tapped)
			lastID = target.ID
		}
		tapped[target.Key] = true
		taps++
		if _, err := chromedp.Call(bctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart,
			TouchPoints: []*input.TouchPoint{{X: target.X, Y: target.Y}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(bctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd,
			TouchPoints: []*input.TouchPoint{}}); err != nil {
			t.Fatal(err)
		}
		// The next tap only once this one has shown its change (or a second has passed: a
		// tap that changes nothing, such as one on a choice already chosen).
		if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`(() => { const c = globalThis.__taps.at(-1); return !!c && (c.first > 0 || performance.now() - c.t0 > 1000); })()`,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	wait()
	for i, b := range nodes {
		if b.err != nil || b.out == nil || !b.out.Finished {
			t.Fatalf("bot %d: %+v %v", i, b.out, b.err)
		}
	}
	var timed []struct {
		First, Taken float64
		Kind, On     string
	}
	raw, err := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify(globalThis.__taps.map((c) => ({First: c.first, Taken: c.taken, Kind: c.kind, On: c.on})))`))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(raw), &timed); err != nil {
		t.Fatal(err)
	}
	var first, taken []float64
	delayed := 0
	for _, c := range timed {
		if c.First > 0 {
			first = append(first, c.First)
		}
		if c.Taken > 0 && game == "kingdoms" && (c.Kind == "answer" || c.Kind == "steal") {
			// An answer to a chaos waits for the table's delay (ui/kingdoms, AnswerDelay), by
			// the rules' design: what the page shows at once is that it waits.
			delayed++
		} else if c.Taken > 0 {
			taken = append(taken, c.Taken)
		}
		if c.Taken > 1000 || c.First > 1000 {
			t.Logf("a slow tap: %s on %q: first change %.0f ms, answered %.0f ms", c.Kind, c.On, c.First, c.Taken)
		}
	}
	t.Logf("%s at %d seats, CPU throttled %gx, %d taps: touch → the page's first change: median %s, 95th %s (%d taps); touch → the decision answered and drawn: median %s, 95th %s (%d decisions; %d answers held for the table's delay left out)",
		game, n, rate, taps, quantile(first, .5), quantile(first, .95), len(first), quantile(taken, .5), quantile(taken, .95), len(taken), delayed)
}

type tapTarget struct {
	Over bool    `json:"over"`
	X    float64 `json:"x,omitempty"`
	Y    float64 `json:"y,omitempty"`
	ID   string  `json:"id,omitempty"`
	Key  string  `json:"key,omitempty"`
}

// quantile is the q-quantile of ms (nearest rank), in milliseconds.
func quantile(ms []float64, q float64) string {
	if len(ms) == 0 {
		return "-"
	}
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return fmt.Sprintf("%.0f ms", s[max(0, min(i, len(s)-1))])
}

// tapTimer, in the page: each touch opens a record {t0, id (the decision drawn then), first,
// taken}; a change of the page's DOM after it stamps, at the next frame, first (any change)
// and taken (the decision drawn is another one, or none).
const tapTimer = `(() => {
  const taps = globalThis.__taps = [];
  const drawnID = () => { const d = document.querySelector('#decision'); return d ? d.dataset.id || '' : ''; };
  let cur = null;
  addEventListener('touchstart', (e) => { const d = document.querySelector('#decision'); cur = {t0: performance.now(), id: drawnID(), kind: d ? d.dataset.kind || '' : '', on: (e.target.closest('[data-key]') || e.target).dataset.key || e.target.textContent.trim().slice(0, 30), first: 0, taken: 0}; taps.push(cur); }, true);
  new MutationObserver(() => {
    const c = cur;
    if (!c) return;
    if (!c.first) requestAnimationFrame(() => { if (!c.first) c.first = performance.now() - c.t0; });
    if (!c.taken && drawnID() !== c.id) requestAnimationFrame(() => { if (!c.taken) c.taken = performance.now() - c.t0; });
  }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  return true;
})()`

// tapFind, in the page, called with the keys already tapped for this decision: the point to
// tap of the decision due (null while none is, or while it is busy), or {over: true}.
const tapFind = `((tapped) => {
  if (document.body.dataset.mode === 'over') return {over: true};
  const panel = document.querySelector('#decision.mine');
  if (!panel || panel.dataset.busy === '1' || panel.getAttribute('aria-busy') === 'true') return null;
  const id = panel.dataset.id || '';
  const sels = ['#decision button.choice:not(.back)', '#board button.target', '#board button.place-here', '#board button.cell-slot',
    '#decision button:not(.back):not(#sheet-toggle)'];
  const seen = [];
  for (const s of sels) for (const b of document.querySelectorAll(s)) {
    if (b.disabled || seen.includes(b)) continue;
    seen.push(b);
  }
  const keyOf = (b) => b.dataset.key || b.textContent.trim().slice(0, 40);
  const order = seen.filter((b) => !tapped.includes(keyOf(b))).concat(seen.filter((b) => tapped.includes(keyOf(b))));
  for (const pick of order) {
    pick.scrollIntoView({block: 'center'});
    const r = pick.getBoundingClientRect();
    const x = r.x + r.width / 2, y = r.y + r.height / 2;
    const top = document.elementFromPoint(x, y);
    if (top && pick.contains(top)) return {x, y, id, key: keyOf(pick)};
  }
  return null;
})`
