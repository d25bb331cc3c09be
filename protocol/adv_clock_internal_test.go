package protocol

import (
	"context"
	"fmt"
	"sync"
	"time"

	"corruption/protocol/memnet"
)

// The harness's time (adv_harness_internal_test.go): a pump that moves the fake clock, a
// watch on the nodes' statuses, and the driver that moves the clock on when the honest nodes
// wait for something only time brings.

// advMargin is how far short of the timeout the driver moves the clock of nodes seen waiting for
// a silent cheater: a second of real time at the pump's pace.
const advMargin = 5 * time.Second

// advWatch keeps the latest Status of every node.
type advWatch struct {
	mu      sync.Mutex
	st      map[int]Status
	changed chan struct{}
}

func (w *advWatch) onChange(seat int) func(Status) {
	return func(s Status) {
		w.mu.Lock()
		w.st[seat] = s
		w.mu.Unlock()
		w.poke()
	}
}

// poke makes a waiter look again.
func (w *advWatch) poke() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// wait blocks until cond holds of the statuses (by seat), or ctx ends.
func (w *advWatch) wait(ctx context.Context, cond func(map[int]Status) bool) bool {
	for {
		w.mu.Lock()
		ok := cond(w.st)
		w.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-w.changed:
		case <-ctx.Done():
			return false
		}
	}
}

// advPump moves the clock five times faster than real time until stopped.
func advPump(clock *memnet.Clock) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				clock.Advance(5 * time.Millisecond)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// advDrive moves the clock on when the honest nodes wait for something that only time brings:
// the timeout of a silent cheater, and the end of their linger once they agree, or once they all
// hold the whole table.
func advDrive(ctx context.Context, sc advScenario, clock *TickClockForTest, watch *advWatch, c *advCheater) {
	// The statuses are by node; the cheater is n<cheater>, at whatever seat the draw gave it.
	honest := func(node int) bool { return node != sc.cheater }
	cheaterName := fmt.Sprintf("n%d", sc.cheater)
	expect := func() *Verdict {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.expect
	}
	// Every honest node has a verdict, or waits for the cheater at the entry it withheld.
	waiting := func(st map[int]Status) bool {
		c.mu.Lock()
		at := int(c.stopAt)
		c.mu.Unlock()
		for node := range sc.players {
			s, ok := st[node]
			switch {
			case !honest(node):
			case !ok:
				return false
			case s.Verdict != nil:
			case s.Due < 0 || s.Due >= len(s.Names) || s.Names[s.Due] != cheaterName || s.Entries != at:
				return false
			}
		}
		return true
	}
	// Every honest node has the verdict the cheat must get.
	agreed := func(st map[int]Status) bool {
		want := expect()
		if sc.complete || want == nil {
			return false
		}
		for node := range sc.players {
			s, ok := st[node]
			if honest(node) && (!ok || s.Verdict == nil || s.Verdict.Kind != want.Kind || s.Verdict.Seq != want.Seq || s.Verdict.Seat != want.Seat) {
				return false
			}
		}
		return true
	}
	// Every honest node holds the whole table (the cheat dropped, or the silent cheater's seat
	// opened and played to the end): they only linger for the cheater, which will not ask.
	finished := func(st map[int]Status) bool {
		for node := range sc.players {
			if s, ok := st[node]; honest(node) && (!ok || !s.Done) {
				return false
			}
		}
		return true
	}
	timedOut, done := false, false
	for {
		if !watch.wait(ctx, func(st map[int]Status) bool {
			done = finished(st)
			return done || (!timedOut && c.isQuiet()) || agreed(st)
		}) {
			return
		}
		if done || timedOut || !c.isQuiet() {
			// Nothing more can change their verdicts: the clock moves past their linger.
			clock.Advance(advLinger + advTick)
			return
		}
		timedOut = true
		if !watch.wait(ctx, func(st map[int]Status) bool {
			done = finished(st)
			return done || waiting(st)
		}) {
			return
		}
		if done {
			clock.Advance(advLinger + advTick)
			return
		}
		// To near the timeout: past half of it, they fetch from every peer (a proof one of them
		// holds reaches the others); the pump covers the rest, which leaves each node the time to
		// take what may still sit in its inbox before it names the cheater. The clock moves tick
		// by tick: a jump would be a pause to the nodes, which would count the silence again.
		if clock.Pass(ctx, advTimeout-advMargin, 250*time.Millisecond) != nil {
			return
		}
	}
}
