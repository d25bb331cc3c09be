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

// The table's clock (genesis Timeout, Allowance, Bank; watch.go), on a fake clock that only the
// test moves.

// gatedPlayer tells asked when it is asked for a decision, and decides (as p) only once
// released.
type gatedPlayer struct {
	p       engine.Player
	asked   chan<- struct{}
	release <-chan struct{}
}

func (g gatedPlayer) Decide(ctx context.Context, game engine.Game, seat int) (engine.Action, error) {
	select {
	case g.asked <- struct{}{}:
	case <-ctx.Done():
		return engine.Action{}, ctx.Err()
	}
	select {
	case <-g.release:
	case <-ctx.Done():
		return engine.Action{}, ctx.Err()
	}
	return g.p.Decide(ctx, game, seat)
}

// TestDecisionClock: a seat that takes longer than its allowance over a decision draws on its
// bank, and is not named while allowance and bank last; at its next decision it has the
// allowance and what is left of the bank, by every node's account, and is named silent only
// once both are spent. (The table's Timeout, for the entries a node writes alone, is shorter
// than either: a decision is not held to it.)
func TestDecisionClock(t *testing.T) {
	const timeout, allowance, bank = 10 * time.Second, 30 * time.Second, time.Minute
	net := memnet.New(91, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest() // no pump: only the test moves the time
	watch := newWatcher()
	asked, release := make(chan struct{}), make(chan struct{})
	spec := toySpec(3)
	spec.clock, spec.timeout, spec.onChange = clock, timeout, watch.onChange
	spec.player = func(i int) engine.Player {
		if i == 1 {
			return gatedPlayer{toyBot{}, asked, release}
		}
		return toyBot{}
	}
	spec.adjust = func(_ int, cfg *protocol.NodeConfig) { cfg.Allowance, cfg.Bank = allowance, bank }
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res := runNodes(ctx, net, spec, t.TempDir())
	poke := net.Node("poke")
	nodes := []int{0, 1, 2}
	if err := clock.WaitTickers(ctx, len(nodes)); err != nil {
		t.Fatal("the nodes never start")
	}
	// The table forms as the clock moves (a node says hello each tick); then the clock stops,
	// and the table plays up to n1's first decision.
	for {
		watch.mu.Lock()
		formed := len(watch.st) == len(nodes)
		for _, s := range watch.st {
			formed = formed && len(s.Names) == len(nodes)
		}
		watch.mu.Unlock()
		if formed {
			break
		}
		if err := clock.Pass(ctx, passStep, passStep); err != nil {
			t.Fatal("the table never forms")
		}
	}
	// due waits until every node waits for n1's decision, and gives it the allowance and
	// bankLeft; it returns how long the decision has been due.
	due := func(bankLeft time.Duration) time.Duration {
		t.Helper()
		select {
		case <-asked:
		case <-ctx.Done():
			watch.mu.Lock()
			defer watch.mu.Unlock()
			t.Fatalf("n1 is never asked to decide: %+v", watch.st)
		}
		var since time.Time
		err := watch.waitPoked(ctx, poke, func(st map[int]protocol.Status) bool {
			if !stalled(nodes, "n1")(st) {
				return false
			}
			since = st[0].DueSince
			for _, i := range nodes {
				if st[i].Allowance != allowance || st[i].Bank != bankLeft || !st[i].DueSince.Equal(since) {
					return false
				}
			}
			return true
		})
		if err != nil {
			watch.mu.Lock()
			defer watch.mu.Unlock()
			t.Fatalf("the nodes never all wait for n1's decision, since one time, with %v and a bank of %v: %+v", allowance, bankLeft, watch.st)
		}
		return clock.Now().Sub(since)
	}
	// unnamed checks that no node has named anyone: after one more step of the clock, every node
	// has handled the ticks before it, and reported what they did.
	unnamed := func(when string) {
		t.Helper()
		if err := clock.Pass(ctx, passStep, passStep); err != nil {
			t.Fatal(err)
		}
		watch.mu.Lock()
		defer watch.mu.Unlock()
		for _, i := range nodes {
			if v := watch.st[i].Verdict; v != nil {
				t.Fatalf("%s: node %d names a seat: %v", when, i, v)
			}
		}
	}
	// The first decision takes the allowance and half the bank.
	waited := due(bank)
	if err := clock.Pass(ctx, allowance+bank/2-passStep-waited, passStep); err != nil {
		t.Fatal(err)
	}
	unnamed("a decision within allowance and bank")
	release <- struct{}{}
	// The next has the allowance and the other half of the bank.
	waited = due(bank / 2)
	if err := clock.Pass(ctx, allowance+bank/2-2*time.Second-waited, passStep); err != nil {
		t.Fatal(err)
	}
	unnamed("two seconds before allowance and bank are spent")
	// Past both: every node names n1's seat (once it has asked its peers), and ends after its
	// linger.
	named := func(st map[int]protocol.Status) bool {
		for _, i := range nodes {
			if v := st[i].Verdict; v == nil || v.Kind != protocol.VerdictAbandoned || st[i].Names[v.Seat] != "n1" {
				return false
			}
		}
		return true
	}
	// The clock moves on step by step (the nodes ask their peers before they name a seat, and
	// those fetches time out on this clock), for at most two more minutes of it.
	for moved := time.Duration(0); ; moved += passStep {
		watch.mu.Lock()
		ok := named(watch.st)
		st := fmt.Sprintf("%+v", watch.st)
		watch.mu.Unlock()
		if ok {
			break
		}
		if moved > 2*time.Minute {
			t.Fatalf("the nodes never name n1's seat: %s", st)
		}
		if err := clock.Pass(ctx, passStep, passStep); err != nil {
			t.Fatalf("the nodes never name n1's seat: %s", st)
		}
	}
	clock.Advance(time.Minute) // past the linger
	runs := make([]nodeRun, 3)
	for range nodes {
		x := <-res
		runs[x.i] = x.nodeRun
	}
	seat := runs[1].out.Seat
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("node %d: %v", i, r.err)
		}
		v := r.out.Verdict
		if v == nil || v.Kind != protocol.VerdictAbandoned || v.Seat != seat || v.Seq != runs[0].out.Verdict.Seq {
			t.Fatalf("node %d: verdict %v, want seat %d abandoned at %d", i, v, seat, runs[0].out.Verdict.Seq)
		}
		// (n1's own note names itself: an audit does not take a seat's word against itself.)
		if rep := auditDir(t, r.dir); i != 1 && (rep.Blamed != seat || rep.At != int64(v.Seq)) {
			t.Errorf("node %d's log audits to %+v, want seat %d blamed at %d", i, rep, seat, v.Seq)
		}
	}
}

