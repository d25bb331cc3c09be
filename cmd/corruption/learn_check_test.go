package main

// The newcomer's harness, its scripted part (issue 25): one position of every kind of decision
// and the results, cut from a game's scenario scripts (docs/SCRIPTS.md) and shown in a page
// with no network (the page's server alone, on loopback, fed the seat's copy of the game the
// script replays to: no node, no peer). On each: what checkNewcomer checks, axe-core (no
// serious or critical violation, in English: it takes seconds a page), and in Spanish and French the translation check: no visible
// text equals an English string of the shell's or the board's strings files whose translation
// differs (the rules panel's too), but the game's proper nouns.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"corruption/engine"
	"corruption/protocol"
	"corruption/ui"
)

// stringsFile is a strings file's words, its rules panel's sections flattened among them
// ("rules.2.title", "rules.2.text.0").
type stringsFile struct{ words map[string]string }

func langFile(t *testing.T, path string) stringsFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the strings file: %v", err)
	}
	var f struct {
		Words map[string]string `json:"words"`
		Rules []struct {
			Title string   `json:"title"`
			Text  []string `json:"text"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := stringsFile{words: map[string]string{}}
	for k, v := range f.Words {
		out.words[k] = v
	}
	for i, r := range f.Rules {
		out.words[fmt.Sprintf("rules.%d.title", i)] = r.Title
		for j, p := range r.Text {
			out.words[fmt.Sprintf("rules.%d.text.%d", i, j)] = p
		}
	}
	return out
}

// boardWords are game's board's words in lang (none when it has no file).
func boardWords(t *testing.T, game, lang string) stringsFile {
	t.Helper()
	path := "../../ui/" + game + "/static/lang/" + lang + ".json"
	if _, err := os.Stat(path); err != nil {
		return stringsFile{words: map[string]string{}}
	}
	return langFile(t, path)
}

// untranslated is a matcher of the English strings whose translation into lang differs: an
// English text shown in a page in lang is one of them.
type untranslated struct {
	exact map[string]string // text -> key
	forms []untranslatedForm
}

type untranslatedForm struct {
	key string
	re  *regexp.Regexp
}

var (
	argRE    = regexp.MustCompile(`\{\w+\}`)
	letterRE = regexp.MustCompile(`\pL`)
	// untranslatedOf keeps each game's and language's matcher (read once); the browser tests
	// run side by side.
	untranslatedOf   = map[string]*untranslated{}
	untranslatedOfMu sync.Mutex
)

func newUntranslated(t *testing.T, game, lang string) *untranslated {
	t.Helper()
	untranslatedOfMu.Lock()
	defer untranslatedOfMu.Unlock()
	if u := untranslatedOf[game+"/"+lang]; u != nil {
		return u
	}
	u := &untranslated{exact: map[string]string{}}
	untranslatedOf[game+"/"+lang] = u
	for _, pair := range [][2]stringsFile{{shellFileOf(t, "en"), shellFileOf(t, lang)}, {boardWords(t, game, "en"), boardWords(t, game, lang)}} {
		en, tr := pair[0].words, pair[1].words
		for k, e := range en {
			if x, ok := tr[k]; !ok || x == e || len(strings.TrimSpace(e)) < 2 {
				continue
			}
			if !argRE.MatchString(e) {
				u.exact[strings.Join(strings.Fields(e), " ")] = k
				continue
			}
			lits := argRE.Split(e, -1)
			letters := 0
			for i, l := range lits {
				letters += len(letterRE.FindAllString(l, -1))
				lits[i] = regexp.QuoteMeta(strings.Join(strings.Fields(l), " "))
			}
			if letters >= 3 {
				u.forms = append(u.forms, untranslatedForm{k, regexp.MustCompile(`^` + strings.Join(lits, `\s*(.+?)\s*`) + `$`)})
			}
		}
	}
	return u
}

func shellFileOf(t *testing.T, lang string) stringsFile {
	return langFile(t, "../../ui/static/lang/"+lang+".json")
}

// match is the key of the English string text is, or "".
func (u *untranslated) match(text string) string {
	if k, ok := u.exact[text]; ok {
		return k
	}
	for _, f := range u.forms {
		if f.re.MatchString(text) {
			return f.key
		}
	}
	return ""
}

// visibleUnits are the page's visible texts: each line of its text and each text node shown.
const visibleUnits = `(() => {
  const out = new Set();
  for (const l of document.body.innerText.split('\n')) { const s = l.replace(/\s+/g, ' ').trim(); if (s) out.add(s); }
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode());) {
    const s = n.data.replace(/\s+/g, ' ').trim(), p = n.parentElement;
    if (s && p && p.checkVisibility({visibilityProperty: true}) && !p.closest('option')) out.add(s);
  }
  return [...out];
})()`

// languageNames are every page's language menu, the same in every language.
var languageNames = []string{"English", "Español", "Français"}

// checkTranslated fails the test for each visible text of the page, in lang, that is an English
// string whose translation differs, but the game's proper nouns.
func checkTranslated(t *testing.T, bctx context.Context, g learnGame, lang, screen string) {
	t.Helper()
	if lang == "en" {
		return
	}
	u := newUntranslated(t, g.id, lang)
	units, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](visibleUnits))
	if err != nil {
		t.Fatalf("%s: %v", screen, err)
	}
	allowed := map[string]bool{}
	for _, a := range append(append([]string{}, languageNames...), g.allow...) {
		allowed[a] = true
	}
	bad := 0
	for _, s := range units {
		if allowed[s] {
			continue
		}
		if k := u.match(s); k != "" {
			if bad++; bad <= 12 {
				t.Errorf("%s in %s: %q is English (%s)", screen, lang, s, k)
			}
		}
	}
	if bad > 12 {
		t.Errorf("%s in %s: %d English texts in all", screen, lang, bad)
	}
}

// ---- scripted positions

// scriptedPos is a position cut from a script: the first moves moves, and the kind of the
// decision then due (its board's Decision's "kind"), or "results" at the end of a whole game.
type scriptedPos struct {
	script string
	data   []byte
	moves  int
	kind   string
}

// cutScript is a script's JSON with its first n moves only.
func cutScript(data []byte, n int) ([]byte, int, error) {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, 0, err
	}
	var moves []json.RawMessage
	if err := json.Unmarshal(f["moves"], &moves); err != nil {
		return nil, 0, fmt.Errorf("moves: %v", err)
	}
	if n < 0 || n > len(moves) {
		n = len(moves)
	}
	cut, _ := json.Marshal(moves[:n])
	f["moves"] = cut
	out, err := json.Marshal(f)
	return out, len(moves), err
}

// decisionKind is the kind of the decision game waits for from seat, as g's board says it (its
// Decision's "kind", refined by g.kindOf), "" for none.
func decisionKind(g learnGame, game engine.Game, seat int, players int) string {
	d := games[g.id].board.Decision(game, seat, demoNames[:players])
	if d == nil {
		return ""
	}
	raw, _ := json.Marshal(d)
	var k struct {
		Kind string `json:"kind"`
	}
	json.Unmarshal(raw, &k)
	if k.Kind == "" {
		k.Kind = "decision"
	}
	if g.kindOf != nil {
		return g.kindOf(k.Kind, raw)
	}
	return k.Kind
}

var demoNames = []string{"ann", "bob", "cy", "dee", "eve", "fay", "gus"}

// scriptPositions are, for each of g's scripts, the first position of each kind of decision
// not seen before, and the first script's end (its results). The scripts are read in turn
// until every kind of g.kinds has a position: what follows is not read (each position is its
// script replayed from the start to there, and a script that adds no kind would cost seconds).
func scriptPositions(t *testing.T, g learnGame) []scriptedPos {
	t.Helper()
	positionsOfMu.Lock()
	defer positionsOfMu.Unlock()
	if ps, ok := positionsOf[g.id]; ok {
		return ps
	}
	defer func(began time.Time) {
		t.Logf("%s: the scripts' positions found in %v", g.id, time.Since(began).Round(time.Millisecond))
	}(time.Now())
	seen := map[string]bool{}
	all := func() bool { // every kind of g.kinds has a position
		for _, k := range g.kinds {
			if !seen[k] {
				return false
			}
		}
		return len(g.kinds) > 0
	}
	var out []scriptedPos
	for _, path := range g.scripts {
		if all() {
			break
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		players := playersOf(t, data)
		_, total, err := cutScript(data, -1)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for n := 0; n <= total && !all(); n++ {
			cut, _, _ := cutScript(data, n)
			game, seat, _, err := g.position(cut, -1)
			if err != nil {
				t.Fatalf("%s cut at move %d: %v", path, n, err)
			}
			kind := decisionKind(g, game, seat, players)
			if n == total && game.Outcome().Over {
				kind = "results"
			}
			if kind != "" && !seen[kind] {
				seen[kind] = true
				out = append(out, scriptedPos{path, cut, n, kind})
			}
		}
	}
	positionsOf[g.id] = out
	return out
}

// checkKinds fails the test for each of g's kinds that no scripted position has, for each
// scripted position of a kind g's list does not have (the list is out of date), and for each
// script that gives no position (its kinds are all in the scripts before it, or not listed).
func checkKinds(t *testing.T, g learnGame, positions []scriptedPos) {
	t.Helper()
	if len(g.kinds) == 0 {
		t.Fatalf("%s: no kinds of decision listed", g.id)
	}
	found := map[string]bool{}
	for _, p := range positions {
		found[p.kind] = true
		if !slices.Contains(g.kinds, p.kind) {
			t.Errorf("%s: %s at move %d has a decision of the kind %q, which the kinds the engine lists (%s) lack",
				g.id, p.script, p.moves, p.kind, strings.Join(g.kinds, ", "))
		}
	}
	for _, path := range g.scripts {
		if !slices.ContainsFunc(positions, func(p scriptedPos) bool { return p.script == path }) {
			t.Errorf("%s: %s gives no position: every kind it reaches is in the scripts before it, or is not in the kinds listed (%s)",
				g.id, path, strings.Join(g.kinds, ", "))
		}
	}
	for _, k := range g.kinds {
		if !found[k] {
			t.Errorf("%s: no scripted position of the kind %q in %s: add a script that reaches one", g.id, k, strings.Join(g.scripts, ", "))
		}
	}
}

// engineKinds are the names of an engine's kinds of decision (its DecisionKind's String, from
// 0 until the first name String does not know, "decision(N)"), but those of table: the kinds
// that are no person's decision (the game's end and the table's own steps, which a node takes
// without asking its person).
func engineKinds[K interface {
	~uint8
	String() string
}](table ...K) []string {
	var out []string
	for k := K(0); !strings.HasPrefix(k.String(), "decision("); k++ {
		if !slices.Contains(table, k) {
			out = append(out, k.String())
		}
		if k == 255 {
			break
		}
	}
	return out
}

// positionsOf keeps each game's scripted positions (found once).
var (
	positionsOf   = map[string][]scriptedPos{}
	positionsOfMu sync.Mutex
)

func playersOf(t *testing.T, data []byte) int {
	var f struct {
		Players int `json:"players"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Players < 1 || f.Players > len(demoNames) {
		t.Fatalf("a script's players: %d (%v)", f.Players, err)
	}
	return f.Players
}

