package corruptia

import (
	"fmt"

	"corruption/engine"
)

func init() { engine.Register(Rules{}) }

// Table sizes and the numbers of the rule sheet.
const (
	MinPlayers      = 2
	MaxPlayers      = 5
	Rounds          = 5
	StartingBills   = 3
	OpeningHand     = 4  // bills dealt to each senator before the first round; one is discarded
	BillsPerRound   = 2  // bills dealt to each senator at the start of a round
	FaceUpPerRound  = 3  // bills discarded face up at the start of a round
	EmployeesEach   = 3  // well-connected employees in each senator's reserve
	TokenSupply     = 30 // public approval tokens in the box
	NumOfficials    = StartingBills * OfficialsPerStart
	DefaultAmends   = 3
	MaxAmendsConfig = 9
)

// SetAside is how many bills are set aside unseen at a table of players: 44, 30, 16 or 2. The
// rest is exactly what a game draws (Draws).
func SetAside(players int) int {
	if players < MinPlayers || players > MaxPlayers {
		return 0
	}
	return [...]int{2: 44, 3: 30, 4: 16, 5: 2}[players]
}

// Draws is how many bills a game of players draws from the deck: the three starting bills,
// four to each senator, then each round two to each senator and three face up.
func Draws(players int) int {
	return StartingBills + OpeningHand*players + Rounds*(BillsPerRound*players+FaceUpPerRound)
}

// Config is what a table chooses before a game: how many times the active senator may amend
// its proposal in one turn before it must call the vote (the rule sheet sets no bound; a table
// on a network needs one).
type Config struct {
	Amendments int // 0 to 9 at a table (EncodeConfig); NewGame takes any bound, as a script may give
}

// DefaultConfig is the configuration a table plays unless it chooses otherwise.
func DefaultConfig() Config { return Config{Amendments: DefaultAmends} }

// Configuration encoding: u8 format (1) ‖ u8 amendments.
const configFormat = 1

// EncodeConfig is the canonical encoding of c.
func EncodeConfig(c Config) ([]byte, error) {
	if c.Amendments < 0 || c.Amendments > MaxAmendsConfig {
		return nil, fmt.Errorf("config: %d amendments a turn, want 0 to %d", c.Amendments, MaxAmendsConfig)
	}
	return []byte{configFormat, byte(c.Amendments)}, nil
}

// DecodeConfig reads a configuration made by EncodeConfig; whatever it accepts, EncodeConfig
// gives back byte for byte.
func DecodeConfig(b []byte) (Config, error) {
	if len(b) != 2 {
		return Config{}, fmt.Errorf("config: %d bytes, want 2 (format, amendments)", len(b))
	}
	if b[0] != configFormat {
		return Config{}, fmt.Errorf("config: unknown format %d (want %d)", b[0], configFormat)
	}
	c := Config{Amendments: int(b[1])}
	if c.Amendments > MaxAmendsConfig {
		return Config{}, fmt.Errorf("config: %d amendments a turn, want 0 to %d", c.Amendments, MaxAmendsConfig)
	}
	return c, nil
}

// Rules is Corruptia as the table kit knows it: id "corruptia", 2 to 5 players, and the
// configuration EncodeConfig makes. The zero value is ready to use.
type Rules struct{}

func (Rules) ID() string              { return "corruptia" }
func (Rules) Name() string            { return "Corruptia" }
func (Rules) Players() (min, max int) { return MinPlayers, MaxPlayers }

// CheckConfig says what is wrong with a configuration or a table size.
func (Rules) CheckConfig(config []byte, players int) error {
	if _, err := DecodeConfig(config); err != nil {
		return err
	}
	if players < MinPlayers || players > MaxPlayers {
		return fmt.Errorf("players: %d is not between %d and %d", players, MinPlayers, MaxPlayers)
	}
	return nil
}

// DescribeConfig is a configuration in words: "up to 3 amendments a turn".
func (Rules) DescribeConfig(config []byte) string {
	c, err := DecodeConfig(config)
	switch {
	case err != nil:
		return fmt.Sprintf("invalid (%v)", err)
	case c.Amendments == 0:
		return "no amendments"
	case c.Amendments == 1:
		return "up to 1 amendment a turn"
	}
	return fmt.Sprintf("up to %d amendments a turn", c.Amendments)
}

// New starts a game: a *Game.
func (r Rules) New(config []byte, players int, opt engine.Options) (engine.Game, error) {
	if err := r.CheckConfig(config, players); err != nil {
		return nil, err
	}
	c, _ := DecodeConfig(config)
	g, err := NewGame(c, players, opt.OnEvent)
	if err != nil {
		return nil, err
	}
	return g, nil
}
