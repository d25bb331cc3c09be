package seat

import (
	"context"
	"crypto/ed25519"
	"errors"
	"time"

	"corruption/protocol/tablenet"
	"corruption/ui"
)

// Laptop is the laptop a seat goes through, as the seat asks it (*bridge.Client): its peer id,
// requests to it (tablenet.AskSeat, AskBots), and a wait until it is reached.
type Laptop interface {
	tablenet.Laptop
	WaitConnected(ctx context.Context) error
}

// askTimeout bounds a question to the laptop (the seat it gives, its bots).
const askTimeout = 20 * time.Second

// askSeat asks the laptop for the seat it gives: its table and its clock, or none (the lobby).
func askSeat(ctx context.Context, cfg Config, key ed25519.PublicKey) (ui.TableChoice, Clock) {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	if err := cfg.Laptop.WaitConnected(ctx); err != nil {
		cfg.Notef("the laptop is not reachable yet: the lobby")
		return ui.TableChoice{}, cfg.Clock
	}
	w, err := tablenet.AskSeat(ctx, cfg.Laptop, key)
	if err != nil {
		if !errors.Is(err, tablenet.ErrNoSeat) {
			cfg.Notef("the laptop gave no seat: %v", err)
		}
		return ui.TableChoice{}, cfg.Clock
	}
	return ui.TableChoice{Table: w.Table, Game: w.Game, Players: w.Players, Config: w.Config, Bots: w.Bots}, clockOf(cfg.Clock, w)
}

// askBots asks the laptop for its bots at the table the person created, and returns the clock
// to create it with (the laptop's word on escrow and clock).
func askBots(ctx context.Context, cfg Config, c ui.TableChoice) Clock {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	w, err := tablenet.AskBots(ctx, cfg.Laptop, tablenet.Wish{Table: c.Table, Game: c.Game, Players: c.Players, Config: c.Config, Bots: c.Bots,
		Escrow: cfg.Clock.Escrow, TimeoutMS: cfg.Clock.Timeout.Milliseconds(), AllowanceMS: cfg.Clock.Allowance.Milliseconds(), BankMS: cfg.Clock.Bank.Milliseconds()})
	if err != nil {
		cfg.Notef("the laptop seats no bots at table %q: %v", c.Table, err)
		return cfg.Clock
	}
	return clockOf(cfg.Clock, w)
}

// clockOf is the clock a laptop's answer gives (its zero fields: def's), with its escrow.
func clockOf(def Clock, w *tablenet.Wish) Clock {
	k := def
	if w.TimeoutMS > 0 {
		k.Timeout = time.Duration(w.TimeoutMS) * time.Millisecond
	}
	if w.AllowanceMS > 0 {
		k.Allowance = time.Duration(w.AllowanceMS) * time.Millisecond
	}
	if w.BankMS > 0 {
		k.Bank = time.Duration(w.BankMS) * time.Millisecond
	}
	k.Escrow = w.Escrow
	return k
}
