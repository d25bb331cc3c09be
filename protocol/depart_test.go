package protocol_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruption"
	_ "corruption/engine/corruption/bot" // the stand-in of an open seat
	"corruption/engine/kingdoms"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// Departures (depart.go): a seat whose node is killed for good is opened by the others, who
// play the game to its end with the seat's entries computed by every node.

// killSpec is spec at a table that escrows, on a fake clock the pump moves, with the nodes in
// victims killed for good at their event number at (each counts the game's events as its node
// hears them).
type killPlan struct {
	victim int
	at     int                           // the victim's node is killed at this event of its game
	when   func(st protocol.Status) bool // or, if set, at the first status of its node where this holds
	then   func()                        // if set, called right after the kill
}

// playKilled plays spec with the nodes of plan killed for good, and returns the runs of every
// node (a killed node's run holds its context's error). Once every node still running waits, at
// one entry, for the seat of a node killed, the clock moves on to near the table's timeout at
// once (nearTimeout; the pump covers the rest): the nodes see the silence pass tick by tick, in a
// fraction of the pump's time.
func playKilled(t testing.TB, net *memnet.Net, spec gameSpec, plan []killPlan) []nodeRun {
	t.Helper()
	clock := protocol.NewTickClockForTest()
	startPump(t, clock, 10*time.Millisecond)
	spec.clock = clock
	if spec.timeout == 0 {
		spec.timeout = 60 * time.Second
	}
	if spec.linger == 0 {
		// A finished node serves the peers still behind for Linger of its clock, which the
		// pump runs up to ten times faster than real time: the tests' 2 s could be a fifth of
		// a real second, too short for a node the loaded machine left behind to fetch the last
		// entries (a departure, the sign-offs) before every other node had left; it then
		// waited alone and stopped (TestDepartTwice, once, in the test command on a loaded
		// machine). A finished node serves it a quarter of the table's timeout here (the
		// adversary's harness, advLinger, more than the timeout); one leaves at once when it
		// knows that every reachable seat holds the whole log, so this costs only where an
		// announcement was lost (these tables drop one message in twenty): six of the depart
		// tests took 10.1 s before, 17.3 s with a linger of the timeout and a half, 8.7 s
		// with a quarter.
		spec.linger = spec.timeout / 4
	}
	inner := spec.adjust
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Escrow = true
		if inner != nil {
			inner(i, cfg)
		}
	}
	watch := newWatcher()
	var deadMu sync.Mutex
	dead := map[int]bool{} // the nodes killed so far
	if report := spec.onChange; report != nil {
		spec.onChange = func(i int) func(protocol.Status) {
			mine, theirs := watch.onChange(i), report(i)
			return func(st protocol.Status) { mine(st); theirs(st) }
		}
	} else {
		spec.onChange = watch.onChange
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	go driveKilled(ctx, clock, watch, spec, func() (alive []int, gone []string) {
		deadMu.Lock()
		defer deadMu.Unlock()
		for i := range spec.players {
			if dead[i] {
				gone = append(gone, fmt.Sprintf("n%d", i))
			} else {
				alive = append(alive, i)
			}
		}
		return alive, gone
	})
	base := t.TempDir()
	runs := make([]nodeRun, spec.players)
	var wg sync.WaitGroup
	for i := range spec.players {
		runs[i].dir = filepath.Join(base, fmt.Sprint(i))
		at, then := 0, func() {}
		var when func(protocol.Status) bool
		for _, p := range plan {
			if p.victim == i {
				at, when = p.at, p.when
				if p.then != nil {
					then = p.then
				}
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if at == 0 && when == nil {
				runs[i].out, runs[i].err = startNode(ctx, net, runs[i].dir, spec, i)
				return
			}
			kctx, kill := context.WithCancel(ctx)
			defer kill()
			var once sync.Once
			die := func() {
				once.Do(func() {
					net.Remove(fmt.Sprintf("n%d", i)) // gone at once: nothing more leaves it
					kill()
					deadMu.Lock()
					dead[i] = true
					deadMu.Unlock()
					select { // the others may wait for it already: the driver looks again
					case watch.changed <- struct{}{}:
					default:
					}
					then()
				})
			}
			events := 0
			hooked := spec
			hooked.onEvent = func(int) func(engine.Event) {
				return func(engine.Event) {
					if events++; events == at {
						die()
					}
				}
			}
			if when != nil {
				report := spec.onChange
				hooked.onChange = func(i int) func(protocol.Status) {
					reported := report(i)
					return func(st protocol.Status) {
						if when(st) {
							die() // from the node's loop, before it acts on what it reports
							return
						}
						reported(st)
					}
				}
			}
			runs[i].out, runs[i].err = startNode(kctx, net, runs[i].dir, hooked, i)
		}()
	}
	wg.Wait()
	return runs
}

// driveKilled moves the clock of playKilled's table on to near its timeout each time every node
// still running waits, at one entry, for a seat whose node was killed (nodes says which are
// running and the names of those killed), until ctx ends.
func driveKilled(ctx context.Context, clock *protocol.TickClockForTest, watch *watcher, spec gameSpec, nodes func() ([]int, []string)) {
	last := -1
	for {
		at := -1
		err := watch.wait(ctx, func(st map[int]protocol.Status) bool {
			alive, gone := nodes()
			if len(gone) == 0 || len(alive) == 0 || !stalled(alive, gone...)(st) {
				return false
			}
			at = st[alive[0]].Entries
			return at != last
		})
		if err != nil {
			return
		}
		last = at
		if nearTimeout(ctx, clock, spec.timeout) != nil {
			return
		}
	}
}

// checkPlayedOn checks that the nodes that stayed finished the game with the same log, that
// the log audits as valid, and that the seats of the killed nodes are open in it.
func checkPlayedOn(t testing.TB, runs []nodeRun, killed []int) {
	t.Helper()
	var stayed []nodeRun
	var seats []int
	for i, r := range runs {
		if slices.Contains(killed, i) {
			if r.out != nil && r.out.Seat >= 0 {
				seats = append(seats, r.out.Seat)
			}
			continue
		}
		stayed = append(stayed, r)
	}
	checkSame(t, stayed)
	slices.Sort(seats)
	for i, r := range stayed {
		if !slices.Equal(r.out.Open, seats) {
			t.Fatalf("node %d ends with open seats %v, want %v (the killed nodes' seats)", i, r.out.Open, seats)
		}
	}
	log := readLog(t, stayed[0].dir)
	kinds := countKinds(log)
	if kinds[protocol.KindDepart] != len(killed) {
		t.Fatalf("%d depart entries, want %d", kinds[protocol.KindDepart], len(killed))
	}
	rep := auditDir(t, stayed[0].dir)
	if !rep.Valid || !slices.Equal(rep.Open, seats) {
		t.Fatalf("audit: %+v, want valid with open seats %v", rep, seats)
	}
}

// TestDepartToy: at toy tables of 3 and 4 seats, a node killed at its first decision, and one
// in mid-game: the others open its seat and finish.
func TestDepartToy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		players, victim, at int
	}{{3, 1, 1}, {4, 2, 3}} {
		t.Run(fmt.Sprintf("%d-seats-at-%d", c.players, c.at), func(t *testing.T) {
			t.Parallel() // its own network and clock
			net := memnet.New(uint64(4000+c.players), memnet.Faults{})
			defer net.Close()
			runs := playKilled(t, net, toySpec(c.players), []killPlan{{victim: c.victim, at: c.at}})
			checkPlayedOn(t, runs, []int{c.victim})
		})
	}
}

