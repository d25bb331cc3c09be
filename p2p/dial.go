package p2p

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
)

// Dial loop timing.
const (
	dialTimeout      = 5 * time.Second
	backoffMin       = 250 * time.Millisecond
	backoffMax       = 10 * time.Second
	mdnsGiveUp       = time.Minute // an mDNS peer unreachable this long is dropped until announced again
	mdnsAddrTTL      = 10 * time.Minute
	peerstoreForever = peerstore.PermanentAddrTTL
)

// keeper is the dial loop of one peer: it connects, and reconnects with
// backoff whenever the connection is lost.
type keeper struct {
	id      peer.ID
	forever bool          // a configured peer; an mDNS peer gives up after mdnsGiveUp
	wake    chan struct{} // a disconnection or a fresh discovery
}

// Dial adds a peer to dial, as Config.Peers does after New: addr is a full multiaddr ending in
// /p2p/<id>. It returns once the address is read and its dial loop started (or woken up): the
// node connects in the background and keeps the connection until Close, as for Config.Peers;
// OnPeer and Peers say when it is up. A bad address is an error that says why; dialing the
// node itself does nothing.
func (n *Node) Dial(addr string) error {
	info, err := parsePeerAddr(addr)
	if err != nil {
		return fmt.Errorf("bad peer address %q: %w", addr, err)
	}
	if info.ID == n.host.ID() {
		return nil
	}
	n.host.Peerstore().AddAddrs(info.ID, info.Addrs, peerstoreForever)
	n.keep(info, true)
	return nil
}

// keep starts the dial loop of info unless one runs already, in which case
// it wakes it up. The addresses must be in the peerstore.
func (n *Node) keep(info peer.AddrInfo, forever bool) {
	if info.ID == n.host.ID() {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	if k, ok := n.keepers[info.ID]; ok {
		k.forever = k.forever || forever
		poke(k.wake)
		return
	}
	k := &keeper{id: info.ID, forever: forever, wake: make(chan struct{}, 1)}
	n.keepers[info.ID] = k
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		n.keepLoop(k)
	}()
}

// wake tells the dial loop of id, if any, that its connection is gone.
func (n *Node) wake(id peer.ID) {
	n.mu.Lock()
	k := n.keepers[id]
	n.mu.Unlock()
	if k != nil {
		poke(k.wake)
	}
}

func poke(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (n *Node) keepLoop(k *keeper) {
	backoff := backoffMin
	var failingSince time.Time
	for {
		if n.ctx.Err() != nil {
			return
		}
		if n.connected(k.id) {
			backoff = backoffMin
			failingSince = time.Time{}
			select {
			case <-k.wake:
				continue
			case <-n.ctx.Done():
				return
			}
		}
		// Our own backoff paces the dials, not the swarm's, which would
		// keep refusing for seconds to minutes after a peer's restart.
		// (network.WithForceDirectDial would skip it too, but it makes the
		// swarm crash on a dial that races with Close.)
		if sw, ok := n.host.Network().(interface{ Backoff() *swarm.DialBackoff }); ok {
			sw.Backoff().Clear(k.id)
		}
		ctx, cancel := context.WithTimeout(n.ctx, dialTimeout)
		err := n.host.Connect(ctx, peer.AddrInfo{ID: k.id})
		cancel()
		if err == nil {
			continue
		}
		if n.ctx.Err() != nil {
			return
		}
		if failingSince.IsZero() {
			failingSince = time.Now()
			n.logf("p2p: cannot reach %s, will retry: %v", k.id, err)
		}
		n.mu.Lock()
		forever := k.forever
		if !forever && time.Since(failingSince) > mdnsGiveUp {
			delete(n.keepers, k.id)
			n.mu.Unlock()
			n.logf("p2p: giving up on %s until it is discovered again", k.id)
			return
		}
		n.mu.Unlock()
		t := time.NewTimer(backoff)
		select {
		case <-t.C:
		case <-k.wake:
			t.Stop()
		case <-n.ctx.Done():
			t.Stop()
			return
		}
		backoff = min(2*backoff, backoffMax)
	}
}

// notifee receives mDNS discoveries.
type notifee struct{ n *Node }

// HandlePeerFound implements mdns.Notifee. mDNS calls it on goroutines of
// its own; the work is moved to one that Close waits for.
func (f notifee) HandlePeerFound(info peer.AddrInfo) {
	n := f.n
	if info.ID == n.host.ID() || len(info.Addrs) == 0 {
		return
	}
	n.start(func() {
		n.mu.Lock()
		_, known := n.keepers[info.ID]
		n.mu.Unlock()
		n.host.Peerstore().AddAddrs(info.ID, info.Addrs, mdnsAddrTTL)
		if !known {
			n.logf("p2p: found %s by mDNS", info.ID)
		}
		n.keep(info, false)
	})
}
