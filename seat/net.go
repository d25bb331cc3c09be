package seat

import (
	"context"
	"errors"

	"corruption/p2p/bridge"
	"corruption/protocol"
)

// Names on the network: the bridge's, which native seats use too.
const (
	TopicPrefix  = bridge.TablePrefix
	LobbyTopic   = bridge.LobbyTopic
	EntriesProto = bridge.EntriesProto
)

// Verdicts of a topic's validator (p2p's and the bridge's).
const (
	accept = 0
	reject = 1
)

// Net is what a seat needs of its network: a node's topics and request protocols, as
// *bridge.Client (and *p2p.Node) give them.
type Net interface {
	Join(topic string, validate func(from string, data []byte) int) error
	Leave(topic string) error
	Publish(ctx context.Context, topic string, data []byte) error
	Next(ctx context.Context, topic string) (from string, data []byte, err error)
	TopicPeers(topic string) []string
	Request(ctx context.Context, peer, proto string, req []byte) ([]byte, error)
	Handle(proto string, h func(from string, req []byte) ([]byte, error))
}

// topicNet is one topic and one protocol of a Net, as a protocol.Network.
type topicNet struct {
	net   Net
	topic string
	proto string // "" takes no requests (the lobby)
}

func joinTable(n Net, table string) (*topicNet, error) {
	t := &topicNet{net: n, topic: TopicPrefix + table, proto: EntriesProto}
	err := n.Join(t.topic, func(_ string, data []byte) int {
		if protocol.Check(data) {
			return accept
		}
		return reject
	})
	return t, err
}

// joinLobby joins the lobby: announcements that parse are taken (who announces is checked by
// the laptop that relays them, and each announcement is signed by its table's node).
func joinLobby(n Net) (*topicNet, error) {
	t := &topicNet{net: n, topic: LobbyTopic}
	err := n.Join(t.topic, func(_ string, data []byte) int {
		if _, err := protocol.ParseAnnouncement(data); err != nil {
			return reject
		}
		return accept
	})
	return t, err
}

func (t *topicNet) Publish(ctx context.Context, data []byte) error {
	return t.net.Publish(ctx, t.topic, data)
}

func (t *topicNet) Next(ctx context.Context) (string, []byte, error) {
	return t.net.Next(ctx, t.topic)
}

// next is the next message alone, for ui.Server.ReadLobby.
func (t *topicNet) next(ctx context.Context) ([]byte, error) {
	_, data, err := t.net.Next(ctx, t.topic)
	return data, err
}

func (t *topicNet) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	if t.proto == "" {
		return nil, errors.New("the lobby takes no requests")
	}
	return t.net.Request(ctx, peer, t.proto, req)
}

func (t *topicNet) Serve(h func(from string, req []byte) ([]byte, error)) {
	if t.proto != "" {
		t.net.Handle(t.proto, h)
	}
}

func (t *topicNet) Peers() []string { return t.net.TopicPeers(t.topic) }

// sitter is a Net that routes its laptop's peers' requests for a table to this seat once it
// proves it sits there (*bridge.Client).
type sitter interface {
	Sit(proto string, proof []byte)
}

// Seated tells the Net, when it is a sitter, the genesis of the table the seat sits at
// (protocol.Seater): the laptop then sends this seat its peers' requests for that table, and
// no other phone's.
func (t *topicNet) Seated(genesis []byte) {
	if s, ok := t.net.(sitter); ok && t.proto != "" {
		s.Sit(t.proto, genesis)
	}
}

func (t *topicNet) leave() { t.net.Leave(t.topic) }

var (
	_ protocol.Network = (*topicNet)(nil)
	_ protocol.Seater  = (*topicNet)(nil)
)
