package main

// The browser end to end: corruption play in its lobby, a person who plays whole games in
// headless Chromium against local bots, and the page's results checked against the node's
// outcome. Three people: one with a mouse at 1366x768 (every decision's controls must be in
// sight without scrolling the page), one on a 390x844 phone (no sideways scroll; the decision's
// sheet leaves what it asks about in sight), and one with the keyboard alone. axe-core checks
// the page's accessibility on each kind of screen, in English, Spanish and French. Everything
// runs on 127.0.0.1 with --no-mdns. No assertion is on time.
//
// Environment:
//
//	ARTIFACTS               where the screenshots go (default: the test's temporary directory)
//	CORRUPTION_SCREENSHOTS  also save the docs' screenshots there (lobby, corruption, awarding...)
//	CI=true                 a missing browser, or a missing axe-core, fails the test rather than
//	                        skipping it (.ci/run installs axe-core under .ci/node)
//	CORRUPTION_CHROMIUM     the browser to drive (default: Debian's chromium-headless-shell, else
//	                        its chromium: ui/browsertest)

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"corruption/engine/corruption"
	"corruption/p2p"
	"corruption/ui"
	"corruption/ui/browsertest"
)

// axePath is axe-core's script, as .ci/run installs it (npm install --prefix .ci/node).
const axePath = "../../.ci/node/node_modules/axe-core/axe.min.js"

// openLine is the line play prints with the page's address.
var openLine = regexp.MustCompile(`^open (http://127\.0\.0\.1:\d+/\?key=\w+)$`)

// needChromium returns the browser, or skips the test (fails it under CI) when there is none.
// The browser tests are the full test command's (scripts/test.sh), not the inner loop's: they
// skip in -short mode, where ui's tests check the page's handlers.
// needLong skips a test of the long set: an end-to-end run that the test command's other tests
// cover for the most part, run with CORRUPTION_LONG=1 (or CORRUPTION_EVENING_ALL=1) before a
// release or after a change to what it holds (docs/PERFORMANCE.md, "The test command").
func needLong(t *testing.T, coveredBy string) {
	t.Helper()
	if os.Getenv("CORRUPTION_LONG") != "1" && os.Getenv("CORRUPTION_EVENING_ALL") != "1" {
		t.Skip("of the long set, CORRUPTION_LONG=1: " + coveredBy)
	}
}

func needChromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: skipped in -short mode")
	}
	return browsertest.Need(t, false)
}

// browser gives the test a tab of the shared headless Chromium at 1440x900; it is closed when
// the test ends.
func browser(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	return browserAt(t, ctx, 1440, 900, false)
}

// The browser tests share one headless Chromium, started by the first of them and stopped by
// TestMain (a start costs a second or two of a core, and the tests run side by side). Each test
// has a tab in a browser context of its own: storage and cookies as in a fresh browser, closed
// with the tab when the test ends.
var chromium struct {
	once sync.Once
	ctx  context.Context // the browser's first tab, which holds the browser
	err  error
	stop func()
}

// sharedBrowser starts the shared Chromium once.
func sharedBrowser(path string) (context.Context, error) {
	chromium.once.Do(func() {
		dir, err := os.MkdirTemp("", "corruption-chromium-")
		if err != nil {
			chromium.err = err
			return
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.NoFirstRun,
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("lang", "en-US"),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1440, 900),
		)
		bctx, cancel := chromedp.NewContext(actx)
		chromium.stop = func() {
			cancel()
			cancelAlloc()
			os.RemoveAll(dir)
		}
		if err := chromedp.Do(bctx); err != nil {
			chromium.err = err
			return
		}
		chromium.ctx = bctx
	})
	return chromium.ctx, chromium.err
}

// stopBrowser stops the shared Chromium, if a test started it.
func stopBrowser() {
	if chromium.stop != nil {
		chromium.stop()
	}
}

// browserAt gives the test a tab of the shared Chromium, in a browser context of its own,
// showing pages at width x height (a phone's, with touch, when mobile). The tab is closed when
// the test ends, or when ctx does.
func browserAt(t *testing.T, ctx context.Context, width, height int, mobile bool) context.Context {
	t.Helper()
	path := needChromium(t)
	root, err := sharedBrowser(path)
	if err != nil {
		t.Fatalf("cannot start %s: %v", path, err)
	}
	bctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	stop := context.AfterFunc(ctx, cancel)
	t.Cleanup(func() {
		stop()
		cancel()
	})
	var opts []chromedp.EmulateViewportOption
	if mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(int64(width), int64(height), opts...)); err != nil {
		t.Fatalf("cannot open a tab of %s: %v", path, err)
	}
	return bctx
}

