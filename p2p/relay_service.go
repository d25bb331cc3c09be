package p2p

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	circuitproto "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	relayv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"google.golang.org/protobuf/proto"
)

// The relay service of a node with Config.RelayService. What it promises:
//   - A circuit (one relayed connection between two peers) lasts at most RelayLimits.CircuitTime
//     and carries at most RelayLimits.CircuitData bytes each way; then the relay cuts it (resets
//     it). The relay enforces both itself (hopStream) and does not announce them: go-libp2p
//     would have both ends mark an announced limit's connection limited, and gossipsub (v0.19.0)
//     opens no stream on a limited connection, whatever its context (relay.go). Two peers whose
//     circuit was cut open another (the dial loops), so a table outlives any one circuit.
//   - At most RelayLimits.Reservations reservations are held at once, at most PerIP of them
//     from one IP address (go-libp2p's check) and at most Per64 from one IPv6 /64 (ours:
//     prefixGate); go-libp2p's limit of 32 per IPv6 autonomous system stands.
//   - The relay counts the bytes each circuit carries each way (after the circuit's handshake:
//     what the data limit counts), lists the open ones (Circuits) and, through Config.Logf, says
//     when one opens and when one ends, with its bytes, its age and why it ended.

// RelayLimits are a relay service's limits. A zero field takes its default: DefaultRelayLimits,
// and for CircuitData, DefaultCircuitRate for each second of CircuitTime.
type RelayLimits struct {
	CircuitTime  time.Duration // how long one circuit may last
	CircuitData  int64         // bytes one circuit may carry each way
	Reservations int           // reservations held at once
	PerIP        int           // reservations from one IP address
	Per64        int           // reservations from one IPv6 /64 prefix
}

// The default relay limits. A circuit is sized to carry a whole table of this project's games at
// its largest, every decision taking its whole clock (play's 90 s) and every bank spent (5
// minutes a seat), with room: 12 hours (a 5-seat Corruptia table made up to 340 decisions: 8.9
// hours), and 16 KiB a second each way (a 7-seat table's nodes send a circuit about 7 KB a
// second each way while nobody moves, announcing their heads; the moves add under 1 MB). The
// figures: docs/PERFORMANCE.md, "Relayed tables".
const (
	DefaultCircuitTime  = 12 * time.Hour
	DefaultCircuitRate  = 16 << 10 // bytes a second each way: the data limit's default, per second of CircuitTime
	DefaultReservations = 128
	DefaultPerIP        = 4
	DefaultPer64        = 4
	// MinCircuitData is the least data limit: below it, a circuit might never carry the nodes'
	// greetings and one large entry (a shuffle is up to 96 KiB), and a table could stall on it.
	MinCircuitData = 256 << 10
)

// DefaultRelayLimits returns the default relay limits.
func DefaultRelayLimits() RelayLimits {
	return RelayLimits{CircuitTime: DefaultCircuitTime, CircuitData: CircuitDataFor(DefaultCircuitTime),
		Reservations: DefaultReservations, PerIP: DefaultPerIP, Per64: DefaultPer64}
}

// CircuitDataFor is the default data limit of a circuit that may last d: DefaultCircuitRate for
// each second of it, and at least MinCircuitData.
func CircuitDataFor(d time.Duration) int64 {
	return max(int64(DefaultCircuitRate*d.Seconds()), MinCircuitData)
}

// withDefaults fills the zero fields of l with the defaults, and checks the others.
func (l RelayLimits) withDefaults() (RelayLimits, error) {
	d := DefaultRelayLimits()
	switch {
	case l.CircuitTime < 0:
		return l, fmt.Errorf("p2p: relay circuit time %v is negative", l.CircuitTime)
	case l.CircuitData < 0 || l.CircuitData > 0 && l.CircuitData < MinCircuitData:
		return l, fmt.Errorf("p2p: relay circuit data %d is under the least, %d bytes", l.CircuitData, MinCircuitData)
	case l.Reservations < 0 || l.PerIP < 0 || l.Per64 < 0:
		return l, fmt.Errorf("p2p: relay reservations %d, %d per IP, %d per /64: a count is negative", l.Reservations, l.PerIP, l.Per64)
	}
	if l.CircuitTime == 0 {
		l.CircuitTime = d.CircuitTime
	}
	if l.CircuitData == 0 {
		l.CircuitData = CircuitDataFor(l.CircuitTime)
	}
	if l.Reservations == 0 {
		l.Reservations = d.Reservations
	}
	if l.PerIP == 0 {
		l.PerIP = d.PerIP
	}
	if l.Per64 == 0 {
		l.Per64 = d.Per64
	}
	return l, nil
}