// TestDepartCorruption: a 4-seat Corruption table where a node is killed for good at several
// points of the game.
func TestDepartCorruption(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: whole tables on a pumped clock")
	}
	for _, at := range []int{2, 40, 120} {
		t.Run(fmt.Sprint(at), func(t *testing.T) {
			t.Parallel() // its own network and clock
			net := memnet.New(uint64(4100+at), memnet.Faults{})
			defer net.Close()
			runs := playKilled(t, net, corruptionSpec(4, corruption.Standard, true, uint64(at)), []killPlan{{victim: 1, at: at}})
			checkPlayedOn(t, runs, []int{1})
		})
	}
}

// TestDepartOtherGames: the departure lives in the table, not in a game: a node killed in
// mid-game at a Corrupted Kingdoms table (advanced rules: private deals, chaos answers) and at
// a Corruptia table (private hands, secret votes), and the others finish.
func TestDepartOtherGames(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: whole tables on a pumped clock")
	}
	t.Run("kingdoms", func(t *testing.T) {
		t.Parallel() // its own network and clock
		net := memnet.New(4201, memnet.Faults{})
		defer net.Close()
		runs := playKilled(t, net, kingdomsSpec(4, kingdoms.Advanced, "heuristic", 4201), []killPlan{{victim: 2, at: 30}})
		checkPlayedOn(t, runs, []int{2})
	})
	t.Run("corruptia", func(t *testing.T) {
		t.Parallel() // its own network and clock
		n := max(3, corruptia.MinPlayers)
		net := memnet.New(4202, memnet.Faults{})
		defer net.Close()
		runs := playKilled(t, net, corruptiaSpec(n, "heuristic", 4202), []killPlan{{victim: 0, at: 25}})
		checkPlayedOn(t, runs, []int{0})
	})
}