// artifacts is where screenshots go: $ARTIFACTS, or a directory of the test's.
func artifacts(t *testing.T) string {
	dir := os.Getenv("ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// failShot names a screenshot taken as a test fails, by the test: the browser tests run side
// by side and may share $ARTIFACTS.
func failShot(t *testing.T, what string) string {
	return strings.ReplaceAll(t.Name(), "/", "-") + "-" + what
}

func screenshot(t *testing.T, bctx context.Context, dir, name string, full bool) {
	t.Helper()
	// Two animation frames: what the page last rendered is painted.
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	// Taken only where it is kept: $ARTIFACTS or the docs. By default they would go to the
	// test's temporary directory, removed as the test ends, and each costs the browser an
	// encoding of the page (80 of them in the test command: docs/PERFORMANCE.md).
	docs := os.Getenv("CORRUPTION_SCREENSHOTS")
	if os.Getenv("ARTIFACTS") == "" && docs == "" {
		return
	}
	act := chromedp.CaptureScreenshot()
	if full {
		act = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(bctx, act)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if docs != "" && !full {
		if err := os.WriteFile(filepath.Join(docs, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// stranger is another player's node on the lobby, a session as play runs it: it waits at its
// own table, which never fills, and announces it. It dials peer (unless ""), and returns its
// loopback address for others to dial. It stops when the test ends.
func stranger(t *testing.T, ctx context.Context, peer, name, table string, players int, v corruption.Variant, lbb bool) string {
	t.Helper()
	return strangerAt(t, ctx, peer, name, ui.TableChoice{Table: table, Game: "corruption", Players: players, Config: corruption.EncodeConfig(v, lbb)})
}

// strangerAt is a stranger waiting at the table choice, of any game.
func strangerAt(t *testing.T, ctx context.Context, peer, name string, choice ui.TableChoice) string {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	var peers []string
	if peer != "" {
		peers = []string{peer}
	}
	s, err := openSession(ctx, sessionConfig{listen: []string{p2p.DefaultListen}, peers: peers})
	if err != nil {
		t.Fatal(err)
	}
	addr := ""
	for _, a := range s.host.Addrs() {
		if strings.HasPrefix(a, "/ip4/127.0.0.1/") {
			addr = a
		}
	}
	player, err := botPlayer(games[choice.Game], 1)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		s.play(ctx, seat{choice: choice, name: name, player: player, lobby: true, clock: playClock})
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		s.close()
	})
	return addr
}

// pageDecision is what the test reads of the decision panel.
type pageDecision struct {
	Mode      string   `json:"mode"`
	Kind      string   `json:"kind"`
	ID        int      `json:"id"`
	Placed    int      `json:"placed"`
	Round     int      `json:"round"`
	Cards     []string `json:"cards"`     // the hand cards that can be placed
	Cheapest  string   `json:"cheapest"`  // the cheapest contract on the table
	Replaying bool     `json:"replaying"` // an awarding is played again on the board, or in the bar above it
}

const readDecision = `(() => {
  const b = document.body, d = document.querySelector('#decision');
  if (b.dataset.mode === 'over' && document.querySelector('#audit')) return {mode: 'over'};
  if (!d || d.dataset.kind === 'none' || Number(d.dataset.id) <= %d) return null;
  if (d.dataset.busy === '1') return null;
  const live = [...document.querySelectorAll('#board:not(.replaying) .spot.contract')].map((e) => [Number(e.dataset.value), e.dataset.spot]);
  live.sort((a, b) => a[0] - b[0]);
  return {mode: b.dataset.mode, kind: d.dataset.kind, id: Number(d.dataset.id), placed: Number(d.dataset.placed), round: Number(d.dataset.round),
    cards: [...d.querySelectorAll('.hand-card:not([disabled])')].map((e) => e.dataset.card),
    cheapest: live.length ? live[0][1] : '', replaying: !!document.querySelector('#board.replaying, #replay-watch')};
})()`

// privacyCheck is true when every card the page's API shows is the person's own, public, one
// the person peeked at, or one of an open seat's (its player left: every node knows its cards,
// protocol/depart.go).
const privacyCheck = `fetch('/api/state').then((r) => r.json()).then((st) =>
  !st.game || st.game.cards.every((c) => !c.card || c.mine || c.revealed || c.peeked || (st.seats || []).some((s) => s.seat === c.seat && s.open)))`

// inSight lists the decision's controls that are not wholly in the window, or hidden by
// something else, or cut off by a scrolling box; and whether the page itself scrolls.
const inSight = `(() => {
  const vw = innerWidth, vh = innerHeight, doc = document.scrollingElement;
  const hidden = [];
  for (const el of document.querySelectorAll('#decision button, #decision input, #decision select, #decision summary')) {
    if (el.tagName !== 'SUMMARY' && el.closest('details:not([open])')) continue; // folded on purpose
    const r = el.getBoundingClientRect();
    let ok = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5;
    for (let p = el.parentElement; ok && p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(s.overflowX + s.overflowY)) {
        const pr = p.getBoundingClientRect();
        ok = r.top >= pr.top - 0.5 && r.bottom <= pr.bottom + 0.5 && r.left >= pr.left - 0.5 && r.right <= pr.right + 0.5;
      }
    }
    if (ok) {
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      ok = top === el || el.contains(top);
    }
    if (!ok) hidden.push(el.dataset.key || el.textContent.trim().slice(0, 30));
  }
  // (A phone's browser zooms out a page wider than its screen: innerWidth grows with it, the
  // layout's width does not.)
  const wide = doc.scrollWidth > Math.min(vw, document.documentElement.clientWidth) + 1;
  return {hidden, scrolls: doc.scrollHeight > vh + 1 || wide, sideways: wide};
})()`

// sight is what inSight answers.
type sight struct {
	Hidden   []string `json:"hidden"`
	Scrolls  bool     `json:"scrolls"`
	Sideways bool     `json:"sideways"`
}

// checkInSight fails the test when a decision's control is out of sight or the page scrolls
// (on a laptop's screen), or when the page scrolls sideways (on a phone's).
func checkInSight(t *testing.T, bctx context.Context, what string, laptop bool) {
	t.Helper()
	s, err := chromedp.Run(bctx, chromedp.Evaluate[sight](inSight))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if s.Sideways {
		t.Errorf("%s: the page scrolls sideways", what)
	}
	if laptop && (s.Scrolls || len(s.Hidden) > 0) {
		screenshot(t, bctx, artifacts(t), failShot(t, "out-of-sight"), false)
		t.Errorf("%s: the page scrolls (%v) or the decision's controls %q are out of sight", what, s.Scrolls, s.Hidden)
	}
}

// point is where to click.
type point struct{ X, Y float64 }

// clickable finds the enabled element sel, scrolls it into view and returns its centre, once
// the element there is sel (or inside it); null until then.
const clickable = `(sel) => {
  const el = document.querySelector(sel);
  if (!el || el.disabled) return null;
  el.scrollIntoView({block: 'center', inline: 'center'});
  const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  return top && (top === el || el.contains(top)) ? {x, y} : null;
}`

// click clicks the element sel with the mouse, as a person would, once it is there.
func click(t *testing.T, bctx context.Context, sel string) {
	t.Helper()
	p, err := pollCall[point](bctx, clickable, 20*time.Second, sel)
	if err != nil {
		screenshot(t, bctx, artifacts(t), failShot(t, "stuck"), true)
		t.Fatalf("no %s to click: %v", sel, err)
	}
	if err := chromedp.Do(bctx, chromedp.MouseClickXY(p.X, p.Y)); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// typeInto focuses the text field sel, selects what it holds and types text over it.
func typeInto(t *testing.T, bctx context.Context, sel, text string) {
	t.Helper()
	click(t, bctx, sel)
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.select(); return true; })()`, sel))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.KeyEvent(text)); err != nil {
		t.Fatalf("typing into %s: %v", sel, err)
	}
}

func pressKey(t *testing.T, bctx context.Context, k string, opts ...chromedp.KeyOption) {
	t.Helper()
	if err := chromedp.Do(bctx, chromedp.KeyEvent(k, opts...)); err != nil {
		t.Fatalf("key %q: %v", k, err)
	}
}

// waitFor waits until the expression holds.
func waitFor(t *testing.T, bctx context.Context, what, expr string) {
	t.Helper()
	if _, err := poll[bool](bctx, expr, 30*time.Second); err != nil {
		screenshot(t, bctx, artifacts(t), failShot(t, "stuck"), true)
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// waitAcrossReload waits until the expression holds in a page that reloads itself meanwhile
// (a wait cut short by the reload is taken up again in the new page).
func waitAcrossReload(t *testing.T, bctx context.Context, what, expr string) {
	t.Helper()
	var err error
	for range 5 {
		if _, err = poll[bool](bctx, expr, 30*time.Second); err == nil {
			return
		}
		if strings.Contains(err.Error(), "timeout") { // not the reload: the page never got there
			break
		}
	}
	screenshot(t, bctx, artifacts(t), failShot(t, "stuck"), true)
	t.Fatalf("waiting for %s: %v", what, err)
}

// axeViolation is one serious or critical violation axe-core found.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeScript is axe-core, read once; "" when it is not installed (the check is then skipped,
// except under CI).
var axeScript = func() string {
	b, err := os.ReadFile(axePath)
	if err != nil {
		return ""
	}
	return string(b)
}()

// checkAxe runs axe-core on the page as it stands and fails the test on any serious or
// critical violation.
func checkAxe(t *testing.T, bctx context.Context, screen string) {
	t.Helper()
	if axeScript == "" {
		msg := fmt.Sprintf("no accessibility check: axe-core is not at %s (npm install --prefix .ci/node axe-core)", axePath)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Log(msg)
		return
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`typeof axe !== 'undefined' || (0, eval)(`+jsString(axeScript)+`) || true`)); err != nil {
		t.Fatalf("cannot load axe-core: %v", err)
	}
	vs, err := chromedp.Run(bctx, chromedp.Evaluate[[]axeViolation](`axe.run(document, {resultTypes: ['violations']}).then((r) =>
	  r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) =>
	    ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 160))})))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", screen, err)
	}
	lang, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.documentElement.lang`))
	for _, v := range vs {
		t.Errorf("axe, %s (%s): %s %s: %s %q", screen, lang, v.Impact, v.ID, v.Help, v.Nodes)
	}
	if len(vs) == 0 {
		t.Logf("axe, %s (%s): no serious or critical violation", screen, lang)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// inLanguages switches the page to each language, waits for its words, runs axe and comes
// back to English. check, when set, is an expression true once the screen is drawn anew.
func inLanguages(t *testing.T, bctx context.Context, screen string, langs []string, check map[string]string) {
	t.Helper()
	for _, l := range langs {
		setLang(t, bctx, l)
		if c := check[l]; c != "" {
			waitFor(t, bctx, screen+" in "+l, c)
		}
		checkAxe(t, bctx, screen)
	}
	setLang(t, bctx, "en")
}

// setLang picks a language in the page's own menu and waits until the page speaks it.
func setLang(t *testing.T, bctx context.Context, lang string) {
	t.Helper()
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const s = document.querySelector('#lang'); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, lang))); err != nil {
		t.Fatal(err)
	}
	// The page's own words, then the state the server tells in that language.
	waitFor(t, bctx, "the page in "+lang, fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('#help-button').textContent !== '' && document.body.dataset.lang === %[1]q`, lang))
}

