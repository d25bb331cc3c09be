package p2p

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	ma "github.com/multiformats/go-multiaddr"
)

func testNode(t *testing.T, cfg Config) *Node {
	t.Helper()
	_, cfg.Identity, _ = ed25519.GenerateKey(rand.Reader)
	cfg.Logf = t.Logf
	n, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// TestPrefixGate: at most per reservations from one IPv6 /64, a renewal not counted twice, other
// prefixes and IPv4 apart, and a slot freed by forget or when its time to live passes.
func TestPrefixGate(t *testing.T) {
	now := time.Unix(1e9, 0)
	g := newPrefixGate(2, time.Hour)
	g.now = func() time.Time { return now }
	addr := func(ip string) ma.Multiaddr { return ma.StringCast("/ip6/" + ip + "/tcp/4001") }
	ids := make([]peer.ID, 5)
	for i := range ids {
		pub, _, _ := ed25519.GenerateKey(rand.Reader)
		ids[i], _ = peer.IDFromBytes(mustID(t, pub))
	}
	step := func(what string, p peer.ID, a ma.Multiaddr, want bool) {
		t.Helper()
		if got := g.AllowReserve(p, a); got != want {
			t.Fatalf("%s: AllowReserve = %v, want %v", what, got, want)
		}
	}
	step("the first of a /64", ids[0], addr("2001:db8:1:2::a"), true)
	step("the second, another address of the same /64", ids[1], addr("2001:db8:1:2:ffff::b"), true)
	step("the first renewing", ids[0], addr("2001:db8:1:2::a"), true)
	step("a third of the same /64", ids[2], addr("2001:db8:1:2::c"), false)
	step("a third from another /64", ids[2], addr("2001:db8:1:3::c"), true)
	step("a fourth from IPv4", ids[3], ma.StringCast("/ip4/192.0.2.1/tcp/4001"), true)
	step("a fourth from IPv4 mapped in IPv6", ids[3], addr("::ffff:192.0.2.1"), true)
	g.forget(ids[1])
	step("a third of the first /64, once the second is forgotten", ids[4], addr("2001:db8:1:2::d"), true)
	step("the second back, the /64 full again", ids[1], addr("2001:db8:1:2::b"), false)
	now = now.Add(time.Hour)
	step("the second back, once the others' time to live passed", ids[1], addr("2001:db8:1:2::b"), true)
}

// mustID is the bytes of the peer id of pub.
func mustID(t *testing.T, pub ed25519.PublicKey) []byte {
	t.Helper()
	s, err := PeerID(pub)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(id)
}

// TestReservationLimits: a relay service holds at most Reservations reservations in all, PerIP
// from one IP address and Per64 from one IPv6 /64; a peer renewing its own is not refused; a
// reservation the relay refused, or whose peer disconnected, frees its slot.
func TestReservationLimits(t *testing.T) {
	if ln, err := net.Listen("tcp6", "[::1]:0"); err != nil {
		t.Skipf("skipping: no IPv6 loopback here: %v", err)
	} else {
		ln.Close()
	}
	for _, tc := range []struct {
		name   string
		listen string
		limits RelayLimits
		// refused: the status of the third reservation from the same address
		refused pbv2.Status
	}{
		{"in all", "/ip4/127.0.0.1/tcp/0", RelayLimits{Reservations: 2, PerIP: 10, Per64: 10}, pbv2.Status_RESERVATION_REFUSED},
		{"per IP", "/ip4/127.0.0.1/tcp/0", RelayLimits{Reservations: 10, PerIP: 2, Per64: 10}, pbv2.Status_RESERVATION_REFUSED},
		{"per /64", "/ip6/::1/tcp/0", RelayLimits{Reservations: 10, PerIP: 10, Per64: 2}, pbv2.Status_PERMISSION_DENIED},
		// The gate passes the third (one other of its /64 counted), the relay refuses it (two in
		// all): it must not count against the /64, or the fourth would be refused by the gate.
		{"refused past the gate", "/ip6/::1/tcp/0", RelayLimits{Reservations: 2, PerIP: 10, Per64: 3}, pbv2.Status_RESERVATION_REFUSED},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			relay := testNode(t, Config{Listen: []string{tc.listen}, RelayService: true, RelayLimits: tc.limits})
			info := peer.AddrInfo{ID: relay.host.ID(), Addrs: relay.host.Addrs()}
			reserve := func(n *Node) pbv2.Status {
				t.Helper()
				if _, err := client.Reserve(ctx, n.host, info); err != nil {
					var re client.ReservationError
					if !errors.As(err, &re) {
						t.Fatalf("reserve: %v", err)
					}
					return re.Status
				}
				return pbv2.Status_OK
			}
			nodes := make([]*Node, 4)
			for i := range nodes {
				nodes[i] = testNode(t, Config{Listen: []string{tc.listen}})
			}
			for i, want := range []pbv2.Status{pbv2.Status_OK, pbv2.Status_OK, tc.refused, tc.refused} {
				if got := reserve(nodes[i]); got != want {
					t.Fatalf("reservation %d from one address: %v, want %v", i+1, got, want)
				}
			}
			if got := reserve(nodes[0]); got != pbv2.Status_OK {
				t.Fatalf("the first renewing its reservation: %v", got)
			}
			// The relay and the gate hear of the disconnection on their own goroutines, soon
			// after it: the third asks until it is given its reservation.
			nodes[0].Close()
			for got := reserve(nodes[2]); got != pbv2.Status_OK; got = reserve(nodes[2]) {
				select {
				case <-ctx.Done():
					t.Fatalf("a reservation once the first's peer left: %v", got)
				case <-time.After(20 * time.Millisecond):
				}
			}
		})
	}
}

// TestRequestOverLimitedConnection: behind a relay that announces limits (go-libp2p's relay
// service with its defaults, 2 minutes and 128 KiB: someone else's relay), two nodes' relayed
// connection is limited. It counts as a connection (OnPeer, Peers) and carries requests.
func TestRequestOverLimitedConnection(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.EnableRelayService(), libp2p.ForceReachabilityPublic())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	raddr := h.Addrs()[0].String() + "/p2p/" + h.ID().String()
	a := testNode(t, Config{NoListen: true, Relays: []string{raddr}})
	b := testNode(t, Config{NoListen: true, Relays: []string{raddr}})
	a.Handle("/test/echo/1", func(_ string, req []byte) ([]byte, error) { return req, nil })
	up := make(chan string, 8)
	b.OnPeer(func(id string, connected bool) {
		if connected {
			up <- id
		}
	})
	if err := b.Dial(raddr + "/p2p-circuit/p2p/" + a.ID()); err != nil {
		t.Fatal(err)
	}
	for id := ""; id != a.ID(); {
		select {
		case id = <-up:
		case <-ctx.Done():
			t.Fatal("b never told of a connection to a")
		}
	}
	for _, c := range b.host.Network().ConnsToPeer(a.host.ID()) {
		if !c.Stat().Limited {
			t.Fatalf("b's connection to a through a relay that announces limits is not limited: %s", c.RemoteMultiaddr())
		}
	}
	if b.Relayed(a.ID()) != "relayed" {
		t.Fatalf("b says its connection to a is %q", b.Relayed(a.ID()))
	}
	ans, err := b.Request(ctx, a.ID(), "/test/echo/1", []byte("over a limited connection"))
	if err != nil || string(ans) != "over a limited connection" {
		t.Fatalf("a request over a limited connection: %q, %v", ans, err)
	}
}
