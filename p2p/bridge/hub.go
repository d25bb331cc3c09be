package bridge

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"corruption/protocol/tablenet"
)

// The Hub is the laptop's side: it relays its members' topics and requests onto the laptop's
// node. Its members are the laptop's own node (Local) and each phone connected (Serve).
//
// What it promises:
//   - A member's publish goes to the node (which checks it with the topic's validator and
//     gossips it) and, once the node took it, to every other member subscribed to the topic,
//     under the publisher's member id; what the node hears on a topic goes to every member
//     subscribed to it, under the sender's peer id. The node joins a topic while a member is
//     subscribed to it, and only a topic its Policy allows.
//   - A member's topic peers are the node's peers on the topic and the other members
//     subscribed to it.
//   - A request to a member's id is served in process by that member; any other goes out
//     through the node.
//   - The laptop's own services (Policy.Laptop: the seat it gives, its bots) are served by
//     the local member alone and asked of the laptop's peer id alone: a phone may not serve
//     them, and a peer never reaches them.
//   - A peer's request to the laptop (or a member's to the laptop's own peer id) on a
//     protocol members serve goes to the local member first, then only to the phones that
//     proved they sit where the request names (Identify, then Sit: Policy.Route and
//     Policy.Sit), never to a phone for who answers first. A request sealed for a private
//     table's members, which the laptop cannot read, goes to the phones subscribed to a
//     sealed topic (Policy.Sealed) that the asker is on. The first answer that is not an
//     error is the answer; when every one fails, the first error.
//   - A phone may serve only the protocols of Policy.Served; it gets no more than
//     maxRequests requests in flight at once; at most MaxPhones phones are members at once.
//   - A phone's identity (Identify) is its seat's key, which it proves at each connection by
//     a signature of IdentifyMessage: the member id is new at each connection, the key stays
//     (Key).
//   - A phone from which no frame came for the Keepalive's Dead (45 s) is taken for gone:
//     its connection is closed and it is no longer a member (keepalive.go).
type Hub struct {
	node   tablenet.Node
	policy Policy
	logf   func(string, ...any)
	keep   Keepalive
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	seq     int
	members []*member // in the order they came: Local first
	byID    map[string]*member
	topics  map[string]*hubTopic
	served  map[string]bool // protocols the node's handler is set for
	local   *Local
	label   string
}

// Policy is what a hub relays: the topics its members may join, each with the validator the
// node joins it with, the request protocols they may use, which of them a phone may serve and
// how a request names the phone that serves it. tablenet.HubPolicy is the laptop's.
type Policy interface {
	// Topic says whether members may join topic, and with what validator (nil accepts all).
	Topic(topic string) (validate func(from string, data []byte) tablenet.Verdict, ok bool)
	// Protocols are the request protocols members may use (to peers, to other members, to
	// the laptop) and the local member may serve.
	Protocols() []string
	// Laptop are the laptop's own services to its phones (the seat it gives, its bots): the
	// local member alone serves them, a phone asks them of the laptop's peer id alone, and a
	// peer's request never reaches them.
	Laptop() []string
	// Served are the protocols of Protocols a phone may serve. A peer's request to the
	// laptop on one reaches only the phones that Route and Sit say sit where it names.
	Served() []string
	// Route says where a request on a Served protocol goes: to the phones that sat at key (a
	// table, which a phone proves with Sit), or, for a request sealed for a private table's
	// members (sealed), to the phones on a Sealed topic with the asker. ok false: to no
	// phone.
	Route(proto string, req []byte) (key string, sealed, ok bool)
	// Sit checks a phone's proof that its seat (the key it identified with) sits where
	// requests on proto name, and returns that key: a proof that fails, or a seat it does not
	// name, is an error.
	Sit(proto string, seat ed25519.PublicKey, proof []byte) (key string, err error)
	// Sealed says whether a topic carries a private table's sealed traffic.
	Sealed(topic string) bool
}