// loadPage opens the page and logs how long its first render of the state took.
func loadPage(t *testing.T, bctx context.Context, url, load string) {
	t.Helper()
	began := time.Now()
	if err := chromedp.Do(bctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatalf("the page does not load: %v", err)
	}
	loaded := time.Since(began)
	readyMs, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.dataset.readyMs`))
	if err != nil {
		t.Fatal(err)
	}
	// A figure, not an assertion: a loaded machine makes any time limit flaky (the figures are
	// in docs/PERFORMANCE.md).
	t.Logf("page load on loopback (%s): %s ms from navigation start to the first render of the state (%v seen from the test)", load, readyMs, loaded.Round(time.Millisecond))
	if readyMs == "" {
		t.Errorf("the page did not record when it first rendered the state (body[data-ready-ms])")
	}
}

// steer is how a person plays, whatever the screen: it answers each decision by clicking (or
// tapping) the page's own controls, steered so that a Swiss assignment and a reporter's choice
// come up, watches an awarding played again once, and checks what each screen must show.
type steer struct {
	t        *testing.T
	bctx     context.Context
	dir      string
	suffix   string // of the screenshots' names ("" at 1366x768, "-phone")
	laptop   bool   // every control in sight without scrolling
	target   string // the contract the person's reporter goes to
	assigned bool
	removed  bool
	shots    map[string]bool
	watched  bool // an awarding was played again and stepped through
	langs    bool // the placing screen was checked in every language
	logAt    int  // the decision at which the person scrolled the log up to read it
	logKept  bool // the log kept the reader's place, then jumped to the latest

	each func(d pageDecision) // when set, called at each decision before it is answered
}

func (s *steer) shot(name string) {
	if !s.shots[name] {
		s.shots[name] = true
		screenshot(s.t, s.bctx, s.dir, name+s.suffix, false)
	}
}

// play answers the decisions until the results show.
func (s *steer) play() {
	t, bctx := s.t, s.bctx
	last := 0
	for {
		d, err := poll[pageDecision](bctx, fmt.Sprintf(readDecision, last), 60*time.Second)
		if err != nil {
			screenshot(t, bctx, s.dir, "stuck", true)
			t.Fatalf("waiting for a decision after decision %d: %v", last, err)
		}
		if d.Mode == "over" {
			return
		}
		last = d.ID
		private, err := chromedp.Run(bctx, chromedp.Evaluate[bool](privacyCheck, chromedp.EvalAwaitPromise))
		if err != nil || !private {
			t.Fatalf("decision %d: the page's state shows another seat's hidden card (or cannot be read: %v)", d.ID, err)
		}
		if s.each != nil {
			s.each(d)
		}
		if d.Replaying {
			s.replay(d)
		}
		checkInSight(t, bctx, fmt.Sprintf("decision %d (%s)", d.ID, d.Kind), s.laptop)
		if !s.laptop && d.Kind != "place" {
			s.askedInSight(d)
		}
		if s.laptop {
			s.readLog(d)
		}
		switch d.Kind {
		case "place":
			s.place(d)
		case "assign":
			s.shot("assign")
			if !s.assigned {
				checkAxe(t, bctx, "a Swiss assignment")
				if s.laptop {
					inLanguages(t, bctx, "a Swiss assignment", []string{"es", "fr"}, nil)
				}
				click(t, bctx, "#board button.place-here[data-contract]") // on the board
			} else {
				click(t, bctx, "#decision button.choice")
			}
			s.assigned = true
		case "remove":
			s.shot("reporter")
			if !s.removed {
				checkAxe(t, bctx, "a reporter's choice")
				if s.laptop {
					inLanguages(t, bctx, "a reporter's choice", []string{"es", "fr"}, nil)
				}
				click(t, bctx, `#board button.card.target[data-act="remove"]`) // the bribe, on the board
			} else {
				click(t, bctx, "#decision button.pass")
			}
			s.removed = true
		case "kill", "faceup":
			click(t, bctx, "#decision button.choice")
		default:
			t.Fatalf("unknown decision %q", d.Kind)
		}
	}
}

