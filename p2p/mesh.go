package p2p

import (
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// meshTracer keeps a copy of gossipsub's mesh, which gossipsub does not
// export: the peers of each topic that this node relays to and hears from.
// Gossipsub calls it from its event loop.
type meshTracer struct {
	mu   sync.Mutex
	mesh map[string]map[peer.ID]bool
}

var _ pubsub.RawTracer = (*meshTracer)(nil)

func newMeshTracer() *meshTracer {
	return &meshTracer{mesh: make(map[string]map[peer.ID]bool)}
}

// peers returns the mesh of topic.
func (m *meshTracer) peers(topic string) []peer.ID {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]peer.ID, 0, len(m.mesh[topic]))
	for p := range m.mesh[topic] {
		out = append(out, p)
	}
	return out
}

func (m *meshTracer) Join(topic string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mesh[topic] == nil {
		m.mesh[topic] = make(map[peer.ID]bool)
	}
}

func (m *meshTracer) Leave(topic string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.mesh, topic)
}

func (m *meshTracer) Graft(p peer.ID, topic string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mesh[topic] == nil {
		m.mesh[topic] = make(map[peer.ID]bool)
	}
	m.mesh[topic][p] = true
}

func (m *meshTracer) Prune(p peer.ID, topic string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.mesh[topic], p)
}

// OnClosedOutboundStream is where gossipsub drops a lost peer from every mesh.
func (m *meshTracer) OnClosedOutboundStream(p peer.ID) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ps := range m.mesh {
		delete(ps, p)
	}
}

func (m *meshTracer) OnNewOutboundStream(peer.ID, protocol.ID)             {}
func (m *meshTracer) ValidateMessage(*pubsub.Message)                      {}
func (m *meshTracer) DeliverMessage(*pubsub.Message)                       {}
func (m *meshTracer) RejectMessage(*pubsub.Message, string)                {}
func (m *meshTracer) DuplicateMessage(*pubsub.Message)                     {}
func (m *meshTracer) ThrottlePeer(peer.ID)                                 {}
func (m *meshTracer) RecvRPC(*pubsub.RPC)                                  {}
func (m *meshTracer) SendRPC(*pubsub.RPC, peer.ID)                         {}
func (m *meshTracer) SendRPCCompleted(*pubsub.RPC, peer.ID, time.Duration) {}
func (m *meshTracer) DropRPC(*pubsub.RPC, peer.ID)                         {}
func (m *meshTracer) UndeliverableMessage(*pubsub.Message)                 {}
