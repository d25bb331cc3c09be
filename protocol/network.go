package protocol

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
)

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

// Seater is a Network that is told the genesis entry of the table its node sits at, once the
// node holds it (when the table forms, and when the node resumes it from its saved log): a
// phone's seat behind a laptop proves with it, and its key, that the requests the laptop's
// peers send for that table are its to answer (p2p/bridge, Client.Sit; SeatedAt checks it).
type Seater interface {
	Seated(genesis []byte)
}

// SeatedAt checks that genesis is a genesis entry whose roster seats key, and returns its
// table id: what a laptop asks of a phone before it sends the phone its peers' requests for
// that table. (The genesis entry is public; only the seat's key, which signed the phone's
// identification on the laptop's connection, proves the seat.)
func SeatedAt(genesis []byte, key ed25519.PublicKey) ([32]byte, error) {
	e, err := ParseEntry(genesis)
	if err != nil {
		return [32]byte{}, err
	}
	if e.Kind != KindGenesis || e.Seq != 0 {
		return [32]byte{}, fmt.Errorf("entry %d of kind %s, not a genesis", e.Seq, e.Kind)
	}
	g, err := GenesisOf(e)
	if err != nil {
		return [32]byte{}, err
	}
	if g.ID() != e.Table {
		return [32]byte{}, errors.New("a genesis entry whose table id is not its body's digest")
	}
	if g.SeatOf(key) < 0 {
		return [32]byte{}, fmt.Errorf("table %x seats no player of that key", e.Table[:8])
	}
	return e.Table, nil
}

// RequestedTable is the table an entries request names, for a relay that routes it (a laptop
// to the phone that sits there): false for a request it cannot read (a private table's,
// sealed) or one that is not an entries request.
func RequestedTable(req []byte) ([32]byte, bool) {
	var id [32]byte
	if len(req) != 1+32+8 || req[0] != reqEntries {
		return id, false
	}
	copy(id[:], req[1:33])
	return id, true
}
