package p2p

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	pb "github.com/libp2p/go-libp2p-pubsub/pb"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"corruption/protocol/tablenet"
)

// MaxMessageSize is the largest payload Publish accepts and a peer relays:
// 1 MiB. Gossipsub's own frame limit is set a little above it to leave room
// for the envelope (author, sequence number, topic, key, signature).
const MaxMessageSize = 1 << 20

const (
	envelopeRoom  = 64 << 10
	subBuffer     = 1024 // messages a slow reader of Next may fall behind before gossipsub drops
	outboundQueue = 256  // messages queued per peer before gossipsub drops
)

// Verdict is what a topic validator says of a message: tablenet's, the one verdict of every
// node a table talks through (a *Node is a tablenet.Node). Accept delivers and relays the
// message. Reject drops it as invalid (bad signature, wrong author, malformed). Ignore drops it
// without blaming the sender: use it for messages that are only early or already known. Any
// other value counts as Ignore.
type Verdict = tablenet.Verdict

// Validator verdicts (tablenet's).
const (
	Accept = tablenet.Accept
	Reject = tablenet.Reject
	Ignore = tablenet.Ignore
)

var _ tablenet.Node = (*Node)(nil)

// newGossip starts gossipsub tuned for a table of 3 to 9 peers on a LAN:
//   - D=8 (Dlo 6, Dhi 12): every subscribed peer of such a table joins the
//     mesh, so every node relays every message to every other;
//   - a 200 ms heartbeat, so the mesh forms within a fraction of a second;
//   - a message cache covering 5 s, gossiped for 2 s, for IWANT repairs;
//   - flood publishing: a node's own message goes straight to every
//     subscribed peer, mesh or not;
//   - strict signing: every message carries its author and the author's
//     signature, checked before any validator runs;
//   - a message's id is its author, its sequence number and a hash of its
//     bytes (messageID), not the author and sequence number alone: an author
//     who signs two different messages under one sequence number has both
//     delivered, so that what it said twice is seen (a chat counter said
//     twice, say), not the first version on some nodes and the second on
//     others;
//   - a frame limit of MaxMessageSize plus room for the envelope.
func newGossip(ctx context.Context, h host.Host, tr *meshTracer) (*pubsub.PubSub, error) {
	p := pubsub.DefaultGossipSubParams()
	p.D, p.Dlo, p.Dhi = 8, 6, 12
	p.HeartbeatInitialDelay = 20 * time.Millisecond
	p.HeartbeatInterval = 200 * time.Millisecond
	p.HistoryLength = 25 // heartbeats of message cache
	p.HistoryGossip = 10 // heartbeats gossiped in IHAVE
	p.FanoutTTL = 10 * time.Second
	p.UnsubscribeBackoff = 2 * time.Second
	return pubsub.NewGossipSub(ctx, h,
		pubsub.WithGossipSubParams(p),
		pubsub.WithMessageSignaturePolicy(pubsub.StrictSign),
		pubsub.WithMessageIdFn(messageID),
		pubsub.WithFloodPublish(true),
		pubsub.WithPeerExchange(false),
		pubsub.WithMaxMessageSize(MaxMessageSize+envelopeRoom),
		pubsub.WithPeerOutboundQueueSize(outboundQueue),
		pubsub.WithValidateQueueSize(outboundQueue),
		pubsub.WithRawTracer(tr),
	)
}

// messageID is a message's id for gossipsub's duplicate cache: its author and
// sequence number (gossipsub's default), then SHA-256 of its data. A message
// re-sent with new bytes or a new sequence number is a new message; the same
// message relayed by several peers is one.
func messageID(m *pb.Message) string {
	h := sha256.Sum256(m.GetData())
	return string(m.GetFrom()) + string(m.GetSeqno()) + string(h[:])
}

// joinedTopic is a joined gossipsub topic with its subscription.
type joinedTopic struct {
	name string
	t    *pubsub.Topic
	sub  *pubsub.Subscription
}

