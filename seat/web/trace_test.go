package web

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

var traceTable = flag.String("phone.trace", "", "TestPhoneTrace: the table to trace, GAME-N (corruption-7)")

// TestPhoneTrace (-phone.trace GAME-N) plays one table with the browser seat under Chromium's
// tracing (DevTools' Performance panel records the same), and prints where the page's main
// thread went by the browser's own events, each counted for its own time (not its children's):
// the scripts (the seat's Go and the page's), style, layout, paint, the collectors, the
// network's messages... The CPU profile (TestPhoneProfile) names scripts' functions, but it
// lumps the rest as "(program)": this says what the rest is. A tool for docs/PERFORMANCE.md
// ("The browser seat"), not a test: it asserts nothing.
//
//	go test ./seat/web -run TestPhoneTrace -v -args -phone.trace corruption-7 [-phone.throttle 4]
func TestPhoneTrace(t *testing.T) {
	game, n := toolTable(t, "TestPhoneTrace", "phone.trace", *traceTable)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	l := newLaptop(t)
	choice := defaultChoice(t, "trace-"+game, game, n)
	bctx := phone(t, ctx)
	if _, err := chromedp.Call(bctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: *profileRate}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []traceEvent
	done := make(chan struct{})
	chromedp.Listen(bctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			batch := make([]traceEvent, 0, len(e.Value))
			for _, v := range e.Value {
				var te traceEvent
				if json.Unmarshal([]byte(v), &te) == nil {
					batch = append(batch, te)
				}
			}
			mu.Lock()
			events = append(events, batch...)
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(done)
		}
	})
	if _, err := chromedp.Call(bctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink.user_timing", "toplevel", "__metadata"}}}); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	openSeat(t, bctx, l.seatURL(t, choice))
	nodes, wait := l.bots(t, ctx, choice, n-1, nil)
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.mode === 'over'`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(25*time.Minute))); err != nil {
		t.Fatal(err)
	}
	wait()
	took := time.Since(began)
	if _, err := chromedp.Call(bctx, tracing.End, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the trace did not end")
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("%s at %d seats, CPU throttled %gx: %.1fs from opening the page to the table's end, %d entries; %d trace events\n%s",
		game, n, *profileRate, took.Seconds(), nodes[0].out.Entries, len(events), traceSummary(events))
}

type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceSummary is the main thread's time by event, self time (an event's duration less its
// children's), for the renderer's main thread(s).
func traceSummary(events []traceEvent) string {
	type key struct{ pid, tid int }
	main := map[key]bool{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), "CrRendererMain") {
			main[key{e.Pid, e.Tid}] = true
		}
	}
	byThread := map[key][]traceEvent{}
	for _, e := range events {
		k := key{e.Pid, e.Tid}
		if main[k] && e.Ph == "X" {
			byThread[k] = append(byThread[k], e)
		}
	}
	self, count := map[string]float64{}, map[string]int{}
	var busy float64
	for _, evs := range byThread {
		sort.Slice(evs, func(i, j int) bool {
			if evs[i].Ts != evs[j].Ts {
				return evs[i].Ts < evs[j].Ts
			}
			return evs[i].Dur > evs[j].Dur
		})
		type open struct {
			name     string
			end, kid float64
			dur      float64
		}
		var stack []open
		pop := func() {
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			self[o.name] += o.dur - o.kid
			if len(stack) > 0 {
				stack[len(stack)-1].kid += o.dur
			} else {
				busy += o.dur
			}
		}
		for _, e := range evs {
			for len(stack) > 0 && stack[len(stack)-1].end <= e.Ts {
				pop()
			}
			stack = append(stack, open{name: e.Name, end: e.Ts + e.Dur, dur: e.Dur})
			count[e.Name]++
		}
		for len(stack) > 0 {
			pop()
		}
	}
	names := make([]string, 0, len(self))
	for k := range self {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return self[names[i]] > self[names[j]] })
	var b strings.Builder
	fmt.Fprintf(&b, "    the renderer's main thread busy %.1fs; by event, own time:\n", busy/1e6)
	for i, k := range names {
		if i == 30 {
			break
		}
		fmt.Fprintf(&b, "    %8.0f ms %5.1f%%  %7d×  %s\n", self[k]/1e3, 100*self[k]/busy, count[k], k)
	}
	return b.String()
}
