package main

// The newcomer's harness, every game's (issue 25): a person who has never read the rules plays
// a whole game against the bots of a real `corruption demo`, in one shared headless Chromium,
// using only what the page shows and what it tells assistive technology: the roles, names,
// descriptions and states of its accessibility tree, and its visible text. It knows no
// selector, no id and no /api/. At every decision it checks what a newcomer needs:
//
//   - the decision is the region "Your decision" (the shell's word in the page's language),
//     described by a prompt line that is on the screen;
//   - every disabled control of the page is described by a visible reason;
//   - the page never scrolls sideways;
//   - axe-core finds nothing serious on the page: at every decision whose screen shows
//     something no screen of the game checked before showed (axeSweep: positions no script
//     reaches, such as a colour on a background met once a game).
//
// A learnGame says what the harness knows of one game: its demo's flags, its scripts, how a
// script is replayed to a seat's copy of the game, and which control a newcomer presses. Each
// game's test calls learnWholeGame (this file) and learnScripted (learn_check_test.go) with its
// own learnGame.
//
// Environment:
//
//	CORRUPTION_LEARN_MATRIX=1  every whole game at both sizes in English, Spanish and French
//	                          (default: English, at one size a run chosen by a printed seed)
//	CORRUPTION_LEARN_SEED=N    the size of that seed's run

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"corruption/engine"
	"strconv"
)

// learnGame is what the harness knows of one game's page.
type learnGame struct {
	id   string
	demo []string // demo's flags beyond --game, --name, --no-open and --json (the bots, the rules)
	// scripts are scenario scripts of whole games (paths from this package's directory): the
	// positions of every kind of decision are cut from them, and their ends are the results.
	scripts []string
	// position replays a script (its JSON, perhaps cut short) and returns seat's own copy of
	// the game where it stops (seat < 0: the seat the game then waits for), that seat, and the
	// events that copy told.
	position func(data []byte, seat int) (engine.Game, int, []engine.Event, error)
	// pick chooses among the names of the decision's enabled buttons the one a newcomer
	// presses (its index; -1: the first that is not a way back). nil: always the first.
	pick func(names []string, lang string) int
	// back are the board's word keys of controls that go back rather than forward (never
	// pressed by the default pick).
	back []string
	// allow are proper nouns that stay as they are in every language (the translation check).
	allow []string
	// docShot is the kind of decision whose scripted position is the docs' screenshot of the
	// game, GAME.png and GAME-phone.png ("": none).
	docShot string
	// kinds are the kinds of decision (the board's Decision's "kind", or kindOf's) and
	// "results" that the scripts must hold a position of, listed from the game's engine
	// (engineKinds): the game's kinds test and its scripted test fail naming each that has none,
	// and each kind a script reaches that is not listed.
	kinds []string
	// kindOf, when set, is the harness's kind of a decision the board calls kind (decision: the
	// board's Decision as JSON): a board may draw one kind of the engine's in more than one way,
	// each a kind of its own here (Corruptia's proposal with no bill to propose). nil: kind.
	kindOf func(kind string, decision []byte) string
}

// viewport is a screen the newcomer plays on.
type viewport struct {
	name          string
	width, height int
	touch         bool // a phone: touch emulation, taps instead of clicks
}

var (
	laptop = viewport{"1366x768", 1366, 768, false}
	phone  = viewport{"390x844", 390, 844, true}
)

// learnMatrix: the whole matrix of sizes and languages (CORRUPTION_LEARN_MATRIX=1).
func learnMatrix() bool { return os.Getenv("CORRUPTION_LEARN_MATRIX") == "1" }

// ---- a tab of the browser tests' shared Chromium

// sharedTab opens a tab of the browser tests' shared headless Chromium (ui_e2e_test.go's
// browserAt), in a browser context of its own, showing pages at vp; it is closed when the test
// ends.
func sharedTab(t *testing.T, vp viewport) context.Context {
	t.Helper()
	return browserAt(t, context.Background(), vp.width, vp.height, vp.touch)
}

// ---- the accessibility tree

// axNode is a node of the page's accessibility tree, as the harness reads it.
type axNode struct {
	id, parent string
	kids       []string
	role, name string
	desc       string
	disabled   bool
	busy       bool
	expanded   bool // has aria-expanded (a disclosure, a toggle of a panel)
	ignored    bool // not in the tree itself (its children are)
	backend    cdp.BackendNodeID
}

