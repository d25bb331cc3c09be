// Package protocol is the serverless table: a signed, hash-chained log of entries that every
// node validates and replays through the rules engine. That replay is the consensus: at every
// point exactly one seat may write the next entry, so the log is linear and needs no vote.
//
// A Table validates entries (signature, chain, author, kind, cryptographic proofs, engine
// legality) and applies them, or rejects them; a signed entry that breaks the rules halts the
// table with a Verdict naming its author, and so does a seat that signs two different entries
// for one place in the log. A Node drives a Table over a Network: it writes its own entries
// when its seat is due, persists them (fsync) before it publishes, fetches what it missed,
// and names a seat that stays silent past the table's timeout. Audit checks a saved log
// offline, with no secret.
//
// The protocol knows nothing of libp2p: it reaches the network through the Network interface.
// The wire format is specified in docs/PROTOCOL.md.
package protocol
