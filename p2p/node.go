package p2p

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/discovery/mdns"
	"github.com/libp2p/go-libp2p/p2p/host/eventbus"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	ma "github.com/multiformats/go-multiaddr"
)

// Listen addresses. DefaultListen is what a Config with no Listen gets: it is
// reachable from this machine only, which keeps tests and single-machine runs
// off the network. A node that plays over a LAN must listen on LANListen (or
// on one interface's address).
const (
	DefaultListen = "/ip4/127.0.0.1/tcp/0"
	LANListen     = "/ip4/0.0.0.0/tcp/0"
)

// Connection manager watermarks. A table has a handful of peers; these only
// stop a misbehaving LAN from exhausting the process.
const (
	connLow  = 64
	connHigh = 128
)

// ErrClosed is returned by the methods of a Node that was closed, and by Next
// on a topic that was left.
var ErrClosed = errors.New("p2p: closed")

// Config says how a Node identifies itself, where it listens and how it finds
// its peers. Only Identity is required.
type Config struct {
	// Identity is the node's ed25519 private key. It becomes the libp2p
	// identity: the peer id is PeerID(Identity.Public()), Noise
	// authenticates connections with it and gossipsub signs every message
	// with it.
	Identity ed25519.PrivateKey

	// Listen lists TCP multiaddrs to listen on. Empty means DefaultListen
	// (127.0.0.1, this machine only); use LANListen to be reachable on the LAN.
	Listen []string

	// Peers lists full multiaddrs, each ending in /p2p/<peer id>, to dial at
	// start and to redial, with backoff, whenever the connection is lost,
	// until Close. This is what a --peer flag feeds, for networks where
	// multicast is blocked. An address of this node itself is skipped.
	Peers []string

	// MDNS turns on LAN discovery with multicast DNS: the node announces its
	// addresses under ServiceTag and dials every other node that announces
	// under the same tag. It sends multicast on every up, multicast-capable
	// interface, so tests must only turn it on inside a private network
	// namespace.
	MDNS bool

	// ServiceTag is the mDNS service name, required when MDNS is on. Put a
	// version in it (say "corruption/1") so that incompatible releases do
	// not find each other.
	ServiceTag string
	// Exchange turns on peer exchange: the node asks each peer it connects to for the
	// addresses of the peers that one is connected to, and dials them. A group whose members
	// were each given one address (--peer) becomes fully connected, and keeps playing if
	// that one peer goes away.
	Exchange bool

	// Relays lists circuit relay v2 servers, each a full multiaddr ending in /p2p/<id> (what
	// `corruption relay` prints): the node keeps a reservation on them, announces its relayed
	// addresses, and tries hole punching to turn a relayed connection into a direct one
	// (relay.go). RelayService makes the node such a server. NoListen listens on nothing: the
	// node is reachable only through its relays, as behind a NAT nobody can dial through.
	Relays       []string
	RelayService bool
	NoListen     bool
	// RelayLimits are the relay service's limits (relay_service.go); zero fields take the
	// defaults, DefaultRelayLimits.
	RelayLimits RelayLimits

	// Logf, if set, receives a line for each notable event (a peer
	// connected or lost, a dial failing, an mDNS discovery).
	Logf func(format string, args ...any)
}

// Node is a running libp2p host with gossipsub and the request/response
// protocol. Its methods are safe for concurrent use.
type Node struct {
	host host.Host
	ps   *pubsub.PubSub
	mesh *meshTracer
	mdns mdns.Service
	logf func(format string, args ...any)
	// relays are the ids of Config.Relays; relaySvc is the relay service, if the node is one.
	relays   []peer.ID
	relaySvc *relayService

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	evSub  event.Subscription
	wg     sync.WaitGroup // every goroutine the node started

	mu      sync.Mutex
	closed  bool
	keepers map[peer.ID]*keeper
	topics  map[string]*joinedTopic

	// peer callbacks, run by the dispatch goroutine only
	cbMu      sync.Mutex
	pendingCB []func(peer string, connected bool)
	newCB     chan struct{}
}

