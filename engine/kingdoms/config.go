package kingdoms

import (
	"fmt"
	"strings"
)

// Config is which rules a table plays: the basic rules, or the advanced rules' two parts, bill
// bonuses and chaos cards (both: "advanced"). A 2-player game uses all the advanced rules.
// Even adds this project's house rules "even", which the sheet does not have (HouseEven).
type Config struct {
	Bonuses bool `json:"bonuses"`        // bill bonuses by the type of the bill's first favor
	Chaos   bool `json:"chaos"`          // chaos cards
	Even    bool `json:"even,omitempty"` // the house rules "even": places in turn order made fairer
}

// Basic and Advanced are the sheet's two sets of rules.
var (
	Basic    = Config{}
	Advanced = Config{Bonuses: true, Chaos: true}
)

// HouseEven is the name of the house rules Config.Even adds to the sheet's, to make the places in
// turn order fairer (docs/KINGDOMS.md, "Balance"): when a deck runs out, the round is played to its
// end, so that every player has had as many turns, before final voting; and the guilty pleasures
// of a passed bill are taken in the order of the markers from bottom to top.
const HouseEven = "even"

// The configuration is one byte of flags; the other bits are zero. A table without the house
// rules has bit 2 clear, so its configuration is the byte it always was.
const (
	flagBonuses = 1 << iota
	flagChaos
	flagEven
	configFlags = flagBonuses | flagChaos | flagEven
)

// EncodeConfig is the canonical configuration of c: one byte.
func EncodeConfig(c Config) []byte {
	var b byte
	if c.Bonuses {
		b |= flagBonuses
	}
	if c.Chaos {
		b |= flagChaos
	}
	if c.Even {
		b |= flagEven
	}
	return []byte{b}
}

// DecodeConfig reads a configuration made by EncodeConfig. It is strict: whatever it accepts,
// EncodeConfig gives back byte for byte.
func DecodeConfig(b []byte) (Config, error) {
	if len(b) != 1 {
		return Config{}, fmt.Errorf("config: %d bytes, want 1 (flags)", len(b))
	}
	if b[0]&^configFlags != 0 {
		return Config{}, fmt.Errorf("config: unknown flags %#02x", b[0]&^configFlags)
	}
	return Config{Bonuses: b[0]&flagBonuses != 0, Chaos: b[0]&flagChaos != 0, Even: b[0]&flagEven != 0}, nil
}

// Check says what is wrong with c for a table of players, or nil.
func (c Config) Check(players int) error {
	if players < MinPlayers || players > MaxPlayers {
		return fmt.Errorf("players: %d is not between %d and %d", players, MinPlayers, MaxPlayers)
	}
	if players == 2 && c.Sheet() != Advanced {
		return fmt.Errorf("the 2-player game uses all the advanced rules, not %s", c.Sheet())
	}
	return nil
}

// Sheet is c without the house rules: the sheet's rules it plays.
func (c Config) Sheet() Config {
	c.Even = false
	return c
}

// String names the rules as ParseConfig reads them: "basic", "advanced", "bonuses", "chaos",
// followed by "+even" with the house rules.
func (c Config) String() string {
	name := "chaos"
	switch c.Sheet() {
	case Basic:
		name = "basic"
	case Advanced:
		name = "advanced"
	case Config{Bonuses: true}:
		name = "bonuses"
	}
	if c.Even {
		name += "+" + HouseEven
	}
	return name
}

// Words is the configuration for people: "the advanced rules (bill bonuses and chaos cards)".
func (c Config) Words() string {
	w := "the basic rules with chaos cards"
	switch c.Sheet() {
	case Basic:
		w = "the basic rules"
	case Advanced:
		w = "the advanced rules (bill bonuses and chaos cards)"
	case Config{Bonuses: true}:
		w = "the basic rules with bill bonuses"
	}
	if c.Even {
		w += `, with the house rules "even" (the last round played to its end; guilty pleasures taken from the bottom marker up)`
	}
	return w
}

// ParseConfig reads the rules' name: basic, advanced, bonuses (basic with bill bonuses) or chaos
// (basic with chaos cards), each optionally followed by "+even" (the house rules).
func ParseConfig(s string) (Config, error) {
	name, even := strings.CutSuffix(s, "+"+HouseEven)
	for _, c := range []Config{Basic, Advanced, {Bonuses: true}, {Chaos: true}} {
		if c.String() == name {
			c.Even = even
			return c, nil
		}
	}
	return Config{}, fmt.Errorf("unknown rules %q (want %s); add +%s for the house rules", s, strings.Join(ConfigNames(), ", "), HouseEven)
}

// ConfigNames lists the names of the sheet's rules ParseConfig reads.
func ConfigNames() []string { return []string{"basic", "advanced", "bonuses", "chaos"} }

// HouseNames lists the house rules a table may choose: "none" (the sheet's rules alone) and
// "even".
func HouseNames() []string { return []string{"none", HouseEven} }

// WithHouse is c with the house rules named (one of HouseNames).
func (c Config) WithHouse(name string) (Config, error) {
	switch name {
	case "none":
		c.Even = false
	case HouseEven:
		c.Even = true
	default:
		return c, fmt.Errorf("unknown house rules %q (want %s)", name, strings.Join(HouseNames(), " or "))
	}
	return c, nil
}
