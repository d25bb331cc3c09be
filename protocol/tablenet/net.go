package tablenet

import (
	"context"
	"errors"

	"corruption/protocol"
)

// Net is one topic and one request protocol of a Node, as a protocol.Network: a table's channel
// and its entries, or the lobby (which takes no requests). The one adapter of a Node to the
// table kit, whatever the Node.
type Net struct {
	node  Node
	topic string
	proto string // "" takes no requests (the lobby)
}

var (
	_ protocol.Network = (*Net)(nil)
	_ protocol.Seater  = (*Net)(nil)
)

// JoinTable joins the channel of the table of that name, its messages checked as every node
// checks them (CheckTableMessage), its requests on EntriesProto.
func JoinTable(n Node, table string) (*Net, error) {
	topic, err := TableTopic(table)
	if err != nil {
		return nil, err
	}
	if err := n.Join(topic, CheckTableMessage); err != nil {
		return nil, err
	}
	return &Net{node: n, topic: topic, proto: EntriesProto}, nil
}

// JoinLobby joins the lobby, its announcements checked by LobbyValidator(peerKey).
func JoinLobby(n Node, peerKey PeerKey) (*Net, error) {
	if err := n.Join(LobbyTopic, LobbyValidator(peerKey)); err != nil {
		return nil, err
	}
	return &Net{node: n, topic: LobbyTopic}, nil
}

// JoinPrivate joins the sealed channel of a private table: net is the network its node plays
// on (what it says is sealed, what it hears opened: pt.Wrap), leave leaves the channel. The
// node that relays the channel without its secret (a laptop for its phones) passes what could
// be sealed; the table's node drops what does not open.
func JoinPrivate(n Node, pt *protocol.PrivateTable) (net protocol.Network, leave func() error, err error) {
	t := &Net{node: n, topic: PrivatePrefix + pt.Channel(), proto: EntriesProto}
	err = n.Join(t.topic, func(_ string, data []byte) Verdict {
		if pt.Check(data) {
			return Accept
		}
		return Reject
	})
	if err != nil {
		return nil, nil, err
	}
	return pt.Wrap(t), t.Leave, nil
}

// Topic is the net's topic.
func (t *Net) Topic() string { return t.topic }

// Publish says data on the topic.
func (t *Net) Publish(ctx context.Context, data []byte) error {
	return t.node.Publish(ctx, t.topic, data)
}

// Next is the topic's next message and its sender.
func (t *Net) Next(ctx context.Context) (string, []byte, error) {
	return t.node.Next(ctx, t.topic)
}

// NextData is the topic's next message alone (ui.Server.ReadLobby reads the lobby so).
func (t *Net) NextData(ctx context.Context) ([]byte, error) {
	_, data, err := t.node.Next(ctx, t.topic)
	return data, err
}

// Request asks peer on the net's protocol.
func (t *Net) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	if t.proto == "" {
		return nil, errors.New("the lobby takes no requests")
	}
	return t.node.Request(ctx, peer, t.proto, req)
}

// Serve sets the handler of the net's protocol (nil stops serving).
func (t *Net) Serve(h func(from string, req []byte) ([]byte, error)) {
	if t.proto != "" {
		t.node.Handle(t.proto, h)
	}
}

// Peers are the topic's peers.
func (t *Net) Peers() []string { return t.node.TopicPeers(t.topic) }

// Leave leaves the topic.
func (t *Net) Leave() error { return t.node.Leave(t.topic) }

// sitter is a Node that sends its relay's requests for a table only once told the table's
// genesis (a phone's bridge client: *bridge.Client.Sit).
type sitter interface {
	Sit(proto string, proof []byte)
}

// Seated tells the node, when it is a sitter, the genesis of the table its table node sits at
// (protocol.Seater): the laptop it goes through then sends it its peers' requests for that
// table, and no other phone's answers them.
func (t *Net) Seated(genesis []byte) {
	if s, ok := t.node.(sitter); ok && t.proto != "" {
		s.Sit(t.proto, genesis)
	}
}
