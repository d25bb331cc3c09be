package main

// The game night README.md promises ("Four friends, one laptop, three phones"), played the way
// people play it (issue 37): the README's own commands, read from README.md so that the two
// cannot drift, with the defaults a person gets; phones as real browser pages at a phone's size
// (touch, a mobile viewport, each its own storage); every person's path through the lobbies as
// a person's: a name on the phone's first screen, the table name the lobby proposes, Join on
// the table the phone's lobby lists.
//
// The substitutions, and only these: --phones-addr 127.0.0.1:0 (no Wi-Fi here); a temporary
// --data; --no-mdns and --listen on 127.0.0.1 (the project's tests use loopback only: mDNS
// would speak on the machine's real network); two browser phones and a laptop bot in place of
// a third phone (two cores); a locked screen as the page lifecycle frozen, hidden; a dropped
// Wi-Fi as the tests' TCP relay cut (wifi).
//
// The test command plays one evening a run, chosen from a seed it prints (so that a failure
// can be played again), and the README's `demo --phones`:
//
//	CORRUPTION_EVENING_SEED=N   play the evening of that seed
//	CORRUPTION_EVENING_ALL=1    play every evening: 3 games x play and host, a Greek and an emoji
//	                            table name, a full table, two equal names (docs/UI.md, "The
//	                            game night, tested")

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"corruption/engine"
	"corruption/protocol"
	"corruption/ui"
)

// readmeCommands are the commands of README.md's section "Four friends, one laptop, three
// phones", by their first word after ./corruption ("play", "host", "demo"): each the arguments
// as the README gives them.
func readmeCommands(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	in, code := false, false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Four friends, one laptop, three phones"
		case in && strings.HasPrefix(line, "```"):
			code = !code
		case in && code:
			if i := strings.Index(line, "#"); i >= 0 {
				line = line[:i]
			}
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "./corruption" {
				if _, dup := out[f[1]]; !dup {
					out[f[1]] = f[1:]
				}
			}
		}
	}
	for _, c := range []string{"play", "host", "demo"} {
		if out[c] == nil {
			t.Fatalf("README.md's section \"Four friends, one laptop, three phones\" has no ./corruption %s command", c)
		}
	}
	return out
}

// asTested is a README command with the substitutions above: --data's directory a temporary
// one, the phones' listener on 127.0.0.1, the node on loopback without mDNS.
func asTested(t *testing.T, args []string) []string {
	out := append([]string{}, args...)
	for i, a := range out {
		if strings.HasPrefix(a, "~/") {
			out[i] = filepath.Join(t.TempDir(), filepath.Base(a))
		}
	}
	out = append(out, "--phones-addr", "127.0.0.1:0")
	if out[0] != "demo" { // demo keeps to loopback by itself
		out = append(out, "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0")
	}
	return out
}

// evening is one game night.
type evening struct {
	name  string
	cmd   string // "play" (ann's laptop, ann at the table) or "host" (the laptop sits nowhere)
	game  string
	table string // the table's name: "" the one the lobby proposes
	// same: the two phones give one name; full: a table of 3, which the two phones join at
	// once, one of them told it is full.
	same, full bool
}

func evenings() []evening {
	var es []evening
	for _, cmd := range []string{"play", "host"} {
		for _, g := range []string{"corruption", "kingdoms", "corruptia"} {
			es = append(es, evening{name: cmd + "-" + g, cmd: cmd, game: g})
		}
	}
	return append(es,
		evening{name: "greek-name", cmd: "play", game: "corruption", table: "Τραπέζι της Άννας"},
		evening{name: "emoji-name", cmd: "play", game: "kingdoms", table: "🎲 ann's table 🃏"},
		evening{name: "equal-names", cmd: "play", game: "corruptia", same: true},
		evening{name: "full-table", cmd: "play", game: "corruption", full: true})
}

