// Package bridge carries a seat that runs in a phone's browser to and from the network,
// through a laptop that runs corruption: the phone has no libp2p (a browser cannot open its
// connections), so its seat speaks a small binary protocol over one WebSocket to the laptop,
// whose hub relays it onto the laptop's p2p node.
//
// Three parts:
//   - the frames (frame.go): the wire protocol, versioned and strictly decoded
//     (docs/PROTOCOL.md, "The bridge");
//   - the Client (client.go), the phone's side: over any frame connection (Conn; a WebSocket
//     in the browser and in tests), it gives the seat what a native session gets from p2p:
//     topics to join, publish on and read, their peers, requests to a peer on a protocol and
//     requests from peers to serve: a tablenet.Node, which tablenet binds into the table
//     kit's protocol.Network. It reconnects by itself after a drop, and after a
//     connection that went silent without closing (the keepalive, keepalive.go);
//   - the Hub (hub.go), the laptop's side: its local members (the laptop's own node, through
//     Local, and every phone connected) hear each other, as gossipsub does not loop a node's
//     messages back to it, and share the node's topics and request protocols. A phone it
//     hears nothing from for 45 s, not even the keepalive's pings, is dropped.
//
// What it promises:
//   - It imports no libp2p, and of the project tablenet only (the Node it relays for, and is):
//     it builds for GOOS=js GOARCH=wasm (the Hub's WebSocket listener excepted: a browser
//     accepts no connections). The node the hub relays for is a tablenet.Node (*p2p.Node).
//     Which topics and protocols it relays, and for whom, is its Policy's (tablenet.HubPolicy):
//     it keeps the frames, the hub and the client only.
//   - The laptop relays bytes: it never holds a phone's keys. Everything a seat says is signed
//     by the seat (the table kit checks signatures, never the sender id, which is a hint), so
//     a laptop can drop, delay or reorder what it relays, as a bad network would, and do
//     nothing else (docs/SECURITY.md, "A seat in the browser").
//   - The hub relays only the topics and request protocols its Policy allows; a phone answers
//     only for the tables it proved it sits at (hub.go).
//   - A member's id, as other members see it in from, is made by the hub ("local/N") and
//     cannot be taken for a peer id (base58 has no slash).
//   - Every frame decoder refuses, with an error naming what was wrong, anything but a
//     canonical frame of a known kind within its limits; a frame that decodes encodes back to
//     the same bytes.
package bridge
