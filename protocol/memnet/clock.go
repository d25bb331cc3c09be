package memnet

import (
	"sync"
	"time"
)

// Clock is a fake clock for nodes under test (it has the shape of protocol.Clock). Its time
// moves only when Advance is called: a test that wants a seat named silent advances the clock
// past the table's timeout at once, once it has seen the table wait, instead of sleeping.
//
// What it promises: Now never goes back; Advance(d) moves the time by d and delivers to each
// ticker every tick whose time has come; a ticker holds at most one tick its reader has not
// taken (a slow reader misses ticks, as with time.Ticker), and it is the latest one: a reader
// back after many periods reads the time of the last tick, never an older one; a stopped
// ticker gets nothing more. (Holding the oldest hung tests: the ticks dropped while a reader
// was away moved its next tick on, and the reader, handed a tick days old, looked to
// protocol.TickClockForTest as if it had stopped taking ticks.)
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	tickers map[*fakeTicker]struct{}
}

type fakeTicker struct {
	c      chan time.Time
	period time.Duration
	next   time.Time
}

// NewClock returns a clock at an arbitrary fixed time.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC), tickers: map[*fakeTicker]struct{}{}}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Ticker returns a channel that ticks every d of the clock's time, and its stop function.
func (c *Clock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	if d <= 0 {
		panic("memnet: non-positive ticker period")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTicker{c: make(chan time.Time, 1), period: d, next: c.now.Add(d)}
	c.tickers[t] = struct{}{}
	return t.c, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.tickers, t)
	}
}

// Advance moves the clock by d and fires the tickers whose time has come.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for t := range c.tickers {
		if c.now.Before(t.next) {
			continue
		}
		for !c.now.Before(t.next) {
			t.next = t.next.Add(t.period)
		}
		select {
		case t.c <- c.now:
		default:
			// The reader has not taken the last tick: this one replaces it. Only Advance sends,
			// under c.mu, so once the channel is drained the send finds room.
			select {
			case <-t.c:
			default:
			}
			t.c <- c.now
		}
	}
}