// TestReadmeEvening plays the README's evening: one a run (CORRUPTION_EVENING_SEED, or a seed
// it prints), or every one (CORRUPTION_EVENING_ALL=1).
//
// It runs beside the package's other parallel tests: alone before them (as a test that is not
// parallel runs), it held the package's other tests back for its whole evening.
func TestReadmeEvening(t *testing.T) {
	needChromium(t)
	t.Parallel()
	all := evenings()
	if os.Getenv("CORRUPTION_EVENING_ALL") != "1" {
		seed := envSeed(t, "CORRUPTION_EVENING_SEED")
		e := all[rand.New(rand.NewPCG(seed, 37)).IntN(6)] // the six of play and host
		t.Logf("the evening of seed %d: %s (play it again: CORRUPTION_EVENING_SEED=%d go test -run TestReadmeEvening ./cmd/corruption/)", seed, e.name, seed)
		all = []evening{e}
	}
	cmds := readmeCommands(t)
	for _, e := range all {
		t.Run(e.name, func(t *testing.T) { playEvening(t, e, cmds[e.cmd]) })
	}
	t.Run("demo", func(t *testing.T) { playDemo(t, cmds["demo"]) })
}

// playDemo is the README's `demo --phones`: your own seat on your phone against the laptop's
// bots. The phone gives its name first, sits at the demo's table, plays it to the end; the
// demo prints the outcome with the phone's seat as yours, and exits; the phone's page, its
// results still in sight, says the laptop closed the table.
func playDemo(t *testing.T, readme []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, asTested(t, readme)...)
	cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
	demo := startCmd(t, "demo", cmd)
	url := demo.waitLine(t, phoneLine, 30*time.Second)[1]
	p := &eveningPage{name: "dee", touch: true, lang: "en", bctx: browserAt(t, ctx, 390, 844, true)}
	if err := chromedp.Do(p.bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	p.wait(t, "the name screen", `document.body.dataset.mode === 'name' && !!document.querySelector('#name-input')`, 2*time.Minute)
	p.typeInto(t, "#name-input", p.name)
	p.tap(t, "#name-go")
	st := p.playToTheEnd(t, ctx, corruptionLearn, nil)
	if r := st.Result; r == nil || !r.Finished || !r.Valid {
		t.Fatalf("the phone's table: %+v", st.Result)
	}
	if code := demo.wait(t, 60*time.Second); code != 0 {
		t.Fatalf("demo --phones exited %d", code)
	}
	if s := demo.stdout.String(); !regexp.MustCompile(`dee\S* \(seat \d\).*\(you\)`).MatchString(s) {
		t.Errorf("demo's outcome does not name the phone's seat (you):\n%s", s)
	}
	p.wait(t, "the phone told the laptop closed the table, its results in sight", `document.body.dataset.trouble === 'closing' && !!document.querySelector('#results, .results')`, 30*time.Second)
}

// A page of the evening: the laptop's, or a phone's.
type eveningPage struct {
	name  string
	bctx  context.Context
	touch bool
	lang  string
}

// modesSeen records, in a page, every mode its body shows and every list of the players seated
// at the table while it forms (the page's history across reloads is kept in its session
// storage): a reload must never pass through the lobby; two players of one name are told apart.
const modesSeen = `(() => {
  const seen = (k) => JSON.parse(sessionStorage.getItem(k) || '[]');
  const note = (k, v) => { const s = seen(k); if (v && s[s.length - 1] !== v) { s.push(v); sessionStorage.setItem(k, JSON.stringify(s)); } };
  globalThis.modesSeen = () => seen('test.modes');
  globalThis.seatedSeen = () => seen('test.seated');
  new MutationObserver(() => {
    note('test.modes', document.body && document.body.dataset.mode);
    const f = document.querySelector('#seats-filled');
    note('test.seated', f && f.textContent);
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-mode']});
})();`