// scriptedPage serves the page of the seat due at pos (at the results, seat 0), with no
// network: the page's server alone, on loopback, with the seat's copy of the game, its log,
// and the decision asked (or the results, with the outcome the game gives). It returns the
// page's address; everything stops when the test ends.
func scriptedPage(t *testing.T, g learnGame, pos scriptedPos) string {
	t.Helper()
	game, seat, events, err := g.position(pos.data, -1)
	if err != nil {
		t.Fatal(err)
	}
	players := playersOf(t, pos.data)
	h := ui.NewHuman(nil)
	s, err := ui.NewServer(ui.Config{Name: demoNames[seat], Board: games[g.id].board, Human: h})
	if err != nil {
		t.Fatal(err)
	}
	s.SetTable(ui.TableChoice{Table: "scripted", Game: g.id, Players: players})
	for _, e := range events {
		s.Event(e)
	}
	now := time.Now()
	s.Update(protocol.Status{Table: "scripted", Game: g.id, Seat: seat, Names: demoNames[:players], State: game, Due: seat,
		DueSince: now, Allowance: 24 * time.Hour, Timeout: 24 * time.Hour, Leaving: -1})
	ctx, cancel := context.WithCancel(context.Background())
	if o := game.Outcome(); o.Over {
		s.Finish(ui.Result{Outcome: &protocol.Outcome{Table: "scripted", Game: g.id, Seat: seat, Finished: true, Scores: o.Scores, Winners: o.Winners},
			Audit: &protocol.Report{Valid: true}})
	} else {
		go h.Decide(ctx, game.Clone(), seat)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		cancel()
		s.Close()
		srv.Close()
	})
	return s.URL(strings.TrimPrefix(srv.URL, "http://"))
}

