package main

import (
	"context"

	"corruption/p2p"
	"corruption/protocol"
)

// Names on the network. The version is in each, so that incompatible releases ignore
// each other.
const (
	serviceTag    = "corruption-1"
	topicPrefix   = "corruption/1/table/"
	entriesProto  = "/corruption/entries/1"
	maxTableBytes = protocol.MaxNameSize
)

// tableNet is one table's view of a p2p node: its topic and its request protocol. It satisfies
// protocol.Network.
type tableNet struct {
	node  *p2p.Node
	topic string
}

func joinTable(node *p2p.Node, table string) (*tableNet, error) {
	t := &tableNet{node: node, topic: topicPrefix + table}
	err := node.Join(t.topic, func(from string, data []byte) p2p.Verdict {
		if protocol.Check(data) {
			return p2p.Accept
		}
		return p2p.Reject
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

func (t *tableNet) Publish(ctx context.Context, data []byte) error {
	return t.node.Publish(ctx, t.topic, data)
}

func (t *tableNet) Next(ctx context.Context) (string, []byte, error) {
	return t.node.Next(ctx, t.topic)
}

func (t *tableNet) Request(ctx context.Context, peer string, req []byte) ([]byte, error) {
	return t.node.Request(ctx, peer, entriesProto, req)
}

func (t *tableNet) Serve(h func(from string, req []byte) ([]byte, error)) {
	t.node.Handle(entriesProto, h)
}

func (t *tableNet) Peers() []string { return t.node.TopicPeers(t.topic) }

var _ protocol.Network = (*tableNet)(nil)
