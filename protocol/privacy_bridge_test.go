package protocol_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/p2p/bridge"
	"corruption/protocol"
	"corruption/protocol/memnet"
	"corruption/protocol/tablenet"
)

// A seat in a phone's browser, as its laptop sees it: node 0 of a recorded game reaches the
// table through a bridge (p2p/bridge) to a laptop's hub, which relays it onto its network
// endpoint. Everything on the bridge, both ways, is recorded with the rest of the traffic, and
// the privacy checks of TestPrivacy run on it all: what the laptop relays decodes none of the
// phone's cards, and holds none of its secrets.

// epNode is a memnet endpoint as the hub's node: one topic, one protocol.
type epNode struct {
	ep *memnet.Endpoint
}

func (n epNode) ID() string                                  { return "laptop-of-" + n.ep.ID() }
func (n epNode) Join(string, func(string, []byte) int) error { return nil }
func (n epNode) Leave(string) error                          { return nil }
func (n epNode) Publish(ctx context.Context, _ string, data []byte) error {
	return n.ep.Publish(ctx, data)
}
func (n epNode) Next(ctx context.Context, _ string) (string, []byte, error) {
	return n.ep.Next(ctx)
}
func (n epNode) TopicPeers(string) []string { return n.ep.Peers() }
func (n epNode) Request(ctx context.Context, peer, _ string, req []byte) ([]byte, error) {
	return n.ep.Request(ctx, peer, req)
}
func (n epNode) Handle(_ string, h func(string, []byte) ([]byte, error)) { n.ep.Serve(h) }

// recordedConn is one end of an in-memory frame connection whose frames, both ways, go to
// the wiretap.
type recordedConn struct {
	in, out chan []byte
	done    chan struct{}
	once    *sync.Once
	w       *wiretap
	frames  *atomic.Int64
}

func recordedPipe(w *wiretap, frames *atomic.Int64) (bridge.Conn, bridge.Conn) {
	a, b := make(chan []byte, 1024), make(chan []byte, 1024)
	done, once := make(chan struct{}), &sync.Once{}
	return &recordedConn{a, b, done, once, w, frames}, &recordedConn{b, a, done, once, nil, nil}
}

func (c *recordedConn) Read(ctx context.Context) ([]byte, error) {
	select {
	case b := <-c.in:
		if c.w != nil {
			c.w.add(b) // the laptop's frames to the phone
			c.frames.Add(1)
		}
		return b, nil
	case <-c.done:
		return nil, errors.New("closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *recordedConn) Write(ctx context.Context, b []byte) error {
	if c.w != nil {
		c.w.add(b) // the phone's frames to the laptop
		c.frames.Add(1)
	}
	select {
	case c.out <- b:
		return nil
	case <-c.done:
		return errors.New("closed")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *recordedConn) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

// TestPrivacyThroughBridge: TestPrivacy's checks on a game of Corruption whose seat 0 is a
// phone behind a laptop's hub, with every frame of the bridge recorded.
func TestPrivacyThroughBridge(t *testing.T) {
	t.Parallel()
	spec := corruptionSpec(3, corruption.Standard, true, 33)
	bots := spec.player
	spec.player = func(i int) engine.Player { return peeker{bots(i)} }
	seed := uint64(33)
	net := memnet.New(seed, memnet.Faults{Drop: 0.05, Duplicate: 0.05, MaxDelay: time.Millisecond})
	defer net.Close()
	w := &wiretap{}
	var closers []func()
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	var frames atomic.Int64
	var phone *bridge.Client
	spec.net = func(i int, ep *memnet.Endpoint) protocol.Network {
		if i != 0 {
			return tapNet{Endpoint: ep, w: w}
		}
		// The laptop's policy, with every topic of the test's: its one table's, "table".
		hub := bridge.NewHub(epNode{ep}, anyTopic{tablenet.PhonesPolicy(nil)}, nil)
		client, err := bridge.NewClient(bridge.ClientConfig{Dial: func(context.Context) (bridge.Conn, error) {
			phone, laptop := recordedPipe(w, &frames)
			go hub.Serve(laptop)
			return phone, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		closers = append(closers, func() { client.Close(); hub.Close() })
		phone = client
		n, err := tablenet.JoinTable(client, "table")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	spec.store = func(i int, s *protocol.Store) { s.Rand = newStream("privacy %d node %d", seed, i) }
	spec.adjust = func(i int, cfg *protocol.NodeConfig) {
		cfg.Rand = newStream("privacy %d genesis", seed)
		if i == 0 {
			phone.Identify(cfg.Identity) // the laptop sends the phone its peers' requests once it proves its seat
		}
	}
	runs := playNodes(t, net, spec)
	checkSame(t, runs)
	for _, r := range runs {
		if r.err != nil || !r.out.Finished {
			t.Fatalf("a node's table: %+v, %v", r.out, r.err)
		}
	}
	log := readLog(t, runs[0].dir)
	facts := readFacts(t, log)
	keys := nodeKeys(t, runs, log)
	if frames.Load() < 100 {
		t.Fatalf("%d frames of the bridge recorded: the phone's seat did not go through it", frames.Load())
	}
	// The bridge's links go on (their keepalive) until closed: the analysis reads what was
	// recorded by then.
	for _, c := range closers {
		c()
	}
	closers = nil
	w = w.frozen()
	index := newWindowIndex(w.msgs)
	checkHidden(t, w, index, facts, corruptionValues)
	checkAnswers(t, facts, keys, map[string]bool{}, map[string]bool{})
	checkDeals(t, w, index, facts, keys, corruption.NumContracts)
	checkUndealt(t, index, facts, keys)
	checkSecrets(t, w, runs, log)
	t.Logf("%d messages recorded, %d of them the bridge's frames", len(w.msgs), frames.Load())
}

// anyTopic is a hub's policy that relays every topic, with no validator of its own.
type anyTopic struct{ tablenet.HubPolicy }

func (anyTopic) Topic(string) (func(string, []byte) int, bool) { return nil, true }