// TestDepartCorruptionAt: a 4-seat Corruption table where a node is killed for good at its
// first decision of each round, when it is due to shuffle, when it is due to reveal its
// face-down cards, and when it has peeked and waits for the answer (which it must then see,
// rebuilt, to blame a lie or to place): the others open its seat and finish.
func TestDepartCorruptionAt(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: several whole tables on a pumped clock")
	}
	own := func(kind engine.StepKind) func(protocol.Status) bool {
		return func(st protocol.Status) bool { return st.Due == st.Seat && st.Step.Kind == kind }
	}
	cases := map[string]func(protocol.Status) bool{
		"shuffle": own(engine.StepShuffle),
		"reveal":  own(engine.StepOpen),
		"peek": func(st protocol.Status) bool {
			return st.Step.Kind == engine.StepAnswer && st.Step.To == st.Seat
		},
	}
	for r := 1; r <= corruption.Rounds; r++ {
		cases[fmt.Sprint("round-", r)] = func(st protocol.Status) bool {
			g, ok := st.State.(*corruption.Game)
			return ok && g.State() != nil && g.State().Round() == r && own(engine.StepMove)(st)
		}
	}
	for name, when := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // its own network and clock
			seed := uint64(4800 + len(name))
			net := memnet.New(seed, memnet.Faults{})
			defer net.Close()
			killed := false
			plan := []killPlan{{victim: 1, when: when, then: func() { killed = true }}}
			runs := playKilled(t, net, corruptionSpec(4, corruption.Standard, true, seed), plan)
			if !killed {
				t.Fatalf("the game never reached the point %q for node 1", name)
			}
			checkPlayedOn(t, runs, []int{1})
		})
	}
}

// TestDepartTwice: at a 5-seat Corruption table two nodes leave, one after the other: the
// second departure is rebuilt with the shares sealed to the first open seat, which every node
// opens; over a network that loses, duplicates and reorders messages.
func TestDepartTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: whole tables on a pumped clock")
	}
	t.Parallel() // its own network and clock
	net := memnet.New(4301, memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1, MaxDelay: time.Millisecond})
	defer net.Close()
	runs := playKilled(t, net, corruptionSpec(5, corruption.Standard, true, 4301), []killPlan{{victim: 1, at: 10}, {victim: 3, at: 150}})
	checkPlayedOn(t, runs, []int{1, 3})
}

// cutNet is a node's network that a test can cut and restore: while cut, nothing leaves the
// node and nothing reaches it (a laptop asleep, a cable pulled).
type cutNet struct {
	protocol.Network
	cut atomic.Bool
	// backAtEntry, when set while cut, ends the cut as the node publishes an entry: the entry
	// is in its log by then, before it can hear anything the others wrote meanwhile.
	backAtEntry atomic.Bool
}

func (c *cutNet) Publish(ctx context.Context, data []byte) error {
	if c.cut.Load() && c.backAtEntry.Load() && len(data) > 0 && data[0] == 'e' {
		c.backAtEntry.Store(false)
		c.cut.Store(false)
	}
	if c.cut.Load() {
		return nil
	}
	return c.Network.Publish(ctx, data)
}