// Limits of the hub.
const (
	MaxPhones     = 32                     // phones connected at once
	maxSits       = 16                     // what a phone sat at, kept (the oldest goes first)
	maxRequests   = 64                     // a phone's requests in flight
	serveTimeout  = 25 * time.Second       // a peer's request, tried on every member
	peersEvery    = 500 * time.Millisecond // how often a phone's topic peers are read again
	maxMemberSubs = 64                     // topics a phone may join
)

// hubTopic is a topic the node joined for its members.
type hubTopic struct {
	subs   []*member
	cancel context.CancelFunc
}

// HubConfig is what a hub takes beyond its node and its policy; its zero value is NewHub's.
type HubConfig struct {
	// Logf, if set, is told of every phone that comes and goes, and why it went.
	Logf func(format string, args ...any)
	// Keepalive's Dead is how long a phone may send no frame before the hub drops it (default
	// 45 s; it must be longer than the phones' ping Interval, 15 s by default).
	Keepalive Keepalive
	// Label says whose laptop this is, in every Welcome: the person's name, or the machine's
	// (at most MaxLabel bytes of UTF-8; longer is cut).
	Label string
}

// NewHub starts a hub on node, with the default keepalive. logf may be nil.
func NewHub(node tablenet.Node, policy Policy, logf func(string, ...any)) *Hub {
	h, _ := NewHubWith(node, policy, HubConfig{Logf: logf}) // the defaults are valid
	return h
}

// NewHubWith starts a hub on node, configured by cfg. It fails for a Keepalive whose Dead is
// not longer than its Interval.
func NewHubWith(node tablenet.Node, policy Policy, cfg HubConfig) (*Hub, error) {
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	keep, err := cfg.Keepalive.withDefaults()
	if err != nil {
		return nil, err
	}
	h := &Hub{node: node, policy: policy, logf: logf, keep: keep, byID: map[string]*member{}, topics: map[string]*hubTopic{},
		served: map[string]bool{}, label: clipLabel(cfg.Label)}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.local = &Local{h: h, m: h.addMember(nil)}
	h.wg.Add(1)
	go h.watchPeers()
	return h, nil
}

// Close disconnects every phone, telling each that the laptop stops (a Bye, written within
// a second), leaves the node's topics and stops serving its protocols.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	members := slices.Clone(h.members)
	h.mu.Unlock()
	var links []*link
	for _, m := range members {
		if m.link != nil {
			m.link.sendAndClose(&Frame{Kind: KindBye, Reason: ByeClosing, Err: "the laptop stopped: its tables end here"})
			links = append(links, m.link)
		}
	}
	bctx, bcancel := context.WithTimeout(context.Background(), time.Second)
	for _, l := range links {
		select {
		case <-l.done:
		case <-bctx.Done():
		}
	}
	bcancel()
	h.cancel()
	for _, m := range members {
		if m.link != nil {
			m.link.close()
		}
	}
	h.wg.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	for topic, t := range h.topics {
		t.cancel()
		h.node.Leave(topic)
	}
	h.topics = map[string]*hubTopic{}
	for proto := range h.served {
		h.node.Handle(proto, nil)
	}
	h.served = map[string]bool{}
	return nil
}

// Phones is how many phones are connected now.
func (h *Hub) Phones() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.members) - 1
}

// Key is the seat key a phone identified with (Identify) on its connection as member id.
func (h *Hub) Key(id string) (ed25519.PublicKey, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.byID[id]
	if m == nil || m.key == nil {
		return nil, false
	}
	return m.key, true
}

// Label is what the hub's Welcome says of the laptop.
func (h *Hub) Label() string { return h.label }

// DropPhones closes every phone's connection, telling each why first (a Bye frame of reason:
// ByeMoved when the laptop's address changed). A phone whose address is still good connects
// again.
func (h *Hub) DropPhones(reason uint8, why string) int {
	h.mu.Lock()
	var links []*link
	for _, m := range h.members {
		if m.link != nil {
			links = append(links, m.link)
		}
	}
	h.mu.Unlock()
	for _, l := range links {
		l.sendAndClose(&Frame{Kind: KindBye, Reason: reason, Err: clip(why)})
	}
	return len(links)
}

