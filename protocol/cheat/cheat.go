// Package cheat makes a node cheat on purpose, to try what a table does with a cheater: the
// adversary build's `corruption bot --cheat KIND[@N]` (go build -tags adversary ./cmd/corruption)
// sets a node's NodeConfig.Tamper from it. The default build has no --cheat; nothing here runs
// unless a tampering node is asked for.
//
// Every kind works from what a seat's own node has and nothing more: the entry it was about to
// write and its identity key. So each is a cheat any player could make with a modified client:
// an entry whose body decodes to nothing, an entry of a kind it may not write then, a sign-off
// of another outcome, two versions of one entry, an entry with a broken signature, silence.
// docs/SECURITY.md ("The adversary build") says what the table makes of each.
package cheat

import (
	"crypto/ed25519"
	"fmt"
	"strconv"
	"strings"

	"corruption/protocol"
)

// A Kind is one way of cheating.
type Kind struct {
	Name  string
	About string
	// on says whether the entry the node is about to write is a chance for this cheat.
	on func(e *protocol.Entry) bool
	// forge is what the node keeps and sends instead of e, its own, signed with key.
	forge func(e *protocol.Entry, key ed25519.PrivateKey) (keep *protocol.Entry, send []*protocol.Entry)
}

// Kinds are the cheats this package knows, by name.
var Kinds = func() []Kind {
	var out []Kind
	for _, k := range []protocol.Kind{protocol.KindShuffle, protocol.KindShares, protocol.KindMove, protocol.KindOpen,
		protocol.KindAnswer, protocol.KindCommit, protocol.KindRandom} {
		out = append(out, Kind{
			Name:  "garbage-" + k.String(),
			About: fmt.Sprintf("its %s entry with a body that decodes to nothing: convicted; the table plays on without it where it can", k),
			on:    isKind(k),
			forge: func(e *protocol.Entry, key ed25519.PrivateKey) (*protocol.Entry, []*protocol.Entry) {
				g := resigned(e, e.Kind, []byte{0xde, 0xad}, key)
				return g, []*protocol.Entry{g}
			},
		})
	}
	return append(out,
		Kind{Name: "bad-signoff", About: "a sign-off of another outcome than the game's: convicted",
			on: isKind(protocol.KindSignOff),
			forge: func(e *protocol.Entry, key ed25519.PrivateKey) (*protocol.Entry, []*protocol.Entry) {
				body := append([]byte(nil), e.Body...)
				body[0] ^= 0xff
				g := resigned(e, e.Kind, body, key)
				return g, []*protocol.Entry{g}
			}},
		Kind{Name: "out-of-turn-kind", About: "a sign-off where its move or shares are due, an entry of a kind it may not write then: convicted",
			on: func(e *protocol.Entry) bool { return e.Kind == protocol.KindMove || e.Kind == protocol.KindShares },
			forge: func(e *protocol.Entry, key ed25519.PrivateKey) (*protocol.Entry, []*protocol.Entry) {
				g := resigned(e, protocol.KindSignOff, make([]byte, 32), key)
				return g, []*protocol.Entry{g}
			}},
		Kind{Name: "equivocate", About: "its move or shares, and another version of it, both signed, to everyone: an equivocation: the log is cut at the two, the seat convicted, and the table plays on without it where it can",
			on: func(e *protocol.Entry) bool { return e.Kind == protocol.KindMove || e.Kind == protocol.KindShares },
			forge: func(e *protocol.Entry, key ed25519.PrivateKey) (*protocol.Entry, []*protocol.Entry) {
				return e, []*protocol.Entry{e, resigned(e, e.Kind, []byte{0xde, 0xad}, key)}
			}},
		Kind{Name: "bad-signature", About: "its move or shares with a broken signature, then silence: blames nobody; the seat, silent, leaves (opened where the table escrows)",
			on: func(e *protocol.Entry) bool { return e.Kind == protocol.KindMove || e.Kind == protocol.KindShares },
			forge: func(e *protocol.Entry, key ed25519.PrivateKey) (*protocol.Entry, []*protocol.Entry) {
				b := *e
				b.Sig[0] ^= 1
				return nil, []*protocol.Entry{&b}
			}},
		Kind{Name: "silent", About: "nothing where its move or shares are due: blames nobody; the seat leaves (opened where the table escrows)",
			on:    func(e *protocol.Entry) bool { return e.Kind == protocol.KindMove || e.Kind == protocol.KindShares },
			forge: func(*protocol.Entry, ed25519.PrivateKey) (*protocol.Entry, []*protocol.Entry) { return nil, nil }},
	)
}()

func isKind(k protocol.Kind) func(*protocol.Entry) bool {
	return func(e *protocol.Entry) bool { return e.Kind == k }
}

// resigned is e with another kind and body, signed again with key.
func resigned(e *protocol.Entry, kind protocol.Kind, body []byte, key ed25519.PrivateKey) *protocol.Entry {
	g := &protocol.Entry{Version: e.Version, Table: e.Table, Seq: e.Seq, Prev: e.Prev, Seat: e.Seat, Kind: kind, Body: body}
	g.Sign(key)
	return g
}

// List is every kind, a line each, for bot --cheat list.
func List() string {
	var b strings.Builder
	for _, k := range Kinds {
		fmt.Fprintf(&b, "%-18s %s\n", k.Name, k.About)
	}
	return b.String()
}

// A Cheater cheats once, as its kind says, at its Nth chance.
type Cheater struct {
	kind  Kind
	n     int
	seen  int
	fired bool
	at    uint64 // the seq it cheated at
	quiet bool   // from then on it writes nothing (its entry never came, or was broken)
}

// Parse reads KIND[@N]: the kind of cheat, and at which of its chances (the first by default).
func Parse(spec string) (*Cheater, error) {
	name, nth, hasN := strings.Cut(spec, "@")
	n := 1
	if hasN {
		v, err := strconv.Atoi(nth)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("--cheat %s: %q is not a chance's number (1, 2, ...)", spec, nth)
		}
		n = v
	}
	for _, k := range Kinds {
		if k.Name == name {
			return &Cheater{kind: k, n: n}, nil
		}
	}
	return nil, fmt.Errorf("--cheat %s: no such cheat (--cheat list prints every kind)", spec)
}

// Tamper is the NodeConfig.Tamper of a node whose identity key is key.
func (c *Cheater) Tamper(key ed25519.PrivateKey) func(*protocol.Entry) (*protocol.Entry, []*protocol.Entry) {
	return func(e *protocol.Entry) (*protocol.Entry, []*protocol.Entry) {
		switch {
		case c.fired && c.quiet && e.Seq == c.at:
			return nil, nil
		case c.fired || !c.kind.on(e):
			return e, []*protocol.Entry{e}
		}
		c.seen++
		if c.seen < c.n {
			return e, []*protocol.Entry{e}
		}
		c.fired, c.at = true, e.Seq
		keep, send := c.kind.forge(e, key)
		c.quiet = keep == nil
		return keep, send
	}
}

// Fired reports whether the cheat was played, and at which entry.
func (c *Cheater) Fired() (bool, uint64) { return c.fired, c.at }