// axTree is the page's accessibility tree, the nodes not ignored, in document order.
type axTree struct {
	nodes []*axNode
	byID  map[string]*axNode
}

func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s any
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return ""
	}
	switch x := s.(type) {
	case string:
		return strings.Join(strings.Fields(x), " ")
	case bool:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(s)
}

// readAX reads the page's whole accessibility tree.
func readAX(bctx context.Context) (*axTree, error) {
	res, err := chromedp.Run(bctx, func(ctx context.Context, t *chromedp.Target) (accessibility.GetFullAXTreeResult, error) {
		return chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	})
	if err != nil {
		return nil, err
	}
	tr := &axTree{byID: map[string]*axNode{}}
	for _, n := range res.Nodes {
		a := &axNode{id: string(n.NodeID), parent: string(n.ParentID), role: axString(n.Role), name: axString(n.Name),
			desc: axString(n.Description), backend: n.BackendDOMNodeID}
		for _, k := range n.ChildIDs {
			a.kids = append(a.kids, string(k))
		}
		if n.Ignored {
			// An ignored node (a plain <div>) is walked through to its children, never listed.
			a.ignored = true
			tr.byID[a.id] = a
			continue
		}
		for _, p := range n.Properties {
			switch p.Name {
			case accessibility.PropertyNameDisabled:
				a.disabled = axString(p.Value) == "true"
			case accessibility.PropertyNameBusy:
				a.busy = axString(p.Value) == "true"
			case accessibility.PropertyNameExpanded:
				a.expanded = true
			}
		}
		tr.nodes = append(tr.nodes, a)
		tr.byID[a.id] = a
	}
	return tr, nil
}

// controlRoles are the roles of what a person operates.
var controlRoles = map[string]bool{"button": true, "checkbox": true, "radio": true, "combobox": true, "textbox": true,
	"link": true, "switch": true, "menuitem": true, "slider": true, "spinbutton": true, "tab": true, "listbox": true}

// find is the first node of role and name ("" for any name).
func (tr *axTree) find(role, name string) *axNode {
	for _, n := range tr.nodes {
		if n.role == role && (name == "" || n.name == name) {
			return n
		}
	}
	return nil
}

// within lists the nodes under n (n excluded), in document order.
func (tr *axTree) within(n *axNode) []*axNode {
	var out []*axNode
	var walk func(id string)
	walk = func(id string) {
		c := tr.byID[id]
		if c == nil {
			return
		}
		for _, k := range c.kids {
			if kn := tr.byID[k]; kn != nil && !kn.ignored {
				out = append(out, kn)
			}
			walk(k)
		}
	}
	walk(n.id)
	return out
}

// controls are the controls of the whole tree.
func (tr *axTree) controls() []*axNode {
	var out []*axNode
	for _, n := range tr.nodes {
		if controlRoles[n.role] {
			out = append(out, n)
		}
	}
	return out
}

// press clicks (or on a touch screen taps) the middle of n, once scrolled into view.
func press(bctx context.Context, n *axNode, touch bool) error {
	return chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, tgt *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: n.backend}); err != nil {
			return err
		}
		q, err := chromedp.Call(ctx, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: n.backend})
		if err != nil {
			return err
		}
		if len(q.Quads) == 0 || len(q.Quads[0]) < 8 {
			return fmt.Errorf("%s %q has no box", n.role, n.name)
		}
		c := q.Quads[0]
		x, y := (c[0]+c[2]+c[4]+c[6])/4, (c[1]+c[3]+c[5]+c[7])/4
		if !touch {
			_, err := chromedp.MouseClickXY(x, y)(ctx, tgt)
			return err
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart,
			TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}); err != nil {
			return err
		}
		_, err = chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd,
			TouchPoints: []*input.TouchPoint{}})
		return err
	}))
}

// ---- what the page shows

// visibleText is the page's text as a person sees it (innerText: nothing hidden), its
// whitespace made single spaces.
func visibleText(bctx context.Context) (string, error) {
	s, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
	return strings.Join(strings.Fields(s), " "), err
}

