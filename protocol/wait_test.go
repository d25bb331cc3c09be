package protocol_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"corruption/protocol"
	"corruption/protocol/memnet"
)

// Waiting without sleeping. A test that must wait for a timeout runs its nodes on a fake clock
// (memnet.Clock, with tickers the test can wait for: protocol.TickClockForTest) that a pump
// moves faster than real time, watches the nodes' statuses (NodeConfig.OnChange), and when it
// sees the table wait for a seat that will never write, moves the clock on to just short of the
// table's timeout at once (nearTimeout): the pump covers the rest, which leaves every node the
// time to take what may still sit in its inbox (a status can be a message behind) before any of
// them names a seat. The clock moves tick by tick, each tick taken by every node: a node takes a
// jump of its clock for a pause, and counts the silence again from there.

// watcher keeps the latest Status of every node.
type watcher struct {
	mu      sync.Mutex
	st      map[int]protocol.Status
	changed chan struct{} // one pending signal at most: a change since the last look
}

func newWatcher() *watcher {
	return &watcher{st: map[int]protocol.Status{}, changed: make(chan struct{}, 1)}
}

// onChange is node i's OnChange.
func (w *watcher) onChange(i int) func(protocol.Status) {
	return func(s protocol.Status) {
		w.mu.Lock()
		w.st[i] = s
		w.mu.Unlock()
		select {
		case w.changed <- struct{}{}:
		default:
		}
	}
}

// wait blocks until cond holds of the statuses (by node), or ctx ends.
func (w *watcher) wait(ctx context.Context, cond func(map[int]protocol.Status) bool) error {
	for {
		w.mu.Lock()
		ok := cond(w.st)
		w.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-w.changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// waitPoked is wait for nodes whose clock does not move: a node reports its status at the top
// of its loop, so that after it wrote an entry its status is one behind until something comes
// (a tick, a message). Each time cond does not hold, poke (a stranger on the table's channel)
// sends a message of no kind, which every node takes, and reports what changed since.
func (w *watcher) waitPoked(ctx context.Context, poke *memnet.Endpoint, cond func(map[int]protocol.Status) bool) error {
	for {
		w.mu.Lock()
		ok := cond(w.st)
		w.mu.Unlock()
		if ok {
			return nil
		}
		if err := poke.Publish(ctx, []byte{'z'}); err != nil {
			return err
		}
		select {
		case <-w.changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// stalled is a condition: the nodes (by index) all hold the same number of entries, have no
// verdict, and wait for a seat whose node is named one of silent (by its player name).
func stalled(nodes []int, silent ...string) func(map[int]protocol.Status) bool {
	return func(st map[int]protocol.Status) bool {
		entries := -1
		for _, i := range nodes {
			s, ok := st[i]
			if !ok || s.Verdict != nil || s.Done || s.Due < 0 || s.Due >= len(s.Names) || !slices.Contains(silent, s.Names[s.Due]) {
				return false
			}
			if entries >= 0 && s.Entries != entries {
				return false
			}
			entries = s.Entries
		}
		return true
	}
}

// passStep is how far the clock moves between two ticks every node takes, when a test passes
// time: well under a node's pause threshold (a second and four ticks).
const passStep = 250 * time.Millisecond

// nearTimeout moves clock on by a twelfth of timeout short of it, for nodes that have just been
// seen waiting: past half of it (they fetch from every peer), not past it.
func nearTimeout(ctx context.Context, clock *protocol.TickClockForTest, timeout time.Duration) error {
	return clock.Pass(ctx, timeout-timeout/12, passStep)
}

// pump moves clock on by step every real millisecond until stop, but never ahead of a node:
// each step waits until every live ticker's reader (each node's loop) has taken the tick of the
// time reached (TickClockForTest.Pass). The nodes' time runs faster than real time, so that a
// linger or a formation tick costs little, and it slows down with a busy machine: a node that
// has not yet handled what reached it (a race detector, a loaded CI machine) holds the time
// back, so that a table's timeout measures the nodes' silence, not the machine's speed. A reader
// that holds a step back longer than pumpPatience (a loop blocked on something else) does not
// stop the time: it moves on without it, at worst a step every pumpPatience.
type pump struct {
	cancel context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup
}

// pumpPatience is how long a step waits for every ticker's reader, in real time.
const pumpPatience = 50 * time.Millisecond

func startPump(t testing.TB, clock *protocol.TickClockForTest, step time.Duration) *pump {
	ctx, cancel := context.WithCancel(context.Background())
	p := &pump{cancel: cancel, done: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-tick.C:
				wait, cancel := context.WithTimeout(ctx, pumpPatience)
				err := clock.Pass(wait, step, step)
				cancel()
				if ctx.Err() != nil {
					return
				}
				if err != nil {
					clock.Advance(step) // a reader held it back too long: on, as a real clock would
				}
			}
		}
	}()
	t.Cleanup(p.stop)
	return p
}

func (p *pump) stop() {
	select {
	case <-p.done:
	default:
		close(p.done)
		p.cancel()
	}
	p.wg.Wait()
}
