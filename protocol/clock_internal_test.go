package protocol

import (
	"context"
	"runtime"
	"sync"
	"time"

	"corruption/protocol/memnet"
)

// TickClockForTest is memnet's fake clock with tickers a test can wait for (both test packages
// use it). A node takes a jump of its clock between two ticks for a pause (the machine slept)
// and catches up before it counts a seat's silence again (watch.go): a test that wants a node
// to see a timeout pass must move the time on tick by tick, each tick taken by every node's
// loop before the next, which Pass does. Advance (memnet's) is a jump.
type TickClockForTest struct {
	*memnet.Clock
	mu      sync.Mutex
	tickers map[*tickTap]bool
	moved   chan struct{} // a ticker started, delivered or stopped since the last look (one pending signal)
	quiet   func() bool   // SetQuiet's
}

// quietPatience is how long, in real time, a step of Pass waits for SetQuiet's condition: a
// node that has stopped leaves its inbox filling, and the time must still move on.
const quietPatience = 200 * time.Millisecond

// SetQuiet makes each step of Pass wait first until quiet holds (memnet's Net.Idle: nothing on
// its way between the nodes), for at most quietPatience, yielding the processor meanwhile.
// Pass alone waits only until every node's loop has taken its tick, and a loop takes ticks
// while a message to it waits for a goroutine the machine has not run yet: on a busy machine
// under the race detector, a test that passes days in hundreds of steps ran them within one
// of the scheduler's time slices, and a seat's entry, already sent, arrived after its
// timeout (the stress run of scripts/stress-clock.sh found it, 3 runs in 200).
func (c *TickClockForTest) SetQuiet(quiet func() bool) {
	c.mu.Lock()
	c.quiet = quiet
	c.mu.Unlock()
}

// waitQuiet waits for SetQuiet's condition, if any, for at most quietPatience.
func (c *TickClockForTest) waitQuiet(ctx context.Context) error {
	c.mu.Lock()
	quiet := c.quiet
	c.mu.Unlock()
	if quiet == nil {
		return nil
	}
	for deadline := time.Now().Add(quietPatience); !quiet() && time.Now().Before(deadline); {
		if err := ctx.Err(); err != nil {
			return err
		}
		runtime.Gosched()
	}
	return nil
}

// tickTap is one ticker as its reader sees it: the time of the last tick it took.
type tickTap struct {
	in     <-chan time.Time // memnet's ticker
	period time.Duration
	last   time.Time
}

// NewTickClockForTest returns a clock at memnet.NewClock's time.
func NewTickClockForTest() *TickClockForTest {
	return &TickClockForTest{Clock: memnet.NewClock(), tickers: map[*tickTap]bool{}, moved: make(chan struct{}, 1)}
}

func (c *TickClockForTest) signal() {
	select {
	case c.moved <- struct{}{}:
	default:
	}
}

// Ticker is memnet's ticker, delivered through a channel that records when its reader takes a
// tick. A tick its reader has not taken yet is replaced by a newer one, as memnet's is.
func (c *TickClockForTest) Ticker(d time.Duration) (<-chan time.Time, func()) {
	in, stopIn := c.Clock.Ticker(d)
	return c.tapped(in, stopIn, d)
}

// tapped is Ticker, from memnet's ticker in (of period d, stopped by stopIn) on. The clock may
// have moved since in was made (another goroutine's Pass, a pump): in holds the latest tick.
func (c *TickClockForTest) tapped(in <-chan time.Time, stopIn func(), d time.Duration) (<-chan time.Time, func()) {
	tap := &tickTap{in: in, period: d, last: c.Clock.Now()}
	c.mu.Lock()
	c.tickers[tap] = true
	c.mu.Unlock()
	c.signal()
	out, done := make(chan time.Time), make(chan struct{})
	go func() {
		var pending time.Time
		has := false
		for {
			var to chan time.Time
			if has {
				to = out
			}
			select {
			case pending = <-in:
				has = true
			case to <- pending:
				has = false
				c.mu.Lock()
				tap.last = pending
				c.mu.Unlock()
			case <-done:
				return
			}
			c.signal()
		}
	}()
	var once sync.Once
	return out, func() {
		once.Do(func() {
			stopIn()
			close(done)
			c.mu.Lock()
			delete(c.tickers, tap)
			c.mu.Unlock()
			c.signal()
		})
	}
}

// WaitTickers blocks until at least n tickers are live (n nodes' loops have started, each with
// its ticker), or ctx ends. A test that moves the clock itself calls it before the first Pass:
// a Pass before every node runs moves the time on for the nodes that run, unchecked by the
// others (a node alone long enough gives up forming).
func (c *TickClockForTest) WaitTickers(ctx context.Context, n int) error {
	for {
		c.mu.Lock()
		live := len(c.tickers)
		c.mu.Unlock()
		if live >= n {
			return nil
		}
		select {
		case <-c.moved:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Pass moves the clock on by d in steps of at most step, and after each step waits until every
// live ticker's reader has taken a tick of the time reached: a node whose tick is shorter than
// step sees the time pass (at most two steps between two of its ticks), never jump. It returns
// ctx's error if ctx ends first. With SetQuiet, each step first waits for the network to be
// quiet. A pump may move the clock meanwhile.
func (c *TickClockForTest) Pass(ctx context.Context, d, step time.Duration) error {
	// wait blocks until cond holds of every live ticker.
	wait := func(cond func(tap *tickTap) bool) error {
		for {
			c.mu.Lock()
			ok := true
			for tap := range c.tickers {
				ok = ok && cond(tap)
			}
			c.mu.Unlock()
			if ok {
				return nil
			}
			select {
			case <-c.moved:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	for d > 0 {
		s := min(step, d)
		d -= s
		// memnet's ticker holds one tick: the one this step fires must find it empty.
		if err := wait(func(tap *tickTap) bool { return len(tap.in) == 0 }); err != nil {
			return err
		}
		if err := c.waitQuiet(ctx); err != nil {
			return err
		}
		c.Clock.Advance(s)
		target := c.Clock.Now()
		if err := wait(func(tap *tickTap) bool { return target.Sub(tap.last) < tap.period }); err != nil {
			return err
		}
	}
	return nil
}
