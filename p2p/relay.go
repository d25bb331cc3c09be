package p2p

import (
	"fmt"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/host/autorelay"
	ma "github.com/multiformats/go-multiaddr"
)

// Relays. A node that nobody can dial (behind a NAT) keeps a reservation on a circuit relay v2
// server given in Config.Relays, and announces its relayed address
// (/…/p2p/RELAY/p2p-circuit/p2p/SELF): peers reach it through the relay, and both then try to
// replace the relayed connection by a direct one by hole punching (DCUtR). A node with
// Config.RelayService is such a server (relay_service.go), with limits per circuit and per
// reservation. Traffic through a relay is end-to-end encrypted (Noise) between the two peers;
// the relay sees who talks to whom, how much and when, and can drop or delay, nothing more.
//
// Limited connections. A relay that announces limits on its circuits (go-libp2p's relay does, by
// default 2 minutes and 128 KiB) has both ends mark the relayed connection limited, and
// go-libp2p opens a stream on a limited connection only for a caller whose context carries
// network.WithAllowLimitedConn. What this package does with one:
//   - gossip: nothing. gossipsub v0.19.0 opens no stream to a peer whose only connection is
//     limited, whatever its context (it checks for network.Connected before it tries). So our
//     relay service enforces its limits without announcing them (relay_service.go): its
//     circuits are not limited connections, and a table gossips through them.
//   - requests (Request, hence peer exchange, a table's fetches, the private join exchange): they
//     use a limited connection (WithAllowLimitedConn) rather than wait for a direct one. A
//     response is at most 4 MiB; one cut by the relay fails, and its caller asks again.
//   - a peer with only a limited connection counts as connected (OnPeer, the dial loops, Request),
//     so that the dial loop does not dial again a peer it reaches already.
// A limit reached, announced or not, is a cut: the relay resets the circuit, its connection
// closes as any lost connection does, both ends dial again (through the relay, or directly), and
// a table's nodes fetch what they missed (OnPeer).

// relayRetry is how soon a node tries a relay again after it failed to reach it or to reserve
// on it. autorelay drops a relay it could not reach, or on which its reservation failed, from
// its candidates, and asks for its relays again only once its minimum interval has passed
// (30 s by default): a node whose first try failed (the relay not up yet, a loaded machine, a
// Wi-Fi that dropped) was unreachable for half a minute. TestRelayLate fails without it.
const relayRetry = 5 * time.Second

// relayOptions are the host options of Config's relay settings (the relay service itself starts
// once the host is up: startRelayService).
func relayOptions(cfg Config) ([]libp2p.Option, error) {
	if cfg.RelayService {
		return []libp2p.Option{
			libp2p.EnableRelay(),
			libp2p.ForceReachabilityPublic(), // a relay is reachable: it needs no probing
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
			autorelay.WithBackoff(relayRetry), autorelay.WithMinInterval(relayRetry)),
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
				if n.connected(id) {
					n.exchangeWith(id.String())
				}
			}
		}
	})
}

// connected says whether the node has a connection to p, direct or relayed (limited or not).
func (n *Node) connected(p peer.ID) bool {
	return n.host.Network().Connectedness(p) != network.NotConnected
}