// askedInSight fails the test when the card a decision is about is not in sight above the
// decision's sheet (on a phone).
func (s *steer) askedInSight(d pageDecision) {
	where, err := chromedp.Run(s.bctx, chromedp.Evaluate[string](`(() => {
	  const c = document.querySelector('#board .card.current'), sheet = document.querySelector('#decision-slot');
	  if (!c) return 'no card is outlined';
	  const r = c.getBoundingClientRect(), top = sheet.getBoundingClientRect().top;
	  return r.top >= 0 && r.bottom <= top + 1 ? '' : 'the card is at ' + Math.round(r.top) + '-' + Math.round(r.bottom) + ', the sheet from ' + Math.round(top);
	})()`))
	if err != nil || where != "" {
		screenshot(s.t, s.bctx, artifacts(s.t), failShot(s.t, "asked-hidden"), false)
		s.t.Errorf("decision %d (%s): what it asks about is not in sight above the sheet: %s %v", d.ID, d.Kind, where, err)
	}
}

// readLog scrolls the log up with the mouse wheel in round 3, as a reader does, and three
// decisions later checks that the log kept the reader's place and offers the latest lines, then
// jumps there.
func (s *steer) readLog(d pageDecision) {
	t, bctx := s.t, s.bctx
	switch {
	case s.logAt == 0 && d.Round == 3:
		c, err := chromedp.Run(bctx, chromedp.Evaluate[point](`(() => { const r = document.querySelector('#log').getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(bctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, c.X, c.Y, func(p *input.DispatchMouseEventParams) {
			// (Chromium wants both deltas, and a zero is left out of the message: one pixel sideways.)
			p.DeltaX, p.DeltaY = -1, -4000
		})); err != nil {
			t.Fatal(err)
		}
		waitFor(t, bctx, "the log scrolled up", `(() => { const l = document.querySelector('#log'); return l.scrollTop + l.clientHeight < l.scrollHeight - 100; })()`)
		s.logAt = d.ID
	case s.logAt > 0 && !s.logKept && d.ID >= s.logAt+3:
		kept, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => { const l = document.querySelector('#log'), b = document.querySelector('#log-latest');
		  return l.scrollTop + l.clientHeight < l.scrollHeight - 100 && !b.hidden && /\d/.test(b.textContent); })()`))
		if err != nil || !kept {
			screenshot(t, bctx, artifacts(t), failShot(t, "log-lost"), false)
			t.Errorf("decision %d: the log did not keep the reader's place, or offers no jump to the latest (%v)", d.ID, err)
		}
		click(t, bctx, "#log-latest")
		waitFor(t, bctx, "the log at its latest line", `(() => { const l = document.querySelector('#log'); return l.scrollTop + l.clientHeight >= l.scrollHeight - 8 && document.querySelector('#log-latest').hidden; })()`)
		s.logKept = true
	}
}

