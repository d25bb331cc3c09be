package tablenet

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// What a laptop offers its phones beyond relaying, as requests to the laptop's peer id (its
// own member alone serves them: HubPolicy.Laptop): the seat it gives (demo --phones), and bots
// for a table a phone creates (corruption host, play --phones).
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

// Laptop is the laptop a phone goes through, as a phone asks it (*bridge.Client): its peer id
// ("" before the first connection) and a request to it.
type Laptop interface {
	Node() string
	Request(ctx context.Context, peer, proto string, req []byte) ([]byte, error)
}

// ErrNoSeat is AskSeat's answer when the laptop gives no seat (play, host: the phone chooses
// its table in its lobby) or gave it to another phone.
var ErrNoSeat = errors.New("the laptop gives no seat: choose a table in the lobby")

// ErrNoLaptop is a question to a laptop not reached yet.
var ErrNoLaptop = errors.New("not connected to the laptop yet")

// noSeat is the text a laptop answers a seat request with when it has none to give.
const noSeat = "no seat to give"

// NoSeat is the error a laptop's seat handler returns when it has no seat for the asker.
func NoSeat(why string) error { return fmt.Errorf("%s: %s", noSeat, why) }

// AskSeat asks the laptop for the seat it gives (demo --phones gives the person's seat to the
// first phone that asks), stating the seat's identity key: the same key gets the same seat
// again (a reload). ErrNoSeat when there is none for it.
func AskSeat(ctx context.Context, l Laptop, key ed25519.PublicKey) (*Wish, error) {
	if len(key) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("a seat key of %d bytes", len(key))
	}
	node := l.Node()
	if node == "" {
		return nil, ErrNoLaptop
	}
	ans, err := l.Request(ctx, node, SeatProto, key)
	if err != nil {
		if strings.Contains(err.Error(), noSeat) {
			return nil, fmt.Errorf("%w (%v)", ErrNoSeat, err)
		}
		return nil, err
	}
	var w Wish
	if err := json.Unmarshal(ans, &w); err != nil {
		return nil, fmt.Errorf("the laptop's seat: %w", err)
	}
	return &w, nil
}

// AskBots asks the laptop to seat w.Bots bots at the table w (which the phone creates from its
// lobby). The laptop checks the table and its limits, and says why it refuses. Its answer is
// the table as its bots sit at it: Escrow false when they hold every seat but the phone's, and
// the phone's seat must then not escrow either (the seat that writes the genesis decides).
func AskBots(ctx context.Context, l Laptop, w Wish) (*Wish, error) {
	node := l.Node()
	if node == "" {
		return nil, ErrNoLaptop
	}
	b, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	ans, err := l.Request(ctx, node, BotsProto, b)
	if err != nil {
		return nil, err
	}
	var got Wish
	if err := json.Unmarshal(ans, &got); err != nil {
		return nil, fmt.Errorf("the laptop's answer for bots: %w", err)
	}
	return &got, nil
}
