package corruption

import (
	"fmt"
	"strings"
)

// Variant is the rule for which cards are played face up.
type Variant uint8

const (
	Standard     Variant = iota // round r shows each player's cards 1..r
	DownTheRiver                // r1 {3}, r2 {3,4}, r3 {2,3,4}, r4 {2,3,4,5}
	FreeStud                    // the round's first player chooses the face-up positions
	Closed                      // everything face down, no characters
	numVariants
)

var variantNames = [numVariants]string{"standard", "down-the-river", "free-stud", "closed"}

// ParseVariant reads a variant name: standard, down-the-river, free-stud or closed.
func ParseVariant(s string) (Variant, error) {
	for v := Variant(0); v < numVariants; v++ {
		if variantNames[v] == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q (want standard, down-the-river, free-stud or closed)", s)
}

func (v Variant) String() string {
	if v < numVariants {
		return variantNames[v]
	}
	return fmt.Sprintf("variant(%d)", uint8(v))
}

// Positions is a set of positions 1..6 in a player's sequence of cards in a round: bit p-1 is
// position p.
type Positions uint8

// AllPositions is {1..6}.
const AllPositions Positions = 0x3f

// PositionsOf builds a set from a list of positions, which must each be 1..6 and distinct.
func PositionsOf(ps ...int) (Positions, error) {
	var m Positions
	for _, p := range ps {
		if p < 1 || p > CardsPerRound {
			return 0, fmt.Errorf("face-up position %d is not between 1 and %d", p, CardsPerRound)
		}
		if m.Has(p) {
			return 0, fmt.Errorf("face-up position %d is listed twice", p)
		}
		m |= 1 << (p - 1)
	}
	return m, nil
}

// Has reports whether position p is in the set.
func (m Positions) Has(p int) bool { return p >= 1 && p <= 8 && m&(1<<(p-1)) != 0 }

// List is the set as ascending positions.
func (m Positions) List() []int {
	ps := []int{}
	for p := 1; p <= CardsPerRound; p++ {
		if m.Has(p) {
			ps = append(ps, p)
		}
	}
	return ps
}

func (m Positions) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range m.List() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, p)
	}
	b.WriteByte('}')
	return b.String()
}

// faceUpPositions is the fixed face-up rule of a variant in round r (1..4). Free stud has none:
// its positions are chosen each round.
func faceUpPositions(v Variant, round int) Positions {
	switch v {
	case Standard:
		return Positions(1<<round - 1)
	case DownTheRiver:
		return [...]Positions{0, 0b000100, 0b001100, 0b001110, 0b011110}[round]
	}
	return 0
}

// Game constants.
const (
	MinPlayers       = 3
	MaxPlayers       = 7
	Rounds           = 4
	CardsPerRound    = 6 // each player places six cards a round
	ContractsPerDeal = 6 // two under each body
	PeeksPerGame     = 2 // little black book
)

// Config is everything a game starts from.
type Config struct {
	Players int     // 3..7; seats are 0..Players-1, clockwise
	Variant Variant //
	// LittleBlackBook gives each player two peeks (not with the closed variant).
	LittleBlackBook bool
	// Deck is the order of the shuffled contract deck, top first: all 24 contracts once each.
	// When nil, the contracts of each round come in Deal moves instead (the network game, whose
	// deck stays encrypted until it is dealt).
	Deck []Contract
	// First is the first player of round 1.
	First int
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return fmt.Errorf("players: %d is not between %d and %d", c.Players, MinPlayers, MaxPlayers)
	}
	if c.Variant >= numVariants {
		return fmt.Errorf("variant: unknown variant %d", c.Variant)
	}
	if c.LittleBlackBook && c.Variant == Closed {
		return fmt.Errorf("little black book cannot be played with the closed variant")
	}
	if c.Deck != nil {
		if err := checkDeck(c.Deck); err != nil {
			return fmt.Errorf("deck: %w", err)
		}
	}
	if c.First < 0 || c.First >= c.Players {
		return fmt.Errorf("first: seat %d is not between 0 and %d", c.First, c.Players-1)
	}
	return nil
}

func checkDeck(deck []Contract) error {
	if len(deck) != NumContracts {
		return fmt.Errorf("has %d contracts, want all %d", len(deck), NumContracts)
	}
	var seen [NumContracts]bool
	for i, c := range deck {
		if int(c) >= NumContracts {
			return fmt.Errorf("card %d is not a contract", i+1)
		}
		if seen[c] {
			return fmt.Errorf("%s appears twice", c)
		}
		seen[c] = true
	}
	return nil
}