// sideways is "" when the page does not scroll sideways (it is no wider than the screen's
// layout), else what says so: the page's width and the innermost elements reaching past the
// screen's right edge (to tell which one to fix).
func sideways(bctx context.Context) (string, error) {
	return chromedp.Run(bctx, chromedp.Evaluate[string](`(() => { const d = document.scrollingElement;
	  const w = Math.min(innerWidth, document.documentElement.clientWidth);
	  if (d.scrollWidth <= w + 1) return '';
	  const past = [...document.body.querySelectorAll('*')].filter((e) => e.checkVisibility() && e.getBoundingClientRect().right > w + 1);
	  const inner = past.filter((e) => !past.some((f) => f !== e && e.contains(f))).slice(0, 4);
	  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.classList.length ? '.' + [...e.classList].join('.') : '') +
	    ' "' + (e.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 40) + '" reaching ' + Math.round(e.getBoundingClientRect().right) + 'px';
	  return 'the page is ' + d.scrollWidth + 'px wide on a ' + w + 'px screen: ' + inner.map(name).join('; ');
	})()`))
}

// shellWords are the shell's words in lang.
func shellWords(t *testing.T, lang string) map[string]string {
	t.Helper()
	return langFile(t, "../../ui/static/lang/"+lang+".json").words
}

// checkNewcomer checks what every decision must give a newcomer: a prompt line on the screen
// describing the region, a visible reason for every disabled control of the page, and no
// sideways scroll. region is the decision's region (nil: none is due).
func checkNewcomer(t *testing.T, bctx context.Context, tr *axTree, region *axNode, what string) {
	t.Helper()
	text, err := visibleText(bctx)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	seen := func(s string) bool { return s != "" && strings.Contains(text, s) }
	if region != nil && !seen(region.desc) {
		t.Errorf("%s: the decision has no prompt line on the screen (its description: %q)", what, region.desc)
	}
	for _, c := range tr.controls() {
		if c.disabled && !seen(c.desc) {
			t.Errorf("%s: the disabled %s %q gives no visible reason (its description: %q)", what, c.role, c.name, c.desc)
		}
	}
	if wide, err := sideways(bctx); err != nil {
		t.Errorf("%s: the page's width: %v", what, err)
	} else if wide != "" {
		t.Errorf("%s: the page scrolls sideways: %s", what, wide)
	}
}

// decisionState is the decision on the screen: its region (nil when none), its enabled
// buttons, and what it says (to tell one decision from the next).
type decisionState struct {
	tree    *axTree
	region  *axNode
	buttons []*axNode
	says    string
	over    bool // the results are shown
}

func readDecisionState(bctx context.Context, region, results string) (*decisionState, error) {
	tr, err := readAX(bctx)
	if err != nil {
		return nil, err
	}
	d := &decisionState{tree: tr, over: tr.find("heading", results) != nil}
	d.region = tr.find("region", region)
	if d.region == nil {
		return d, nil
	}
	parts := []string{d.region.desc}
	for _, n := range tr.within(d.region) {
		if controlRoles[n.role] {
			parts = append(parts, n.role+":"+n.name)
			if n.role == "button" && !n.disabled && !n.expanded {
				d.buttons = append(d.buttons, n)
			}
		}
	}
	d.says = strings.Join(parts, "|")
	return d, nil
}

