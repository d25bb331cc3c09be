package web

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"corruption/engine"
	"corruption/protocol"
	advcheat "corruption/protocol/cheat"
)

// cheatedSeen records in the page, as the page draws it, each badge that says a seat's player
// was caught cheating (app.js's openBadge: span.open-seat.cheated, data-open-seat, the words of
// seat.cheated): globalThis.cheatedSeen() is every such badge's "seat:words", once each.
const cheatedSeen = `(() => {
  const seen = [];
  globalThis.cheatedSeen = () => seen;
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('span.open-seat.cheated')) {
      const s = el.dataset.openSeat + ':' + el.textContent;
      if (!seen.includes(s)) seen.push(s);
    }
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();`

// TestPhoneSeatSeesConviction: the conviction matrix's phone cell (issue 40). A phone's browser
// seat (the WebAssembly seat.Run in headless Chromium, through the laptop's page and bridge, as
// TestPhoneSeatPlays) sits honest at a table of four that escrows, with two honest bot nodes
// and one that cheats as protocol/cheat says (its first decryption shares decode to nothing).
// The phone's seat releases its share of the cheater's key with the other two, and the game
// plays on with the cheater's seat played by the stand-in: the page draws that seat's badge
// "caught cheating", the seat's state marks it cheated, the game finishes with a log that
// audits, the same as every honest bot's, whose outcome convicts the cheater at the entry it
// cheated at, and the rematch the results offer is without the cheater.
func TestPhoneSeatSeesConviction(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser: -short (the inner loop) leaves the browsers to the README's test command")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	l := newLaptop(t)
	choice := defaultChoice(t, "phone-convicted", "corruption", 4)
	ch, err := advcheat.Parse("garbage-shares")
	if err != nil {
		t.Fatal(err)
	}
	const cheater = 0 // the first bot
	nodes, wait := l.botsWith(t, ctx, choice, choice.Players-1, nil, nil, func(i int, cfg *protocol.NodeConfig) {
		cfg.Escrow = true
		if i == cheater {
			cfg.Tamper = ch.Tamper(cfg.Identity)
		}
	})
	defer wait() // the nodes end with ctx, at the latest
	defer cancel()

	bctx := phone(t, ctx)
	if _, err := chromedp.Call(bctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cheatedSeen}); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if err := chromedp.Do(bctx, chromedp.Navigate(l.seatURL(t, choice))); err != nil {
		t.Fatal(err)
	}
	// (By interval: chromedp's default polls at every frame, which keeps the browser drawing
	// sixty frames a second through the whole table.)
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`document.body.dataset.mode === 'over'`, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(4*time.Minute))); err != nil {
		shown, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify(document.body.dataset) + ' ' + document.getElementById('main').innerText.slice(0, 300)`))
		t.Logf("the page: %s", shown)
		t.Fatalf("the phone's table did not end: %v", err)
	}
	wait()
	fired, at := ch.Fired()
	if !fired {
		t.Fatal("the cheating bot never wrote decryption shares: the cheat was never played")
	}
	seatOf := nodes[cheater].out.Seat
	t.Logf("the table with the phone's page: %.1fs, %d entries; seat %d cheated at entry %d", time.Since(began).Seconds(), nodes[1].out.Entries, seatOf, at)

	// The honest bots: the game finished, the cheater convicted at its cheat, one log.
	var ref []byte
	for i, b := range nodes {
		if i == cheater {
			continue
		}
		o := b.out
		if b.err != nil || o == nil || !o.Finished || o.Verdict != nil || len(o.Convicted) != 1 || o.Convicted[0].Seat != seatOf ||
			o.Convicted[0].Seq != at || !slices.Contains(o.Open, seatOf) {
			t.Fatalf("bot %d: %+v, %v; want the game finished, seat %d convicted at entry %d", i+1, o, b.err, seatOf, at)
		}
		log, err := b.store.ReadTableFile(choice.Table, "log")
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = log
		} else if !bytes.Equal(ref, log) {
			t.Fatalf("bot %d's log differs from bot 2's", i+1)
		}
	}
	rep, err := protocol.Audit(bytes.NewReader(ref), engine.Options{})
	if err != nil || !rep.Valid || len(rep.Convicted) != 1 || rep.Convicted[0].Seat != seatOf {
		t.Fatalf("audit of the honest bots' log: %+v, %v", rep, err)
	}

	// The phone's seat: its page drew the cheater's badge, its state marks that seat alone
	// cheated, its table finished on the same log, and its rematch is without the cheater.
	st, err := seatState(bctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := st.Result; r == nil || !r.Finished || !r.Valid || r.Digest != nodes[1].out.Digest || r.Entries != nodes[1].out.Entries {
		t.Fatalf("the phone's result: %+v; want finished and valid, digest %s and %d entries as the bots'", st.Result, nodes[1].out.Digest, nodes[1].out.Entries)
	}
	me := -1
	for _, s := range st.Seats {
		if s.Me {
			me = s.Seat
		}
		if s.Cheated != (s.Seat == seatOf) || s.Open != (s.Seat == seatOf) {
			t.Fatalf("the phone's state: seat %d cheated %v, open %v; want seat %d alone caught cheating", s.Seat, s.Cheated, s.Open, seatOf)
		}
	}
	if me < 0 || me == seatOf || len(st.Seats) != choice.Players {
		t.Fatalf("the phone's state: seats %+v, the phone's seat %d", st.Seats, me)
	}
	if len(st.Without) != 1 || st.Without[0] != fmt.Sprintf("bot%d", cheater+1) {
		t.Errorf("the rematch offered is without %q; want without bot%d (seat %d)", st.Without, cheater+1, seatOf)
	}
	seen, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`globalThis.cheatedSeen()`))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d:caught cheating", seatOf)
	if len(seen) != 1 || !strings.HasPrefix(seen[0], want) {
		t.Fatalf("the page drew the badges %q; want one, %q (seat.cheated's words)", seen, want+" — played by a bot")
	}
	// The log in the browser's storage is the bots' (the phone released its share and played on
	// with them).
	kept, err := chromedp.Run(bctx, chromedp.Evaluate[int](fmt.Sprintf(`corruptionIDB.read(corruptionSeat.scope, 'tables/%s/log').then((b) => b === null ? -1 : b.length)`, choice.Table), chromedp.EvalAwaitPromise))
	if err != nil || kept != len(ref) {
		t.Errorf("the phone keeps a log of %d bytes (%v); the bots' has %d", kept, err, len(ref))
	}
}
