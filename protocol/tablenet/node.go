package tablenet

import "context"

// Verdict is a topic's validator's verdict on a message: Accept delivers it (and a gossiping
// node passes it on), Reject drops it and counts against its sender, Ignore drops it quietly.
// It is an int, so that a transport that knows nothing of tables (p2p, p2p/bridge) takes the
// same validators.
type Verdict = int

// The verdicts.
const (
	Accept Verdict = 0
	Reject Verdict = 1
	Ignore Verdict = 2
)

// Validator checks a message heard on a topic: from is the sender's network identity (a hint
// only: the table trusts signatures, never this).
type Validator func(from string, data []byte) Verdict

// Handler answers a request of a protocol.
type Handler func(from string, req []byte) ([]byte, error)

// Node is the node a table talks through: topics to join, say on and hear, their peers, and
// requests to one peer on a protocol. It is best effort: a message may be lost, duplicated,
// delayed or reordered, and the table kit fetches what it missed.
//
// What every implementation promises (the conformance test holds each to it):
//   - ID is the node's identity as the others see it in from, and address a request to.
//   - Join subscribes to a topic; validate (nil accepts all) is run on every message heard on
//     it, and only what it accepts is delivered. Joining a topic twice is an error. A topic is
//     any string of valid UTF-8 the transport takes (a table's name may hold spaces, accents
//     and emoji).
//   - Publish says data on a joined topic to the other nodes joined to it, never back to this
//     one. Next is the next message heard on the topic, from another node, and its sender;
//     after Leave, a Next waiting on the topic returns an error.
//   - TopicPeers are the nodes heard on the topic (a node may take a moment to learn of
//     another).
//   - Request asks a node by its ID, on a protocol its Handle serves, and returns its answer or
//     its error; Handle with nil stops serving the protocol.
//   - Once the node is closed, its calls return errors, and none blocks.
type Node interface {
	ID() string
	Join(topic string, validate func(from string, data []byte) Verdict) error
	Leave(topic string) error
	Publish(ctx context.Context, topic string, data []byte) error
	Next(ctx context.Context, topic string) (from string, data []byte, err error)
	TopicPeers(topic string) []string
	Request(ctx context.Context, peer, proto string, req []byte) ([]byte, error)
	Handle(proto string, h func(from string, req []byte) ([]byte, error))
}
