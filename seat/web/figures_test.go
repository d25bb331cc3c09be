package web

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"corruption/engine"
	"corruption/ui"
)

var figures = flag.Bool("phone.figures", false, "TestPhoneFigures: time the browser seat at each game's largest table, with 4x CPU throttling, against an all-native table (minutes)")

// firstDecision records when any of the bots is first asked to decide: the end of the table's
// setup (keys, escrow, shuffles, proofs) as the bots see it.
type firstDecision struct {
	mu   sync.Mutex
	at   time.Time
	seen chan struct{} // closed at the first decision
}

func newFirstDecision() *firstDecision { return &firstDecision{seen: make(chan struct{})} }

func (f *firstDecision) wrap(p engine.Player) engine.Player { return &timed{f, p} }

type timed struct {
	f *firstDecision
	p engine.Player
}

func (t *timed) Decide(ctx context.Context, g engine.Game, s int) (engine.Action, error) {
	t.f.mu.Lock()
	if t.f.at.IsZero() {
		t.f.at = time.Now()
		close(t.f.seen)
	}
	t.f.mu.Unlock()
	return t.p.Decide(ctx, g, s)
}

// TestPhoneFigures (-phone.figures) prints, for each game at its largest table: the .wasm's
// size, the time from opening the phone's address to the seat ready (its .wasm loaded and
// started) and to the table formed, the table's setup (to the bots' first decision) and the
// whole table, with one seat in headless Chromium throttled 4x (a stand-in for a phone), and
// the same table with every seat native. Figures for docs/PERFORMANCE.md, not assertions.
func TestPhoneFigures(t *testing.T) {
	if !*figures {
		t.Skip("figures: go test ./seat/web -run TestPhoneFigures -v -timeout 60m -args -phone.figures")
	}
	raw, gz := Size()
	t.Logf("seat.wasm: %d bytes raw, %d as transferred (gzip -9)", raw, gz)
	for _, game := range []string{"corruption", "kingdoms", "corruptia"} {
		rules, _ := engine.Lookup(game)
		_, hi := rules.Players()
		t.Run(fmt.Sprintf("%s-%d", game, hi), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
			defer cancel()
			// Every seat native.
			l := newLaptop(t)
			choice := defaultChoice(t, "native-"+game, game, hi)
			fn := newFirstDecision()
			start := time.Now()
			nodes, wait := l.botsTimed(t, ctx, choice, hi, fn)
			wait()
			native, nativeSetup := time.Since(start), fn.at.Sub(start)
			for i, b := range nodes {
				if b.err != nil || b.out == nil || !b.out.Finished {
					t.Fatalf("native bot %d: %+v %v", i, b.out, b.err)
				}
			}
			// One seat in the browser, 4x slower.
			choice = defaultChoice(t, "phone-"+game, game, hi)
			fp := newFirstDecision()
			bctx := phone(t, ctx)
			if _, err := chromedp.Call(bctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4}); err != nil {
				t.Fatal(err)
			}
			poll := func(js string) time.Time {
				t.Helper()
				if _, err := chromedp.Run(bctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(15*time.Minute))); err != nil {
					t.Fatalf("waiting for %s: %v", js, err)
				}
				return time.Now()
			}
			if _, err := chromedp.Call(bctx, performance.Enable, performance.EnableParams{}); err != nil {
				t.Fatal(err)
			}
			opened := time.Now()
			if err := chromedp.Do(bctx, chromedp.Navigate(l.seatURL(t, choice))); err != nil {
				t.Fatal(err)
			}
			ready := poll(`!!globalThis.corruptionSeat`)
			start = time.Now()
			nodes, wait = l.botsTimed(t, ctx, choice, hi-1, fp)
			formed := poll(`['setup', 'game', 'over'].includes(document.body.dataset.mode)`)
			poll(`document.body.dataset.mode === 'over'`)
			wait()
			total := time.Since(start)
			for i, b := range nodes {
				if b.err != nil || b.out == nil || !b.out.Finished {
					t.Fatalf("bot %d at the phone's table: %+v %v", i, b.out, b.err)
				}
			}
			m, err := chromedp.Call(bctx, performance.GetMetrics, cdp.Empty{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("the page's thread, from opening: %s", pageMetrics(m.Metrics))
			t.Logf("%s at %d seats: open → seat ready %.1fs, → table formed %.1fs; setup %.1fs (native %.1fs), whole table %.1fs (native %.1fs), %d entries",
				game, hi, ready.Sub(opened).Seconds(), formed.Sub(ready).Seconds(), fp.at.Sub(start).Seconds(), nativeSetup.Seconds(),
				total.Seconds(), native.Seconds(), nodes[0].out.Entries)
		})
	}
}

// botsTimed starts n bot nodes whose players record the first decision in f.
func (l *laptop) botsTimed(t *testing.T, ctx context.Context, choice ui.TableChoice, n int, f *firstDecision) ([]*botNode, func()) {
	return l.botsWith(t, ctx, choice, n, nil, f.wrap)
}

// pageMetrics writes Chromium's own figures of the page's thread (CPU throttled, so in the
// phone's seconds): its tasks, the scripts as Chromium counts them (much of the seat's
// WebAssembly, run from the event loop's callbacks, falls outside them: TestPhoneTrace says
// more), the style recalculations and the layouts, with how many of each.
func pageMetrics(ms []*performance.Metric) string {
	v := map[string]float64{}
	for _, m := range ms {
		v[m.Name] = m.Value
	}
	return fmt.Sprintf("tasks %.1fs, scripts %.1fs, style %.1fs (%.0f), layout %.1fs (%.0f)",
		v["TaskDuration"], v["ScriptDuration"], v["RecalcStyleDuration"], v["RecalcStyleCount"], v["LayoutDuration"], v["LayoutCount"])
}
