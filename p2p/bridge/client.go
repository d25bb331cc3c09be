package bridge

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"corruption/protocol/tablenet"
)

// The Client is the phone's side of the bridge: what a native session gets from its p2p node,
// over one frame connection to a laptop's hub. Its methods are those of *p2p.Node that a
// table needs (Join, Leave, Publish, Next, TopicPeers, Request, Handle), with the same
// meaning: it is a tablenet.Node.
//
// What it promises:
//   - It connects in the background and, after a drop, again, with a backoff from
//     MinBackoff to MaxBackoff, until Close. Topics joined and protocols served are taken up
//     again on the new connection; what was said while it was down is lost, as gossip loses
//     it (the table kit's catch-up fetches it).
//   - Publish queues the message for the hub and returns: it fails only when the client is
//     not connected, the topic not joined, the message too large, or the queue full. The
//     laptop's node checks it as its own (the topic's validator) and reports a refusal with
//     an Error frame, which the client logs.
//   - Next returns messages of a topic in the order the hub sent them, each passed by the
//     topic's validator; a reader more than 1024 messages behind loses the excess.
//   - A connection that goes silent without closing is taken for dropped once nothing was
//     heard on it for Keepalive.Dead (45 s): the client pings the hub while the table is
//     quiet, and connects again when the hub stops answering (keepalive.go).
//   - A Request in flight when the connection drops fails at once (ErrDisconnected).
//   - A request from a peer is answered by the topic's handler on a goroutine of its own.
type Client struct {
	cfg    ClientConfig
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed when run returns

	mu        sync.Mutex
	conn      *link // the connection now; nil while there is none
	id, node  string
	label     string             // the laptop's, from its Welcome
	identity  ed25519.PrivateKey // the seat's key, to Identify with at each connection
	sits      []sitProof         // what the seat sat at, to Sit again at each connection
	topics    map[string]*clientTopic
	handlers  map[string]func(from string, req []byte) ([]byte, error)
	pending   map[uint32]chan *Frame // a Subscribe's Result, a Request's Answer: nil when the link drops
	nextID    uint32
	connected chan struct{} // closed while connected
	bye       *Frame        // the laptop's last Bye, until the next connection
}

var _ tablenet.Node = (*Client)(nil)

// ClientConfig configures a Client. Dial is required.
type ClientConfig struct {
	Dial Dialer
	// MinBackoff and MaxBackoff bound the wait between two attempts to connect (default 250 ms
	// and 5 s).
	MinBackoff, MaxBackoff time.Duration
	// Logf, if set, is told of every connection, drop and refusal.
	Logf func(format string, args ...any)
	// OnConnection, if set, is told true at every connection and false at every drop (for the
	// page: "reconnecting to the laptop"). It runs on the client's goroutine: it must return
	// quickly.
	OnConnection func(connected bool)
	// Keepalive times the pings to the hub and how long a silent hub is waited for (default
	// a ping after 15 s of quiet, a drop after 45 s of silence; keepalive.go).
	Keepalive Keepalive
	// OnTrouble, if set, is told why the client cannot reach the laptop, as soon as it knows
	// (a wrong or old address, a laptop that said Bye, one that has not answered for
	// Unreachable), and the zero Trouble once it is connected again. It runs on the client's
	// goroutine: it must return quickly.
	OnTrouble func(Trouble)
	// Unreachable is how long dials may fail before the client says so (default 3 s).
	Unreachable time.Duration
}

// Trouble is why a client is not connected to its laptop, for the page to say in words.
type Trouble struct {
	Kind TroubleKind
	Text string // the laptop's words, or the last dial's error
}

// TroubleKind is what kept a client from its laptop.
type TroubleKind uint8

// What a Trouble says.
const (
	NoTrouble   TroubleKind = iota
	Refused                 // the laptop refuses this address: its token is wrong, or old
	Moved                   // the laptop drew a new address (Bye): scan its new code
	Closing                 // the laptop stopped (Bye): its tables end
	Full                    // the laptop serves as many phones as it may (Bye)
	Unreachable             // nothing answers at the address: the laptop stopped, or its address changed
	Unsupported             // the laptop runs another release (another bridge version)
)

