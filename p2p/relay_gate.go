package p2p

import (
	"net/netip"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// prefixGate is the relay's limit of reservations per IPv6 /64: one home or one host is given a
// whole /64, so a per-address limit (go-libp2p's) does not hold it back. What it promises:
//   - A peer whose address is IPv6 gets a reservation only while fewer than per other peers of
//     its /64 hold one; a peer renewing its own is not counted twice.
//   - A reservation counts from the moment the gate allows it until it ends (its time to live
//     from its last renewal), its peer's last connection closes, or the relay refuses it for
//     another reason (forget).
//   - IPv4 addresses (and IPv4 mapped in IPv6) pass: go-libp2p's limit per address covers them.
//
// It is the relay's ACL filter (relayv2.WithACL); circuits pass it freely.
type prefixGate struct {
	per int
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	held map[peer.ID]heldSlot
}

type heldSlot struct {
	prefix netip.Prefix
	until  time.Time
}

func newPrefixGate(per int, ttl time.Duration) *prefixGate {
	return &prefixGate{per: per, ttl: ttl, now: time.Now, held: map[peer.ID]heldSlot{}}
}

// prefix64 is the /64 of an IPv6 address; false for IPv4 and for what is not an IP address.
func prefix64(a ma.Multiaddr) (netip.Prefix, bool) {
	ip, err := manet.ToIP(a)
	if err != nil || ip.To4() != nil {
		return netip.Prefix{}, false
	}
	addr, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.Prefix{}, false
	}
	return netip.PrefixFrom(addr, 64).Masked(), true
}

// AllowReserve implements relayv2.ACLFilter.
func (g *prefixGate) AllowReserve(p peer.ID, a ma.Multiaddr) bool {
	prefix, ok := prefix64(a)
	if !ok {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	n := 0
	for q, h := range g.held {
		switch {
		case !h.until.After(now):
			delete(g.held, q)
		case q != p && h.prefix == prefix:
			n++
		}
	}
	if n >= g.per {
		return false
	}
	g.held[p] = heldSlot{prefix: prefix, until: now.Add(g.ttl)}
	return true
}

// AllowConnect implements relayv2.ACLFilter: a circuit needs no more than its target's
// reservation.
func (g *prefixGate) AllowConnect(peer.ID, ma.Multiaddr, peer.ID) bool { return true }

// forget ends p's reservation, if it holds one.
func (g *prefixGate) forget(p peer.ID) {
	g.mu.Lock()
	delete(g.held, p)
	g.mu.Unlock()
}
