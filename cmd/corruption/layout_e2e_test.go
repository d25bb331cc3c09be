package main

// The boards' layout on a phone and a laptop, at scripted positions (the newcomer's harness's
// pages with no network: learn_check_test.go's scriptedPage), in English, Spanish and French:
// Corruptia's wall while a proposal is made (no two of its bills and places drawn over each
// other), the results' headers (wrapped between words only), Corruption's cards (their owner's
// name whole). A finding of a trial on emulated phones each (390x844, touch); each is checked
// at 1366x768 too.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// layoutLangs are the languages every layout is checked in: words of another length wrap
// elsewhere.
var layoutLangs = []string{"en", "es", "fr"}

// layoutWait is how long a layout test waits for the page to draw what it asked.
const layoutWait = 30 * time.Second

// wallPositions are proposals of Corruptia's first script, as its seat sees them: the first
// (the three starting bills), the last (the widest wall), and the one with the most places
// where a bill of the hand cannot go (each drawn as a ✕ on the wall when that bill is picked).
func wallPositions(t *testing.T) []scriptedPos {
	t.Helper()
	g := corruptiaLearn
	path := g.scripts[0]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	players := playersOf(t, data)
	_, total, err := cutScript(data, -1)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var all []scriptedPos
	most, mostAt := -1, 0
	for m := 0; m < total; m++ {
		cut, _, _ := cutScript(data, m)
		game, seat, _, err := g.position(cut, -1)
		if err != nil {
			t.Fatalf("%s cut at move %d: %v", path, m, err)
		}
		if decisionKind(g, game, seat, players) != "propose" {
			continue
		}
		raw, _ := json.Marshal(games[g.id].board.Decision(game, seat, demoNames[:players]))
		var d struct {
			Bills []struct {
				Why map[string]string `json:"why"`
			} `json:"bills"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		nothere := 0
		for _, b := range d.Bills {
			nothere += len(b.Why)
		}
		if nothere > most {
			most, mostAt = nothere, len(all)
		}
		all = append(all, scriptedPos{path, cut, m, "propose"})
	}
	if len(all) < 3 || most <= 0 {
		t.Fatalf("%s: %d proposals, at most %d places where a bill cannot go: no wall to check", path, len(all), most)
	}
	out := []scriptedPos{all[0], all[len(all)-1]}
	if mostAt != 0 && mostAt != len(all)-1 {
		out = append(out, all[mostAt])
	}
	return out
}

// openScripted shows pos at the tab bctx (the page's server of scriptedPage) and waits until
// it is drawn.
func openScripted(t *testing.T, bctx context.Context, g learnGame, pos scriptedPos) {
	t.Helper()
	if err := chromedp.Do(bctx, chromedp.Navigate(scriptedPage(t, g, pos))); err != nil {
		t.Fatalf("the page does not load: %v", err)
	}
	waitFor(t, bctx, "the scripted page", `document.body.dataset.ready === '1'`)
}

// wallOverlaps lists the pairs of the wall's bills and places whose boxes overlap (by more
// than a pixel each way: their borders may touch), each box being what is drawn of the
// element: its own and its descendants' (a place's mark that does not fit its cell spills
// over its neighbours). Each is named by its number on the wall, its title, or its place. It
// also says whether the wall's text holds a "null" or an "undefined" (a word missing).
const wallOverlaps = `(() => {
  const items = [...document.querySelectorAll('.wall > *')];
  const box = (e) => {
    let r = e.getBoundingClientRect(), l = r.left, t = r.top, ri = r.right, b = r.bottom;
    for (const d of e.querySelectorAll('*')) {
      if (!d.checkVisibility()) continue;
      const q = d.getBoundingClientRect();
      if (q.width === 0 || q.height === 0) continue;
      l = Math.min(l, q.left); t = Math.min(t, q.top); ri = Math.max(ri, q.right); b = Math.max(b, q.bottom);
    }
    return {l, t, r: ri, b};
  };
  const name = (e) => e.classList.contains('bill') ? 'bill ' + (e.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 30)
    : (e.getAttribute('aria-label') || e.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 40) + (e.classList.contains('not-here') ? ' (no place)' : ' (a place)');
  const boxes = items.map(box), out = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (w > 1 && h > 1) out.push(name(items[i]) + ' and ' + name(items[j]) + ' (' + Math.round(w) + 'x' + Math.round(h) + ' px)');
    }
  }
  const said = (document.querySelector('.wall').textContent.match(/\b(null|undefined)\b/) || [''])[0];
  return {n: items.length, places: document.querySelectorAll('.wall .cell-slot').length, overlaps: out, said};
})()`

type wallCheck struct {
	N        int      `json:"n"`
	Places   int      `json:"places"`
	Overlaps []string `json:"overlaps"`
	Said     string   `json:"said"` // "null" or "undefined", when the wall says one (a missing word)
}

// TestCorruptiaWallLayout: while a proposal is made, Corruptia's wall draws no two of its bills
// and places over each other, on a 390x844 phone (touch) and at 1366x768, in English, Spanish
// and French: at the first and the last proposal of a game of four, and at the one with the
// most places a bill cannot go, with each bill of the hand picked in turn (each shows its own
// places on the wall, and a ✕ where it cannot go). Picking a bill adds a row or a column of
// places around the wall, which moves every bill already drawn: the bills stayed where they
// were (kit.js's morph) and the places were drawn over them.
func TestCorruptiaWallLayout(t *testing.T) {
	t.Parallel()
	needChromium(t)
	positions := wallPositions(t)
	for _, vp := range []viewport{phone, laptop} {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			bctx := sharedTab(t, vp)
			for _, pos := range positions {
				openScripted(t, bctx, corruptiaLearn, pos)
				for _, lang := range layoutLangs {
					setLang(t, bctx, lang)
					screen := fmt.Sprintf("the wall at move %d at %s in %s", pos.moves, vp.name, lang)
					bills, err := poll[[]string](bctx, `(() => { const bs = [...document.querySelectorAll('#decision .hand-card:not([disabled])')];
					  return bs.length ? bs.map((b) => b.dataset.key) : null; })()`, layoutWait)
					if err != nil {
						t.Fatalf("%s: no bill to propose: %v", screen, err)
					}
					for _, key := range bills {
						pick := fmt.Sprintf(`(() => { const b = document.querySelector('#decision [data-key=%q]'); if (b) b.click(); return !!b; })()`, key)
						waitFor(t, bctx, screen+": "+key+" picked", pick)
						c, err := poll[wallCheck](bctx, `document.querySelector('#decision [data-key="unpick"]') && `+wallOverlaps, layoutWait)
						if err != nil {
							t.Fatalf("%s: %s picked: %v", screen, key, err)
						}
						if c.Said != "" {
							t.Errorf("%s, %s picked: the wall says %q (to a screen reader, if not on the screen)", screen, key, c.Said)
						}
						if c.Places == 0 {
							t.Errorf("%s, %s picked: no place on the wall", screen, key)
						}
						if len(c.Overlaps) > 0 {
							screenshot(t, bctx, artifacts(t), failShot(t, fmt.Sprintf("wall-%d-%s-%s", pos.moves, lang, strings.ReplaceAll(key, ":", "-"))), true)
							t.Errorf("%s, %s picked: of its %d bills and places, %s are drawn over each other", screen, key, c.N, strings.Join(c.Overlaps, "; "))
						}
						waitFor(t, bctx, screen+": back", `(() => { const b = document.querySelector('#decision [data-key="unpick"]'); if (b) b.click(); return !!document.querySelector('#decision .hand-card'); })()`)
					}
				}
			}
		})
	}
}

// brokenWords lists the cells of sel whose text is drawn with a line break between two
// letters of a word (each character's line is the top of its Range's box; a break after a
// space, a hyphen or a slash is a break between words), or whose text is wider than the cell.
const brokenWords = `(sel) => {
  const word = /[\p{L}\p{N}'’]/u, out = [];
  for (const cell of document.querySelectorAll(sel)) {
    const chars = [];
    const w = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n; (n = w.nextNode());) {
      if (n.parentElement.closest('.sr-only') || !n.parentElement.checkVisibility()) continue;
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const box = r.getClientRects()[0];
        chars.push({c: n.data[i], top: box ? box.top : null});
      }
    }
    const text = chars.map((x) => x.c).join('').replace(/\s+/g, ' ').trim();
    for (let i = 1; i < chars.length; i++) {
      const a = chars[i - 1], b = chars[i];
      if (a.top !== null && b.top !== null && word.test(a.c) && word.test(b.c) && b.top - a.top > 2) {
        const at = chars.slice(0, i).map((x) => x.c).join('').replace(/\s+/g, ' ').trimStart().length;
        out.push('"' + text.slice(0, at) + '/' + text.slice(at) + '" (broken inside a word)');
        break;
      }
    }
    if (cell.scrollWidth > cell.clientWidth + 1) out.push('"' + text + '" (wider than its cell: ' + cell.scrollWidth + ' > ' + cell.clientWidth + ' px)');
  }
  return out;
}`

// TestResultsHeadersWrap: the results' table of every game, on a 390x844 phone (touch) and at
// 1366x768, in English, Spanish and French: its column headers and its players' names wrap
// between words only (French "Jetons d'appr/obatio/n" was a header of Corruptia's), each
// within its cell, and the page does not scroll sideways.
func TestResultsHeadersWrap(t *testing.T) {
	t.Parallel()
	needChromium(t)
	for _, vp := range []viewport{phone, laptop} {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			bctx := sharedTab(t, vp)
			for _, g := range []learnGame{corruptionLearn, kingdomsLearn, corruptiaLearn} {
				openScripted(t, bctx, g, scriptEnd(t, g))
				for _, lang := range layoutLangs {
					setLang(t, bctx, lang)
					screen := fmt.Sprintf("%s's results at %s in %s", g.id, vp.name, lang)
					waitFor(t, bctx, screen, `document.querySelectorAll('#final thead th').length >= 3`)
					bad, err := poll[[]string](bctx, "("+brokenWords+")('#final th')", layoutWait)
					if err != nil {
						t.Fatalf("%s: %v", screen, err)
					}
					if len(bad) > 0 {
						screenshot(t, bctx, artifacts(t), failShot(t, fmt.Sprintf("results-%s-%s", g.id, lang)), true)
						t.Errorf("%s: %s", screen, strings.Join(bad, "; "))
					}
					if wide, err := sideways(bctx); err != nil || wide != "" {
						t.Errorf("%s: the page scrolls sideways: %s %v", screen, wide, err)
					}
				}
			}
		})
	}
}

// scriptEnd is the end of g's first script: its results.
func scriptEnd(t *testing.T, g learnGame) scriptedPos {
	t.Helper()
	data, err := os.ReadFile(g.scripts[0])
	if err != nil {
		t.Fatal(err)
	}
	_, total, err := cutScript(data, -1)
	if err != nil {
		t.Fatalf("%s: %v", g.scripts[0], err)
	}
	return scriptedPos{g.scripts[0], data, total, "results"}
}

// ownersCut lists Corruption's cards whose owner's label is not drawn whole: cut short (an
// ellipsis, or text hidden past its box) or reaching past its card.
const ownersCut = `(() => {
  const out = [], whos = [...document.querySelectorAll('.card .who')].filter((e) => e.textContent.trim() && e.checkVisibility());
  for (const e of whos) {
    const card = e.closest('.card').getBoundingClientRect(), r = e.getBoundingClientRect();
    const text = e.textContent.replace(/\s+/g, ' ').trim();
    if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) out.push('"' + text + '" is cut (' + e.scrollWidth + 'x' + e.scrollHeight + ' in ' + e.clientWidth + 'x' + e.clientHeight + ' px)');
    else if (r.left < card.left - 1 || r.right > card.right + 1 || r.bottom > card.bottom + 1) out.push('"' + text + '" reaches past its card');
  }
  return {n: whos.length, cut: out};
})()`

type ownersCheck struct {
	N   int      `json:"n"`
	Cut []string `json:"cut"`
}

// TestCardOwnersWhole: on a 390x844 phone (touch) and at 1366x768, in English, Spanish and
// French, every card of Corruption's table shows its owner's name and seat whole ("bot 2
// (sea…" was a card's on a phone), at a position of every kind of decision and the results.
func TestCardOwnersWhole(t *testing.T) {
	t.Parallel()
	needChromium(t)
	positions := scriptPositions(t, corruptionLearn)
	for _, vp := range []viewport{phone, laptop} {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			bctx := sharedTab(t, vp)
			labels := 0
			for _, pos := range positions {
				openScripted(t, bctx, corruptionLearn, pos)
				for _, lang := range layoutLangs {
					setLang(t, bctx, lang)
					screen := fmt.Sprintf("corruption %s (%s, move %d) at %s in %s", pos.kind, pos.script, pos.moves, vp.name, lang)
					c, err := poll[ownersCheck](bctx, `document.querySelector('#board') && `+ownersCut, layoutWait)
					if err != nil {
						t.Fatalf("%s: %v", screen, err)
					}
					labels += c.N
					if len(c.Cut) > 0 {
						screenshot(t, bctx, artifacts(t), failShot(t, fmt.Sprintf("owners-%s-%d-%s", pos.kind, pos.moves, lang)), true)
						t.Errorf("%s: %s", screen, strings.Join(c.Cut, "; "))
					}
				}
			}
			if labels == 0 {
				t.Fatalf("at %s no card showed its owner: nothing was checked", vp.name)
			}
			t.Logf("at %s: %d owners' labels checked", vp.name, labels)
		})
	}
}