// Errors of the Client.
var (
	ErrClosed       = errors.New("bridge: closed")
	ErrDisconnected = errors.New("bridge: not connected to the laptop (reconnecting)")
)

// RemoteError is a request's failure reported by the other side: the serving peer's error, or
// the laptop's refusal to relay it. Its text is the same as p2p's RemoteError.
type RemoteError struct {
	Peer     string
	Protocol string
	Message  string
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("peer %s answered %s with an error: %s", e.Peer, e.Protocol, e.Message)
}

// Timeouts of the client.
const (
	DefaultRequestTimeout = 30 * time.Second // a Request whose ctx has no deadline
	handshakeTimeout      = 10 * time.Second // the Hello and its Welcome
	subscribeTimeout      = 10 * time.Second // a Join's Result
	queueSize             = 1024             // messages of a topic waiting for Next; frames waiting to be written
)

// sitProof is a Sit the client says again at each connection.
type sitProof struct {
	proto string
	proof []byte
}

type clientTopic struct {
	validate func(from string, data []byte) int
	queue    chan heard
	left     chan struct{}
	peers    []string
}

type heard struct {
	from string
	data []byte
}

// NewClient starts a client: it connects in the background (Connected, WaitConnected).
func NewClient(cfg ClientConfig) (*Client, error) {
	if cfg.Dial == nil {
		return nil, errors.New("bridge: a client needs a Dial")
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = 250 * time.Millisecond
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		cfg.MaxBackoff = max(5*time.Second, cfg.MinBackoff)
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Unreachable <= 0 {
		cfg.Unreachable = 3 * time.Second
	}
	k, err := cfg.Keepalive.withDefaults()
	if err != nil {
		return nil, err
	}
	cfg.Keepalive = k
	c := &Client{cfg: cfg, done: make(chan struct{}), topics: map[string]*clientTopic{},
		handlers: map[string]func(string, []byte) ([]byte, error){}, pending: map[uint32]chan *Frame{},
		connected: make(chan struct{})}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	go c.run()
	return c, nil
}

// Connected says whether the client is connected to the hub now.
func (c *Client) Connected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn != nil
}

// WaitConnected waits until the client is connected, ctx ends or the client is closed.
func (c *Client) WaitConnected(ctx context.Context) error {
	c.mu.Lock()
	ch := c.connected
	c.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return ErrClosed
	}
}

// ID is the client's id as the other members of the hub see it in from ("local/N"), given at
// each connection; "" while not connected.
func (c *Client) ID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id
}

// Node is the peer id of the laptop's node, which relays for the client ("" before the first
// connection). Remote peers see the client's messages under it.
func (c *Client) Node() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.node
}

// Label is what the laptop's Welcome said of it: its person's name, or its machine's ("" before
// the first connection). A guest on the same laptop cannot change it: it comes from the hub.
func (c *Client) Label() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.label
}

// Identify gives the client its seat's key: at each connection, from now on, it proves it to
// the hub (an Identify frame, signed for that connection), which then knows the phone by it
// across reconnections, and takes its Sits. A later call replaces the key.
func (c *Client) Identify(key ed25519.PrivateKey) {
	c.mu.Lock()
	c.identity = key
	l, node, id := c.conn, c.node, c.id
	c.mu.Unlock()
	if l != nil {
		c.sendIdentify(l, key, node, id)
	}
}

// sendIdentify sends an Identify for the connection l (the hub's Result is logged if it
// refuses).
func (c *Client) sendIdentify(l *link, key ed25519.PrivateKey, node, member string) {
	c.mu.Lock()
	id, _ := c.waitLocked()
	c.forgetLocked(id)
	c.mu.Unlock()
	l.send(&Frame{Kind: KindIdentify, ID: id, Key: key.Public().(ed25519.PublicKey), Sig: ed25519.Sign(key, IdentifyMessage(node, member))})
}

