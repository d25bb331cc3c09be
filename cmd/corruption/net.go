package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"corruption/p2p"
	"corruption/p2p/bridge"
	"corruption/protocol"
)

// Names on the network. The protocol's version is in each, so that releases that cannot play
// together ignore each other: version 2 is the table kit (protocol.LogMagic "corruption log v2").
const (
	serviceTag   = "corruption-2"
	topicPrefix  = bridge.TablePrefix  // "corruption/2/table/", then the table's name
	lobbyTopic   = bridge.LobbyTopic   // where nodes that wait for their table announce it
	entriesProto = bridge.EntriesProto // "/corruption/entries/2"
)

// netNode is what a session uses of its p2p node to sit at tables: the node itself, or, when
// phones are on, the laptop's member of the phones' hub (p2p/bridge), so that the laptop's
// seat and the phones hear each other.
type netNode interface {
	Join(topic string, validate func(from string, data []byte) p2p.Verdict) error
	Leave(topic string) error
	Publish(ctx context.Context, topic string, data []byte) error
	Next(ctx context.Context, topic string) (from string, data []byte, err error)
	TopicPeers(topic string) []string
	Request(ctx context.Context, peer, proto string, req []byte) ([]byte, error)
	Handle(proto string, h func(from string, req []byte) ([]byte, error))
}

var (
	_ netNode = (*p2p.Node)(nil)
	_ netNode = (*bridge.Local)(nil)
)

// tableNet is one table's view of a p2p node: its topic and its request protocol. It satisfies
// protocol.Network.
type tableNet struct {
	node  netNode
	topic string
}

func joinTable(node netNode, table string) (*tableNet, error) {
	t := &tableNet{node: node, topic: topicPrefix + table}
	err := node.Join(t.topic, checkTableMessage)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// checkTableMessage is a table channel's validator.
func checkTableMessage(from string, data []byte) p2p.Verdict {
	if protocol.Check(data) {
		return p2p.Accept
	}
	return p2p.Reject
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
type lobbyNet struct{ node netNode }

func joinLobby(node netNode) (*lobbyNet, error) {
	err := node.Join(lobbyTopic, checkLobby)
	if err != nil {
		return nil, err
	}
	return &lobbyNet{node}, nil
}

// checkLobby is the lobby's validator. A hello of version 3 or later counts whoever relays it:
// its signature by its key is checked (ParseAnnouncement), and a laptop relays its phones'
// (p2p/bridge). A hello of version 2 counts only from its own node, as release 2 had it.
func checkLobby(from string, data []byte) p2p.Verdict {
	a, err := protocol.ParseAnnouncement(data)
	if err != nil {
		return p2p.Reject
	}
	if a.Version >= 3 {
		return p2p.Accept
	}
	if k, err := p2p.PeerKey(from); err != nil || !bytes.Equal(k, a.Key) {
		return p2p.Ignore
	}
	return p2p.Accept
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
