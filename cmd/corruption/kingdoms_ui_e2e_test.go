package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// kingdomsDecision is what the test reads of the decision panel.
type kingdomsDecision struct {
	Mode   string   `json:"mode"`
	Kind   string   `json:"kind"`
	ID     int      `json:"id"`
	Round  int      `json:"round"`
	Favors int      `json:"favors"` // market favors that can be clicked on the board
	Leader bool     `json:"leader"` // a leader can be clicked on the board
	Texts  []string `json:"texts"`  // the choices' moves
	Ahead  bool     `json:"ahead"`  // "pass ahead" is set
	Shown  bool     `json:"shown"`  // the board shows the senate, a kingdom, the market and the display
	Secret bool     `json:"secret"` // the person's secret cards are shown
}

const readKingdomsDecision = `(() => {
  const b = document.body, d = document.querySelector('#decision');
  if (b.dataset.mode === 'over' && document.querySelector('#audit')) return {mode: 'over'};
  if (!d || d.dataset.kind === 'none' || Number(d.dataset.id) <= %d || d.dataset.busy === '1') return null;
  const round = Number((document.querySelector('#where').textContent.match(/Round (\d+)/) || [0, 0])[1]);
  return {mode: b.dataset.mode, kind: d.dataset.kind, id: Number(d.dataset.id), round,
    favors: document.querySelectorAll('#board button.favor.target').length,
    leader: document.querySelector('#board button.leader.target') !== null,
    texts: [...d.querySelectorAll('button.choice[data-text]')].map((e) => e.dataset.text),
    ahead: !!(document.querySelector('#pass-ahead') || {}).checked,
    shown: ['.senate .leader', '.kingdom .bill', '.market .favor', '.display .pleasure'].every((s) => document.querySelector(s) !== null),
    secret: document.querySelector('#decision .hand .secret') !== null};
})()`

// TestKingdomsBrowserGame: a person plays a whole game of Corrupted Kingdoms against three
// local bots in headless Chromium (corruption demo --game kingdoms), by clicking: favors of the
// market taken and placed on the board's bills, leaders influenced from the board, votes, a
// guilty pleasure, and "pass ahead" for the chaos answers. The page's final scores are the
// node's outcome and the audit is valid.
//
// It is of the long set (CORRUPTION_LONG=1): TestKingdomsLearn plays a whole game of Corrupted
// Kingdoms through the same page in the test command, its scripted positions every kind of
// decision, and the evening one in three runs.
func TestKingdomsBrowserGame(t *testing.T) {
	needLong(t, "TestKingdomsLearn plays a whole game of Corrupted Kingdoms through the same page")
	needChromium(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := artifacts(t)
	p := start(ctx, t, "demo", "demo", "--game", "kingdoms", "--name", "ann", "--bots", "3", "--no-open", "--json")
	url := p.waitLine(t, openLine, 20*time.Second)[1]
	bctx := browser(t, ctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatalf("the page does not load: %v", err)
	}
	seen := map[string]int{}
	last, shot := 0, false
	for {
		d, err := poll[kingdomsDecision](bctx, fmt.Sprintf(readKingdomsDecision, last), 60*time.Second)
		if err != nil {
			screenshot(t, bctx, dir, "kingdoms-stuck", true)
			t.Fatalf("waiting for a decision after decision %d: %v", last, err)
		}
		if d.Mode == "over" {
			break
		}
		last = d.ID
		if !d.Shown || !d.Secret {
			t.Errorf("decision %d (%s): the board (%v) or the person's secret cards (%v) are not shown", d.ID, d.Kind, d.Shown, d.Secret)
		}
		if !shot && d.Kind == "action" && d.Round >= 2 {
			screenshot(t, bctx, dir, "kingdoms", false)
			shot = true
		}
		seen[d.Kind]++
		switch d.Kind {
		case "action":
			switch n := seen["action"]; {
			case n%3 == 1 && d.Favors > 0:
				// A favor of the market, chosen on the board, placed on a bill of the board.
				click(t, bctx, "#board button.favor.target")
				click(t, bctx, "#board button.place-here")
				seen["placed from the board"]++
			case n%3 == 2 && d.Leader:
				click(t, bctx, "#board button.leader.target")
				click(t, bctx, `#decision button.choice[data-group="influence"]`)
				seen["influenced from the board"]++
			case d.Favors > 0:
				click(t, bctx, "#board button.favor.target")
				click(t, bctx, `#decision button.choice[data-group="take"]`)
			default:
				click(t, bctx, "#decision button.choice")
			}
		case "vote":
			click(t, bctx, `#decision button.choice[data-text="vote yes"]`)
		case "steal", "answer":
			// Once set, "pass ahead" answers every later one by itself, after the table's delay.
			if !d.Ahead {
				click(t, bctx, "#pass-ahead")
			}
		case "pick":
			sel := `#decision button.choice[data-group="pick"]`
			if len(d.Texts) > 1 {
				sel = fmt.Sprintf(`#decision button.choice[data-text=%q]`, d.Texts[1])
			}
			click(t, bctx, sel)
		default:
			click(t, bctx, "#decision button.choice")
		}
	}
	t.Logf("decisions: %v", seen)
	if seen["discard"] == 0 || seen["action"] == 0 || seen["placed from the board"] == 0 {
		t.Errorf("the game went by without a discard, an action or a favor placed from the board: %v", seen)
	}
	type pageResult struct {
		Scores map[string]int `json:"scores"`
		Valid  bool           `json:"valid"`
		Audit  string         `json:"audit"`
	}
	res, err := chromedp.Run(bctx, chromedp.Evaluate[pageResult](`({
	  scores: Object.fromEntries([...document.querySelectorAll('.final-score')].map((e) => [e.dataset.seat, Number(e.dataset.value)])),
	  valid: document.querySelector('#audit').dataset.valid === '1',
	  audit: document.querySelector('#audit').textContent})`))
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, bctx, dir, "kingdoms-results", false)
	if !res.Valid {
		t.Errorf("the page's audit: %s", res.Audit)
	}
	click(t, bctx, "#quit")
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("demo exited %d\nstderr:\n%s", code, p.stderr.String())
	}
	var out outcome
	if err := json.Unmarshal([]byte(lastLine(p.stdout.String())), &out); err != nil {
		t.Fatalf("demo --json: %v\n%s", err, p.stdout.String())
	}
	if !out.Finished || len(out.Scores) != 4 {
		t.Fatalf("outcome: %+v", out)
	}
	for seat, score := range out.Scores {
		if got, ok := res.Scores[fmt.Sprint(seat)]; !ok || got != score {
			t.Errorf("seat %d: the page shows %d, the node's outcome says %d", seat, got, score)
		}
	}
	if strings.TrimSpace(res.Audit) == "" {
		t.Error("no audit on the page")
	}
	t.Logf("final scores %v (seat %d is the person); %s", out.Scores, out.Seat, res.Audit)
}
