package tablenet

import (
	"bytes"
	"crypto/ed25519"
	"errors"

	"corruption/protocol"
)

// The validators of the network's topics: the same on every node, native or phone, and on the
// laptop that relays for its phones.

// CheckTableMessage is a table channel's validator: a message the table kit decodes.
func CheckTableMessage(_ string, data []byte) Verdict {
	if protocol.Check(data) {
		return Accept
	}
	return Reject
}

// PeerKey is the identity key in a network identity (p2p.PeerKey: a libp2p peer id holds its
// Ed25519 key).
type PeerKey func(id string) (ed25519.PublicKey, error)

// LobbyValidator is the lobby's validator. A hello of version 3 or later counts whoever relays
// it: its signature by its key is checked (ParseAnnouncement), and a laptop relays its phones'.
// A hello of version 2 counts only from its own node, as release 2 had it: its sender's peer id
// must hold its key (peerKey). Without peerKey (a phone's seat, whose laptop checked what it
// relays) a hello that parses counts.
func LobbyValidator(peerKey PeerKey) func(from string, data []byte) Verdict {
	return func(from string, data []byte) Verdict {
		a, err := protocol.ParseAnnouncement(data)
		if err != nil {
			return Reject
		}
		if a.Version >= 3 || peerKey == nil {
			return Accept
		}
		if k, err := peerKey(from); err != nil || !bytes.Equal(k, a.Key) {
			return Ignore
		}
		return Accept
	}
}

// CheckJoinAd is the join channel's validator: an announcement of a private table of version
// 2, or of version 1 (whose joiners a node of version 2 tells that the creator runs an older
// release).
func CheckJoinAd(_ string, data []byte) Verdict {
	if _, _, err := protocol.ParseJoinAd(data); err != nil && !errors.Is(err, protocol.ErrOldCreator) {
		return Reject
	}
	return Accept
}

// checkSealed is a private channel's validator on a node that relays it without its secret (a
// laptop for its phones): what could be sealed passes (a nonce and a tag at least), and the
// table's nodes drop what does not open.
func checkSealed(_ string, data []byte) Verdict {
	if len(data) < protocol.SealOverhead {
		return Reject
	}
	return Accept
}
