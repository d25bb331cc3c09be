package tablenet

import (
	"crypto/ed25519"
	"encoding/hex"
	"strings"

	"corruption/protocol"
)

// HubPolicy is what a laptop's hub relays for its phones (it satisfies bridge.Policy): the table
// kit's topics, each with the validator every node checks it with, and its protocols; which the
// laptop keeps its own (the seat it gives, its bots); which a phone may serve (a table's
// entries, and only for a table it proves it sits at); and how a request names that table.
type HubPolicy struct {
	peerKey PeerKey
}

// PhonesPolicy is the laptop's policy for its phones; peerKey reads a hello's sender's key
// (LobbyValidator).
func PhonesPolicy(peerKey PeerKey) HubPolicy { return HubPolicy{peerKey: peerKey} }

// Topic says whether the hub relays topic, and with what validator: the lobby, the join
// channel, a table's channel (a table's name by protocol.CheckTableName) and a private
// table's (32 hex digits, whose secret the laptop does not hold).
func (p HubPolicy) Topic(topic string) (func(from string, data []byte) int, bool) {
	switch {
	case topic == LobbyTopic:
		return LobbyValidator(p.peerKey), true
	case topic == JoinTopic:
		return CheckJoinAd, true
	case strings.HasPrefix(topic, TablePrefix):
		if _, ok := tableOf(topic); !ok {
			return nil, false
		}
		return CheckTableMessage, true
	case strings.HasPrefix(topic, PrivatePrefix):
		if !isChannel(strings.TrimPrefix(topic, PrivatePrefix)) {
			return nil, false
		}
		return checkSealed, true
	}
	return nil, false
}

// Protocols are the table kit's request protocols, which members use and the laptop's own
// member serves.
func (HubPolicy) Protocols() []string { return []string{EntriesProto, JoinProto} }

// Laptop are the laptop's own services to its phones.
func (HubPolicy) Laptop() []string { return []string{SeatProto, BotsProto} }

// Served are the protocols a phone may serve: its tables' entries. (A private table's join
// exchange is its creator's, and phones create none.)
func (HubPolicy) Served() []string { return []string{EntriesProto} }

// Route is where a peer's request on a Served protocol goes: to the phones that sat at the
// table it names (its id, in hex), or, for a private table's request, sealed, to the phones on
// a private channel with the asker.
func (HubPolicy) Route(proto string, req []byte) (key string, sealed, ok bool) {
	if proto != EntriesProto {
		return "", false, false
	}
	if id, ok := protocol.RequestedTable(req); ok {
		return hex.EncodeToString(id[:]), false, true
	}
	if len(req) >= protocol.SealOverhead {
		return "", true, true
	}
	return "", false, false
}

// Sit checks a phone's proof that its seat sits at a table (the table's genesis entry, whose
// roster holds the seat's key: protocol.SeatedAt), and returns the table's key for Route.
func (HubPolicy) Sit(proto string, seat ed25519.PublicKey, proof []byte) (string, error) {
	id, err := protocol.SeatedAt(proof, seat)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(id[:]), nil
}

// Sealed says whether a topic is a private table's channel.
func (HubPolicy) Sealed(topic string) bool { return strings.HasPrefix(topic, PrivatePrefix) }