// Circuit is one open circuit of a relay service, as Circuits lists it.
type Circuit struct {
	From, To string    // the peer that opened it, and the peer it reaches
	Opened   time.Time // when the relay agreed to it
	Sent     int64     // bytes relayed from From to To
	Back     int64     // bytes relayed from To to From
}

// Relay service settings beyond RelayLimits: reservations last an hour (a peer renews its own
// before it ends; one that disconnects loses it at once), each peer may have 32 circuits open
// (a table has a handful), and each circuit's buffer is 4 KiB.
const (
	relayReservationTTL = time.Hour
	relayCircuits       = 32
	relayBuffer         = 4096
)

// relayService is a node's circuit relay v2 server with its accounting.
type relayService struct {
	limits RelayLimits
	logf   func(string, ...any)
	gate   *prefixGate
	relay  *relayv2.Relay
	notify *network.NotifyBundle
	net    network.Network

	mu   sync.Mutex
	open map[*circuit]struct{}
}

// startRelayService starts the relay on h with limits (defaults filled in).
func startRelayService(h host.Host, limits RelayLimits, logf func(string, ...any)) (*relayService, error) {
	svc := &relayService{limits: limits, logf: logf, net: h.Network(), open: map[*circuit]struct{}{},
		gate: newPrefixGate(limits.Per64, relayReservationTTL)}
	res := relayv2.DefaultResources()
	res.Limit = nil // enforced by hopStream, unannounced
	res.ReservationTTL = relayReservationTTL
	res.MaxReservations = limits.Reservations
	res.MaxReservationsPerIP = limits.PerIP
	res.MaxCircuits = relayCircuits
	res.BufferSize = relayBuffer
	r, err := relayv2.New(hopHost{h, svc}, relayv2.WithResources(res), relayv2.WithACL(svc.gate))
	if err != nil {
		return nil, fmt.Errorf("p2p: cannot start the relay service: %w", err)
	}
	svc.relay = r
	// A peer's reservation ends with its last connection, as the relay's own.
	svc.notify = &network.NotifyBundle{DisconnectedF: func(n network.Network, c network.Conn) {
		if n.Connectedness(c.RemotePeer()) != network.Connected {
			svc.gate.forget(c.RemotePeer())
		}
	}}
	h.Network().Notify(svc.notify)
	return svc, nil
}

func (svc *relayService) close() {
	svc.net.StopNotify(svc.notify)
	svc.relay.Close()
}

// Circuits lists the open circuits of the node's relay service (none on a node that is not a
// relay), oldest first.
func (n *Node) Circuits() []Circuit {
	if n.relaySvc == nil {
		return nil
	}
	svc := n.relaySvc
	svc.mu.Lock()
	defer svc.mu.Unlock()
	out := make([]Circuit, 0, len(svc.open))
	for c := range svc.open {
		out = append(out, c.stats())
	}
	slices.SortFunc(out, func(a, b Circuit) int { return a.Opened.Compare(b.Opened) })
	return out
}

// hopHost is the host as the relay sees it: the same, except that the relay's hop streams
// (a peer asking for a reservation or a circuit) are watched.
type hopHost struct {
	host.Host
	svc *relayService
}

func (h hopHost) SetStreamHandler(pid protocol.ID, handler network.StreamHandler) {
	if pid != circuitproto.ProtoIDv2Hop {
		h.Host.SetStreamHandler(pid, handler)
		return
	}
	h.Host.SetStreamHandler(pid, func(s network.Stream) {
		handler(&hopStream{Stream: s, c: &circuit{svc: h.svc, stream: s, from: s.Conn().RemotePeer()}})
	})
}

// hopStream is a hop stream: the relay reads the peer's request from it and writes its answer,
// then, for a circuit, relays through it both ways.
type hopStream struct {
	network.Stream
	c *circuit
}

// errCircuitData is what a circuit's stream answers the relay past the data limit: the relay
// then resets the circuit.
var errCircuitData = errors.New("p2p: the circuit reached its data limit")

func (s *hopStream) Read(p []byte) (int, error) {
	if s.c.live.Load() {
		left := s.c.svc.limits.CircuitData - s.c.sent.Load()
		if left <= 0 {
			return 0, errCircuitData
		}
		p = p[:min(int64(len(p)), left)]
	}
	n, err := s.Stream.Read(p)
	s.c.read(p[:n])
	return n, err
}

func (s *hopStream) Write(p []byte) (int, error) {
	var over error
	if s.c.live.Load() {
		left := s.c.svc.limits.CircuitData - s.c.back.Load()
		if int64(len(p)) > left {
			p, over = p[:max(left, 0)], errCircuitData
		}
	}
	n, err := s.Stream.Write(p)
	s.c.wrote(p[:n])
	if err == nil {
		err = over
	}
	return n, err
}

