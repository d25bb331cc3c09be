package p2p

import (
	"context"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Peer exchange: a node told to dial one peer (--peer) learns the others from it, so that a
// group whose members each know one address becomes fully connected, and survives the loss of
// the one they all knew. A peer's answer lists the full addresses of the peers it is
// connected to; the asker dials those it does not know, the way it dials mDNS discoveries
// (given up after a minute of failure).
//
// A node asks a new peer at once and again exchangeAgain later (then three, nine, 27 times
// that): two nodes that reach the same peer at the same moment are each missing from the
// other's first answer, and would otherwise never meet.

const exchangeProto = "/corruption/p2p/peers/1"

// exchangeAgain is the first pause before a peer is asked again; each later pause is three
// times the one before, for exchangeAsks asks in all.
const (
	exchangeAgain = time.Second
	exchangeAsks  = 4
)

// maxExchanged bounds the addresses taken from one answer.
const maxExchanged = 64

func (n *Node) startExchange() {
	n.Handle(exchangeProto, func(from string, _ []byte) ([]byte, error) {
		var lines []string
		for _, p := range n.host.Network().Peers() {
			if p.String() == from {
				continue
			}
			for _, a := range n.host.Peerstore().Addrs(p) {
				lines = append(lines, a.String()+"/p2p/"+p.String())
			}
		}
		return []byte(strings.Join(lines, "\n")), nil
	})
	n.OnPeer(func(id string, connected bool) {
		// A relay is asked on a timer instead (relay.go): not at once, so that the node knows
		// its own public address (the relay's observation of it) before it dials the peers the
		// relay names, which hole punching needs from the first relayed connection.
		if connected && !n.isRelay(id) {
			n.start(func() { n.exchangeRepeatedly(id) })
		}
	})
}

// exchangeRepeatedly asks peer id for its peers exchangeAsks times, while it stays connected.
func (n *Node) exchangeRepeatedly(id string) {
	pid, err := peer.Decode(id)
	if err != nil {
		return
	}
	for ask, pause := 1, exchangeAgain; ; ask, pause = ask+1, 3*pause {
		if n.host.Network().Connectedness(pid) != network.Connected {
			return
		}
		n.exchangeWith(id)
		if ask == exchangeAsks {
			return
		}
		select {
		case <-n.ctx.Done():
			return
		case <-time.After(pause): // (a timer no longer referenced is collected, fired or not)
		}
	}
}

func (n *Node) exchangeWith(id string) {
	ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
	defer cancel()
	ans, err := n.Request(ctx, id, exchangeProto, nil)
	if err != nil {
		n.logf("p2p: peer exchange with %s: %v", id, err)
		return
	}
	byPeer := map[peer.ID][]ma.Multiaddr{}
	for i, line := range strings.Split(string(ans), "\n") {
		if i >= maxExchanged || line == "" {
			break
		}
		info, err := parsePeerAddr(line)
		if err != nil || info.ID == n.host.ID() {
			continue
		}
		byPeer[info.ID] = append(byPeer[info.ID], info.Addrs...)
	}
	for p, addrs := range byPeer {
		n.host.Peerstore().AddAddrs(p, addrs, mdnsAddrTTL)
		n.keep(peer.AddrInfo{ID: p, Addrs: addrs}, false)
	}
}
