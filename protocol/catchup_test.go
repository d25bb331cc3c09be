package protocol_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"corruption/engine"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// TestResumedAloneWritesItsEntry: a node restarted after the others left, at a table where its
// own seat is due, asks for what it missed (nobody answers), then writes its entry: the time its
// catch-up took is its own absence, not its seat's silence, and it never names its own seat.
// With nobody left to write the next entry, it stops and blames nobody.
func TestResumedAloneWritesItsEntry(t *testing.T) {
	const timeout = 2 * time.Second
	dir := t.TempDir()
	store, err := protocol.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	me, err := store.Identity()
	if err != nil {
		t.Fatal(err)
	}
	// A 3-seat table of the toy: seat 0 created it and wrote its key; seat 1, this node, is due.
	var others []ed25519.PrivateKey
	for range 2 {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		others = append(others, k)
	}
	g := &protocol.Genesis{Name: "t", Game: toyID, Config: []byte{1}, Timeout: timeout, Roster: []protocol.Member{
		{Name: "n0", Key: others[0].Public().(ed25519.PublicKey)},
		{Name: "n1", Key: me.Public().(ed25519.PublicKey)},
		{Name: "n2", Key: others[1].Public().(ed25519.PublicKey)},
	}}
	gen, err := protocol.NewGenesis(rand.Reader, others[0], g)
	if err != nil {
		t.Fatal(err)
	}
	first, err := protocol.NewTable(gen, protocol.NewSelf(others[0], [32]byte{7}), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	key0, err := first.NextEntry(engine.Action{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.OpenLog("t"); err != nil {
		t.Fatal(err)
	}
	for _, e := range []*protocol.Entry{gen, key0} {
		if err := store.Append(e, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.NewTableSeed("t"); err != nil {
		t.Fatal(err)
	}
	store.Close()

	// Back, alone, on a clock only the test moves.
	if store, err = protocol.OpenStore(dir); err != nil {
		t.Fatal(err)
	}
	net := memnet.New(5, memnet.Faults{})
	defer net.Close()
	clock := protocol.NewTickClockForTest()
	running := make(chan struct{}, 1) // the node's loop has started (its ticker with it)
	node, err := protocol.NewNode(protocol.NodeConfig{
		Table: "t", Game: toyID, Config: []byte{1}, Players: 3, Name: "n1", Timeout: timeout,
		Identity: me, Store: store, Player: toyBot{}, Net: net.Node("n1"),
		Tick: 20 * time.Millisecond, Linger: time.Second, Clock: clock,
		OnChange: func(protocol.Status) {
			select {
			case running <- struct{}{}:
			default:
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	type ended struct {
		out *protocol.Outcome
		err error
	}
	done := make(chan ended, 1)
	go func() {
		out, err := node.Run(ctx)
		done <- ended{out, err}
	}()
	select {
	case <-running:
	case r := <-done:
		t.Fatalf("the node ends at once: %v", r.err)
	}
	// The clock moves on, two minutes of it at most (the catch-up, the entry, and twice the
	// timeout alone); then the node must have ended, or end now (its ticker may be gone while
	// Run returns).
	var r ended
	got := false
	for moved := time.Duration(0); !got && moved < 2*time.Minute; moved += passStep {
		select {
		case r = <-done:
			got = true
		default:
			if err := clock.Pass(ctx, passStep, passStep); err != nil {
				t.Fatalf("the node never stops: %v", err)
			}
		}
	}
	if !got {
		select {
		case r = <-done:
		case <-ctx.Done():
			t.Fatal("the node never stops")
		}
	}
	if r.out != nil && r.out.Verdict != nil {
		t.Fatalf("the node names a seat: %v", r.out.Verdict)
	}
	if r.err == nil || !strings.Contains(r.err.Error(), "nobody is blamed") {
		t.Fatalf("the node ends with %v, want a stop that blames nobody", r.err)
	}
	log := readLog(t, dir)
	if len(log) != 3 || log[2].Kind != protocol.KindKey || log[2].Seat != 1 {
		t.Fatalf("the log holds %d entries, want the genesis, seat 0's key and this node's", len(log))
	}
}