// Sit tells the hub that the seat sits where proof says, so that the laptop's peers' requests
// on proto for it reach this phone (the hub's Policy checks the proof against the key the
// client identified with: Identify first). It is said again at each connection; the client
// keeps the last maxSits.
func (c *Client) Sit(proto string, proof []byte) {
	c.mu.Lock()
	for _, s := range c.sits {
		if s.proto == proto && bytes.Equal(s.proof, proof) {
			c.mu.Unlock()
			return
		}
	}
	if len(c.sits) >= maxSits {
		c.sits = c.sits[1:]
	}
	s := sitProof{proto, bytes.Clone(proof)}
	c.sits = append(c.sits, s)
	l := c.conn
	var id uint32
	if l != nil {
		id, _ = c.waitLocked()
		c.forgetLocked(id)
	}
	c.mu.Unlock()
	if l != nil {
		l.send(&Frame{Kind: KindSit, ID: id, Proto: s.proto, Data: s.proof})
	}
}

// Close stops the client and its connection; Next and Request calls return ErrClosed.
func (c *Client) Close() error {
	c.cancel()
	<-c.done
	return nil
}

// Join subscribes to a topic. validate is run on each message the hub delivers (nil accepts
// all). While connected, Join waits for the hub's word and fails when the hub refuses the
// topic (its policy); while not, the topic is taken up at the next connection. Joining a
// topic twice is an error.
func (c *Client) Join(topic string, validate func(from string, data []byte) int) error {
	if err := checkTopic(topic); err != nil {
		return fmt.Errorf("bridge: join: %w", err)
	}
	c.mu.Lock()
	if c.ctx.Err() != nil {
		c.mu.Unlock()
		return ErrClosed
	}
	if _, ok := c.topics[topic]; ok {
		c.mu.Unlock()
		return fmt.Errorf("bridge: topic %q already joined", topic)
	}
	t := &clientTopic{validate: validate, queue: make(chan heard, queueSize), left: make(chan struct{})}
	c.topics[topic] = t
	l := c.conn
	var ch chan *Frame
	var id uint32
	if l != nil {
		id, ch = c.waitLocked()
	}
	c.mu.Unlock()
	if l == nil {
		return nil
	}
	l.send(&Frame{Kind: KindSubscribe, ID: id, Topic: topic})
	timer := time.NewTimer(subscribeTimeout)
	defer timer.Stop()
	select {
	case f := <-ch:
		if f != nil && f.Err != "" {
			c.mu.Lock()
			if c.topics[topic] == t {
				delete(c.topics, topic)
			}
			c.mu.Unlock()
			return fmt.Errorf("bridge: the laptop refused topic %q: %s", topic, f.Err)
		}
	case <-timer.C:
		c.forget(id)
	case <-c.ctx.Done():
		return ErrClosed
	}
	return nil
}

// Leave unsubscribes from a topic; Next calls waiting on it return ErrClosed.
func (c *Client) Leave(topic string) error {
	c.mu.Lock()
	t, ok := c.topics[topic]
	delete(c.topics, topic)
	l := c.conn
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("bridge: topic %q not joined", topic)
	}
	close(t.left)
	if l != nil {
		l.send(&Frame{Kind: KindUnsubscribe, Topic: topic})
	}
	return nil
}

