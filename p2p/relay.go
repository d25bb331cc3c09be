package p2p

import (
	"fmt"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/host/autorelay"
	relayv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
)

// Relays. A node that nobody can dial (behind a NAT) keeps a reservation on a circuit relay v2
// server given in Config.Relays, and announces its relayed address
// (/…/p2p/RELAY/p2p-circuit/p2p/SELF): peers reach it through the relay, and both then try to
// replace the relayed connection by a direct one by hole punching (DCUtR). A node with
// Config.RelayService is such a server, with limits that carry a whole table: go-libp2p's
// defaults cut a relayed connection after 2 minutes or 128 KiB, and mark it limited, which
// gossipsub and the request protocol then refuse to use. Traffic through a relay is
// end-to-end encrypted (Noise) between the two peers; the relay sees who talks to whom, how
// much and when, and can drop or delay, nothing more.

// Relay service limits: per relayed connection none (a table lasts as long as it lasts, and a
// limited connection carries no stream of ours); the reservations and circuits bound what one
// relay gives.
const (
	relayReservationTTL = time.Hour
	relayReservations   = 128
	relayCircuits       = 32 // open relayed connections per peer: a table has a handful
	relayBuffer         = 4096
)

// relayOptions are the host options of Config's relay settings.
func relayOptions(cfg Config) ([]libp2p.Option, error) {
	if cfg.RelayService {
		res := relayv2.DefaultResources()
		res.Limit = nil
		res.ReservationTTL = relayReservationTTL
		res.MaxReservations = relayReservations
		res.MaxCircuits = relayCircuits
		res.BufferSize = relayBuffer
		return []libp2p.Option{
			libp2p.EnableRelay(),
			libp2p.EnableRelayService(relayv2.WithResources(res), relayv2.WithLimit(nil)),
			libp2p.ForceReachabilityPublic(), // the service runs only on a public node
		}, nil
	}
	if len(cfg.Relays) == 0 {
		return []libp2p.Option{libp2p.DisableRelay(), libp2p.ForceReachabilityPrivate()}, nil
	}
	static := make([]peer.AddrInfo, 0, len(cfg.Relays))
	for _, s := range cfg.Relays {
		info, err := parsePeerAddr(s)
		if err != nil {
			return nil, fmt.Errorf("bad --relay address %q: %w", s, err)
		}
		static = append(static, info)
	}
	// The node's relayed addresses are its relays' given addresses with /p2p-circuit: autorelay
	// announces only relays' public addresses, and a relay on a LAN or on loopback counts too.
	var circuits []ma.Multiaddr
	for _, info := range static {
		for _, a := range info.Addrs {
			circuits = append(circuits, a.Encapsulate(ma.StringCast("/p2p/"+info.ID.String()+"/p2p-circuit")))
		}
	}
	return []libp2p.Option{
		libp2p.EnableRelay(),
		libp2p.AddrsFactory(func(addrs []ma.Multiaddr) []ma.Multiaddr { return append(addrs, circuits...) }),
		libp2p.ForceReachabilityPrivate(), // reserve at once: a node given a relay needs it
		libp2p.EnableAutoRelayWithStaticRelays(static,
			autorelay.WithBootDelay(0), autorelay.WithNumRelays(len(static)), autorelay.WithMinCandidates(1),
			autorelay.WithBackoff(5*time.Second)),
		libp2p.EnableHolePunching(),
	}, nil
}

// Relayed says whether every connection to peer goes through a relay: "relayed", "direct", or
// "" when the node is not connected to it.
func (n *Node) Relayed(id string) string {
	p, err := peer.Decode(id)
	if err != nil {
		return ""
	}
	return connKind(n.host.Network().ConnsToPeer(p))
}

func connKind(conns []network.Conn) string {
	if len(conns) == 0 {
		return ""
	}
	for _, c := range conns {
		if !isRelayed(c.RemoteMultiaddr()) {
			return "direct"
		}
	}
	return "relayed"
}

func isRelayed(a ma.Multiaddr) bool {
	return strings.Contains(a.String(), "/p2p-circuit")
}

// relayExchangeEvery is how often a node with relays asks them for the peers they carry (peer
// exchange): a peer's relayed address exists only once its reservation is made, which may be
// after this node first asked.
const relayExchangeEvery = 2 * time.Second

// isRelay says whether id is one of the node's relays.
func (n *Node) isRelay(id string) bool {
	for _, r := range n.relays {
		if r.String() == id {
			return true
		}
	}
	return false
}

// exchangeWithRelays asks the node's relays for their peers every relayExchangeEvery, until
// Close.
func (n *Node) exchangeWithRelays() {
	ids := n.relays
	n.start(func() {
		t := time.NewTicker(relayExchangeEvery)
		defer t.Stop()
		for {
			select {
			case <-n.ctx.Done():
				return
			case <-t.C:
			}
			for _, id := range ids {
				if n.host.Network().Connectedness(id) == network.Connected {
					n.exchangeWith(id.String())
				}
			}
		}
	})
}
