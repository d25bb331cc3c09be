package protocol_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// TestToyTable: a game that is not Corruption plays to the end on the kit, over an in-memory
// network, with every service (joint draw, decks built and shuffled, private deals, a
// simultaneous choice, a hidden move, a peek, a response round, a show, an opening, an
// anonymous pile): every node ends with the same log, which audits.
func TestToyTable(t *testing.T) {
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			net := memnet.New(uint64(n), memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1})
			defer net.Close()
			runs := playNodes(t, net, toySpec(n))
			checkSame(t, runs)
			t.Logf("%d seats: scores %v, winners %v, %d entries", n, runs[0].out.Scores, runs[0].out.Winners, runs[0].out.Entries)
		})
	}
}

// silentPlayer never decides: it tells asked when the table first waits for it, then blocks
// until the node stops.
type silentPlayer struct{ asked chan struct{} }

func (p silentPlayer) Decide(ctx context.Context, _ engine.Game, _ int) (engine.Action, error) {
	select {
	case p.asked <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return engine.Action{}, ctx.Err()
}

// TestSilentSeatFakeClock: a seat whose player never decides is named by every node once the
// table's timeout has passed on the nodes' clock, which the test moves itself (no waiting): the
// table ends abandoned by that seat, with the same verdict everywhere and in every audit.
func TestSilentSeatFakeClock(t *testing.T) {
	clock := protocol.NewTickClockForTest()
	net := memnet.New(7, memnet.Faults{})
	defer net.Close()
	asked := make(chan struct{}, 1)
	spec := toySpec(3)
	spec.clock = clock
	spec.timeout = time.Minute
	spec.player = func(i int) engine.Player {
		if i == 1 {
			return silentPlayer{asked}
		}
		return toyBot{}
	}
	watch := newWatcher()
	spec.onChange = watch.onChange
	done := make(chan []nodeRun, 1)
	go func() { done <- playNodes(t, net, spec) }()
	// Let the table form and play up to the silent player: the clock moves a tick at a time
	// (formation repeats hellos each tick) until the silent player is asked.
	step := time.NewTicker(2 * time.Millisecond)
	defer step.Stop()
	for waiting := true; waiting; {
		select {
		case <-asked:
			waiting = false
		case <-step.C:
			clock.Advance(20 * time.Millisecond)
		}
	}
	// Once every node waits for the silent seat (a node that has not yet taken the last entry
	// would name the seat before it), the clock passes the timeout, tick by tick (a jump would be
	// a pause to the nodes), and keeps moving until every node has ended.
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := watch.wait(ctx, stalled([]int{0, 1, 2}, "n1")); err != nil {
		t.Fatalf("the nodes never all wait for the silent seat: %v", err)
	}
	if err := clock.Pass(ctx, time.Minute+time.Second, passStep); err != nil {
		t.Fatal(err)
	}
	var runs []nodeRun
	for runs == nil {
		select {
		case runs = <-done:
		case <-step.C:
			clock.Advance(200 * time.Millisecond)
		}
	}
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		v := r.out.Verdict
		if v == nil || v.Kind != protocol.VerdictAbandoned || v.Seat != runs[1].out.Seat {
			t.Fatalf("node %d: verdict %v, want seat %d abandoned", i, v, runs[1].out.Seat)
		}
		if rep := auditDir(t, r.dir); rep.Blamed != runs[1].out.Seat && i != 1 {
			t.Errorf("node %d's log audits to %+v", i, rep)
		}
	}
}