// addMember adds a member (l nil: the local one) and gives it its id; a phone beyond MaxPhones
// is refused (nil).
func (h *Hub) addMember(l *link) *member {
	h.mu.Lock()
	defer h.mu.Unlock()
	if l != nil && len(h.members)-1 >= MaxPhones {
		return nil
	}
	h.seq++
	m := &member{h: h, id: "local/" + strconv.Itoa(h.seq), link: l, topics: map[string]*memberTopic{},
		handlers: map[string]func(string, []byte) ([]byte, error){}, pending: map[uint32]chan *Frame{},
		lastPeers: map[string][]string{}}
	h.members = append(h.members, m)
	h.byID[m.id] = m
	return m
}

// removeMember takes a phone out: its topics, its protocols, its requests waiting.
func (h *Hub) removeMember(m *member) {
	h.mu.Lock()
	h.members = slices.DeleteFunc(h.members, func(o *member) bool { return o == m })
	delete(h.byID, m.id)
	for topic := range m.topics {
		h.unsubscribeLocked(m, topic)
	}
	for proto := range m.handlers {
		delete(m.handlers, proto)
		h.unserveLocked(proto)
	}
	for id, ch := range m.pending {
		close(ch)
		delete(m.pending, id)
	}
	h.mu.Unlock()
}

// allowed says whether members may use proto.
func (h *Hub) allowed(proto string) bool {
	return slices.Contains(h.policy.Protocols(), proto) || h.laptops(proto)
}

// laptops says whether proto is one of the laptop's own services.
func (h *Hub) laptops(proto string) bool { return slices.Contains(h.policy.Laptop(), proto) }

// mayServe says whether member m may serve proto: the local member any protocol members use,
// a phone only those of Policy.Served.
func (h *Hub) mayServe(m *member, proto string) error {
	switch {
	case m.link == nil && h.allowed(proto):
		return nil
	case m.link == nil:
		return fmt.Errorf("protocol %s is not one the laptop relays", proto)
	case h.laptops(proto):
		return fmt.Errorf("protocol %s is the laptop's own: no phone may serve it", proto)
	case !slices.Contains(h.policy.Served(), proto):
		return fmt.Errorf("protocol %s is not one a phone may serve on this laptop", proto)
	}
	return nil
}

// subscribe adds m to topic's subscribers, joining it on the node for the first.
func (h *Hub) subscribe(m *member, topic string, mt *memberTopic) error {
	validate, ok := h.policy.Topic(topic)
	if !ok {
		return fmt.Errorf("topic %q is not one the laptop relays", topic)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if _, dup := m.topics[topic]; dup {
		return fmt.Errorf("topic %q already joined", topic)
	}
	if m.link != nil && len(m.topics) >= maxMemberSubs {
		return fmt.Errorf("%d topics joined already, the most a phone may", maxMemberSubs)
	}
	t := h.topics[topic]
	if t == nil {
		if err := h.node.Join(topic, validate); err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(h.ctx)
		t = &hubTopic{cancel: cancel}
		h.topics[topic] = t
		h.wg.Add(1)
		go h.pump(ctx, topic, t)
	}
	t.subs = append(t.subs, m)
	m.topics[topic] = mt
	return nil
}

func (h *Hub) unsubscribe(m *member, topic string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := m.topics[topic]; !ok {
		return fmt.Errorf("topic %q not joined", topic)
	}
	h.unsubscribeLocked(m, topic)
	return nil
}

func (h *Hub) unsubscribeLocked(m *member, topic string) {
	mt := m.topics[topic]
	delete(m.topics, topic)
	delete(m.lastPeers, topic)
	if mt != nil && mt.left != nil {
		close(mt.left)
	}
	t := h.topics[topic]
	if t == nil {
		return
	}
	t.subs = slices.DeleteFunc(t.subs, func(o *member) bool { return o == m })
	if len(t.subs) == 0 {
		t.cancel()
		delete(h.topics, topic)
		if err := h.node.Leave(topic); err != nil {
			h.logf("bridge: leaving %q: %v", topic, err)
		}
	}
}

// pump hands what the node hears on a topic to its subscribers.
func (h *Hub) pump(ctx context.Context, topic string, t *hubTopic) {
	defer h.wg.Done()
	for {
		from, data, err := h.node.Next(ctx, topic)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			h.logf("bridge: reading %q: %v", topic, err)
			return
		}
		h.mu.Lock()
		subs := slices.Clone(t.subs)
		h.mu.Unlock()
		for _, m := range subs {
			m.deliver(topic, from, data)
		}
	}
}