// learnScripted shows each scripted position of g (every kind of decision, the results) at vp
// and checks it in every language of langs: what checkNewcomer checks, axe-core, the
// translation check; and the rules panel, once, in each.
func learnScripted(t *testing.T, g learnGame, vp viewport, langs []string) {
	t.Helper()
	positions := scriptPositions(t, g)
	var kinds []string
	for _, p := range positions {
		kinds = append(kinds, p.kind)
	}
	sort.Strings(kinds)
	t.Logf("%s: scripted positions of %d kinds: %s", g.id, len(kinds), strings.Join(kinds, ", "))
	checkKinds(t, g, positions)
	bctx := sharedTab(t, vp)
	for i, pos := range positions {
		url := scriptedPage(t, g, pos)
		if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
			t.Fatalf("the page does not load: %v", err)
		}
		waitFor(t, bctx, "the scripted page", `document.body.dataset.ready === '1'`)
		for _, lang := range langs {
			if lang != "en" || i > 0 {
				setLang(t, bctx, lang)
			}
			words := shellWords(t, lang)
			screen := fmt.Sprintf("%s %s (%s, move %d) at %s", g.id, pos.kind, pos.script, pos.moves, vp.name)
			want := fmt.Sprintf(`document.body.dataset.mode === 'over' ? !!document.querySelector('#results') : !!document.querySelector('[aria-label=%q]')`, words["decision.region"])
			waitFor(t, bctx, screen+" drawn in "+lang, want)
			tr, err := readAX(bctx)
			if err != nil {
				t.Fatal(err)
			}
			region := tr.find("region", words["decision.region"])
			if pos.kind != "results" && region == nil {
				t.Errorf("%s in %s: no region %q", screen, lang, words["decision.region"])
			}
			checkNewcomer(t, bctx, tr, region, screen+" in "+lang)
			if lang == "en" { // (axe-core takes seconds a page: once a position)
				checkAxe(t, bctx, screen)
			}
			checkTranslated(t, bctx, g, lang, screen)
			if lang == "en" {
				name := fmt.Sprintf("learn-%s-%s-%s", g.id, pos.kind, vp.name)
				if pos.kind == g.docShot { // the docs' screenshot of the game (CORRUPTION_SCREENSHOTS)
					name = map[bool]string{false: g.id, true: g.id + "-phone"}[vp.touch]
				}
				screenshot(t, bctx, artifacts(t), name, false)
			}
			if i == 0 {
				checkRulesPanel(t, bctx, g, vp, lang, words)
			}
		}
	}
}