// TestNoClockNamesNobody: at a table whose decisions have no clock (protocol.NoClock, a person
// among bots in `corruption demo`), a seat that takes more than a day over a decision is not
// named silent by any node, and the table plays on once it decides.
func TestNoClockNamesNobody(t *testing.T) {
	const tick = time.Hour // the nodes tick hourly: the test passes days in a few hundred steps
	net := memnet.New(93, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	clock.SetQuiet(net.Idle) // days pass in a few hundred steps: none while an entry is on its way
	watch := newWatcher()
	asked, release := make(chan struct{}), make(chan struct{})
	spec := toySpec(3)
	spec.clock, spec.timeout, spec.onChange = clock, 12*tick, watch.onChange // entries a node writes alone: half a day
	spec.player = func(i int) engine.Player {
		if i == 1 {
			return gatedPlayer{toyBot{}, asked, release}
		}
		return toyBot{}
	}
	spec.adjust = func(_ int, cfg *protocol.NodeConfig) {
		// A finished node lingers two days, past the half-day after which a node that missed
		// the last entries asks its peers for them: the fake clock passes as fast as the nodes
		// take its ticks, so a node slowed by a busy machine can fall a few entries behind the
		// others (in real time a node lingers 5 s, which entries take milliseconds to cross).
		cfg.Allowance, cfg.Tick, cfg.Linger, cfg.FormTimeout = protocol.NoClock, tick, 48*tick, 1000*tick
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	res := runNodes(ctx, net, spec, t.TempDir())
	if err := clock.WaitTickers(ctx, 3); err != nil {
		t.Fatal("the nodes never start")
	}
	// The clock moves (half a tick a step) until n1 is asked to decide.
	for waiting := true; waiting; {
		select {
		case <-asked:
			waiting = false
		case x := <-res:
			t.Fatalf("node %d ends before n1 is asked to decide: %v %+v", x.i, x.err, x.out)
		default:
			if err := clock.Pass(ctx, tick/2, tick/2); err != nil {
				watch.mu.Lock()
				t.Fatalf("n1 is never asked to decide: %+v", watch.st)
			}
		}
	}
	// Three days pass.
	if err := clock.Pass(ctx, 72*time.Hour, tick/2); err != nil {
		t.Fatal(err)
	}
	watch.mu.Lock()
	for i, st := range watch.st {
		if st.Verdict != nil || st.Done {
			t.Errorf("node %d, three days into n1's decision: verdict %v, done %v", i, st.Verdict, st.Done)
		}
	}
	watch.mu.Unlock()
	close(release) // n1 decides, now and at every later decision
	runs := make([]nodeRun, 3)
	for ended := 0; ended < 3; {
		select {
		case x := <-res:
			runs[x.i] = x.nodeRun
			ended++
		case <-asked: // n1's later decisions
		default:
			if err := clock.Pass(ctx, tick/2, tick/2); err != nil {
				t.Fatal("the table does not end once n1 decides")
			}
		}
	}
	checkSame(t, runs)
}