// Join subscribes to a gossipsub topic. validate is called for every message
// on the topic before it is delivered or relayed, including the node's own
// before Publish sends them; from is the message's author (its signature is
// already checked). validate must be cheap, must not block and must not
// panic; it may be called from several goroutines at once. A nil validate
// accepts everything. Joining a topic twice is an error.
func (n *Node) Join(topic string, validate func(from string, data []byte) Verdict) error {
	if topic == "" {
		return errors.New("p2p: empty topic name")
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return ErrClosed
	}
	if _, ok := n.topics[topic]; ok {
		return fmt.Errorf("p2p: topic %q already joined", topic)
	}
	if validate != nil {
		err := n.ps.RegisterTopicValidator(topic, func(_ context.Context, _ peer.ID, m *pubsub.Message) pubsub.ValidationResult {
			switch validate(m.GetFrom().String(), m.Data) {
			case Accept:
				return pubsub.ValidationAccept
			case Reject:
				return pubsub.ValidationReject
			default:
				return pubsub.ValidationIgnore
			}
		})
		if err != nil {
			return fmt.Errorf("p2p: join %q: %w", topic, err)
		}
	}
	t, err := n.ps.Join(topic)
	if err != nil {
		n.ps.UnregisterTopicValidator(topic)
		return fmt.Errorf("p2p: join %q: %w", topic, err)
	}
	sub, err := t.Subscribe(pubsub.WithBufferSize(subBuffer))
	if err != nil {
		t.Close()
		n.ps.UnregisterTopicValidator(topic)
		return fmt.Errorf("p2p: subscribe %q: %w", topic, err)
	}
	n.topics[topic] = &joinedTopic{name: topic, t: t, sub: sub}
	return nil
}

func (n *Node) joined(name string) (*joinedTopic, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, ErrClosed
	}
	t, ok := n.topics[name]
	if !ok {
		return nil, fmt.Errorf("p2p: topic %q not joined", name)
	}
	return t, nil
}

// Publish signs data and sends it to the peers subscribed to the topic. It
// fails if data is larger than MaxMessageSize or if the node's own validator
// does not accept it. Gossip keeps no history: peers not yet connected or
// subscribed never receive the message.
func (n *Node) Publish(ctx context.Context, topic string, data []byte) error {
	if len(data) > MaxMessageSize {
		return fmt.Errorf("p2p: publish on %q: message of %d bytes exceeds the %d byte limit", topic, len(data), MaxMessageSize)
	}
	t, err := n.joined(topic)
	if err != nil {
		return err
	}
	if err := t.t.Publish(ctx, data); err != nil {
		return fmt.Errorf("p2p: publish on %q: %w", topic, err)
	}
	return nil
}

// Next waits for the next message on a joined topic and returns its author
// and payload. It skips the node's own messages. It returns ctx's error when
// ctx ends, and ErrClosed once the topic is left or the node closed. If the
// caller falls more than 1024 messages behind, gossipsub drops the excess.
func (n *Node) Next(ctx context.Context, topic string) (from string, data []byte, err error) {
	t, err := n.joined(topic)
	if err != nil {
		return "", nil, err
	}
	// gossipsub does not end subscriptions when it stops: watch the node too.
	wait, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(n.ctx, cancel)
	defer stop()
	self := n.host.ID()
	for {
		m, err := t.sub.Next(wait)
		if err != nil {
			if ctx.Err() != nil {
				return "", nil, ctx.Err()
			}
			return "", nil, ErrClosed
		}
		if m.GetFrom() == self {
			continue
		}
		return m.GetFrom().String(), m.Data, nil
	}
}

// TopicPeers returns the peers in the node's gossip mesh for a topic: those
// it sends every message to and relays for. Once every node of a table lists
// all the others here, a message published by any of them reaches all of
// them. A peer enters the mesh within a heartbeat or two of both sides
// joining the topic. The list is empty for a topic the node has not joined.
func (n *Node) TopicPeers(topic string) []string {
	if _, err := n.joined(topic); err != nil {
		return nil
	}
	return idStrings(n.mesh.peers(topic))
}

// Leave unsubscribes from a topic and removes its validator; Next calls
// waiting on it return ErrClosed.
func (n *Node) Leave(topic string) error {
	n.mu.Lock()
	t, ok := n.topics[topic]
	delete(n.topics, topic)
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if !ok {
		return fmt.Errorf("p2p: topic %q not joined", topic)
	}
	t.sub.Cancel()
	err := t.t.Close()
	n.ps.UnregisterTopicValidator(topic)
	if err != nil {
		return fmt.Errorf("p2p: leave %q: %w", topic, err)
	}
	return nil
}