// checkRulesPanel opens the rules by their button's name, checks the panel (axe-core, the
// translation check, some rules drawn) and closes it.
func checkRulesPanel(t *testing.T, bctx context.Context, g learnGame, vp viewport, lang string, words map[string]string) {
	t.Helper()
	tr, err := readAX(bctx)
	if err != nil {
		t.Fatal(err)
	}
	open := tr.find("button", words["tools.rules"])
	if open == nil {
		t.Errorf("%s in %s: no button %q: no rules panel", g.id, lang, words["tools.rules"])
		return
	}
	if err := press(bctx, open, vp.touch); err != nil {
		t.Fatal(err)
	}
	waitFor(t, bctx, "the rules panel", `document.querySelectorAll('#rules .rule').length >= 4 && !document.querySelector('#rules').hidden`)
	screen := fmt.Sprintf("%s's rules panel at %s", g.id, vp.name)
	if lang == "en" {
		screenshot(t, bctx, artifacts(t), fmt.Sprintf("learn-%s-rules-%s", g.id, vp.name), false)
	}
	if lang == "en" {
		checkAxe(t, bctx, screen)
	}
	checkTranslated(t, bctx, g, lang, screen)
	tr, err = readAX(bctx)
	if err != nil {
		t.Fatal(err)
	}
	closeB := tr.find("button", words["close"])
	if closeB == nil {
		t.Fatalf("%s: no button %q", screen, words["close"])
	}
	if err := press(bctx, closeB, vp.touch); err != nil {
		t.Fatal(err)
	}
	waitFor(t, bctx, "the rules panel closed", `document.querySelector('#rules').hidden`)
}
