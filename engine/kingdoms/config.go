package kingdoms

import (
	"fmt"
	"strings"
)

// Config is which rules a table plays: the basic rules, or the advanced rules' two parts, bill
// bonuses and chaos cards (both: "advanced"). A 2-player game uses all the advanced rules.
type Config struct {
	Bonuses bool `json:"bonuses"` // bill bonuses by the type of the bill's first favor
	Chaos   bool `json:"chaos"`   // chaos cards
}

// Basic and Advanced are the sheet's two sets of rules.
var (
	Basic    = Config{}
	Advanced = Config{Bonuses: true, Chaos: true}
)

// The configuration is one byte of flags; the other bits are zero.
const (
	flagBonuses = 1 << iota
	flagChaos
	configFlags = flagBonuses | flagChaos
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
	return Config{Bonuses: b[0]&flagBonuses != 0, Chaos: b[0]&flagChaos != 0}, nil
}

// Check says what is wrong with c for a table of players, or nil.
func (c Config) Check(players int) error {
	if players < MinPlayers || players > MaxPlayers {
		return fmt.Errorf("players: %d is not between %d and %d", players, MinPlayers, MaxPlayers)
	}
	if players == 2 && c != Advanced {
		return fmt.Errorf("the 2-player game uses all the advanced rules, not %s", c)
	}
	return nil
}

// String names the rules as ParseConfig reads them: "basic", "advanced", "bonuses", "chaos".
func (c Config) String() string {
	switch c {
	case Basic:
		return "basic"
	case Advanced:
		return "advanced"
	case Config{Bonuses: true}:
		return "bonuses"
	}
	return "chaos"
}

// Words is the configuration for people: "the advanced rules (bill bonuses and chaos cards)".
func (c Config) Words() string {
	switch c {
	case Basic:
		return "the basic rules"
	case Advanced:
		return "the advanced rules (bill bonuses and chaos cards)"
	case Config{Bonuses: true}:
		return "the basic rules with bill bonuses"
	}
	return "the basic rules with chaos cards"
}

// ParseConfig reads the rules' name: basic, advanced, bonuses (basic with bill bonuses) or chaos
// (basic with chaos cards).
func ParseConfig(s string) (Config, error) {
	for _, c := range []Config{Basic, Advanced, {Bonuses: true}, {Chaos: true}} {
		if c.String() == s {
			return c, nil
		}
	}
	return Config{}, fmt.Errorf("unknown rules %q (want %s)", s, strings.Join(ConfigNames(), ", "))
}

// ConfigNames lists the names ParseConfig reads.
func ConfigNames() []string { return []string{"basic", "advanced", "bonuses", "chaos"} }