// replay watches the awarding played again once (a step, then skip), and skips it afterwards.
// While the person's decision is asked (the next round's placement), the replay runs in a bar
// above the table, which stays in sight: the bar names the round being played again, and
// Watch it opens the replay over the table, with Back to the table.
func (s *steer) replay(d pageDecision) {
	t, bctx := s.t, s.bctx
	if !s.watched {
		bar, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(() => { const b = document.querySelector('#replay-watch');
		  return b ? b.closest('.replay-aside').textContent : ''; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if bar != "" {
			if want := fmt.Sprintf("Round %d's awarding is being played again (step ", d.Round-1); !strings.Contains(bar, want) {
				t.Errorf("decision %d (round %d): the replay's bar says %q, want %q…", d.ID, d.Round, bar, want)
			}
			if ok, _ := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.querySelector('#board:not(.replaying) .spot.contract')`)); !ok {
				t.Errorf("decision %d: the replay's bar hides the table's contracts", d.ID)
			}
			click(t, bctx, "#replay-watch")
			waitFor(t, bctx, "the awarding over the table", `!!document.querySelector('#board.replaying #replay-back') || !document.querySelector('#replay-watch, #board.replaying')`)
		}
		waitFor(t, bctx, "the awarding played step by step", `!document.querySelector('#board.replaying') || Number(document.querySelector('#board').dataset.step) >= 2`)
		if on, _ := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.querySelector('#board.replaying')`)); on {
			click(t, bctx, "#replay-play") // pause
			s.shot("awarding")
			if s.laptop {
				checkAxe(t, bctx, "an awarding played again")
				inLanguages(t, bctx, "an awarding played again", []string{"es", "fr"}, nil)
			}
			click(t, bctx, "#replay-next")
			waitFor(t, bctx, "the next step", `Number(document.querySelector('#board').dataset.step) >= 3`)
			s.watched = true
		}
	}
	if ok, _ := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.querySelector('#replay-skip')`)); ok {
		click(t, bctx, "#replay-skip")
	}
}

func (s *steer) place(d pageDecision) {
	t, bctx := s.t, s.bctx
	card, spot, onBoard := "", "", false
	firstBribe := ""
	for _, c := range d.Cards {
		if mustCard(c).IsBribe() {
			firstBribe = c
			break
		}
	}
	switch {
	case !s.assigned && d.Placed == 0:
		card, spot = firstBribe, "swiss:city"
	case !s.removed && d.Placed == 1 && slices.Contains(d.Cards, "reporter"):
		card, spot, s.target = firstBribe, d.Cheapest, d.Cheapest
	case !s.removed && d.Placed == 2 && s.target != "":
		card, spot, onBoard = "reporter", s.target, true
		s.target = ""
	default:
		card = firstBribe
	}
	if card == "" {
		card = d.Cards[0]
	}
	if d.Round == 2 && !s.langs {
		// The placing screen in every language: the table's words change, the game stays.
		inLanguages(t, bctx, "a placement", []string{"es", "fr"}, map[string]string{
			"es": `document.querySelector('#decision .prompt').textContent.startsWith('Tu turno')`,
			"fr": `document.querySelector('#decision .prompt').textContent.startsWith('À vous')`})
		checkAxe(t, bctx, "a placement")
		s.langs = true
	}
	click(t, bctx, fmt.Sprintf(`#decision .hand-card[data-card="%s"]`, card))
	checkInSight(t, bctx, fmt.Sprintf("decision %d, the places of %s", d.ID, card), s.laptop)
	if d.Round == 2 && d.Placed >= 2 {
		s.shot("corruption")
	}
	switch {
	case spot == "":
		click(t, bctx, "#decision .spot-choice")
	case onBoard:
		click(t, bctx, fmt.Sprintf(`#board button.place-here[data-spot="%s"]`, spot))
	default:
		click(t, bctx, fmt.Sprintf(`#decision .spot-choice[data-spot="%s"]`, spot))
	}
}

// pageResult is what the test reads of the results.
type pageResult struct {
	Scores map[string]int `json:"scores"`
	Valid  bool           `json:"valid"`
	Audit  string         `json:"audit"`
	Status string         `json:"status"`
}

const readResult = `({
  scores: Object.fromEntries([...document.querySelectorAll('.final-score')].map((e) => [e.dataset.seat, Number(e.dataset.value)])),
  valid: document.querySelector('#audit').dataset.valid === '1',
  audit: document.querySelector('#audit').textContent,
  status: document.querySelector('#results').dataset.status})`

// checkOutcome leaves the page and compares its results with the node's outcome (--json).
func checkOutcome(t *testing.T, p *proc, res pageResult, players int) {
	t.Helper()
	if !res.Valid || res.Status != "finished" {
		t.Errorf("the page's results: %s, audit %q", res.Status, res.Audit)
	}
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("play exited %d\nstderr:\n%s", code, p.stderr.String())
	}
	var out outcome
	if err := json.Unmarshal([]byte(lastLine(p.stdout.String())), &out); err != nil {
		t.Fatalf("play --json: %v\n%s", err, p.stdout.String())
	}
	if !out.Finished || len(out.Scores) != players {
		t.Fatalf("outcome: %+v", out)
	}
	for seat, score := range out.Scores {
		if got, ok := res.Scores[fmt.Sprint(seat)]; !ok || got != score {
			t.Errorf("seat %d: the page shows $%d, the node's outcome says $%d", seat, got, score)
		}
	}
	t.Logf("final scores %v (seat %d is the person); %s", out.Scores, out.Seat, res.Audit)
}

