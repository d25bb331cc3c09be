package protocol

import "context"

// Network is what a table needs from the network: a broadcast channel among the table's nodes
// and a request/response path to one of them. It is best effort: a broadcast may be lost,
// duplicated, delayed or reordered, and a node must fetch what it missed. p2p.Node (through a
// thin adapter in cmd/) and memnet's in-memory network implement it.
type Network interface {
	// Publish broadcasts data to the other nodes of the table (not back to this one).
	Publish(ctx context.Context, data []byte) error
	// Next blocks for the next broadcast from another node. from is the sender's network
	// identity (a hint only: the table trusts signatures, never this). It returns an error once
	// the network is closed or ctx is done.
	Next(ctx context.Context) (from string, data []byte, err error)
	// Request sends req to one peer and waits for its answer.
	Request(ctx context.Context, peer string, req []byte) ([]byte, error)
	// Serve sets the handler for requests from other nodes (nil stops serving).
	Serve(h func(from string, req []byte) ([]byte, error))
	// Peers lists the peers currently reachable.
	Peers() []string
}
