package corruption

import "fmt"

// Contract identifies one of the 24 contracts of the default deck (docs/RULES.md), by its index
// in DefaultDeck.
type Contract uint8

// NumContracts is the size of the contract deck.
const NumContracts = 24

// ContractInfo is one contract card: its id in files and on the wire, its name and its value.
type ContractInfo struct {
	ID    string
	Name  string
	Value int
}

// DefaultDeck is the contract deck, in the order of docs/RULES.md (cheapest first). Total
// $12,000,000.
var DefaultDeck = [NumContracts]ContractInfo{
	{"school", "Elementary School", 100000},
	{"monument", "Monument", 100000},
	{"library", "Public Library", 150000},
	{"firehouse", "Fire Station", 150000},
	{"police", "Police Headquarters", 200000},
	{"postoffice", "Post Office", 200000},
	{"courthouse", "Courthouse", 250000},
	{"hospital", "Hospital", 300000},
	{"housing", "Public Housing", 300000},
	{"opera", "Opera House", 350000},
	{"museum", "Museum", 350000},
	{"sewer", "Sewer System", 400000},
	{"streetcar", "Streetcar Line", 450000},
	{"university", "University", 500000},
	{"waterworks", "Water Works", 500000},
	{"stadium", "Stadium", 600000},
	{"harbor", "Harbor", 650000},
	{"bridge", "Bridge", 700000},
	{"convention", "Convention Center", 750000},
	{"powerplant", "Power Plant", 800000},
	{"subway", "Subway Line", 900000},
	{"expressway", "Interstate Expressway", 1000000},
	{"airport", "Airport", 1100000},
	{"dam", "Hydro-Electric Dam", 1200000},
}

// ParseContract reads a contract by its id ("airport").
func ParseContract(s string) (Contract, error) {
	for i := range DefaultDeck {
		if DefaultDeck[i].ID == s {
			return Contract(i), nil
		}
	}
	return 0, fmt.Errorf("unknown contract %q", s)
}

// String is the contract's id.
func (c Contract) String() string {
	if int(c) < NumContracts {
		return DefaultDeck[c].ID
	}
	return fmt.Sprintf("contract(%d)", uint8(c))
}

// Name is the contract's name in words ("Hydro-Electric Dam").
func (c Contract) Name() string {
	if int(c) < NumContracts {
		return DefaultDeck[c].Name
	}
	return c.String()
}

// Value is what the contract is worth to the player who wins it.
func (c Contract) Value() int {
	if int(c) < NumContracts {
		return DefaultDeck[c].Value
	}
	return 0
}

// Body is one of the three government bodies, left to right.
type Body uint8

const (
	City Body = iota
	County
	Capitol
	NumBodies = 3
)

var bodyIDs = [NumBodies]string{"city", "county", "capitol"}
var bodyNames = [NumBodies]string{"City Hall", "County Seat", "Capitol"}

func (b Body) String() string {
	if b < NumBodies {
		return bodyIDs[b]
	}
	return fmt.Sprintf("body(%d)", uint8(b))
}

// Name is the body in words ("County Seat").
func (b Body) Name() string {
	if b < NumBodies {
		return bodyNames[b]
	}
	return b.String()
}

// Spot is where a card is placed: under a contract, or on a body's Swiss bank account.
// Spots 0..23 are the contracts; SwissCity, SwissCounty and SwissCapitol the accounts.
type Spot uint8

const (
	SwissCity Spot = NumContracts + iota
	SwissCounty
	SwissCapitol
	numSpots
)

// ContractSpot is the spot under contract c.
func ContractSpot(c Contract) Spot { return Spot(c) }

// SwissSpot is body b's Swiss bank account.
func SwissSpot(b Body) Spot { return SwissCity + Spot(b) }

// IsSwiss reports whether the spot is a Swiss bank account.
func (s Spot) IsSwiss() bool { return s >= SwissCity && s < numSpots }

// Contract is the contract of a contract spot (meaningless for a Swiss account).
func (s Spot) Contract() Contract { return Contract(s) }

// SwissBody is the body of a Swiss account spot.
func (s Spot) SwissBody() Body { return Body(s - SwissCity) }

// ParseSpot reads a spot: a contract id ("airport") or "swiss:city", "swiss:county", "swiss:capitol".
func ParseSpot(s string) (Spot, error) {
	for b := Body(0); b < NumBodies; b++ {
		if s == "swiss:"+bodyIDs[b] {
			return SwissSpot(b), nil
		}
	}
	c, err := ParseContract(s)
	if err != nil {
		return 0, fmt.Errorf("unknown place %q (want a contract id or swiss:city, swiss:county, swiss:capitol)", s)
	}
	return ContractSpot(c), nil
}

// String is the spot's wire name: the contract id, or "swiss:city" etc.
func (s Spot) String() string {
	if s.IsSwiss() {
		return "swiss:" + s.SwissBody().String()
	}
	return s.Contract().String()
}