// TestBrowserGame: a person at a 1366x768 laptop opens the lobby, sees the tables two other
// players announce, creates a table of four, and plays the whole game against three local bots
// by clicking, including a Swiss assignment and a reporter's choice, and watches an awarding
// played again. At every decision its controls are in sight and the page does not scroll;
// axe-core finds nothing serious on each screen, in each language; the page's final scores
// are the node's outcome, the audit is valid, and the page never shows another seat's hidden
// card.
func TestBrowserGame(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := artifacts(t)
	table := fmt.Sprintf("e2e-%d", time.Now().UnixNano()%1e6)
	p := start(ctx, t, "play", "play", "--name", "ann", "--bots", "3", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0",
		"--ui", "127.0.0.1:0", "--no-open", "--json", "--clock", "30s", "--bank", "1m")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	if first := strings.SplitN(p.stderr.String(), "\n", 2)[0]; !openLine.MatchString(first) {
		t.Errorf("the first line play prints is %q, not the page's address", first)
	}
	addr := p.waitLine(t, listenLine, 20*time.Second)[1]
	stranger(t, ctx, addr, "bob", "friday night", 5, corruption.FreeStud, true)
	stranger(t, ctx, addr, "carol", "carol's table", 3, corruption.Standard, false)

	bctx := browserAt(t, ctx, 1366, 768, false)
	// The page's load: the first (a browser just started) and a second one, warm.
	loadPage(t, bctx, url, "first")
	loadPage(t, bctx, url, "warm")

	// The lobby lists the strangers' tables as their announcements arrive, and says how the
	// node finds others.
	for _, sel := range []string{`li.lobby-table[data-table="friday night"]`, `li.lobby-table[data-table="carol's table"]`} {
		waitFor(t, bctx, "the lobby to list "+sel, fmt.Sprintf("document.querySelector(%q) !== null", sel))
	}
	waitFor(t, bctx, "the peer count", `document.querySelector('#discovery').dataset.mdns === '0' && Number(document.querySelector('#discovery').dataset.peers) >= 1`)
	screenshot(t, bctx, dir, "lobby", false)
	checkAxe(t, bctx, "the lobby")
	inLanguages(t, bctx, "the lobby", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#create').textContent === 'Crear y sentarse'`,
		"fr": `document.querySelector('#create').textContent === "Créer et s'asseoir"`})
	// The rules, in the page.
	click(t, bctx, "#rules-button")
	waitFor(t, bctx, "the rules panel", `!document.querySelector('#rules').hidden && document.querySelectorAll('#rules .rule').length >= 6`)
	screenshot(t, bctx, dir, "rules", false)
	checkAxe(t, bctx, "the rules panel")
	inLanguages(t, bctx, "the rules panel", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#rules .rule:not(.glossary) h3').textContent === 'El juego'`,
		"fr": `document.querySelector('#rules .rule:not(.glossary) h3').textContent === 'Le jeu'`})
	click(t, bctx, `#rules button.close`)

	typeInto(t, bctx, "#table-name", table)
	// Four players, with the select's keyboard: focused, it takes the option one types.
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => { document.querySelector('#players').focus(); return true; })()`)); err != nil {
		t.Fatal(err)
	}
	pressKey(t, bctx, "4")
	if v, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#players').value`)); err != nil || v != "4" {
		t.Fatalf("players: %q, %v", v, err)
	}
	click(t, bctx, "#create")

	s := &steer{t: t, bctx: bctx, dir: dir, laptop: true, shots: map[string]bool{}}
	s.play()
	if !s.assigned || !s.removed || !s.watched || !s.logKept {
		t.Errorf("the game went by without a Swiss assignment (%v), a reporter's choice (%v), an awarding played again (%v) or the log read (%v)",
			s.assigned, s.removed, s.watched, s.logKept)
	}

	res, err := chromedp.Run(bctx, chromedp.Evaluate[pageResult](readResult))
	if err != nil {
		t.Fatal(err)
	}
	// The last round's board, opened again from the results.
	if on, _ := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.querySelector('#replay-skip')`)); on {
		click(t, bctx, "#replay-skip")
	}
	click(t, bctx, "details.last-round summary")
	click(t, bctx, "#replay-open")
	waitFor(t, bctx, "round 4's awarding again", `document.querySelector('#board.replaying') && document.querySelector('#board').dataset.round === '4'`)
	click(t, bctx, "#replay-skip")
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`(() => { document.querySelector('#board-slot').scrollTop = 0; return true; })()`)); err != nil {
		t.Fatal(err)
	}
	screenshot(t, bctx, dir, "results", false)
	screenshot(t, bctx, dir, "results-full", true)
	checkAxe(t, bctx, "the results")
	inLanguages(t, bctx, "the results", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#results h2').textContent === 'Resultados finales'`,
		"fr": `document.querySelector('#results h2').textContent === 'Résultats'`})
	click(t, bctx, "#quit")
	checkOutcome(t, p, res, 4)
}

// TestBrowserPhone: a person on a 390x844 phone plays a whole game against three local bots by
// tapping: the page never scrolls sideways, and the decision's sheet leaves the card it asks
// about in sight. In the lobby the person dials another player's address. axe-core checks the
// lobby, a placement and the results in English, Spanish and French, and a reporter's choice.
//
// It is of the long set (CORRUPTION_LONG=1): the test command's evening plays the same page at
// the same size on its phones (TestReadmeEvening), and its layout tests check the boards there.
func TestBrowserPhone(t *testing.T) {
	needLong(t, "TestReadmeEvening's phones play this page at 390x844")
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := artifacts(t)
	p := start(ctx, t, "play", "play", "--name", "ann", "--bots", "3", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0",
		"--no-open", "--json", "--clock", "30s", "--bank", "1m")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	bctx := browserAt(t, ctx, 390, 844, true)
	loadPage(t, bctx, url, "phone")
	screenshot(t, bctx, dir, "lobby-phone", false)
	checkInSight(t, bctx, "the lobby", false)
	checkAxe(t, bctx, "the lobby on a phone")
	inLanguages(t, bctx, "the lobby on a phone", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#create').textContent === 'Crear y sentarse'`,
		"fr": `document.querySelector('#create').textContent === "Créer et s'asseoir"`})
	checkInSight(t, bctx, "the lobby in English again", false)
	// A player that discovery does not find (--no-mdns), dialed from the page by address: the
	// peer count goes up and the lobby lists their table.
	addr := stranger(t, ctx, "", "dee", "dee's table", 4, corruption.Standard, false)
	click(t, bctx, "#net-more > summary") // what only a table by address needs is behind it
	typeInto(t, bctx, "#dial-addr", addr)
	click(t, bctx, "#dial")
	waitFor(t, bctx, "the dialed player's node and table", `Number(document.querySelector('#discovery').dataset.peers) >= 1 && document.querySelector('li.lobby-table[data-table="dee\'s table"]') !== null`)
	checkInSight(t, bctx, "the lobby, saying the address it dials", false) // a long address wraps
	click(t, bctx, "#create")

	s := &steer{t: t, bctx: bctx, dir: dir, suffix: "-phone", shots: map[string]bool{}}
	s.play()
	// What the sheet asked about was in sight above it: checked by the page's layout at each
	// awarding decision (see the steer's shots); here, the results fit sideways.
	checkInSight(t, bctx, "the results", false)
	res, err := chromedp.Run(bctx, chromedp.Evaluate[pageResult](readResult))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, bctx, dir, "results-phone", false)
	checkAxe(t, bctx, "the results on a phone")
	inLanguages(t, bctx, "the results on a phone", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#results h2').textContent === 'Resultados finales'`,
		"fr": `document.querySelector('#results h2').textContent === 'Résultats'`})
	click(t, bctx, "#quit")
	checkOutcome(t, p, res, 4)
}