// learnWholeGame: a newcomer plays a whole game of g against the bots of `corruption demo`, at
// vp, in lang (switched with the page's menu), pressing only the decision's buttons by their
// names, checking at every decision what checkNewcomer checks, and axe-core's findings by
// sweep (shared by the whole games of one test). The demo must exit 0 with a finished outcome.
func learnWholeGame(t *testing.T, g learnGame, vp viewport, lang string, sweep *axeSweep) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	args := append([]string{"demo", "--game", g.id, "--name", "ann", "--no-open", "--json"}, g.demo...)
	p := start(ctx, t, "demo", args...)
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	bctx := sharedTab(t, vp)
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("the page does not load: %v", err)
	}
	words := shellWords(t, lang)
	backs := map[string]bool{}
	for _, k := range g.back {
		backs[boardWords(t, g.id, lang).words[k]] = true
	}
	if lang != "en" {
		waitFor(t, bctx, "the page", `document.body.dataset.ready === '1'`)
		setLang(t, bctx, lang)
	}
	region, results := words["decision.region"], words["result.finished"]
	decisions, acted, same := 0, "", time.Time{}
	tally := &sweepTally{}
	began := time.Now()
	for {
		if ctx.Err() != nil {
			screenshot(t, bctx, artifacts(t), "learn-stuck-"+g.id, true)
			t.Fatalf("%s at %s in %s: no end after %d decisions", g.id, vp.name, lang, decisions)
		}
		seen := pageChanges(bctx)
		d, err := readDecisionState(bctx, region, results)
		if err != nil {
			t.Fatal(err)
		}
		if d.over {
			break
		}
		if d.region == nil || d.region.busy || len(d.buttons) == 0 {
			waitChange(bctx, seen)
			continue
		}
		if d.says == acted && time.Since(same) < 5*time.Second {
			// The same decision, still: the move is on its way (or it is the same decision
			// again, which is pressed again after a while).
			waitChange(bctx, seen)
			continue
		}
		decisions++
		what := fmt.Sprintf("%s at %s in %s, decision %d", g.id, vp.name, lang, decisions)
		checkNewcomer(t, bctx, d.tree, d.region, what)
		sweep.check(t, bctx, what, tally)
		i := -1
		if g.pick != nil {
			i = g.pick(names(d.buttons), lang)
		}
		if i < 0 || i >= len(d.buttons) {
			i = 0
			for j, b := range d.buttons {
				if !backs[strings.TrimSpace(strings.TrimLeft(b.name, "0123456789 "))] && !backs[b.name] {
					i = j
					break
				}
			}
		}
		if err := press(bctx, d.buttons[i], vp.touch); err != nil {
			t.Logf("%s: pressing %q: %v (the page changed under it: looking again)", what, d.buttons[i].name, err)
			continue
		}
		acted, same = d.says, time.Now()
		waitChange(bctx, seen) // what the press changed, before the tree is read again
	}
	// The results: no sideways scroll, then Leave.
	tr, err := readAX(bctx)
	if err != nil {
		t.Fatal(err)
	}
	checkNewcomer(t, bctx, tr, nil, fmt.Sprintf("%s at %s in %s, the results", g.id, vp.name, lang))
	sweep.check(t, bctx, fmt.Sprintf("%s at %s in %s, the results", g.id, vp.name, lang), tally)
	t.Logf("%s at %s in %s: %d decisions in %v; axe-core checked %d screens of them and the results (%v in all, %v of it reading the screens)",
		g.id, vp.name, lang, decisions, time.Since(began).Round(time.Second), tally.runs, tally.spent.Round(time.Millisecond), tally.reading.Round(time.Millisecond))
	screenshot(t, bctx, artifacts(t), fmt.Sprintf("learn-%s-%s-%s-results", g.id, vp.name, lang), false)
	// Quit corruption (the results may be drawn anew under the press, an awarding played again
	// step by step, and their buttons come with the audit, after their heading: the button is
	// looked for again, as a person waits for it, for up to a minute).
	for try, until := 1, time.Now().Add(time.Minute); ; {
		leave := tr.find("button", words["quit"])
		if leave == nil {
			if time.Now().After(until) {
				t.Fatalf("the results have no button %q after a minute", words["quit"])
			}
		} else {
			err := press(bctx, leave, vp.touch)
			if err == nil {
				break
			}
			if try++; try > 5 {
				t.Fatal(err)
			}
		}
		waitChange(bctx, pageChanges(bctx))
		if tr, err = readAX(bctx); err != nil {
			t.Fatal(err)
		}
	}
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("demo exited %d\nstderr:\n%s", code, p.stderr.String())
	}
	var out outcome
	if err := json.Unmarshal([]byte(lastLine(p.stdout.String())), &out); err != nil || !out.Finished {
		t.Fatalf("demo --json: %+v %v\n%s", out, err, p.stdout.String())
	}
	t.Logf("%s at %s in %s: a whole game, %d decisions, by roles and names, in %v", g.id, vp.name, lang, decisions, time.Since(began).Round(time.Second))
}

func names(ns []*axNode) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.name
	}
	return out
}

