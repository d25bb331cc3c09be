//go:build js && wasm

package main

import (
	"context"
	"syscall/js"
	"time"

	"corruption/seat"
	"corruption/ui"
)

// dueNow wakes the state streams' pause when a decision of the person's becomes due, or has
// been answered (turn).
var dueNow = make(chan struct{}, 1)

// drawn waits for the page to have drawn what it was just handed: the loader's
// corruptionSeatDrawn calls back after the page's next frame, or says that no frame came
// within a second (a hidden page draws none). It says whether a frame was drawn.
func drawn() bool {
	f := js.Global().Get("corruptionSeatDrawn")
	if f.Type() != js.TypeFunction {
		return false
	}
	done := make(chan bool, 1)
	cb := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- len(args) > 0 && args[0].Truthy()
		return nil
	})
	defer cb.Release()
	f.Invoke(cb)
	return <-done
}

// register makes globalThis.corruptionSeat, the in-process transport of ui/static/api.js:
//
//	scope                            the name of the page's storage: the seat's id
//	request(method, path, body)      a Promise of {status, body}
//	subscribe(path, onEvent, onEnd)  the event stream; returns its close()
//
// and calls globalThis.corruptionSeatReady(), for the loader to load the page's modules. Each
// call runs on a goroutine of its own: a callback from the page must not block.
func register(ip *ui.InProcess, scope string) {
	request := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 3 {
			return js.Global().Get("Promise").Call("reject", "request(method, path, body)")
		}
		method, path := args[0].String(), args[1].String()
		var body []byte
		if args[2].Type() == js.TypeString && args[2].String() != "" {
			body = []byte(args[2].String())
		}
		var executor js.Func
		executor = js.FuncOf(func(_ js.Value, p []js.Value) any {
			resolve := p[0]
			go func() {
				status, answer := ip.Do(context.Background(), method, path, body)
				resolve.Invoke(map[string]any{"status": status, "body": string(answer)})
			}()
			executor.Release()
			return nil
		})
		return js.Global().Get("Promise").New(executor)
	})
	subscribe := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 3 {
			return nil
		}
		path, onEvent, onEnd := args[0].String(), args[1], args[2]
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			status, body := ip.Subscribe(ctx, path, func(event string, data []byte) {
				start := time.Now()
				onEvent.Invoke(event, string(data))
				// The page renders on the thread the seat runs on: the changes that come
				// while it waits here join the next state, rather than each costing a
				// render of its own (a table's hundreds of entries), and the longer the
				// page took to draw this one, the longer the wait (seat.Pace).
				var cost time.Duration // hidden, the page draws nothing: the least wait
				if drawn() {
					cost = time.Since(start)
				}
				select {
				case <-time.After(seat.StatePace.Wait(cost)):
				case <-dueNow:
				case <-ctx.Done():
				}
			})
			if status != 200 {
				js.Global().Get("console").Call("warn", "the seat refused the stream "+path+": "+string(body))
			}
			if ctx.Err() == nil && onEnd.Type() == js.TypeFunction {
				onEnd.Invoke()
			}
		}()
		var stop js.Func
		stop = js.FuncOf(func(js.Value, []js.Value) any {
			cancel()
			stop.Release()
			return nil
		})
		return stop
	})
	js.Global().Set("corruptionSeat", map[string]any{"scope": scope, "request": request, "subscribe": subscribe})
	if f := js.Global().Get("corruptionSeatReady"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}