// TestBrowserKeyboard: a person with the keyboard alone creates a table in the lobby and plays
// a whole game against two local bots: Tab to the lobby's controls, then the keys each choice
// shows (the card's, then the place's), Shift+P to pass, ? and Shift+R for the help and the
// rules. The focus ring is not the amber that marks what can be clicked. At the end the focus
// is on the results' first button; Rematch (Tab and Enter) seats the same players at the next
// table, and a second whole game is played there, in French (chosen in the header's menu by
// keyboard); Shift+L and Shift+D move the focus to the log and back to the results.
func TestBrowserKeyboard(t *testing.T) {
	if testing.Short() {
		t.Skip("the plain pass plays this game; -short (the race pass) plays only TestBrowserGame's")
	}
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := artifacts(t)
	logs := t.TempDir()
	p := start(ctx, t, "play", "play", "--name", "kim", "--bots", "2", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0",
		"--no-open", "--json", "--clock", "30s", "--bank", "1m", "--out", filepath.Join(logs, "kim.log"))
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	bctx := browserAt(t, ctx, 1366, 768, false)
	loadPage(t, bctx, url, "keyboard")

	// Tab to the table's name, then on to "Create and sit". (From the results to the header's
	// menu, Tab goes through every control of the last round's board and the results: some 30.)
	tabTo := func(sel string) {
		t.Helper()
		for range 80 {
			if ok, _ := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.activeElement === document.querySelector(%q)`, sel))); ok {
				return
			}
			pressKey(t, bctx, kb.Tab)
		}
		t.Fatalf("Tab never reaches %s", sel)
	}
	tabTo("#table-name")
	ring, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`(() => { const s = getComputedStyle(document.activeElement);
	  return [s.outlineStyle, s.outlineColor, getComputedStyle(document.documentElement).getPropertyValue('--clickable').trim()]; })()`))
	if err != nil || ring[0] == "none" || ring[1] != "rgb(11, 61, 145)" {
		t.Errorf("the focus ring: %q (%v), want a solid rgb(11, 61, 145) outline, not the clickable amber", ring, err)
	}
	tabTo("#players")
	pressKey(t, bctx, "3")
	tabTo("#create")
	pressKey(t, bctx, kb.Enter)

	first := playByKeys(t, bctx, dir, true)
	// The game's end moves the focus, lost with the last decision's choices, to the results'
	// first button: Rematch.
	waitFor(t, bctx, "the focus on Rematch at the game's end", `document.activeElement === document.querySelector('#rematch')`)
	table, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`fetch('/api/state').then((r) => r.json()).then((st) => [st.table.name, st.rematch || ''])`, chromedp.EvalAwaitPromise))
	if err != nil || len(table) != 2 {
		t.Fatal(table, err)
	}
	name, next := table[0], table[1]
	if next != name+" #2" {
		t.Fatalf("the results of table %q offer a rematch at %q, want %q", name, next, name+" #2")
	}
	// The language, from the header's menu by keyboard: the rematch is played in French.
	tabTo("#lang")
	pressKey(t, bctx, "f")
	waitFor(t, bctx, "the page in French", `document.documentElement.lang === 'fr' && document.querySelector('#results h2').textContent === 'Résultats'`)
	checkAxe(t, bctx, "the results, by keyboard")
	// Rematch: Tab on from the menu to the results' button, and Enter.
	tabTo("#rematch")
	pressKey(t, bctx, kb.Enter)
	waitAcrossReload(t, bctx, "the page at the rematch's table", fmt.Sprintf(`document.body.dataset.ready === '1' && document.body.dataset.mode !== 'over' && (document.querySelector('#where .table-name strong') || {}).textContent === %q`, next))
	second := playByKeys(t, bctx, dir, false)

	// Leave: the focus, on the results' first button at the end, goes to the log (Shift+L) and
	// back (Shift+D), then Tab to the next button.
	waitFor(t, bctx, "the focus on Rematch at the rematch's end", `document.activeElement === document.querySelector('#rematch')`)
	pressKey(t, bctx, "L", chromedp.KeyModifiers(chromedp.ModifierShift))
	waitFor(t, bctx, "the log focused", `document.activeElement && document.activeElement.closest('#log') !== null`)
	pressKey(t, bctx, "D", chromedp.KeyModifiers(chromedp.ModifierShift))
	waitFor(t, bctx, "the results' first button focused again", `document.activeElement === document.querySelector('#results .actions button')`)
	tabTo("#quit")
	pressKey(t, bctx, kb.Enter)
	checkOutcome(t, p, second, 3)
	// Each table printed its outcome; the first's is the page's first results.
	lines := strings.Split(strings.TrimSpace(p.stdout.String()), "\n")
	var out outcome
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &out) != nil || !out.Finished || out.Table != name {
		t.Fatalf("play printed %d outcomes, want the first table's (%q) then the rematch's:\n%s", len(lines), name, p.stdout.String())
	}
	for seat, score := range out.Scores {
		if got := first.Scores[fmt.Sprint(seat)]; got != score {
			t.Errorf("table %q, seat %d: the page showed $%d, the node's outcome says $%d", name, seat, got, score)
		}
	}
	// --out saved each table's log: the rematch's beside the first.
	for _, f := range []string{"kim.log", "kim-2.log"} {
		if b, err := os.ReadFile(filepath.Join(logs, f)); err != nil || !strings.HasPrefix(string(b), "corruption log") {
			t.Errorf("--out: %s: %v", f, err)
		}
	}
}

// playByKeys plays a whole game with the keyboard alone, from the first decision to the
// results, and returns them; with help, it first opens and closes the keys' help and the rules
// by their keys. At every decision its controls are in sight; axe-core checks one.
func playByKeys(t *testing.T, bctx context.Context, dir string, help bool) pageResult {
	t.Helper()
	last, decisions := 0, 0
	for {
		d, err := poll[pageDecision](bctx, fmt.Sprintf(readDecision, last), 60*time.Second)
		if err != nil {
			screenshot(t, bctx, dir, "stuck", true)
			t.Fatalf("waiting for a decision after decision %d: %v", last, err)
		}
		if d.Mode == "over" {
			break
		}
		last = d.ID
		decisions++
		if help {
			// The help and the rules open and close by key.
			pressKey(t, bctx, "?")
			waitFor(t, bctx, "the keys' help", `!document.querySelector('#help').hidden`)
			checkAxe(t, bctx, "the keys' help")
			inLanguages(t, bctx, "the keys' help", []string{"es", "fr"}, nil)
			pressKey(t, bctx, kb.Escape)
			pressKey(t, bctx, "R", chromedp.KeyModifiers(chromedp.ModifierShift)) // the page's shortcuts are Shift and a letter
			waitFor(t, bctx, "the rules", `!document.querySelector('#rules').hidden`)
			pressKey(t, bctx, kb.Escape)
			waitFor(t, bctx, "the rules closed", `document.querySelector('#rules').hidden`)
			help = false
		}
		checkInSight(t, bctx, fmt.Sprintf("decision %d (%s), by keyboard", d.ID, d.Kind), true)
		key := func(sel string) string {
			k, err := chromedp.Run(bctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {textContent: ''}).textContent`, sel+" kbd")))
			if err != nil || k == "" {
				t.Fatalf("decision %d (%s): no key on %s: %v", d.ID, d.Kind, sel, err)
			}
			return k
		}
		switch d.Kind {
		case "place":
			pressKey(t, bctx, key(`#decision .hand-card:not([disabled])`))
			waitFor(t, bctx, "the places", `document.querySelector('#decision .spot-choice') !== null`)
			if decisions == 1 {
				checkAxe(t, bctx, "a placement, by keyboard")
			}
			// The last place: its key is a letter when there are more than ten.
			pressKey(t, bctx, key(`#decision .spot-groups .spot-group:last-child .spot-choice:last-of-type`))
		case "remove":
			pressKey(t, bctx, "P", chromedp.KeyModifiers(chromedp.ModifierShift))
		default:
			pressKey(t, bctx, key(`#decision button.choice`))
		}
	}
	res, err := chromedp.Run(bctx, chromedp.Evaluate[pageResult](readResult))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid || res.Status != "finished" {
		t.Errorf("the page's results: %s, audit %q", res.Status, res.Audit)
	}
	t.Logf("%d decisions made by keyboard", decisions)
	return res
}

