package p2p_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/p2p"
)

func TestBadConfig(t *testing.T) {
	key := newKey(t)
	other := newKey(t)
	otherID, err := p2p.PeerID(other.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	busyAddr := "/ip4/127.0.0.1/tcp/" + strings.TrimPrefix(busy.Addr().String(), "127.0.0.1:")

	for _, tc := range []struct {
		name string
		cfg  p2p.Config
		want string
	}{
		{"no identity", p2p.Config{}, "identity must be an ed25519 private key of 64 bytes, got 0"},
		{"short identity", p2p.Config{Identity: key[:32]}, "got 32"},
		{"malformed listen", p2p.Config{Identity: key, Listen: []string{"127.0.0.1:4001"}}, `bad listen address "127.0.0.1:4001"`},
		{"unknown listen protocol", p2p.Config{Identity: key, Listen: []string{"/ip4/127.0.0.1/tcp/0/bogus"}}, `bad listen address "/ip4/127.0.0.1/tcp/0/bogus"`},
		{"listen without transport", p2p.Config{Identity: key, Listen: []string{"/ip4/127.0.0.1/udp/0/quic-v1"}}, `cannot listen on "/ip4/127.0.0.1/udp/0/quic-v1"`},
		{"listen on a busy port", p2p.Config{Identity: key, Listen: []string{busyAddr}}, `cannot listen on "` + busyAddr + `"`},
		{"malformed peer", p2p.Config{Identity: key, Peers: []string{"not an address"}}, `bad --peer address "not an address"`},
		{"peer without id", p2p.Config{Identity: key, Peers: []string{"/ip4/127.0.0.1/tcp/4001"}}, `bad --peer address "/ip4/127.0.0.1/tcp/4001": it must end in /p2p/<peer id>`},
		{"peer with bad id", p2p.Config{Identity: key, Peers: []string{"/ip4/127.0.0.1/tcp/4001/p2p/QmNope"}}, `bad --peer address "/ip4/127.0.0.1/tcp/4001/p2p/QmNope"`},
		{"peer id only", p2p.Config{Identity: key, Peers: []string{"/p2p/" + otherID}}, "it has no transport address before /p2p/"},
		{"mDNS without tag", p2p.Config{Identity: key, MDNS: true}, "mDNS needs a service tag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := p2p.New(context.Background(), tc.cfg)
			if err == nil {
				n.Close()
				t.Fatalf("New succeeded, want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: got %q, want it to contain %q", err, tc.want)
			}
		})
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p2p.New(cancelled, p2p.Config{Identity: key}); err == nil {
		t.Error("New with a cancelled ctx succeeded")
	}
}

func TestIdentity(t *testing.T) {
	key := newKey(t)
	pub := key.Public().(ed25519.PublicKey)
	id, err := p2p.PeerID(pub)
	if err != nil {
		t.Fatal(err)
	}
	n := newNode(t, p2p.Config{Identity: key})
	if n.ID() != id {
		t.Errorf("node id %s, PeerID says %s", n.ID(), id)
	}
	back, err := p2p.PeerKey(n.ID())
	if err != nil || !bytes.Equal(back, pub) {
		t.Errorf("PeerKey: got %x, %v; want %x", back, err, pub)
	}
	for _, a := range n.Addrs() {
		if !strings.HasPrefix(a, "/ip4/127.0.0.1/tcp/") || !strings.HasSuffix(a, "/p2p/"+id) {
			t.Errorf("address %q is not a loopback TCP address of %s", a, id)
		}
	}
	if len(n.Addrs()) == 0 {
		t.Error("no addresses")
	}
	if _, err := p2p.PeerID(pub[:31]); err == nil {
		t.Error("PeerID of a short key succeeded")
	}
	if _, err := p2p.PeerKey("garbage"); err == nil {
		t.Error("PeerKey of garbage succeeded")
	}
	// A peer id that hashes an RSA key carries no key to extract.
	if _, err := p2p.PeerKey("QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N"); err == nil {
		t.Error("PeerKey of a hashed-key peer id succeeded")
	}
}

// events records OnPeer calls.
type events struct {
	mu  sync.Mutex
	got []string
}

func (e *events) add(peer string, up bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := "down:"
	if up {
		s = "up:"
	}
	e.got = append(e.got, s+peer)
}

func (e *events) has(s string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, g := range e.got {
		if g == s {
			return true
		}
	}
	return false
}

func TestPeerEventsAndRedial(t *testing.T) {
	bKey := newKey(t)
	b := newNode(t, p2p.Config{Identity: bKey})
	bAddrs := b.Addrs()
	// a also keeps dialing a peer that never answers, which must not
	// get in the way.
	nobody := "/ip4/127.0.0.1/tcp/1/p2p/" + mustID(t, newKey(t))
	a := newNode(t, p2p.Config{Peers: append(bAddrs, nobody)})

	var early, late events
	a.OnPeer(early.add)
	waitFor(t, 10*time.Second, "a to connect to b", func() bool { return early.has("up:" + b.ID()) })
	// A callback registered after the connection still hears of it.
	a.OnPeer(late.add)
	waitFor(t, 10*time.Second, "the late callback to hear of b", func() bool { return late.has("up:" + b.ID()) })

	// b goes away and comes back on the same address: a notices both and
	// redials by itself.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "a to notice b is gone", func() bool { return early.has("down:" + b.ID()) })
	listen := strings.TrimSuffix(bAddrs[0], "/p2p/"+b.ID())
	b2 := newNode(t, p2p.Config{Identity: bKey, Listen: []string{listen}})
	waitFor(t, 15*time.Second, "a to redial b", func() bool { return connectedTo(a, b2.ID()) })
}

// TestDial: a node dials an address given after it started, as it dials Config.Peers; a bad
// address is refused with the reason, and its own address is no error.
func TestDial(t *testing.T) {
	b := newNode(t, p2p.Config{})
	a := newNode(t, p2p.Config{})
	for _, bad := range []string{"", "/ip4/127.0.0.1/tcp/1", "not an address"} {
		if err := a.Dial(bad); err == nil {
			t.Errorf("Dial(%q): no error", bad)
		}
	}
	if err := a.Dial(a.Addrs()[0]); err != nil {
		t.Errorf("Dial(its own address): %v", err)
	}
	if err := a.Dial(b.Addrs()[0]); err != nil {
		t.Fatalf("Dial: %v", err)
	}
	waitFor(t, 10*time.Second, "a to connect to b", func() bool { return connectedTo(a, b.ID()) })
}

func mustID(t *testing.T, k ed25519.PrivateKey) string {
	t.Helper()
	id, err := p2p.PeerID(k.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestPeerListMaySelfInclude(t *testing.T) {
	key := newKey(t)
	id := mustID(t, key)
	// Every node of a table may be given the same --peer list, its own
	// address included.
	n := newNode(t, p2p.Config{Identity: key, Peers: []string{"/ip4/127.0.0.1/tcp/1/p2p/" + id}})
	if len(n.Peers()) != 0 {
		t.Errorf("peers: %v", n.Peers())
	}
}

func TestCloseStopsGoroutines(t *testing.T) {
	// Warm up whatever libp2p starts once per process.
	func() {
		a, b := pair(t)
		a.Close()
		b.Close()
	}()
	base := runtime.NumGoroutine()
	func() {
		nodes := ring(t, 3)
		joinAll(t, nodes, "t", nil)
		nodes[0].Handle(echo, func(_ string, r []byte) ([]byte, error) { return r, nil })
		if _, err := nodes[1].Request(ctxTimeout(t, 5*time.Second), nodes[0].ID(), echo, []byte("x")); err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			if err := n.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}()
	waitFor(t, 10*time.Second, "goroutines to end", func() bool {
		return runtime.NumGoroutine() <= base+2
	})
}