// Publish sends data on a joined topic, through the hub, to the other local members and the
// laptop's peers. It does not wait for the hub (see the promises above).
func (c *Client) Publish(ctx context.Context, topic string, data []byte) error {
	if len(data) > MaxData {
		return fmt.Errorf("bridge: publish on %q: message of %d bytes exceeds the %d byte limit", topic, len(data), MaxData)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	_, ok := c.topics[topic]
	l := c.conn
	closed := c.ctx.Err() != nil
	c.mu.Unlock()
	switch {
	case closed:
		return ErrClosed
	case !ok:
		return fmt.Errorf("bridge: topic %q not joined", topic)
	case l == nil:
		return fmt.Errorf("bridge: publish on %q: %w", topic, ErrDisconnected)
	}
	if !l.send(&Frame{Kind: KindPublish, Topic: topic, Data: data}) {
		return fmt.Errorf("bridge: publish on %q: %w", topic, ErrDisconnected)
	}
	return nil
}

// Next waits for the next message on a joined topic and returns its sender (a peer id, or a
// local member's id) and its payload. It returns ctx's error when ctx ends, and ErrClosed once
// the topic is left or the client closed.
func (c *Client) Next(ctx context.Context, topic string) (from string, data []byte, err error) {
	c.mu.Lock()
	t, ok := c.topics[topic]
	c.mu.Unlock()
	if !ok {
		return "", nil, fmt.Errorf("bridge: topic %q not joined", topic)
	}
	select {
	case m := <-t.queue:
		return m.from, m.data, nil
	case <-t.left:
		return "", nil, ErrClosed
	case <-c.ctx.Done():
		return "", nil, ErrClosed
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
}

// TopicPeers lists the topic's peers as the hub last told them: the laptop's peers on the
// topic and the other local members subscribed to it. Empty while not connected.
func (c *Client) TopicPeers(topic string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.topics[topic]; ok && c.conn != nil {
		return slices.Clone(t.peers)
	}
	return nil
}

// Request sends req to peer (a peer id, or a local member's id) over protocol proto, through
// the hub, and returns the answer. It fails with a *RemoteError when the peer (or the hub)
// answered with an error, with ErrDisconnected when the client is not connected or the
// connection drops, and with ctx's error when ctx ends. Without a deadline in ctx it waits at
// most DefaultRequestTimeout.
func (c *Client) Request(ctx context.Context, peer, proto string, req []byte) ([]byte, error) {
	fail := func(err error) ([]byte, error) {
		return nil, fmt.Errorf("request %s to %s: %w", proto, peer, err)
	}
	if err := checkName(peer, "peer"); err != nil {
		return fail(err)
	}
	if err := checkName(proto, "protocol"); err != nil {
		return fail(err)
	}
	if len(req) > MaxData {
		return fail(fmt.Errorf("request of %d bytes exceeds the %d byte limit", len(req), MaxData))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultRequestTimeout)
		defer cancel()
	}
	c.mu.Lock()
	if c.ctx.Err() != nil {
		c.mu.Unlock()
		return fail(ErrClosed)
	}
	l := c.conn
	if l == nil {
		c.mu.Unlock()
		return fail(ErrDisconnected)
	}
	id, ch := c.waitLocked()
	c.mu.Unlock()
	defer c.forget(id)
	if !l.send(&Frame{Kind: KindRequest, ID: id, Peer: peer, Proto: proto, Data: req}) {
		return fail(ErrDisconnected)
	}
	select {
	case f := <-ch:
		switch {
		case f == nil:
			return fail(ErrDisconnected)
		case f.Err != "":
			return nil, &RemoteError{Peer: peer, Protocol: proto, Message: f.Err}
		}
		return f.Data, nil
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-c.ctx.Done():
		return fail(ErrClosed)
	}
}

// Handle serves requests on protocol proto, from the laptop's peers and the other local
// members: h gets the asker's id and the request, and its answer (or its error's text) goes
// back. It replaces an earlier handler of proto; nil stops serving it. The hub refuses a
// protocol its policy does not allow (logged).
func (c *Client) Handle(proto string, h func(from string, req []byte) ([]byte, error)) {
	c.mu.Lock()
	if h == nil {
		delete(c.handlers, proto)
	} else {
		c.handlers[proto] = h
	}
	l := c.conn
	c.mu.Unlock()
	if l == nil {
		return
	}
	if h == nil {
		l.send(&Frame{Kind: KindUnserve, Proto: proto})
	} else {
		l.send(&Frame{Kind: KindServe, Proto: proto})
	}
}