// publish sends m's message to the node and the other subscribers.
func (h *Hub) publish(ctx context.Context, m *member, topic string, data []byte) error {
	h.mu.Lock()
	_, ok := m.topics[topic]
	var subs []*member
	if t := h.topics[topic]; t != nil {
		subs = slices.Clone(t.subs)
	}
	h.mu.Unlock()
	if !ok {
		return fmt.Errorf("topic %q not joined", topic)
	}
	if err := h.node.Publish(ctx, topic, data); err != nil {
		return err
	}
	for _, o := range subs {
		if o != m {
			o.deliver(topic, m.id, data)
		}
	}
	return nil
}

// peers is topic's peers as m sees them.
func (h *Hub) peers(m *member, topic string) []string {
	h.mu.Lock()
	_, ok := m.topics[topic]
	var locals []string
	if t := h.topics[topic]; t != nil {
		for _, o := range t.subs {
			if o != m {
				locals = append(locals, o.id)
			}
		}
	}
	h.mu.Unlock()
	if !ok {
		return nil
	}
	return append(h.node.TopicPeers(topic), locals...)
}

// request sends m's request to a member or, through the node, to a peer.
func (h *Hub) request(ctx context.Context, m *member, peer, proto string, req []byte) ([]byte, error) {
	if !h.allowed(proto) {
		return nil, fmt.Errorf("protocol %s is not one the laptop relays", proto)
	}
	h.mu.Lock()
	target := h.byID[peer]
	h.mu.Unlock()
	switch {
	case target == m:
		return nil, errors.New("a member cannot request from itself")
	case h.laptops(proto) && peer != h.node.ID():
		return nil, fmt.Errorf("protocol %s is asked of the laptop (%s) only", proto, h.node.ID())
	case target != nil:
		return target.serve(ctx, proto, m.id, req)
	case peer == h.node.ID():
		return h.dispatchFrom(ctx, m, proto, m.id, req) // the laptop itself: its members, as a peer would
	}
	return h.node.Request(ctx, peer, proto, req)
}

