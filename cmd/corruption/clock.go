package main

import (
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/protocol"
	browserseat "corruption/seat"
)

// tableClock is a table's clock as a node that creates the table sets it (the genesis carries
// its creator's), whether it escrows the seats' secrets, and how long the node waits for the
// table to form.
type tableClock struct {
	timeout   time.Duration // an entry a node writes by itself
	allowance time.Duration // a decision; 0: the timeout; protocol.NoClock: no limit
	bank      time.Duration // a seat's bank for the game, drawn on past the allowance
	wait      time.Duration // how long to wait for the table to form
	escrow    bool          // escrow the seats' secrets (3 or more seats; protocol/escrow.go): play on when a player leaves
}

// clockFlags are the clock flags of bot and play, with a command's defaults.
func clockFlags(def tableClock) []cli.Flag {
	return []cli.Flag{
		&cli.DurationFlag{Name: "timeout", Value: def.timeout, Usage: "how long a player's node may take over an entry it writes by itself (keys, shuffles, shares) before the table names it silent and ends"},
		&cli.DurationFlag{Name: "clock", Value: def.allowance, Usage: "how long a player has for each decision (a placement, a vote) before drawing on its bank; 0: the --timeout", DefaultText: def.allowance.String()},
		&cli.DurationFlag{Name: "bank", Value: def.bank, Usage: "each player's time bank for the whole game, drawn on only when a decision takes more than --clock; the table names a player silent when both are spent"},
		&cli.DurationFlag{Name: "wait", Value: def.wait, Usage: "how long to wait for the table to form before giving up"},
		&cli.BoolFlag{Name: "escrow", Value: def.escrow, Usage: "at a table this node creates with 3 or more players, if a player leaves for good, the others play on with a bot in its seat; the price: all the other players together could read a player's hidden cards (docs/SECURITY.md). --escrow=false: a player who leaves ends the table, and nobody can ever read another's hidden cards (2 players: never escrowed)"},
	}
}

// readClock reads the clock flags.
func readClock(c *cli.Context) (tableClock, error) {
	k := tableClock{timeout: c.Duration("timeout"), allowance: c.Duration("clock"), bank: c.Duration("bank"), wait: c.Duration("wait"), escrow: c.Bool("escrow")}
	switch {
	case k.timeout < time.Second:
		return k, usageError("--timeout: %v is too short (at least 1s)", k.timeout)
	case k.allowance < 0 || k.allowance > protocol.NoClock:
		return k, usageError("--clock: %v is not 0 to %v", k.allowance, protocol.NoClock)
	case k.allowance > 0 && k.allowance < time.Second:
		return k, usageError("--clock: %v is too short (at least 1s, or 0 for the --timeout)", k.allowance)
	case k.bank < 0 || k.bank > 24*time.Hour:
		return k, usageError("--bank: %v is not 0 to 24h", k.bank)
	case k.bank > 0 && k.allowance == 0:
		return k, usageError("--bank: a bank needs a --clock for each decision")
	case k.wait < time.Second:
		return k, usageError("--wait: %v is too short (at least 1s)", k.wait)
	}
	if servesPhones(c) && !c.IsSet("timeout") {
		k.timeout = max(k.timeout, browserseat.PhoneClock.Timeout)
	}
	return k, nil
}

// servesPhones says whether the command serves phones (--phones, or host): their seats' pages
// freeze while a phone's screen is locked, so the tables it creates give automatic entries
// the phones' timeout (seat.PhoneClock: a minute's lock does not end the table) unless
// --timeout says otherwise.
func servesPhones(c *cli.Context) bool {
	if c.Command == nil {
		return false
	}
	if c.Command.Name == "host" {
		return true
	}
	for _, f := range c.Command.Flags {
		if slices.Contains(f.Names(), "phones") {
			return c.Bool("phones")
		}
	}
	return false
}

// Each command's clock.
var (
	botClock  = tableClock{timeout: 60 * time.Second, wait: 10 * time.Minute, escrow: true}
	playClock = tableClock{timeout: 60 * time.Second, allowance: 90 * time.Second, bank: 5 * time.Minute, wait: 30 * time.Minute, escrow: true}
	// demoClock: only bots share the person's table: no clock for anyone's decisions. Nobody
	// can leave it (the bots run in the person's process, and stop with it), so it does not
	// escrow unless told --escrow.
	demoClock = tableClock{timeout: 60 * time.Second, allowance: protocol.NoClock, wait: 10 * time.Minute}
)