// The page's tree is read again only once the page has changed: reading it whole takes a
// tenth of a second or more once the log is long, and most of a game is waiting for the
// others. pageChanges counts the changes of the page's document, by a MutationObserver set up
// at its first call (it knows no selector, only that something changed); waitChange waits
// until the count passes seen and the page has drawn two frames since, or one second at most
// (a page loaded again counts from 1 again: it is read after that second).
const changesJS = `(() => {
  if (!window.__learnChanges) {
    const c = window.__learnChanges = {n: 1, wake: []};
    new MutationObserver(() => { c.n++; for (const w of c.wake.splice(0)) w(); })
      .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  }
  return window.__learnChanges.n;
})()`

func pageChanges(bctx context.Context) int {
	n, _ := chromedp.Run(bctx, chromedp.Evaluate[int](changesJS))
	return n
}

func waitChange(bctx context.Context, seen int) {
	chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`new Promise((r) => {
	  const drawn = () => requestAnimationFrame(() => requestAnimationFrame(() => r(true)));
	  const c = window.__learnChanges;
	  setTimeout(() => r(true), 1000);
	  if (!c || c.n > %d) drawn(); else c.wake.push(drawn);
	})`, seen), chromedp.EvalAwaitPromise))
}

// learnSizes and learnLangs are the matrix the whole games run: one size a run in English
// (learnWholeSizes), or under CORRUPTION_LEARN_MATRIX=1 both sizes in every language.
func learnLangs() []string {
	if learnMatrix() {
		return []string{"en", "es", "fr"}
	}
	return []string{"en"}
}

var learnSizes = []viewport{laptop, phone}

// learnScriptedLangs are the languages the scripted positions are checked in at each of
// learnSizes: English at both, Spanish at one and French at the other, which one where chosen
// by a seed the test prints (CORRUPTION_LEARN_SEED), so that every run checks every language
// and runs go over both sizes in each; every language at both sizes under
// CORRUPTION_LEARN_MATRIX=1.
func learnScriptedLangs(t *testing.T) [][]string {
	if learnMatrix() {
		all := []string{"en", "es", "fr"}
		return [][]string{all, all}
	}
	if learnSeed(t, "the scripted positions")%2 == 0 {
		return [][]string{{"en", "es"}, {"en", "fr"}}
	}
	return [][]string{{"en", "fr"}, {"en", "es"}}
}

