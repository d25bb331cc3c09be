// Package p2p is a small, game-agnostic messaging layer over go-libp2p: a
// host that finds its peers on the LAN (mDNS) or by address (a dial list),
// gossipsub topics with validators, and a request/response stream protocol.
//
// It knows nothing about games, tables or log entries. Every exported method
// uses only builtin and standard library types (string peer ids, []byte
// payloads, context.Context, time.Duration, crypto/ed25519 keys), so that a
// package that must not import libp2p can declare the interface it needs and
// have *Node satisfy it structurally, while tests plug in an in-memory
// implementation of the same interface.
//
// What it promises:
//   - A node's identity is the caller's ed25519 key; its peer id is PeerID of
//     the public key, and PeerKey recovers the key from any peer id, so the
//     author of a gossip message (signed by gossipsub with that key) is the
//     same identity that signs application data.
//   - Gossip is best effort and keeps no history: a message published while a
//     peer is not yet connected or subscribed never reaches that peer. Anything
//     that must arrive has to be fetched again with Request.
//   - A gossip message reaches Next only after the topic's validator accepted
//     it, at most once per node (duplicates are suppressed for two minutes),
//     and never on the node that published it.
//   - Sizes are bounded: MaxMessageSize for gossip payloads, MaxRequestSize and
//     MaxResponseSize for the request/response protocol.
//   - Close stops everything New started.
//
// See README.md in this directory for the knobs, the limits and the figures.
package p2p
