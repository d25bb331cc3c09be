package corruption

import "fmt"

// EventKind says what happened.
type EventKind uint8

const (
	EventDealt     EventKind = iota // Contract dealt under Body
	EventFaceUp                     // Seat chose Positions (free stud)
	EventPeeked                     // Seat peeked at card Index
	EventPlaced                     // Seat placed card Index on Spot (Card when face up)
	EventRevealed                   // card Index is Card
	EventAssigned                   // Swiss bribe Index assigned to Contract
	EventKilled                     // hit man Index killed card Target
	EventCancelled                  // Contract cancelled by a district attorney: deferred
	EventRemoved                    // reporter Index removed bribe Target
	EventPassed                     // reporter Index removed nothing
	EventAwarded                    // Contract awarded to Seat for Amount
	EventDeferred                   // Contract deferred: a tie (Amount) or no bribe (Amount 0)
	EventRoundOver                  // round Round ended; Seat leads round Round+1
	EventGameOver                   // the game is over
)

// Event is one thing that happened, for logs and front ends.
type Event struct {
	Kind      EventKind
	Round     int
	Seat      int
	Index     int // 1-based card index in the round's play order
	Target    int // 1-based card index of a victim or removed bribe
	Card      Card
	Spot      Spot
	Contract  Contract
	Body      Body
	Positions Positions
	Amount    int
}

func (e Event) String() string {
	switch e.Kind {
	case EventDealt:
		return fmt.Sprintf("%s ($%s) is dealt under %s", e.Contract.Name(), money(e.Contract.Value()), e.Body.Name())
	case EventFaceUp:
		return fmt.Sprintf("seat %d chooses face-up positions %s", e.Seat, e.Positions)
	case EventPeeked:
		return fmt.Sprintf("seat %d peeks at card %d", e.Seat, e.Index)
	case EventPlaced:
		if e.Card == CardUnknown {
			return fmt.Sprintf("card %d: seat %d places a card face down on %s", e.Index, e.Seat, spotWords(e.Spot))
		}
		return fmt.Sprintf("card %d: seat %d places %s face up on %s", e.Index, e.Seat, e.Card.Title(), spotWords(e.Spot))
	case EventRevealed:
		return fmt.Sprintf("card %d (seat %d, %s) is %s", e.Index, e.Seat, spotWords(e.Spot), e.Card.Title())
	case EventAssigned:
		return fmt.Sprintf("seat %d assigns its Swiss bribe (card %d) to %s", e.Seat, e.Index, e.Contract.Name())
	case EventKilled:
		return fmt.Sprintf("seat %d's hit man (card %d) kills card %d on %s", e.Seat, e.Index, e.Target, e.Contract.Name())
	case EventCancelled:
		return fmt.Sprintf("%s is cancelled by a district attorney and deferred", e.Contract.Name())
	case EventRemoved:
		return fmt.Sprintf("seat %d's reporter (card %d) removes card %d from %s", e.Seat, e.Index, e.Target, e.Contract.Name())
	case EventPassed:
		return fmt.Sprintf("seat %d's reporter (card %d) removes nothing", e.Seat, e.Index)
	case EventAwarded:
		return fmt.Sprintf("%s goes to seat %d for $%s in bribes", e.Contract.Name(), e.Seat, money(e.Amount))
	case EventDeferred:
		if e.Amount == 0 {
			return fmt.Sprintf("%s has no bribe and is deferred", e.Contract.Name())
		}
		return fmt.Sprintf("%s is tied at $%s and deferred", e.Contract.Name(), money(e.Amount))
	case EventRoundOver:
		return fmt.Sprintf("round %d is over; seat %d leads round %d", e.Round, e.Seat, e.Round+1)
	case EventGameOver:
		return "the game is over"
	}
	return fmt.Sprintf("event(%d)", e.Kind)
}

func spotWords(s Spot) string {
	if s.IsSwiss() {
		return s.SwissBody().Name() + "'s Swiss account"
	}
	return s.Contract().Name()
}

// money writes n with thousands separators: 1200000 -> "1,200,000".
func money(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + money(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Money formats an amount of dollars with thousands separators ("1,200,000").
func Money(n int) string { return money(n) }