// New starts a node: it listens, starts gossipsub and, as configured, mDNS
// and the dial loops for cfg.Peers. It does not wait for any peer: dials run
// in the background (see Peers and OnPeer). ctx bounds New only; the node runs
// until Close.
func New(ctx context.Context, cfg Config) (*Node, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(cfg.Identity) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("p2p: identity must be an ed25519 private key of %d bytes, got %d", ed25519.PrivateKeySize, len(cfg.Identity))
	}
	key, err := crypto.UnmarshalEd25519PrivateKey(cfg.Identity)
	if err != nil {
		return nil, fmt.Errorf("p2p: bad identity key: %w", err)
	}
	self, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("p2p: bad identity key: %w", err)
	}

	listenStrs := cfg.Listen
	if len(listenStrs) == 0 && !cfg.NoListen {
		listenStrs = []string{DefaultListen}
	} else if cfg.NoListen {
		listenStrs = nil
	}
	listen := make([]ma.Multiaddr, 0, len(listenStrs))
	for _, s := range listenStrs {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return nil, fmt.Errorf("bad listen address %q: %w", s, err)
		}
		listen = append(listen, a)
	}
	dial := make([]peer.AddrInfo, 0, len(cfg.Peers))
	for _, s := range cfg.Peers {
		info, err := parsePeerAddr(s)
		if err != nil {
			return nil, fmt.Errorf("bad --peer address %q: %w", s, err)
		}
		if info.ID != self {
			dial = append(dial, info)
		}
	}
	if cfg.MDNS && cfg.ServiceTag == "" {
		return nil, errors.New("p2p: mDNS needs a service tag")
	}

	relayOpts, err := relayOptions(cfg)
	if err != nil {
		return nil, err
	}
	limits, err := cfg.RelayLimits.withDefaults()
	if err != nil {
		return nil, err
	}
	// A node with relays listens as the host starts: autorelay dials the relays at once, and a
	// connection dialled before the listener exists leaves from another port, so the relay's
	// observation of it is not the node's public address, which hole punching needs.
	listenOpt := libp2p.NoListenAddrs // listened on one by one below, for precise errors
	if len(cfg.Relays) > 0 {
		listenOpt = libp2p.ListenAddrs(listen...)
	}
	cm, err := connmgr.NewConnManager(connLow, connHigh, connmgr.WithGracePeriod(time.Minute))
	if err != nil {
		return nil, fmt.Errorf("p2p: connection manager: %w", err)
	}
	h, err := libp2p.New(append([]libp2p.Option{
		libp2p.Identity(key),
		listenOpt,
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.ConnectionManager(cm),
		libp2p.DisableMetrics(),
		libp2p.Ping(false),
	}, relayOpts...)...)
	if err != nil {
		cm.Close()
		return nil, fmt.Errorf("p2p: cannot start host: %w", err)
	}
	n := &Node{
		host:    h,
		logf:    cfg.Logf,
		keepers: make(map[peer.ID]*keeper),
		topics:  make(map[string]*joinedTopic),
		newCB:   make(chan struct{}, 1),
	}
	if n.logf == nil {
		n.logf = func(string, ...any) {}
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	fail := func(err error) (*Node, error) {
		n.Close()
		return nil, err
	}

	n.evSub, err = h.EventBus().Subscribe(new(event.EvtPeerConnectednessChanged), eventbus.BufSize(1024), eventbus.Name("p2p"))
	if err != nil {
		return fail(fmt.Errorf("p2p: cannot watch connections: %w", err))
	}
	n.wg.Add(1)
	go n.dispatch()

	n.mesh = newMeshTracer()
	n.ps, err = newGossip(n.ctx, h, n.mesh)
	if err != nil {
		return fail(fmt.Errorf("p2p: cannot start gossipsub: %w", err))
	}
	if cfg.RelayService {
		if n.relaySvc, err = startRelayService(h, limits, n.logf); err != nil {
			return fail(err)
		}
	}

	// Listen only now, so that the event watch and gossipsub see every
	// connection.
	for i, a := range listen {
		if len(cfg.Relays) > 0 {
			break // listening already
		}
		if err := h.Network().Listen(a); err != nil {
			return fail(fmt.Errorf("cannot listen on %q: %w", listenStrs[i], err))
		}
	}
	for _, info := range dial {
		h.Peerstore().AddAddrs(info.ID, info.Addrs, peerstoreForever)
		n.keep(info, true)
	}
	for _, s := range cfg.Relays {
		if info, err := parsePeerAddr(s); err == nil {
			n.relays = append(n.relays, info.ID)
		}
	}
	if cfg.Exchange {
		n.startExchange()
		if len(n.relays) > 0 {
			n.exchangeWithRelays()
		}
	}
	if cfg.MDNS {
		n.mdns = mdns.NewMdnsService(h, cfg.ServiceTag, notifee{n})
		if err := n.mdns.Start(); err != nil {
			n.mdns = nil
			return fail(fmt.Errorf("p2p: cannot start mDNS: %w", err))
		}
	}
	return n, nil
}

// parsePeerAddr parses a multiaddr that must name its peer with /p2p/<id>.
func parsePeerAddr(s string) (peer.AddrInfo, error) {
	a, err := ma.NewMultiaddr(s)
	if err != nil {
		return peer.AddrInfo{}, err
	}
	_, last := ma.SplitLast(a)
	if last == nil || last.Protocol().Code != ma.P_P2P {
		return peer.AddrInfo{}, errors.New("it must end in /p2p/<peer id>")
	}
	info, err := peer.AddrInfoFromP2pAddr(a)
	if err != nil {
		return peer.AddrInfo{}, err
	}
	if len(info.Addrs) == 0 {
		return peer.AddrInfo{}, errors.New("it has no transport address before /p2p/")
	}
	return *info, nil
}