// envSeed is the seed the environment variable name gives, or one of the clock's: a test that
// plays one case of many a run picks it with the seed, and prints it to be played again.
func envSeed(t *testing.T, name string) uint64 {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return uint64(time.Now().UnixNano())
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// learnSeed is CORRUPTION_LEARN_SEED, or a seed of the clock's, printed for what.
func learnSeed(t *testing.T, what string) uint64 {
	t.Helper()
	seed := envSeed(t, "CORRUPTION_LEARN_SEED")
	t.Logf("%s: seed %d (play it again: CORRUPTION_LEARN_SEED=%d; everything: CORRUPTION_LEARN_MATRIX=1)", what, seed, seed)
	return seed
}

// learnWholeSizes are the sizes a game's whole games run at: both under
// CORRUPTION_LEARN_MATRIX=1; otherwise one a run, chosen by a seed the test prints
// (CORRUPTION_LEARN_SEED plays it again), so that runs of the test command go over both while
// each pays for one (the scripted positions, every kind of decision at both sizes, run always).
func learnWholeSizes(t *testing.T) []viewport {
	if learnMatrix() {
		return learnSizes
	}
	vp := learnSizes[learnSeed(t, "the whole game")%uint64(len(learnSizes))]
	t.Logf("the whole game at %s", vp.name)
	return []viewport{vp}
}

// ---- axe-core at the decisions of a whole game

// axeSweep runs axe-core at the screens of a game's whole games, the harness's newcomer's (the
// scripted positions check one screen of each kind; a player that ran axe-core at every
// decision found colours no script reached). A run costs a few tenths of a second on a page
// of a game under way, and a game has tens of decisions at each size: a screen is checked only
// when it shows something no screen of the game's test checked before showed, at any size or
// in any language (the test's whole games run side by side and share its sweep), by its
// features (screenFeatures): a colour of text on a background, or a kind of element in a
// state. Each violation is reported once, with the first screen that showed it.
type axeSweep struct {
	mu       sync.Mutex
	seen     map[string]bool // the features of the screens checked
	reported map[string]bool // the violations reported, by rule and what it says of its node
	warned   bool            // that axe-core is not installed
}

func newAxeSweep() *axeSweep {
	return &axeSweep{seen: map[string]bool{}, reported: map[string]bool{}}
}

// sweepTally is what a sweep cost one whole game: axe-core's runs, and the time in them and in
// reading the screens' features.
type sweepTally struct {
	runs           int
	spent, reading time.Duration
}

// screenFeatures are what the page shows, as far as axe-core's checks can tell screens apart:
// for each element with text of its own, its text's colour, the background behind it (the
// first one, up its ancestors, that is not transparent), the opacity it is drawn with, and
// whether it is large text (what the contrast rule weighs); for every element shown, its tag,
// its role and the ARIA attributes it has, with the values of its states (what the rules of
// names, roles and states weigh). A card's number, a score or a name is no new screen; a
// colour on a background met for the first time is.
const screenFeatures = `(() => {
  const out = new Set(), states = ['disabled', 'aria-pressed', 'aria-expanded', 'aria-checked', 'aria-selected', 'aria-current', 'aria-invalid', 'aria-hidden', 'aria-busy'];
  for (const e of document.body.querySelectorAll('*')) {
    if (!e.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    let f = e.tagName.toLowerCase();
    for (const a of [...e.attributes].sort((x, y) => (x.name < y.name ? -1 : 1))) {
      if (states.includes(a.name) || a.name === 'role' || a.name === 'type') f += '[' + a.name + '=' + a.value + ']';
      else if (a.name.startsWith('aria-')) f += '[' + a.name + ']';
    }
    out.add(f);
    if (![...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim())) continue;
    const s = getComputedStyle(e);
    let bg = 'none', opacity = 1;
    for (let p = e; p; p = p.parentElement) {
      const ps = getComputedStyle(p);
      opacity *= Number(ps.opacity);
      if (bg === 'none' && ps.backgroundColor !== 'rgba(0, 0, 0, 0)' && ps.backgroundColor !== 'transparent') bg = ps.backgroundColor;
    }
    const px = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
    out.add(s.color + ' on ' + bg + ' at ' + opacity.toFixed(2) + (px >= 24 || (bold && px >= 18.66) ? ' large' : ''));
  }
  return [...out];
})()`

// axeNode is a node of a violation axe-core found: its rule, where, and what is wrong.
type axeNode struct {
	ID      string `json:"id"`
	Impact  string `json:"impact"`
	Help    string `json:"help"`
	Target  string `json:"target"`
	Summary string `json:"summary"`
}

// check runs axe-core on the page when its screen shows a feature no screen checked before,
// and fails the test on each serious or critical violation not reported before; it counts
// what it cost in tally.
func (a *axeSweep) check(t *testing.T, bctx context.Context, what string, tally *sweepTally) {
	t.Helper()
	if axeScript == "" {
		a.mu.Lock()
		warn := !a.warned
		a.warned = true
		a.mu.Unlock()
		if warn {
			checkAxe(t, bctx, what) // (says why there is no check, or fails under CI)
		}
		return
	}
	began := time.Now()
	defer func() { tally.spent += time.Since(began) }()
	fs, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](screenFeatures))
	tally.reading += time.Since(began)
	if err != nil {
		t.Fatalf("%s: the screen's features: %v", what, err)
	}
	// The features are taken as checked at once: a whole game beside this one that shows them
	// meanwhile need not check them too.
	a.mu.Lock()
	fresh := false
	for _, f := range fs {
		if !a.seen[f] {
			fresh = true
			a.seen[f] = true
		}
	}
	a.mu.Unlock()
	if !fresh {
		return
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`typeof axe !== 'undefined' || (0, eval)(`+jsString(axeScript)+`) || true`)); err != nil {
		t.Fatalf("cannot load axe-core: %v", err)
	}
	ns, err := chromedp.Run(bctx, chromedp.Evaluate[[]axeNode](`axe.run(document, {resultTypes: ['violations']}).then((r) =>
	  r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) =>
	    ({id: v.id, impact: v.impact, help: v.help, target: n.target.join(' '), summary: (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 200)}))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", what, err)
	}
	tally.runs++
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, n := range ns {
		if k := n.ID + " " + n.Summary; !a.reported[k] {
			a.reported[k] = true
			t.Errorf("axe, %s: %s %s: %s: %s %s", what, n.Impact, n.ID, n.Help, n.Target, n.Summary)
		}
	}
}
