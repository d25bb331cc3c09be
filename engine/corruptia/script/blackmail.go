package script

import (
	"fmt"
	"strings"

	"corruption/engine/corruptia"
)

// A blackmail card is named in a script by an id made from its title (data/parties.csv): lower
// case, without "The", words joined by hyphens and other signs left out. "The Nephew's
// Contract" is "nephews-contract". Card k (from 1) of the party of seat p is dirt on seat p and
// is dealt to p's k-th opponent clockwise (docs/CORRUPTIA.md).

// CardID is the id of card k (1 to 4) of the party of seat p.
func CardID(p, k int) string {
	title := strings.TrimPrefix(corruptia.PartyOf(p).Blackmail[k-1], "The ")
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(title)) {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		for _, r := range w {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// parseCard finds the card an id names: its party's seat p and its number k.
func parseCard(id string) (p, k int, err error) {
	for p := range corruptia.MaxPlayers {
		for k := 1; k < corruptia.MaxPlayers; k++ {
			if CardID(p, k) == id {
				return p, k, nil
			}
		}
	}
	return 0, 0, fmt.Errorf("unknown blackmail card %q (want an id such as %q: docs/CORRUPTIA.md, \"Scripts\")", id, CardID(1, 2))
}

// checkCard says what is wrong with seat playing the card id on target at a table of n, as
// far as the card goes: a seat holds the card of each opponent's party dealt to it, and plays
// it on that opponent alone. Whether it played it already, the game says.
func checkCard(seat, target, n int, id string) error {
	p, k, err := parseCard(id)
	if err != nil {
		return err
	}
	title := corruptia.PartyOf(p).Blackmail[k-1]
	switch holder := (p + k) % n; {
	case p >= n || k >= n:
		return fmt.Errorf("seat %d cannot play %s (%s): at a table of %d it is not dealt", seat, title, id, n)
	case holder != seat:
		return fmt.Errorf("seat %d cannot play %s (%s): it does not hold it (seat %d does)", seat, title, id, holder)
	case p != target:
		return fmt.Errorf("seat %d cannot blackmail seat %d with %s (%s): that card is dirt on seat %d (%s)", seat, target, title, id, p, corruptia.PartyOf(p).Name)
	}
	return nil
}