func playEvening(t *testing.T, e evening, readme []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	args := asTested(t, readme)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=") // a laptop's page is opened by hand here
	laptop := startCmd(t, "laptop", cmd)
	phonesURL := laptop.waitLine(t, phoneLine, 30*time.Second)[1]
	g := map[string]learnGame{"corruption": corruptionLearn, "kingdoms": kingdomsLearn, "corruptia": corruptiaLearn}[e.game]

	// The phones: each a browser context of its own, at a phone's size, with touch; phone a
	// reached through a Wi-Fi that drops for a spell. The first screen: a name and a language.
	air := newWifi(t, phonesURL)
	phoneNames := []string{"bea", "cyd"}
	if e.same {
		phoneNames = []string{"bea", "bea"}
	}
	phones := []*eveningPage{{name: phoneNames[0], touch: true, lang: "es"}, {name: phoneNames[1], touch: true, lang: "fr"}}
	for i, p := range phones {
		p.bctx = browserAt(t, ctx, 390, 844, true)
		for _, src := range []string{countSockets, modesSeen} {
			if _, err := chromedp.Call(p.bctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
				t.Fatal(err)
			}
		}
		addr := phonesURL
		if i == 0 {
			addr = air.url
		}
		if err := chromedp.Do(p.bctx, chromedp.Navigate(addr)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range phones {
		p.wait(t, "the name screen", `document.body.dataset.mode === 'name' && !!document.querySelector('#name-input')`, 2*time.Minute)
		p.chooseLang(t)
		p.typeInto(t, "#name-input", p.name)
		p.tap(t, "#name-go")
		p.wait(t, "the lobby", `document.body.dataset.mode === 'lobby'`, 30*time.Second)
		if laptopShown, err := chromedp.Run(p.bctx, chromedp.Evaluate[string](`(document.querySelector('#seat-laptop') || {}).textContent || ''`)); err != nil || !regexp.MustCompile(`[0-9a-z]{4}-[0-9a-z]{4}`).MatchString(laptopShown) {
			t.Errorf("%s's page does not say which laptop it reached: %q", p.name, laptopShown)
		}
	}

	// The table: ann creates it on the laptop's page (play), or phone a on its own (host), with
	// the name its lobby proposes, and bots in the seats no phone takes.
	var creator *eveningPage
	var seats []*eveningPage // the pages that play
	players, bots := 4, 1
	if e.full {
		players, bots = 3, 1
	}
	if e.cmd == "play" {
		creator = &eveningPage{name: "ann", bctx: browserAt(t, ctx, 1366, 768, false), lang: "en"}
		if _, err := chromedp.Call(creator.bctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: modesSeen}); err != nil {
			t.Fatal(err)
		}
		url := laptop.waitLine(t, openLine, 30*time.Second)[1]
		if err := chromedp.Do(creator.bctx, chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		creator.wait(t, "the laptop's lobby", `document.body.dataset.mode === 'lobby' && !!document.querySelector('#create-form')`, 30*time.Second)
		seats = append(seats, creator)
	} else {
		creator, bots = phones[0], 2
	}
	table := creator.createTable(t, e.game, e.table, players, bots)
	t.Logf("the table %q, created on %s's page", table, creator.name)
	joiners := phones
	if e.cmd == "host" {
		joiners = phones[1:]
		seats = append(seats, phones[0])
	}
	join := fmt.Sprintf(`.lobby-table[data-table="%s"] button.join`, cssString(table))
	for _, p := range joiners {
		// Listed with its players, the laptop's bot among them (a bot announces its table in
		// the lobby as a person does).
		p.wait(t, "the table in the lobby, its bot seated", fmt.Sprintf(`[...document.querySelectorAll('.lobby-table')].some((li) => li.dataset.table === %q && !li.querySelector('button.join').disabled && /bot/.test(li.querySelector('.seated').textContent))`, table), time.Minute)
	}
	if !e.full {
		for _, p := range joiners {
			p.tap(t, join)
			seats = append(seats, p)
		}
	} else {
		// One seat left for two phones, which tap Join at once. A public table seats the first
		// of its candidates by key (docs/ARCHITECTURE.md, "Table formation by lowest key"), the laptop's bot
		// among them: either one phone sits and the other is told that the table is full and
		// leaves for the lobby, or both sit and the bot is the one left out.
		for _, p := range joiners {
			p.tap(t, join)
		}
		state := `document.querySelector('#table-full') ? 'full' : ['setup', 'game'].includes(document.body.dataset.mode) ? 'seated' : ''`
		var full *eveningPage
		for _, p := range joiners {
			p.wait(t, "its seat, or the word that the table is full", state+" !== ''", 3*time.Minute)
			if s, _ := chromedp.Run(p.bctx, chromedp.Evaluate[string](state)); s == "full" {
				full = p
			} else {
				seats = append(seats, p)
			}
		}
		if full == nil && len(seats) == 3 {
			t.Logf("both phones sat: the laptop's bot was the candidate left out")
		} else if full == nil || len(seats) != 2 {
			for _, p := range joiners {
				text, _ := chromedp.Run(p.bctx, chromedp.Evaluate[string](`document.body.dataset.mode + ": " + document.body.innerText.slice(0, 600)`))
				t.Logf("%s's page: %s", p.name, text)
			}
			t.Fatalf("two phones joined a table with one seat left: %d seated, full told %v", len(seats)-1, full != nil)
		}
		if full != nil {
			full.tap(t, "#leave")
			full.wait(t, "the lobby again", `document.body.dataset.mode === 'lobby'`, 30*time.Second)
		}
	}

	// Every seat plays to the end; phone a's page is reloaded in mid-game, phone b's screen
	// locked for a while, phone a's Wi-Fi drops for a spell.
	var wg sync.WaitGroup
	results := make([]ui.State, len(seats))
	for i, p := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var during func(n int)
			switch p {
			case phones[0]:
				during = func(n int) {
					if n == 2 {
						p.reload(t, table)
					}
					if n == 4 {
						air.drop()
						p.wait(t, "the link to the laptop down", `document.body.dataset.bridge === 'down'`, 30*time.Second)
						air.restore()
					}
				}
			case phones[1]:
				during = func(n int) {
					if n == 2 {
						p.lock(t, 5*time.Second)
					}
				}
			}
			results[i] = p.playToTheEnd(t, ctx, g, during)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if e.same {
		seated, err := chromedp.Run(creator.bctx, chromedp.Evaluate[[]string](`seatedSeen()`))
		if err != nil || !slicesMatch(seated, regexp.MustCompile(`bea.*bea \(2\)`)) {
			t.Errorf("the two players named bea, while the table formed: %q, %v; want them told apart", seated, err)
		}
	}
	digest := results[0].Result.Digest
	for i, st := range results {
		if r := st.Result; r == nil || !r.Finished || !r.Valid || r.Digest != digest {
			t.Errorf("%s's table: %+v; want finished, valid, one log (digest %s)", seats[i].name, st.Result, digest)
		}
	}
	// Every log audits: the phones' from their browsers' storage, the laptop's from --data.
	for _, p := range phones {
		if !slicesContains(seats, p) {
			continue
		}
		nums, err := chromedp.Run(p.bctx, chromedp.Evaluate[[]int](fmt.Sprintf(`corruptionIDB.read(corruptionSeat.scope, 'tables/' + %s + '/log').then((b) => b ? Array.from(b) : [])`, jsString(table)), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		log := make([]byte, len(nums))
		for i, n := range nums {
			log[i] = byte(n)
		}
		if rep, err := protocol.Audit(bytes.NewReader(log), engine.Options{}); err != nil || !rep.Valid {
			t.Errorf("%s's log (%d bytes, from its browser): %+v, %v", p.name, len(log), rep, err)
		}
		// The table over, its seed is wiped from the browser (its log stays, audited above).
		seed, err := chromedp.Run(p.bctx, chromedp.Evaluate[int](fmt.Sprintf(`corruptionIDB.read(corruptionSeat.scope, 'tables/' + %s + '/seed').then((b) => b === null ? -1 : b.length)`, jsString(table)), chromedp.EvalAwaitPromise))
		if err != nil || seed != -1 {
			t.Errorf("%s's browser still holds the table's seed (%d bytes, %v) once the table is over", p.name, seed, err)
		}
	}
	if e.cmd == "play" {
		data := args[slicesIndex(args, "--data")+1]
		f, err := os.Open(filepath.Join(data, "tables", table, "log"))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := protocol.Audit(f, engine.Options{})
		f.Close()
		if err != nil || !rep.Valid {
			t.Errorf("the laptop's log: %+v, %v", rep, err)
		}
		// Back to the lobby, then quit: the laptop stops, and the phones are told in words.
		creator.click(t, "#leave")
		creator.wait(t, "the laptop's lobby again", `document.body.dataset.mode === 'lobby'`, 30*time.Second)
		creator.click(t, "#quit")
		if code := laptop.wait(t, 30*time.Second); code != 0 {
			t.Errorf("the laptop's play exited %d after Quit", code)
		}
	} else {
		laptop.cmd.Process.Signal(os.Interrupt) // Ctrl-C
		laptop.wait(t, 30*time.Second)
	}
	for _, p := range phones {
		p.wait(t, "the phone told the laptop stopped", `document.body.dataset.trouble === 'closing' && !!document.querySelector('#seat-trouble:not([hidden])')`, 30*time.Second)
	}
}

func slicesMatch(ss []string, re *regexp.Regexp) bool {
	for _, s := range ss {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

func slicesContains(ps []*eveningPage, p *eveningPage) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func slicesIndex(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// cssString quotes a table's name for a CSS attribute selector.
func cssString(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }

// wait waits for a condition of the page (by interval: a page once frozen may draw no frame).
func (p *eveningPage) wait(t *testing.T, what, js string, within time.Duration) {
	t.Helper()
	// Bounded here too: a hidden page's timers are throttled, and the page's own bound with them.
	wctx, cancel := context.WithTimeout(p.bctx, within+10*time.Second)
	defer cancel()
	deadline := time.Now().Add(within)
	// A page that starts again has no body for a moment: its condition is false then.
	js = "(() => { try { return !!(" + js + "); } catch (e) { return false; } })()"
	var err error
	for {
		// A page that starts again (a new table, a reload) ends the wait under way: it is
		// taken up again in the new page.
		if _, err = poll[bool](wctx, js, time.Until(deadline)); err == nil || !strings.Contains(err.Error(), "navigated or closed") &&
			!strings.Contains(err.Error(), "context was destroyed") || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		shown, _ := chromedp.Run(p.bctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset) + ' ' + (document.getElementById('main') || document.body).innerText.slice(0, 400)`))
		screenshot(t, p.bctx, artifacts(t), failShot(t, p.name+"-stuck"), true)
		t.Fatalf("%s's page: waiting for %s: %v; the page: %s", p.name, what, err, shown)
	}
}

// tap taps (or, on the laptop, clicks) the element sel, as a person does, once it is there.
func (p *eveningPage) tap(t *testing.T, sel string) {
	t.Helper()
	if !p.touch {
		p.click(t, sel)
		return
	}
	at, err := pollCall[point](p.bctx, clickable, 30*time.Second, sel)
	if err != nil {
		t.Fatalf("%s: no %s to tap: %v", p.name, sel, err)
	}
	if _, err := chromedp.Call(p.bctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart,
		TouchPoints: []*input.TouchPoint{{X: at.X, Y: at.Y}}}); err != nil {
		t.Fatalf("%s: tap %s: %v", p.name, sel, err)
	}
	if _, err := chromedp.Call(p.bctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd,
		TouchPoints: []*input.TouchPoint{}}); err != nil {
		t.Fatalf("%s: tap %s: %v", p.name, sel, err)
	}
}

func (p *eveningPage) click(t *testing.T, sel string) {
	t.Helper()
	click(t, p.bctx, sel)
}

// typeInto types text into the field sel over what it holds.
func (p *eveningPage) typeInto(t *testing.T, sel, text string) {
	t.Helper()
	p.tap(t, sel)
	if _, err := chromedp.Run(p.bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.select(); return true; })()`, sel))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(p.bctx, chromedp.KeyEvent(text)); err != nil {
		t.Fatalf("%s: typing into %s: %v", p.name, sel, err)
	}
}

// chooseLang picks the page's language on the name screen.
func (p *eveningPage) chooseLang(t *testing.T) {
	t.Helper()
	if _, err := chromedp.Run(p.bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const s = document.querySelector('#name-lang'); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, p.lang))); err != nil {
		t.Fatal(err)
	}
	p.wait(t, "the page in "+p.lang, fmt.Sprintf(`document.documentElement.lang === %q && document.body.dataset.lang === %[1]q`, p.lang), 30*time.Second)
}

// createTable creates a table of game in the page's lobby, with the name it proposes (or
// name), players and bots; it returns the table's name.
func (p *eveningPage) createTable(t *testing.T, game, name string, players, bots int) string {
	t.Helper()
	set := func(sel, v string) {
		if _, err := chromedp.Run(p.bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, sel, v))); err != nil {
			t.Fatal(err)
		}
	}
	set("#game", game)
	p.wait(t, "the form for "+game, fmt.Sprintf(`document.querySelector('#game').value === %q`, game), 10*time.Second)
	if name != "" {
		p.typeInto(t, "#table-name", name)
	}
	table, err := chromedp.Run(p.bctx, chromedp.Evaluate[string](`document.querySelector('#table-name').value`))
	if err != nil || table == "" {
		t.Fatalf("%s's lobby proposes no table name: %v", p.name, err)
	}
	set("#players", strconv.Itoa(players))
	set("#bots", strconv.Itoa(bots))
	p.tap(t, "#create")
	p.wait(t, "the table forming", `['waiting', 'setup', 'game'].includes(document.body.dataset.mode)`, 30*time.Second)
	return table
}

// reload reloads a phone's page in mid-game: it must come back to its seat at table, never
// passing through the lobby. How long it took is logged (docs/UI.md's figure).
func (p *eveningPage) reload(t *testing.T, table string) {
	t.Helper()
	began := time.Now()
	if err := chromedp.Do(p.bctx, chromedp.Reload()); err != nil {
		t.Fatalf("%s: reload: %v", p.name, err)
	}
	p.wait(t, "its seat again after the reload", fmt.Sprintf(`['setup', 'game', 'over'].includes(document.body.dataset.mode) && (document.querySelector('#where .table-name') || {}).textContent.includes(%q)`, table), 2*time.Minute)
	t.Logf("%s's page back at its seat %.1fs after the reload began", p.name, time.Since(began).Seconds())
	seen, err := chromedp.Run(p.bctx, chromedp.Evaluate[[]string](`modesSeen()`))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range seen {
		if m == "lobby" && i > 0 && slicesIndexStr(seen[:i], "setup", "game") {
			t.Errorf("%s's page went through the lobby after the reload: %v", p.name, seen)
		}
	}
}

func slicesIndexStr(ss []string, any ...string) bool {
	for _, s := range ss {
		for _, a := range any {
			if s == a {
				return true
			}
		}
	}
	return false
}

// lock freezes the page, hidden, for a while, as a phone's locked screen does (the spell is
// the scenario, not a wait for something).
func (p *eveningPage) lock(t *testing.T, spell time.Duration) {
	t.Helper()
	if _, err := chromedp.Call(p.bctx, cdppage.SetWebLifecycleState, cdppage.SetWebLifecycleStateParams{State: cdppage.SetWebLifecycleStateStateFrozen}); err != nil {
		t.Fatalf("%s: freeze: %v", p.name, err)
	}
	<-time.After(spell)
	if _, err := chromedp.Call(p.bctx, cdppage.SetWebLifecycleState, cdppage.SetWebLifecycleStateParams{State: cdppage.SetWebLifecycleStateStateActive}); err != nil {
		t.Fatalf("%s: unfreeze: %v", p.name, err)
	}
	// The screen unlocked: the page visible again (headless Chromium leaves a page it
	// unfroze hidden, and a hidden page draws no frame: the browser holds a tap until one is
	// drawn; focus emulation makes it visible, as an unlocked phone's page is).
	if _, err := chromedp.Call(p.bctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("%s: unlock: %v", p.name, err)
	}
	p.wait(t, "the page visible again", `document.visibilityState === 'visible'`, 30*time.Second)
}

// playUntil plays the page's decisions, as playToTheEnd does, until the expression holds.
func (p *eveningPage) playUntil(t *testing.T, ctx context.Context, g learnGame, until string) {
	t.Helper()
	p.play(t, ctx, g, nil, until)
}

// playToTheEnd plays the page's decisions, as the newcomer's harness does (by the roles and
// names the page gives assistive technology, pressing g's choice), until the results show,
// calling during (when set) before each decision with its number; it returns the page's state
// with its results.
func (p *eveningPage) playToTheEnd(t *testing.T, ctx context.Context, g learnGame, during func(n int)) ui.State {
	if !p.play(t, ctx, g, during, "") {
		return ui.State{}
	}
	text, err := chromedp.Run(p.bctx, chromedp.Evaluate[string](pageState, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Errorf("%s: %v", p.name, err)
		return ui.State{}
	}
	var st ui.State
	if err := json.Unmarshal([]byte(text), &st); err != nil {
		t.Errorf("%s: %v", p.name, err)
	}
	return st
}

// play plays the page's decisions until its results show, or until the expression until
// holds (when not ""); false when it could not.
func (p *eveningPage) play(t *testing.T, ctx context.Context, g learnGame, during func(n int), until string) bool {
	words := shellWords(t, p.lang)
	backs := map[string]bool{}
	for _, k := range g.back {
		backs[boardWords(t, g.id, p.lang).words[k]] = true
	}
	region, results := words["decision.region"], words["result.finished"]
	decisions, told, acted, same := 0, 0, "", time.Time{}
	for {
		if ctx.Err() != nil {
			screenshot(t, p.bctx, artifacts(t), failShot(t, p.name+"-no-end"), true)
			t.Errorf("%s: no end after %d decisions", p.name, decisions)
			return false
		}
		if until != "" {
			if ok, _ := chromedp.Run(p.bctx, chromedp.Evaluate[bool](until)); ok {
				return true
			}
		}
		seen := pageChanges(p.bctx)
		if !mayDecide(p.bctx, region) {
			waitChange(p.bctx, seen)
			continue
		}
		d, err := readDecisionState(p.bctx, region, results)
		if err != nil {
			t.Errorf("%s: %v", p.name, err)
			return false
		}
		if d.over {
			break
		}
		if d.region == nil || d.region.busy || len(d.buttons) == 0 || (d.says == acted && time.Since(same) < 5*time.Second) {
			waitChange(p.bctx, seen)
			continue
		}
		if during != nil && told == decisions {
			told++
			during(decisions + 1)
			continue // the page may have changed: read it again
		}
		decisions++
		i := -1
		if g.pick != nil {
			i = g.pick(names(d.buttons), p.lang)
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
		pctx, cancel := context.WithTimeout(p.bctx, 30*time.Second) // a press the page never takes is an error, not a hang
		err = press(pctx, d.buttons[i], p.touch)
		cancel()
		if err != nil {
			if ctx.Err() == nil && pctx.Err() != nil {
				t.Errorf("%s: pressing %q: the page never took it", p.name, d.buttons[i].name)
				return false
			}
			continue // the page changed under it: looking again
		}
		acted, same = d.says, time.Now()
		waitChange(p.bctx, seen)
	}
	t.Logf("%s: the end after %d decisions", p.name, decisions)
	return true
}

// mayDecide is false when the page cannot hold a decision of its own nor the results: no
// element is labelled as the decision's region (region) that is not busy and holds a button
// not disabled, and there is no results panel. play reads the accessibility tree only when it
// is true: while the others play, most changes of a page are theirs, and a read of the whole
// tree costs the browser a tenth of a second or more once the log is long (three pages that
// read it at each change took about a third of the evening's CPU). It only says when to read:
// what is due, and what is pressed, is still read from the tree by roles and names; a page
// whose markup it misjudged would wait, and the test fail, never a check skipped.
func mayDecide(bctx context.Context, region string) bool {
	ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
	  if (document.querySelector('#results')) return true;
	  return [...document.querySelectorAll('[aria-label]')].some((r) => r.getAttribute('aria-label') === %s &&
	    r.getAttribute('aria-busy') !== 'true' && !!r.querySelector('button:not(:disabled), [role=button]:not([aria-disabled=true])'));
	})()`, jsString(region))))
	return ok || err != nil // an error (a page that starts again): the tree is read, as before
}

// pageState is the page's state once it has a result, through the page's own door (api.js):
// in process on a phone, over HTTP on the laptop.
const pageState = `(async () => {
  const api = await import('/static/api.js');
  for (;;) {
    const r = await api.request('GET', '/api/state?lang=en');
    if (r.json && r.json.result) return JSON.stringify(r.json);
    await new Promise((ok) => setTimeout(ok, 200));
  }
})()`
