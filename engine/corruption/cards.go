package corruption

import "fmt"

// Card is one player card. The zero value is CardUnknown: a face-down card whose value this
// state has not been told.
type Card uint8

const (
	CardUnknown Card = iota
	Bribe1000
	Bribe2000
	Bribe4000
	Bribe6000
	Bribe8000
	Bribe10000
	DA       // district attorney
	Reporter // reporter (each player has two)
	HitMan   // hit man
	numCards
)

// Bribes lists the six bribe cards from the smallest.
var Bribes = [6]Card{Bribe1000, Bribe2000, Bribe4000, Bribe6000, Bribe8000, Bribe10000}

// Characters lists the three character kinds.
var Characters = [3]Card{DA, Reporter, HitMan}

var cardNames = [numCards]string{"?", "1000", "2000", "4000", "6000", "8000", "10000", "da", "reporter", "hitman"}
var cardWords = [numCards]string{"face-down card", "$1,000 bribe", "$2,000 bribe", "$4,000 bribe",
	"$6,000 bribe", "$8,000 bribe", "$10,000 bribe", "district attorney", "reporter", "hit man"}
var bribeValues = [numCards]int{0, 1000, 2000, 4000, 6000, 8000, 10000, 0, 0, 0}

// ParseCard reads a card by its name in files and on the wire: 1000 2000 4000 6000 8000 10000
// da reporter hitman.
func ParseCard(s string) (Card, error) {
	for c := Bribe1000; c < numCards; c++ {
		if cardNames[c] == s {
			return c, nil
		}
	}
	return CardUnknown, fmt.Errorf("unknown card %q (want one of 1000 2000 4000 6000 8000 10000 da reporter hitman)", s)
}

// String is the card's wire name ("4000", "da"); "?" for CardUnknown.
func (c Card) String() string {
	if c < numCards {
		return cardNames[c]
	}
	return fmt.Sprintf("card(%d)", uint8(c))
}

// Words is the card in words: "district attorney", "$4,000 bribe".
func (c Card) Words() string {
	if c < numCards {
		return cardWords[c]
	}
	return c.String()
}

// Title is the card in words, with its article: "a district attorney", "an $8,000 bribe".
func (c Card) Title() string {
	if c == Bribe8000 {
		return "an " + c.Words()
	}
	return "a " + c.Words()
}

// IsBribe reports whether c is one of the six bribes.
func (c Card) IsBribe() bool { return c >= Bribe1000 && c <= Bribe10000 }

// IsCharacter reports whether c is a district attorney, a reporter or a hit man.
func (c Card) IsCharacter() bool { return c >= DA && c <= HitMan }

// Value is a bribe's face value (0 for characters).
func (c Card) Value() int {
	if c < numCards {
		return bribeValues[c]
	}
	return 0
}

// bribeBit is the bit of a bribe in a hand's bribe mask.
func bribeBit(c Card) uint8 { return 1 << (c - Bribe1000) }