func (s *hopStream) Close() error {
	s.c.end()
	return s.Stream.Close()
}

func (s *hopStream) Reset() error {
	s.c.end()
	return s.Stream.Reset()
}

func (s *hopStream) ResetWithError(code network.StreamErrorCode) error {
	s.c.end()
	return s.Stream.ResetWithError(code)
}

// circuit is what one hop stream carried. Its handshake (the request and the answer, one
// length-prefixed message each, read and written on the relay's handler goroutine) is read as it
// passes; once the relay has agreed to a circuit, live is set and the bytes each way counted.
type circuit struct {
	svc      *relayService
	stream   network.Stream
	from, to peer.ID
	opened   time.Time

	req, ans   []byte // the handshake's messages, until read
	connect    bool   // the request asks for a circuit (not a reservation)
	reqRead    bool
	live       atomic.Bool
	sent, back atomic.Int64
	once       sync.Once
}

// maxHopMessage bounds the handshake's messages read (go-libp2p's relay takes 4 KiB).
const maxHopMessage = 4096 + binary.MaxVarintLen64

func (c *circuit) read(b []byte) {
	if c.live.Load() {
		c.sent.Add(int64(len(b)))
		return
	}
	if c.reqRead {
		return
	}
	var m pbv2.HopMessage
	if c.req, c.reqRead = takeMessage(c.req, b, &m); c.reqRead {
		c.connect = m.GetType() == pbv2.HopMessage_CONNECT
		if id, err := peer.IDFromBytes(m.GetPeer().GetId()); err == nil {
			c.to = id
		}
	}
}

func (c *circuit) wrote(b []byte) {
	if c.live.Load() {
		c.back.Add(int64(len(b)))
		return
	}
	var m pbv2.HopMessage
	var done bool
	if c.ans, done = takeMessage(c.ans, b, &m); !done {
		return
	}
	ok := m.GetType() == pbv2.HopMessage_STATUS && m.GetStatus() == pbv2.Status_OK
	switch {
	case !c.connect && m.GetStatus() == pbv2.Status_RESERVATION_REFUSED:
		// Refused past the gate (too many in all, from its address or its autonomous system):
		// the relay holds no reservation for the peer, nor does the gate. (A refusal by the gate
		// itself, or of a reservation asked through a circuit, says PERMISSION_DENIED, and leaves
		// the peer's reservation as it was.)
		c.svc.gate.forget(c.from)
	case c.connect && ok:
		c.opened = time.Now()
		// The relay reads and writes the stream until this deadline at most, then resets the
		// circuit (it sets no deadline of its own on a circuit it does not limit).
		c.stream.SetDeadline(c.opened.Add(c.svc.limits.CircuitTime))
		c.svc.mu.Lock()
		c.svc.open[c] = struct{}{}
		c.svc.mu.Unlock()
		c.live.Store(true)
		c.svc.logf("p2p: relay: circuit from %s to %s opened", c.from, c.to)
	}
}

// takeMessage adds b to buf and reads one length-prefixed protobuf message from it into m; done
// once it is read, or given up (too long, or not a message).
func takeMessage(buf, b []byte, m proto.Message) (rest []byte, done bool) {
	buf = append(buf, b...)
	size, k := binary.Uvarint(buf)
	switch {
	case k < 0 || size > maxHopMessage || len(buf) > maxHopMessage:
		return nil, true
	case k == 0 || uint64(len(buf)-k) < size:
		return buf, false
	}
	if err := proto.Unmarshal(buf[k:k+int(size)], m); err != nil {
		proto.Reset(m)
	}
	return nil, true
}

func (c *circuit) stats() Circuit {
	return Circuit{From: c.from.String(), To: c.to.String(), Opened: c.opened, Sent: c.sent.Load(), Back: c.back.Load()}
}

// end is the end of the hop stream: of a circuit, if it was one.
func (c *circuit) end() {
	if !c.live.Load() {
		return
	}
	c.once.Do(func() {
		svc := c.svc
		svc.mu.Lock()
		delete(svc.open, c)
		svc.mu.Unlock()
		st := c.stats()
		age := time.Since(c.opened)
		why := "closed"
		switch {
		case st.Sent >= svc.limits.CircuitData || st.Back >= svc.limits.CircuitData:
			why = "at its data limit"
		case age >= svc.limits.CircuitTime:
			why = "at its time limit"
		}
		svc.logf("p2p: relay: circuit from %s to %s ended after %v, %s: %d bytes from %s, %d bytes back",
			st.From, st.To, age.Round(time.Millisecond), why, st.Sent, st.From, st.Back)
	})
}