// TestBrowserWaiting: the screen of a table that waits for its players, which the games above
// pass in a moment: the seats, the peer count and the complete command another player types to
// join, in English, Spanish and French, checked by axe-core, without scrolling at 1366x768 nor
// sideways at 390x844; then Leave, which stops the node before the table forms.
func TestBrowserWaiting(t *testing.T) {
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := artifacts(t)
	p := start(ctx, t, "play", "play", "--name", "ann", "--table", "ann's friday", "--players", "3", "--lbb", "--no-mdns",
		"--listen", "/ip4/127.0.0.1/tcp/0", "--no-open")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	addr := p.waitLine(t, listenLine, 20*time.Second)[1]
	bctx := browserAt(t, ctx, 1366, 768, false)
	loadPage(t, bctx, url, "waiting")
	waitFor(t, bctx, "the waiting screen", `document.body.dataset.mode === 'waiting' && document.querySelector('#join-hint') !== null`)
	hint, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#join-hint').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	// The table's name is one word of the shell command, its quote escaped.
	for _, want := range []string{"corruption play --name ", `--table 'ann'\''s friday'`, "--players 3", "--lbb", "--peer " + addr} {
		if !strings.Contains(hint, want) {
			t.Errorf("the join hint %q lacks %q", hint, want)
		}
	}
	seated, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#seats-filled').textContent`))
	if err != nil || !strings.Contains(seated, "ann") {
		t.Errorf("the seats: %q (%v)", seated, err)
	}
	// 3 players, escrow by default: the table's promise (protocol/depart.go).
	promise, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(document.querySelector('#table-promise') || {}).textContent || ''`))
	if err != nil || !strings.Contains(promise, "the players who stay play on") || !strings.Contains(promise, "could read your hidden cards") {
		t.Errorf("the waiting screen's promise: %q (%v)", promise, err)
	}
	checkInSight(t, bctx, "the waiting screen", true)
	screenshot(t, bctx, dir, "waiting", false)
	checkAxe(t, bctx, "the waiting screen")
	inLanguages(t, bctx, "the waiting screen", []string{"es", "fr"}, map[string]string{
		"es": `document.querySelector('#waiting-title').textContent.startsWith('Mesa')`,
		"fr": `document.querySelector('#leave').textContent === 'Partir'`})
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	checkInSight(t, bctx, "the waiting screen on a phone", false)
	screenshot(t, bctx, dir, "waiting-phone", false)
	click(t, bctx, "#leave")
	// Back in the lobby (the page starts again there), the node still running; then Quit,
	// which the page names as such, stops it with the left table's status.
	waitAcrossReload(t, bctx, "the lobby again", `document.body.dataset.mode === 'lobby' && !!document.querySelector('#quit')`)
	select {
	case <-p.done:
		t.Fatalf("leaving the table ended the program:\n%s", p.stderr.String())
	default:
	}
	click(t, bctx, "#quit")
	waitFor(t, bctx, "the page saying corruption stopped", `document.querySelector('#main').innerText.includes('corruption stopped')`)
	if code := p.wait(t, 30*time.Second); code != 1 || !strings.Contains(p.stderr.String(), `table "ann's friday" had not formed yet`) {
		t.Errorf("leaving while waiting, then quitting: exit %d\n%s", code, p.stderr.String())
	}
}

func mustCard(s string) corruption.Card {
	c, _ := corruption.ParseCard(s)
	return c
}

func lastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return ls[len(ls)-1]
}
