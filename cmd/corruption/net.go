package main

import (
	"fmt"
	"strings"

	"corruption/p2p"
)

// The network of a session is a tablenet.Node: its p2p node, or, when phones are on, the
// laptop's member of the phones' hub (p2p/bridge), so that the laptop's seat and the phones
// hear each other. Its names, adapters and validators are tablenet's.

// loopbackAddr is one of the node's addresses on 127.0.0.1, for local bots to dial.
func loopbackAddr(node *p2p.Node) (string, error) {
	for _, a := range node.Addrs() {
		if strings.HasPrefix(a, "/ip4/127.0.0.1/") {
			return a, nil
		}
	}
	return "", fmt.Errorf("--bots: the node listens on no 127.0.0.1 address for its bots to reach (listening on %s)", strings.Join(node.Addrs(), ", "))
}