// serve sets or removes m's handler of proto, and the node's handler with it.
func (h *Hub) serve(m *member, proto string, f func(string, []byte) ([]byte, error)) error {
	if f != nil {
		if err := h.mayServe(m, proto); err != nil {
			return err
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if f == nil {
		if _, ok := m.handlers[proto]; ok {
			delete(m.handlers, proto)
			h.unserveLocked(proto)
		}
		return nil
	}
	m.handlers[proto] = f
	if !h.served[proto] && !h.closed && !h.laptops(proto) {
		h.served[proto] = true
		h.node.Handle(proto, func(from string, req []byte) ([]byte, error) { return h.dispatch(proto, from, req) })
	}
	return nil
}

// IdentifyMessage is what a phone signs with its seat's key to identify on one connection: the
// laptop's peer id and the member id the Welcome gave, so that the signature serves on no
// other connection and at no other laptop.
func IdentifyMessage(node, member string) []byte {
	return []byte(identifyDomain + node + "\x00" + member)
}

const identifyDomain = "corruption/bridge/identify/v1\x00"

// identify takes a phone's seat key, once its signature of IdentifyMessage checks.
func (h *Hub) identify(m *member, key, sig []byte) error {
	if len(key) != ed25519.PublicKeySize || !ed25519.Verify(key, IdentifyMessage(h.node.ID(), m.id), sig) {
		return errors.New("identify: the signature does not check with that key for this connection")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if m.key != nil && !m.key.Equal(ed25519.PublicKey(key)) {
		return errors.New("identify: this connection identified with another key already")
	}
	m.key = ed25519.PublicKey(slices.Clone(key))
	return nil
}

// sit takes a phone's proof that its seat sits where requests on proto name.
func (h *Hub) sit(m *member, proto string, proof []byte) error {
	h.mu.Lock()
	key := m.key
	h.mu.Unlock()
	switch {
	case key == nil:
		return fmt.Errorf("sit on %s: identify first", proto)
	case !slices.Contains(h.policy.Served(), proto):
		return fmt.Errorf("sit on %s: not a protocol a phone may serve on this laptop", proto)
	}
	at, err := h.policy.Sit(proto, key, proof)
	if err != nil {
		return fmt.Errorf("sit on %s: %w", proto, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := proto + "\x00" + at
	if !slices.Contains(m.sits, s) {
		if len(m.sits) >= maxSits {
			m.sits = m.sits[1:]
		}
		m.sits = append(m.sits, s)
	}
	return nil
}

func (h *Hub) unserveLocked(proto string) {
	for _, o := range h.members {
		if _, ok := o.handlers[proto]; ok {
			return
		}
	}
	if h.served[proto] {
		delete(h.served, proto)
		h.node.Handle(proto, nil)
	}
}

// dispatch serves a peer's request to the node with the members that serve proto, in turn.
func (h *Hub) dispatch(proto, from string, req []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(h.ctx, serveTimeout)
	defer cancel()
	return h.dispatchFrom(ctx, nil, proto, from, req)
}

// dispatchFrom serves a request to the node with the members that may answer it, but asker,
// in turn: the first answer that is not an error.
func (h *Hub) dispatchFrom(ctx context.Context, asker *member, proto, from string, req []byte) ([]byte, error) {
	servers := h.servers(asker, proto, from, req)
	var first error
	for _, m := range servers {
		ans, err := m.serve(ctx, proto, from, req)
		if err == nil {
			return ans, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	if first == nil {
		first = fmt.Errorf("no seat on this machine serves %s for that now", proto)
	}
	return nil, first
}

// servers are the members that may answer a request to the laptop on proto, in the order they
// are asked: the local member, then the phones that sit where the request names.
func (h *Hub) servers(asker *member, proto, from string, req []byte) []*member {
	serves := func(m *member) bool {
		_, ok := m.handlers[proto]
		return ok && m != asker
	}
	var key string
	var sealedRoute, routed bool
	if !h.laptops(proto) && slices.Contains(h.policy.Served(), proto) {
		key, sealedRoute, routed = h.policy.Route(proto, req)
	}
	h.mu.Lock()
	var out []*member
	if serves(h.local.m) {
		out = append(out, h.local.m)
	}
	var sealed map[*member][]string // a phone on sealed topics: which
	for _, m := range h.members {
		if m.link == nil || !routed || !serves(m) {
			continue
		}
		if !sealedRoute {
			if slices.Contains(m.sits, proto+"\x00"+key) {
				out = append(out, m)
			}
			continue
		}
		for t := range m.topics {
			if h.policy.Sealed(t) {
				if sealed == nil {
					sealed = map[*member][]string{}
				}
				sealed[m] = append(sealed[m], t)
			}
		}
	}
	order := slices.Clone(h.members)
	var askerTopics map[string]*memberTopic
	if asker != nil {
		askerTopics = maps.Clone(asker.topics)
	}
	h.mu.Unlock()
	if len(sealed) > 0 {
		for _, m := range order {
			for _, t := range sealed[m] {
				_, with := askerTopics[t]
				if with || slices.Contains(h.node.TopicPeers(t), from) {
					out = append(out, m)
					break
				}
			}
		}
	}
	return out
}

// watchPeers tells each phone its topics' peers when they change.
func (h *Hub) watchPeers() {
	defer h.wg.Done()
	t := time.NewTicker(peersEvery)
	defer t.Stop()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-t.C:
		}
		h.mu.Lock()
		members := slices.Clone(h.members)
		h.mu.Unlock()
		for _, m := range members {
			if m.link != nil {
				m.tellPeers()
			}
		}
	}
}

// clipLabel cuts a label to MaxLabel bytes, at a rune's boundary, and drops invalid UTF-8.
func clipLabel(s string) string {
	s = strings.ToValidUTF8(s, "")
	for len(s) > MaxLabel {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
