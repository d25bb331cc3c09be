package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"corruption/p2p"
	"corruption/protocol"
)

// Names on the network. The protocol's version is in each, so that releases that cannot play
// together ignore each other: version 2 is the table kit (protocol.LogMagic "corruption log v2").
const (
	serviceTag   = "corruption-2"
	topicPrefix  = "corruption/2/table/"
	lobbyTopic   = "corruption/2/lobby" // where nodes that wait for their table announce it
	entriesProto = "/corruption/entries/2"
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

// lobbyNet is the lobby topic of a p2p node, as the protocol.Network a node announces on.
type lobbyNet struct{ node *p2p.Node }

func joinLobby(node *p2p.Node) (*lobbyNet, error) {
	err := node.Join(lobbyTopic, func(from string, data []byte) p2p.Verdict {
		a, err := protocol.ParseAnnouncement(data)
		if err != nil {
			return p2p.Reject
		}
		// Only a node announces itself: a hello relayed under another author is dropped.
		if k, err := p2p.PeerKey(from); err != nil || !bytes.Equal(k, a.Key) {
			return p2p.Ignore
		}
		return p2p.Accept
	})
	if err != nil {
		return nil, err
	}
	return &lobbyNet{node}, nil
}

// next is the next lobby message, for ui.Server.ReadLobby.
func (l *lobbyNet) next(ctx context.Context) ([]byte, error) {
	_, data, err := l.node.Next(ctx, lobbyTopic)
	return data, err
}

func (l *lobbyNet) Publish(ctx context.Context, data []byte) error {
	return l.node.Publish(ctx, lobbyTopic, data)
}

func (l *lobbyNet) Next(ctx context.Context) (string, []byte, error) {
	return l.node.Next(ctx, lobbyTopic)
}

func (l *lobbyNet) Request(context.Context, string, []byte) ([]byte, error) {
	return nil, errors.New("the lobby takes no requests")
}

func (l *lobbyNet) Serve(func(string, []byte) ([]byte, error)) {}

func (l *lobbyNet) Peers() []string { return l.node.TopicPeers(lobbyTopic) }

var _ protocol.Network = (*lobbyNet)(nil)

// loopbackAddr is one of the node's addresses on 127.0.0.1, for local bots to dial.
func loopbackAddr(node *p2p.Node) (string, error) {
	for _, a := range node.Addrs() {
		if strings.HasPrefix(a, "/ip4/127.0.0.1/") {
			return a, nil
		}
	}
	return "", fmt.Errorf("--bots: the node listens on no 127.0.0.1 address for its bots to reach (listening on %s)", strings.Join(node.Addrs(), ", "))
}