func (c *cutNet) Next(ctx context.Context) (string, []byte, error) {
	for {
		from, data, err := c.Network.Next(ctx)
		if err != nil || !c.cut.Load() {
			return from, data, err
		}
	}
}

func (c *cutNet) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	if c.cut.Load() {
		return nil, errors.New("cut off")
	}
	return c.Network.Request(ctx, peer, req)
}

func (c *cutNet) Serve(h func(from string, req []byte) ([]byte, error)) {
	if h == nil {
		c.Network.Serve(nil)
		return
	}
	c.Network.Serve(func(from string, req []byte) ([]byte, error) {
		if c.cut.Load() {
			return nil, errors.New("cut off")
		}
		return h(from, req)
	})
}

func (c *cutNet) Peers() []string {
	if c.cut.Load() {
		return nil
	}
	return c.Network.Peers()
}

// awayPlayer is a player who, at its decision number at, is cut off and away for a while (real
// time, which the pump turns into game time), then comes back and decides.
type awayPlayer struct {
	engine.Player
	net   *cutNet
	at    int
	away  time.Duration
	count *int
}

func (p awayPlayer) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if *p.count++; *p.count == p.at {
		p.net.cut.Store(true)
		select {
		case <-time.After(p.away): // the time away, not a synchronisation: any length is right
		case <-ctx.Done():
			return engine.Action{}, ctx.Err()
		}
		p.net.backAtEntry.Store(true)
	}
	return p.Player.Decide(ctx, g, seat)
}

// TestDepartComesBack: a player is cut off at one of its decisions and comes back after a time
// around the table's clock: before the others agree it left, while they agree, or after its
// seat was opened. Whichever it was, the table ends one way: the staying nodes finish with the
// same valid log; the player's seat is open in it and its node, back, drops the entry it wrote
// too late and watches to the end (or, back after the others finished and left, stops blaming
// nobody), or its entry was played and it finished with them.
func TestDepartComesBack(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: several whole tables on a pumped clock")
	}
	t.Parallel()
	var mu sync.Mutex
	paths := map[string]int{}
	took := func(path string) {
		mu.Lock()
		defer mu.Unlock()
		paths[path]++
	}
	t.Cleanup(func() { t.Logf("paths taken: %v", paths) }) // after the subtests, side by side
	for k, away := range []time.Duration{3 * time.Second, 5500 * time.Millisecond, 6200 * time.Millisecond, 9 * time.Second} {
		t.Run(fmt.Sprint(away), func(t *testing.T) {
			t.Parallel() // its own network and clock: whichever way the table ends is checked
			net := memnet.New(uint64(4400+k), memnet.Faults{})
			defer net.Close()
			spec := corruptionSpec(4, corruption.Standard, false, uint64(4400+k))
			const victim = 2
			cn := &cutNet{}
			count := 0
			spec.net = func(i int, ep *memnet.Endpoint) protocol.Network {
				if i != victim {
					return ep
				}
				cn.Network = ep
				return cn
			}
			inner := spec.player
			spec.player = func(i int) engine.Player {
				if i != victim {
					return inner(i)
				}
				return awayPlayer{Player: inner(i), net: cn, at: 3, away: away, count: &count}
			}
			runs := playKilled(t, net, spec, nil)
			var stayed []nodeRun
			for i, r := range runs {
				if i != victim {
					stayed = append(stayed, r)
				}
			}
			checkSame(t, stayed)
			v := runs[victim]
			switch open := stayed[0].out.Open; {
			case len(open) == 0:
				took("played")
				checkSame(t, runs)
			case v.err == nil:
				took("opened, watched")
				if !slices.Equal(open, []int{v.out.Seat}) {
					t.Fatalf("open seats %v, want the player's %d", open, v.out.Seat)
				}
				checkSame(t, runs)
			default:
				// Back after the others had finished and gone: its node hears nobody, and stops
				// blaming nobody.
				took("opened, others gone")
				if v.out == nil || v.out.Verdict != nil || !strings.Contains(v.err.Error(), "nobody is blamed") {
					t.Fatalf("the player's node ends with %v (outcome %+v), want a stop that blames nobody", v.err, v.out)
				}
				if !slices.Equal(open, []int{v.out.Seat}) {
					t.Fatalf("open seats %v, want the player's %d", open, v.out.Seat)
				}
			}
		})
	}
}

