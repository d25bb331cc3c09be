package kingdoms

import (
	"fmt"
	"strconv"
	"strings"
)

// Chaos cards (advanced rules): each is one effect from a small vocabulary of effects on the
// game's own mechanics, with its arguments. The effect says when the card may be played.

// Effect is what a chaos card does.
type Effect uint8

const (
	Recruit  Effect = iota // take the card's two minions from the supply
	Hustle                 // take one more action this turn
	Indulge                // take a guilty pleasure from the display, which is refilled
	Coup                   // take control of a leader with the card's heart, paying nothing
	Scandal                // remove an opponent's ownership marker from a leader
	Lobby                  // call a vote on any bill, even where you control no leader
	Earmark                // place a favor from the market on a bill
	Shred                  // discard an opponent's favor from a bill
	Embezzle               // take up to two minions of one type from an opponent
	Ballot                 // add N votes for or against the bill being voted
	Veto                   // the bill being voted is tabled, whatever the votes
	Guard                  // the steal of your leader fails
	numEffects
)

var effectNames = [numEffects]string{"recruit", "hustle", "indulge", "coup", "scandal", "lobby", "earmark",
	"shred", "embezzle", "ballot", "veto", "guard"}

func (e Effect) String() string {
	if e < numEffects {
		return effectNames[e]
	}
	return fmt.Sprintf("effect(%d)", uint8(e))
}

// Timing is when a chaos card may be played. Playing one is never an action.
type Timing uint8

const (
	// OnTurn: on your own turn, before one of your actions.
	OnTurn Timing = iota
	// OnVote: when the votes on a bill have been revealed, before the bill is resolved.
	OnVote
	// OnSteal: when an opponent steals one of your leaders, before the steal resolves.
	OnSteal
)

func (t Timing) String() string {
	return [...]string{"on your turn, before an action", "when the votes are revealed", "when a leader of yours is stolen"}[t]
}

// Timing is when a card with effect e may be played.
func (e Effect) Timing() Timing {
	switch e {
	case Ballot, Veto:
		return OnVote
	case Guard:
		return OnSteal
	}
	return OnTurn
}

// ChaosCard is one of the 36 chaos cards.
type ChaosCard struct {
	ID, Name string
	Corp     int // its corporation
	Effect   Effect
	Minions  [2]Minion // Recruit: the minions taken
	Heart    Heart     // Coup: the heart of the leaders it may take
	Votes    int       // Ballot: the votes added
}

// Text is the card's text, made from its effect.
func (c ChaosCard) Text() string {
	switch c.Effect {
	case Recruit:
		return fmt.Sprintf("Take a %s and a %s from the supply.", c.Minions[0], c.Minions[1])
	case Hustle:
		return "Take one more action this turn."
	case Indulge:
		return "Take a guilty pleasure from the display; refill the display from the deck."
	case Coup:
		return fmt.Sprintf("Take control of a leader whose guilty pleasure is %s, paying nothing (a steal: its controller may answer).", c.Heart)
	case Scandal:
		return "Remove an opponent's ownership marker from a leader."
	case Lobby:
		return "Call a vote on any bill with favors, even where you control no leader."
	case Earmark:
		return "Take a favor from the market and place it on a bill, as the action would."
	case Shred:
		return "Discard an opponent's favor from a bill."
	case Embezzle:
		return "Take up to two minions of one type from an opponent."
	case Ballot:
		return fmt.Sprintf("Add %d votes for or against the bill, as you choose.", c.Votes)
	case Veto:
		return "The bill is tabled, whatever the votes."
	case Guard:
		return "The steal fails: the thief's minions and action are spent."
	}
	return ""
}

func (d *tables) parseChaos(lines [][]string) error {
	for _, l := range lines {
		if len(l) < 5 {
			return fmt.Errorf("line %s: %d fields, want corporation id name effect arguments", l[0], len(l)-1)
		}
		corp, err := lookup("corporation", l[1], len(d.corporations), func(i int) string { return d.corporations[i].ID })
		if err != nil {
			return fmt.Errorf("line %s: %w", l[0], err)
		}
		e, err := parseName[Effect]("effect", l[4], effectNames[:])
		if err != nil {
			return fmt.Errorf("line %s: %w", l[0], err)
		}
		c := ChaosCard{ID: l[2], Name: l[3], Corp: corp, Effect: e}
		args := l[5:]
		want := map[Effect]int{Recruit: 2, Coup: 1, Ballot: 1}[e]
		if len(args) != want {
			return fmt.Errorf("line %s: %s takes %d arguments, not %d (%s)", l[0], e, want, len(args), strings.Join(args, " "))
		}
		switch e {
		case Recruit:
			a, err1 := ParseMinion(args[0])
			b, err2 := ParseMinion(args[1])
			err, c.Minions = firstErr(err1, err2), [2]Minion{a, b}
		case Coup:
			c.Heart, err = ParseHeart(args[0])
		case Ballot:
			c.Votes, err = strconv.Atoi(args[0])
			if err == nil && (c.Votes < 1 || c.Votes > 5) {
				err = fmt.Errorf("a ballot of %d votes, want 1 to 5", c.Votes)
			}
		}
		if err != nil {
			return fmt.Errorf("line %s: %w", l[0], err)
		}
		d.corporations[corp].Chaos = append(d.corporations[corp].Chaos, len(d.chaosCards))
		d.chaosCards = append(d.chaosCards, c)
	}
	for _, c := range d.corporations {
		if len(c.Chaos) != ChaosPerCorp {
			return fmt.Errorf("%s has %d chaos cards, want %d", c.ID, len(c.Chaos), ChaosPerCorp)
		}
	}
	return unique(len(d.chaosCards), func(i int) string { return d.chaosCards[i].ID })
}
