package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// How the browser tests wait on the page. chromedp.Poll tries its predicate at every frame
// (requestAnimationFrame), so a page waited on draws sixty frames a second for as long as the
// bots think: with several browser tests side by side that was most of Chromium's renderer's
// CPU in the test command. poll tries it at once, again at each change of the document (a
// MutationObserver: what a person would see change), and every pollEvery besides (what layout
// alone changes, such as an element scrolled into view or uncovered).
const pollEvery = 100 * time.Millisecond

// pollJS is the promise poll evaluates: %s is the predicate (an expression, or a function
// called on its arguments), %d the timeout in milliseconds and the interval. It settles with
// {ok: true, v} at the first truthy value, {ok: false} at the timeout, and rejects when the
// predicate throws.
const pollJS = `new Promise((resolve, reject) => {
  let done = false;
  const finish = (r, e) => {
    if (done) return;
    done = true;
    obs.disconnect(); clearInterval(every); clearTimeout(until);
    if (e) reject(e); else resolve(r);
  };
  const test = () => {
    if (done) return;
    let v;
    try { v = (%s); } catch (e) { finish(null, e); return; }
    Promise.resolve(v).then((v) => { if (v) finish({ok: true, v}); }, (e) => finish(null, e));
  };
  const obs = new MutationObserver(test);
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  const every = setInterval(test, %d);
  const until = setTimeout(() => finish({ok: false}), %d);
  test();
})`

type polled struct {
	Ok bool            `json:"ok"`
	V  json.RawMessage `json:"v"`
}

// poll waits until expr is truthy in the page and returns its value.
func poll[T any](bctx context.Context, expr string, timeout time.Duration) (T, error) {
	var zero T
	js := fmt.Sprintf(pollJS, expr, pollEvery.Milliseconds(), timeout.Milliseconds())
	// The evaluation itself may outlast timeout by a little: it is bounded by the promise.
	r, err := chromedp.Run(bctx, chromedp.Evaluate[polled](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return zero, err
	}
	if !r.Ok {
		return zero, fmt.Errorf("timeout: not true after %v: %s", timeout, shortJS(expr))
	}
	var v T
	if err := json.Unmarshal(r.V, &v); err != nil {
		return zero, fmt.Errorf("the page's answer %s: %v", r.V, err)
	}
	return v, nil
}

// pollCall is poll of a function called on args (each passed as JSON).
func pollCall[T any](bctx context.Context, fn string, timeout time.Duration, args ...any) (T, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			var zero T
			return zero, err
		}
		parts[i] = string(b)
	}
	return poll[T](bctx, "("+fn+")("+strings.Join(parts, ", ")+")", timeout)
}

// shortJS shortens a predicate for an error message.
func shortJS(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