// auditEntries audits a log made of entries.
func auditEntries(t testing.TB, entries []*protocol.Entry) *protocol.Report {
	t.Helper()
	var b bytes.Buffer
	if err := protocol.WriteLog(&b, entries); err != nil {
		t.Fatal(err)
	}
	rep, err := protocol.Audit(&b, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// identityOf is the identity key of the node whose data directory is dir.
func identityOf(t *testing.T, dir string) ed25519.PrivateKey {
	t.Helper()
	s, err := protocol.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	k, err := s.Identity()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestDepartBadLogs: the log of a table that played on after a departure, altered at each
// step of the departure, is refused at the altered entry (an unsigned entry blames nobody) or
// convicts the seat that signed a bad share.
func TestDepartBadLogs(t *testing.T) {
	t.Parallel()
	net := memnet.New(4501, memnet.Faults{})
	defer net.Close()
	runs := playKilled(t, net, toySpec(4), []killPlan{{victim: 2, at: 3}})
	checkPlayedOn(t, runs, []int{2})
	log := readLog(t, runs[0].dir)
	d := -1
	for i, e := range log {
		if e.Kind == protocol.KindDepart {
			d = i
		}
	}
	if d < 0 || log[d+1].Kind != protocol.KindRelease {
		t.Fatal("no depart entry followed by a release")
	}
	open := log[d].Seat
	keyOf := map[int]ed25519.PrivateKey{} // by seat
	for i, r := range runs {
		if i != 2 {
			keyOf[r.out.Seat] = identityOf(t, r.dir)
		}
	}
	cp := func(e *protocol.Entry) *protocol.Entry {
		c := *e
		c.Body = bytes.Clone(e.Body)
		return &c
	}
	with := func(at int, e *protocol.Entry) []*protocol.Entry {
		return append(append([]*protocol.Entry(nil), log[:at]...), e)
	}
	refusedAt := func(name string, entries []*protocol.Entry, at int, problem string) {
		t.Helper()
		rep := auditEntries(t, entries)
		if rep.Valid || rep.At != int64(at) || rep.Blamed != -1 || !strings.Contains(rep.Problem, problem) {
			t.Errorf("%s: audit %+v, want entry %d refused (%q), nobody blamed", name, rep, at, problem)
		}
	}

	// The depart entry without one agreement, with an agreement of another seq, signed.
	short := cp(log[d])
	short.Body[1]--
	short.Body = short.Body[:len(short.Body)-65]
	refusedAt("an agreement missing", with(d, short), d, "agreements")
	forged := cp(log[d])
	forged.Body[len(forged.Body)-1] ^= 1
	refusedAt("a forged agreement", with(d, forged), d, "does not verify")
	signed := cp(log[d])
	signed.Sign(keyOf[log[d+1].Seat])
	refusedAt("a signed depart entry", with(d, signed), d, "not signed")

	// A staying seat's share that does not check, signed by it: it cheated.
	bad := cp(log[d+1])
	bad.Body[0] ^= 1
	bad.Sign(keyOf[bad.Seat])
	if rep := auditEntries(t, with(d+1, bad)); rep.Valid || rep.Blamed != bad.Seat || rep.At != int64(d+1) {
		t.Errorf("a bad share: audit %+v, want seat %d blamed at %d", rep, bad.Seat, d+1)
	}

	// An entry of the open seat that is not the stand-in's.
	k := -1
	for i := d + 1; i < len(log); i++ {
		if log[i].Seat == open && log[i].Kind == protocol.KindMove {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("the open seat never moved")
	}
	other := cp(log[k])
	other.Body[len(other.Body)-1] ^= 1
	refusedAt("another move for the open seat", append(with(k, other), log[k+1:]...), k, "stand-in")

	// The whole log still audits, with the seat open.
	if rep := auditEntries(t, log); !rep.Valid || !slices.Equal(rep.Open, []int{open}) {
		t.Fatalf("the log itself: %+v", rep)
	}
}

// TestDepartPromise: a node that agreed that a seat left does not apply that seat's entry at
// that place; released (a staying seat refused, or played on from the seat's entry), it does.
// The seat's own entries prove nothing: only a staying seat's signed entry that follows the
// seat's entry, link by link, releases the promise (Table.PlayedOn).
func TestDepartPromise(t *testing.T) {
	t.Parallel()
	net := memnet.New(4601, memnet.Faults{})
	defer net.Close()
	spec := toySpec(3)
	spec.adjust = func(_ int, cfg *protocol.NodeConfig) { cfg.Escrow = true }
	runs := playNodes(t, net, spec)
	checkSame(t, runs)
	log := readLog(t, runs[0].dir)
	obs, err := protocol.NewTable(log[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := -1
	for i, e := range log[1:] {
		if k < 0 && e.Kind == protocol.KindMove && obs.Departable() == "" {
			k = i + 1
			break
		}
		if err := obs.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if k < 0 {
		t.Fatal("no move the table could play on without")
	}
	obs.Promise(&protocol.Departure{Seq: uint64(k), Seat: log[k].Seat, Head: log[k].Prev, Table: log[k].Table})
	if err := obs.Append(log[k]); !errors.Is(err, protocol.ErrPromised) {
		t.Fatalf("the seat's entry after the promise: %v, want ErrPromised", err)
	}
	j := k + 1 // the first entry after k that another seat signed
	for j < len(log) && log[j].Seat == log[k].Seat {
		j++
	}
	if j == len(log) || j == k+1 {
		t.Fatalf("the table has no entry of another seat after the seat's own next one (k %d, j %d)", k, j)
	}
	if by := obs.PlayedOn(log[k:j]); by != nil {
		t.Fatalf("the departing seat's own entries release the promise (by %v)", by)
	}
	if by := obs.PlayedOn([]*protocol.Entry{log[k], log[j]}); by != nil {
		t.Fatalf("a chain with a link missing releases the promise (by %v)", by)
	}
	if by := obs.PlayedOn(log[k+1 : j+1]); by != nil {
		t.Fatalf("a chain that does not start at the seat's entry releases the promise (by %v)", by)
	}
	if by := obs.PlayedOn(log[k : j+1]); by != log[j] {
		t.Fatalf("a staying seat's entry that builds on the seat's: released by %v, want %v", by, log[j])
	}
	obs.Release()
	if err := obs.Append(log[k]); err != nil {
		t.Fatalf("the seat's entry after the release: %v", err)
	}
}

// TestDepartPartition: a seat leaves while the staying seats are cut in two ({n0} and {n1,
// n3}): no side can gather every agreement, so nobody opens the seat and nobody plays on; every
// node stops blaming nobody (held), or, when the partition heals in time, they all open the seat
// and finish (healed). Either way the table ends one way for everyone: never a log with the seat
// opened beside one without.
func TestDepartPartition(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: whole tables on a pumped clock")
	}
	t.Parallel()
	for _, heal := range []time.Duration{0, 8 * time.Second} {
		t.Run(fmt.Sprint("heal-after-", heal), func(t *testing.T) {
			t.Parallel() // its own network and clock: either end is checked
			net := memnet.New(4701, memnet.Faults{})
			defer net.Close()
			var healer *time.Timer
			var mu sync.Mutex
			cut := func() {
				net.Partition([]string{"n0"}, []string{"n1", "n3"})
				if heal > 0 {
					mu.Lock()
					healer = time.AfterFunc(heal, net.Heal) // real time: any length is right
					mu.Unlock()
				}
			}
			spec := corruptionSpec(4, corruption.Standard, false, 4701)
			if os.Getenv("DEPART_DEBUG") != "" {
				spec.adjust = func(i int, cfg *protocol.NodeConfig) {
					cfg.Logf = func(f string, a ...any) {
						t.Logf("n%d %v: %s", i, cfg.Clock.Now().Format("04:05.0"), fmt.Sprintf(f, a...))
					}
				}
			}
			runs := playKilled(t, net, spec, []killPlan{{victim: 2, at: 40, then: cut}})
			mu.Lock()
			if healer != nil {
				healer.Stop()
			}
			mu.Unlock()
			var stayed []nodeRun
			for i, r := range runs {
				if i != 2 {
					stayed = append(stayed, r)
				}
			}
			finished := 0
			for _, r := range stayed {
				if r.err == nil && r.out.Finished {
					finished++
				}
			}
			switch finished {
			case len(stayed):
				checkPlayedOn(t, runs, []int{2})
				t.Logf("healed in time: the seat was opened and the game finished")
			case 0:
				for i, r := range stayed {
					if r.out == nil || r.out.Verdict != nil || r.err == nil || !strings.Contains(r.err.Error(), "nobody is blamed") {
						t.Fatalf("node %d ends with %v (outcome %+v), want a stop that blames nobody", i, r.err, r.out)
					}
					if c := countKinds(readLog(t, r.dir))[protocol.KindDepart]; c != 0 {
						t.Fatalf("node %d's log holds %d depart entries", i, c)
					}
				}
				if heal > 0 {
					t.Logf("the heal came too late: every node stopped, nobody blamed")
				}
			default:
				for i, r := range stayed {
					t.Logf("node %d: %v, %+v", i, r.err, r.out)
				}
				t.Fatalf("%d of %d staying nodes finished: the table ended two ways", finished, len(stayed))
			}
		})
	}
}

// TestDepartShareWithheld: a staying seat whose node dies when it is due to write its share of
// a departed seat's key (two seats gone at once) is named, as a silent seat always was: every
// node that stays ends with the same abandonment verdict, and nobody's seat is opened.
func TestDepartShareWithheld(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: whole tables on a pumped clock")
	}
	t.Parallel() // its own network and clock
	net := memnet.New(4901, memnet.Faults{})
	defer net.Close()
	releasing := func(st protocol.Status) bool {
		return st.Due == st.Seat && strings.Contains(st.DueWhat, "escrow share of the departed seat's key")
	}
	runs := playKilled(t, net, corruptionSpec(4, corruption.Standard, false, 4901),
		[]killPlan{{victim: 1, at: 30}, {victim: 2, when: releasing}})
	var v *protocol.Verdict
	for _, i := range []int{0, 3} {
		r := runs[i]
		if r.err != nil || r.out.Verdict == nil || r.out.Verdict.Kind != protocol.VerdictAbandoned {
			t.Fatalf("node %d ends with %v, %+v; want an abandonment", i, r.err, r.out)
		}
		if v == nil {
			v = r.out.Verdict
		}
		if got := r.out.Verdict; got.Seat != runs[2].out.Seat || got.Seq != v.Seq {
			t.Fatalf("node %d names seat %d at %d, want seat %d (the node that withheld its share) at %d", i, got.Seat, got.Seq, runs[2].out.Seat, v.Seq)
		}
		if len(r.out.Open) != 0 {
			t.Fatalf("node %d opened seats %v", i, r.out.Open)
		}
	}
}

// FuzzDeparture: the departure decoder takes any bytes without panicking, and what it accepts
// encodes back to the same bytes.
func FuzzDeparture(f *testing.F) {
	d := &protocol.Departure{Writer: 1, Seq: 40, Seat: 2}
	f.Add(d.Marshal())
	d.Refuse = true
	f.Add(d.Marshal())
	f.Add([]byte{0xAD, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := protocol.ParseDeparture(b)
		if err != nil {
			return
		}
		if !bytes.Equal(d.Marshal(), b) {
			t.Fatalf("%x decodes, and encodes back to %x", b, d.Marshal())
		}
	})
}

// BenchmarkDepartAudit: an audit of a 4-seat Corruption log where a seat left at its first
// decision of round 1 (so the audit computes every later entry of the open seat: its shuffles,
// shares, moves and openings) against the audit of a log where nobody left, same table.
func BenchmarkDepartAudit(b *testing.B) {
	for _, left := range []bool{false, true} {
		b.Run(fmt.Sprint("left-", left), func(b *testing.B) {
			net := memnet.New(5001, memnet.Faults{})
			defer net.Close()
			var plan []killPlan
			if left {
				plan = []killPlan{{victim: 1, when: func(st protocol.Status) bool {
					return st.Due == st.Seat && st.Step.Kind == engine.StepMove
				}}}
			}
			runs := playKilled(b, net, corruptionSpec(4, corruption.Standard, false, 5001), plan)
			dir := runs[0].dir
			log := readLog(b, dir)
			for b.Loop() {
				if rep := auditEntries(b, log); !rep.Valid {
					b.Fatalf("audit: %+v", rep)
				}
			}
			b.ReportMetric(float64(len(log)), "entries")
		})
	}
}

// gatePlayer decides as its Player, except that once armed, its next decision first says so
// (closing asked) and waits until release is closed.
type gatePlayer struct {
	engine.Player
	armed   *atomic.Bool
	asked   chan struct{}
	release <-chan struct{}
	once    *sync.Once
}

func (p gatePlayer) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if p.armed.Load() {
		p.once.Do(func() { close(p.asked) })
		select {
		case <-p.release:
		case <-ctx.Done():
			return engine.Action{}, ctx.Err()
		}
	}
	return p.Player.Decide(ctx, g, seat)
}

// TestDepartLateEntry: a player is cut off at a decision and comes back once the others have
// opened its seat, while they still play (one of them thinks, until the player is back): its
// node writes its entry, which nobody applies (it is late, not an equivocation: the depart entry
// is nobody's signature), finds the depart entry in its place, drops its entry and watches; the
// four nodes finish with the same log, the player's seat open in it.
func TestDepartLateEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a whole table on a pumped clock")
	}
	t.Parallel() // its own network and clock
	net := memnet.New(5101, memnet.Faults{})
	defer net.Close()
	spec := corruptionSpec(4, corruption.Standard, false, 5101)
	spec.timeout = 2 * time.Minute
	const victim, thinker = 2, 0
	cn := &cutNet{}
	var opened atomic.Bool
	thinking, watching := make(chan struct{}), make(chan struct{})
	var watchOnce sync.Once
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network {
		if i != victim {
			return ep
		}
		cn.Network = ep
		return cn
	}
	spec.onChange = func(i int) func(protocol.Status) {
		return func(st protocol.Status) {
			switch {
			case i == thinker && len(st.Open) > 0:
				opened.Store(true)
			case i == victim && slices.Contains(st.Open, st.Seat):
				watchOnce.Do(func() { close(watching) })
			}
		}
	}
	inner := spec.player
	count := 0
	spec.player = func(i int) engine.Player {
		switch i {
		case victim:
			return lateBack{Player: inner(i), net: cn, at: 3, back: thinking, count: &count}
		case thinker:
			return gatePlayer{Player: inner(i), armed: &opened, asked: thinking, release: watching, once: &sync.Once{}}
		}
		return inner(i)
	}
	var told atomic.Bool // the player's node said its seat was opened (its entry came too late)
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		if i == victim {
			cfg.Notef = func(f string, a ...any) {
				if strings.Contains(fmt.Sprintf(f, a...), "you are watching") {
					told.Store(true)
				}
			}
		}
	}
	runs := playKilled(t, net, spec, nil)
	checkSame(t, runs)
	if open := runs[0].out.Open; !slices.Equal(open, []int{runs[victim].out.Seat}) {
		t.Fatalf("open seats %v, want the player's %d", open, runs[victim].out.Seat)
	}
	if !told.Load() {
		t.Fatal("the player's node never found its late entry replaced by the depart entry")
	}
}

// lateBack is a player cut off at its decision number at, back (and deciding) once back is
// closed: its node stays cut off until it publishes the entry of that decision, so that the
// entry is late (in its log before it hears the depart entry that took its place), however
// the machine schedules the node's loop.
type lateBack struct {
	engine.Player
	net   *cutNet
	at    int
	back  <-chan struct{}
	count *int
}

func (p lateBack) Decide(ctx context.Context, g engine.Game, seat int) (engine.Action, error) {
	if *p.count++; *p.count == p.at {
		p.net.cut.Store(true)
		select {
		case <-p.back:
		case <-ctx.Done():
			return engine.Action{}, ctx.Err()
		}
		p.net.backAtEntry.Store(true)
	}
	return p.Player.Decide(ctx, g, seat)
}