// ID returns the node's peer id in its usual base58 text form.
func (n *Node) ID() string { return n.host.ID().String() }

// Addrs returns the node's dialable multiaddrs, each ending in /p2p/<id>, in
// the form Config.Peers accepts. Listening on 0.0.0.0 yields one address per
// interface.
func (n *Node) Addrs() []string {
	addrs, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: n.host.ID(), Addrs: n.host.Addrs()})
	if err != nil {
		return nil
	}
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = a.String()
	}
	return out
}

// Peers returns the ids of the peers the node is connected to now.
func (n *Node) Peers() []string {
	return idStrings(n.host.Network().Peers())
}

// Close stops mDNS, the dial loops, gossipsub, the host and every goroutine
// the node started, and waits for running request handlers to return.
// Closing twice is harmless.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	n.mu.Unlock()

	n.cancel()
	if n.mdns != nil {
		n.mdns.Close()
	}
	if n.relaySvc != nil {
		n.relaySvc.close()
	}
	err := n.host.Close()
	if n.evSub != nil {
		n.evSub.Close()
	}
	n.wg.Wait()
	if err != nil {
		return fmt.Errorf("p2p: close: %w", err)
	}
	return nil
}

// start runs f on a goroutine that Close waits for, unless the node is
// closed, in which case it reports false and does nothing.
func (n *Node) start(f func()) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return false
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		f()
	}()
	return true
}

// OnPeer registers f to hear of connections: f(id, true) when the node gets
// its first connection to a peer, f(id, false) when it loses its last. Right
// after registration f hears f(id, true) for each peer already connected, so
// it misses nothing. All callbacks run one at a time on one goroutine, in
// order: they must return quickly (start a goroutine for slow work such as a
// Request) and must not call Close.
func (n *Node) OnPeer(f func(peer string, connected bool)) {
	if f == nil {
		return
	}
	n.cbMu.Lock()
	n.pendingCB = append(n.pendingCB, f)
	n.cbMu.Unlock()
	select {
	case n.newCB <- struct{}{}:
	default:
	}
}

// dispatch turns connectedness events into callbacks and wakes the dial loop
// of a peer that was lost.
func (n *Node) dispatch() {
	defer n.wg.Done()
	var cbs []func(string, bool)
	up := make(map[peer.ID]bool) // as told by the events seen so far
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-n.newCB:
			n.cbMu.Lock()
			fresh := n.pendingCB
			n.pendingCB = nil
			n.cbMu.Unlock()
			for _, f := range fresh {
				for p := range up {
					f(p.String(), true)
				}
			}
			cbs = append(cbs, fresh...)
		case e, ok := <-n.evSub.Out():
			if !ok {
				return
			}
			ev, ok := e.(event.EvtPeerConnectednessChanged)
			if !ok {
				continue
			}
			var connected bool
			switch ev.Connectedness {
			case network.Connected, network.Limited: // limited: relayed, and it carries requests (relay.go)
				connected = true
			case network.NotConnected:
				connected = false
			default:
				continue
			}
			if up[ev.Peer] == connected {
				continue
			}
			if connected {
				up[ev.Peer] = true
				n.logf("p2p: connected to %s (%s)", ev.Peer, connKind(n.host.Network().ConnsToPeer(ev.Peer)))
			} else {
				delete(up, ev.Peer)
				n.logf("p2p: lost %s", ev.Peer)
				n.wake(ev.Peer)
			}
			for _, f := range cbs {
				f(ev.Peer.String(), connected)
			}
		}
	}
}

// PeerID returns the peer id that a node with this ed25519 public key has.
func PeerID(pub ed25519.PublicKey) (string, error) {
	if len(pub) != ed25519.PublicKeySize {
		return "", fmt.Errorf("p2p: ed25519 public key must be %d bytes, got %d", ed25519.PublicKeySize, len(pub))
	}
	k, err := crypto.UnmarshalEd25519PublicKey(pub)
	if err != nil {
		return "", fmt.Errorf("p2p: bad ed25519 public key: %w", err)
	}
	id, err := peer.IDFromPublicKey(k)
	if err != nil {
		return "", fmt.Errorf("p2p: bad ed25519 public key: %w", err)
	}
	return id.String(), nil
}

// PeerKey returns the ed25519 public key that a peer id embeds. It fails for
// malformed ids and for ids of other key types.
func PeerKey(id string) (ed25519.PublicKey, error) {
	pid, err := peer.Decode(id)
	if err != nil {
		return nil, fmt.Errorf("bad peer id %q: %w", id, err)
	}
	k, err := pid.ExtractPublicKey()
	if err != nil {
		return nil, fmt.Errorf("peer id %q: no public key in it: %w", id, err)
	}
	if k.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("peer id %q: key is not ed25519", id)
	}
	raw, err := k.Raw()
	if err != nil {
		return nil, fmt.Errorf("peer id %q: %w", id, err)
	}
	return ed25519.PublicKey(raw), nil
}

func idStrings(ids []peer.ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
