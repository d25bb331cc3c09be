package bridge

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// NetworkVersion is the network's version, in every name below and in the mDNS service
// (corruption-2): releases of another network version ignore each other. Within it, entries
// carry their own version (protocol.EntryVersion), and the bridge its own (Version).
const NetworkVersion = 2

// The network's names, the same for a native seat (cmd/corruption) and a browser seat. The
// network's version is in each (docs/PROTOCOL.md, "Messages on the table's channel").
const (
	TablePrefix   = "corruption/2/table/"   // then the table's name
	LobbyTopic    = "corruption/2/lobby"    // where nodes waiting for their table announce it
	JoinTopic     = "corruption/2/join"     // where creators of private tables announce their nameplates
	PrivatePrefix = "corruption/2/private/" // then a private table's channel name
	EntriesProto  = "/corruption/entries/2" // fetching a table's entries
	JoinProto     = "/corruption/join/2"    // the join exchange of a private table
)

// What a laptop offers its phones beyond relaying, as requests to the laptop's peer id
// (Client.Node): the seat it gives (demo --phones), and bots for a table a phone creates
// (corruption host, play --phones).
const (
	SeatProto = "/corruption/phone/seat/1"
	BotsProto = "/corruption/phone/bots/1"
)

// Wish is a table as a laptop and its phones speak of it, as JSON: the seat a laptop gives a
// phone (AskSeat), or the table a phone asks bots for (AskBots).
type Wish struct {
	Table   string `json:"table"`
	Game    string `json:"game"`
	Players int    `json:"players"`
	Config  []byte `json:"config"`
	// Bots is how many bots of the laptop sit at the table.
	Bots int `json:"bots"`
	// Escrow says whether the seat may create the table with escrow: false where the
	// laptop's seats (its bots, its player) hold every seat but the phone's, since escrow
	// would then let the laptop rebuild the phone's key (docs/SECURITY.md, "A seat in the
	// browser").
	Escrow bool `json:"escrow"`
	// The clock the laptop's seats sit with (milliseconds; 0: the seat's own default).
	TimeoutMS   int64 `json:"timeout_ms,omitempty"`
	AllowanceMS int64 `json:"allowance_ms,omitempty"`
	BankMS      int64 `json:"bank_ms,omitempty"`
}

// ErrNoSeat is AskSeat's answer when the laptop gives no seat (play, host: the phone chooses
// its table in its lobby) or gave it to another phone.
var ErrNoSeat = errors.New("bridge: the laptop gives no seat: choose a table in the lobby")

// noSeat is the text a laptop answers a seat request with when it has none to give.
const noSeat = "no seat to give"

// NoSeat is the error a laptop's seat handler returns when it has no seat for the asker.
func NoSeat(why string) error { return fmt.Errorf("%s: %s", noSeat, why) }

// AskSeat asks the laptop for the seat it gives (demo --phones gives the person's seat to the
// first phone that asks), stating the seat's identity key: the same key gets the same seat
// again (a reload). ErrNoSeat when there is none for it.
func (c *Client) AskSeat(ctx context.Context, key ed25519.PublicKey) (*Wish, error) {
	if len(key) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("bridge: a seat key of %d bytes", len(key))
	}
	node := c.Node()
	if node == "" {
		return nil, ErrDisconnected
	}
	ans, err := c.Request(ctx, node, SeatProto, key)
	if err != nil {
		if strings.Contains(err.Error(), noSeat) {
			return nil, fmt.Errorf("%w (%v)", ErrNoSeat, err)
		}
		return nil, err
	}
	var w Wish
	if err := json.Unmarshal(ans, &w); err != nil {
		return nil, fmt.Errorf("bridge: the laptop's seat: %w", err)
	}
	return &w, nil
}

// AskBots asks the laptop to seat w.Bots bots at the table w (which the phone creates from its
// lobby). The laptop checks the table and its limits, and says why it refuses. Its answer is
// the table as its bots sit at it: Escrow false when they hold every seat but the phone's, and
// the phone's seat must then not escrow either (the seat that writes the genesis decides).
func (c *Client) AskBots(ctx context.Context, w Wish) (*Wish, error) {
	node := c.Node()
	if node == "" {
		return nil, ErrDisconnected
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	ans, err := c.Request(ctx, node, BotsProto, b)
	if err != nil {
		return nil, err
	}
	var got Wish
	if err := json.Unmarshal(ans, &got); err != nil {
		return nil, fmt.Errorf("bridge: the laptop's answer for bots: %w", err)
	}
	return &got, nil
}

// Fingerprint is a short digest of a laptop's peer id, in eight characters a person reads
// aloud ("k3mx-2q7f": 40 bits of SHA-256 in Crockford's base 32): the phone's page shows it
// beside the laptop's label, and the laptop prints it, so that a person can see which machine
// a phone reached. It comes from the hub's Welcome, which no other phone can write.
func Fingerprint(node string) string {
	const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
	sum := sha256.Sum256([]byte(node))
	v := uint64(sum[0])<<32 | uint64(sum[1])<<24 | uint64(sum[2])<<16 | uint64(sum[3])<<8 | uint64(sum[4])
	var b [9]byte
	for i := 8; i >= 0; i-- {
		if i == 4 {
			b[i] = '-'
			continue
		}
		b[i] = alphabet[v&31]
		v >>= 5
	}
	return string(b[:])
}
