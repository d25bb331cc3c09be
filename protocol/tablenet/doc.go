// Package tablenet is "a table on a network": what every front end (the laptop's command, the
// phone's seat, the tests) and every transport (libp2p, the phones' bridge, the in-memory
// network) share of how a table talks, in one place. It is the seam between the table kit
// (protocol, which knows no network) and the transports (p2p, p2p/bridge, which know no table):
//
//   - Node: the node a table talks through, declared once (node.go), with one verdict type. A
//     libp2p node (*p2p.Node), a phone's bridge client (*bridge.Client), the laptop's own member
//     of its phones' hub (*bridge.Local) and the in-memory network (memnode) all satisfy it, and
//     one conformance test (conformance_test.go) runs the same cases against the four.
//   - The network's names: the table's, the lobby's and the private tables' topics, the request
//     protocols, and the rule of a table's name (protocol.CheckTableName's: any name the protocol
//     accepts, spaces, accents and emoji among them); the names stay those of release 2, so that
//     laptops of this release and the last still meet (names.go).
//   - The adapters of a Node to protocol.Network: a table's channel, the lobby, a private table's
//     sealed channel, written once (net.go).
//   - The validators of every topic (check.go), and the policy by which a laptop's hub relays
//     for its phones (policy.go).
//   - The laptop's own services to its phones: the seat it gives, and its bots (laptop.go).
//
// It imports the table kit (protocol) and nothing of libp2p, the bridge or the page: it builds
// for the browser (GOOS=js GOARCH=wasm).
package tablenet
