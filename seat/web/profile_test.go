package web

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"corruption/seat/web/internal/build"
)

// TestPhoneProfile (-phone.profile GAME-N) plays one table of GAME at N seats with the browser
// seat, as TestPhoneSeatPlays does, under Chromium's CPU profiler (DevTools' Profiler), and
// prints where the page's thread went: by part (the seat's Go, the page's scripts, the
// browser's own work, idle), then the functions that took the most, by their own time and
// with what they called. The .wasm is built for it with its functions' names (the committed
// one has none). -phone.throttle R slows the CPU R times (4: a stand-in for a phone). A tool
// for docs/PERFORMANCE.md ("The browser seat"), not a test: it asserts nothing.
//
//	go test ./seat/web -run TestPhoneProfile -v -args -phone.profile corruption-7 [-phone.throttle 4] [-phone.setup]
var (
	profileTable = flag.String("phone.profile", "", "TestPhoneProfile: the table to profile, GAME-N (corruption-7)")
	profileRate  = flag.Float64("phone.throttle", 1, "TestPhoneProfile: CPU throttling rate")
	profileTop   = flag.Int("phone.top", 60, "TestPhoneProfile: how many functions to list with what they called")
	profileSetup = flag.Bool("phone.setup", false, "TestPhoneProfile: profile the table's setup only (to the bots' first decision)")
)

// toolTable reads a tool's table, GAME-N (corruption-7), from its flag -name; an empty flag
// skips the tool (a tool runs only when asked).
func toolTable(t *testing.T, test, name, value string) (game string, n int) {
	t.Helper()
	if value == "" {
		t.Skipf("a tool: go test ./seat/web -run %s -v -args -%s corruption-7", test, name)
	}
	if _, err := fmt.Sscanf(strings.Replace(value, "-", " ", 1), "%s %d", &game, &n); err != nil {
		t.Fatalf("-%s %q: want GAME-N, as corruption-7", name, value)
	}
	return game, n
}

// openSeat opens the seat's page at url and waits for its seat to be ready.
func openSeat(t *testing.T, bctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`!!globalThis.corruptionSeat && !!document.body`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute))); err != nil {
		t.Fatal(err)
	}
}

// profiledWasm, when set, is the .wasm the test laptop serves instead of the committed one.
var profiledWasm []byte

func TestPhoneProfile(t *testing.T) {
	game, n := toolTable(t, "TestPhoneProfile", "phone.profile", *profileTable)
	profiledWasm = namedWasm(t)
	t.Cleanup(func() { profiledWasm = nil })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	l := newLaptop(t)
	choice := defaultChoice(t, "profile-"+game, game, n)
	bctx := phone(t, ctx)
	if _, err := chromedp.Call(bctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: *profileRate}); err != nil {
		t.Fatal(err)
	}
	// The profiler is the page's: started on the laptop's origin, it sees the seat's page from
	// its first script on.
	if err := chromedp.Do(bctx, chromedp.Navigate(strings.Replace(l.url, "/?", "/nothing?", 1))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bctx, profiler.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 500}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bctx, profiler.Start, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	openSeat(t, bctx, l.seatURL(t, choice))
	fd := newFirstDecision()
	nodes, wait := l.botsTimed(t, ctx, choice, n-1, fd)
	what := "the table's end"
	if *profileSetup {
		// The setup only: the profile stops at the bots' first decision.
		select {
		case <-fd.seen:
		case <-ctx.Done():
			t.Fatal("no decision")
		}
		what = "the bots' first decision"
	} else if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.mode === 'over'`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(25*time.Minute))); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	res, err := chromedp.Call(bctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	if *profileSetup {
		if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.mode === 'over'`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(25*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	wait()
	t.Logf("%s at %d seats, CPU throttled %gx: %.1fs from opening the page to %s, %d entries in the table\n%s",
		game, n, *profileRate, took.Seconds(), what, nodes[0].out.Entries, summary(res.Profile))
}

// namedWasm builds the browser seat with its functions' names.
func namedWasm(t *testing.T) []byte {
	t.Helper()
	root, err := build.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "seat.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, build.Main)
	cmd.Dir, cmd.Env = root, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the seat with names: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// summary is where a profile's time went: by part, then the top functions by self and by
// inclusive time.
func summary(p *profiler.Profile) string {
	byID := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, n := range p.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	name := func(n *profiler.ProfileNode) string {
		f := n.CallFrame
		if i := strings.LastIndex(f.URL, "/static/"); i >= 0 {
			return fmt.Sprintf("%s (%s:%d)", f.FunctionName, f.URL[i+len("/static/"):], f.LineNumber+1)
		}
		return f.FunctionName
	}
	self, incl, parts := map[string]float64{}, map[string]float64{}, map[string]float64{}
	total := 0.0
	for i, s := range p.Samples {
		if i+1 >= len(p.TimeDeltas) {
			break
		}
		d := float64(p.TimeDeltas[i+1]) / 1000 // the time until the next sample, in ms
		total += d
		self[name(byID[s])] += d
		part, seen := "", map[string]bool{}
		for id, ok := s, true; ok; id, ok = parent[id] {
			f := name(byID[id])
			if !seen[f] {
				seen[f] = true
				incl[f] += d
			}
			switch {
			case strings.HasPrefix(f, "wasm_export_"):
				part = "the seat's Go (wasm)"
			case part == "" && strings.Contains(f, ".js:"):
				part = "the page's and the loader's scripts"
			}
		}
		if part == "" {
			switch f := name(byID[s]); f {
			case "(idle)", "(program)", "(garbage collector)":
				part = map[string]string{"(idle)": "idle", "(program)": "the browser's own work outside scripts (style, layout, paint, storage, sockets)",
					"(garbage collector)": "JavaScript's garbage collector"}[f]
			default:
				part = "other"
			}
		}
		parts[part] += d
	}
	var b strings.Builder
	top := func(title string, m map[string]float64, k int) {
		type kv struct {
			k string
			v float64
		}
		var xs []kv
		for a, v := range m {
			xs = append(xs, kv{a, v})
		}
		sort.Slice(xs, func(i, j int) bool { return xs[i].v > xs[j].v })
		fmt.Fprintf(&b, "%s:\n", title)
		for _, x := range xs[:min(k, len(xs))] {
			fmt.Fprintf(&b, "%9.0f ms %5.1f%%  %s\n", x.v, 100*x.v/total, x.k)
		}
	}
	fmt.Fprintf(&b, "profiled: %.0f ms\n", total)
	top("by part", parts, 10)
	top("by own time", self, 30)
	top("with what they called", incl, *profileTop)
	return b.String()
}
