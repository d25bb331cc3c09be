package kingdoms

import (
	"fmt"
	"strings"
)

// EventKind says what happened.
type EventKind uint8

const (
	EventCorporation   EventKind = iota // Seat is Corp, and took its starting Minions
	EventFirst                          // Seat is the starting player
	EventMarket                         // Favor was dealt to the market
	EventDisplay                        // Pleasure was dealt to the display
	EventDiscarded                      // Seat discarded a chaos card face down
	EventTurn                           // Seat's turn begins (Round)
	EventTake                           // Seat took Favor for its Minions (those the supply had)
	EventPlace                          // Seat placed Favor on Bill
	EventInfluence                      // Seat paid Minions to influence Leader (from Target, a steal, if >= 0)
	EventControl                        // Seat controls Leader
	EventStealFailed                    // Seat's steal of Leader from Target failed
	EventMonarch                        // Seat takes Kingdom's monarch
	EventCall                           // a vote on Bill is called by Seat (callAuto, callFinal); Seats vote
	EventVotes                          // the votes on Bill are revealed: Votes by seat (1 yes, 0 no, -1 none)
	EventChaos                          // Seat played chaos Card (Move: the card's arguments)
	EventResult                         // Bill Result, Yes to No (Veto)
	EventBillDiscarded                  // the Count favors of failed Bill are discarded
	EventPleasure                       // Seat takes guilty pleasure Pleasure (-1: it takes none)
	EventCycle                          // Seat puts Pleasure under the deck (environment bonus)
	EventUnmarked                       // Seat removed Target's marker from Leader
	EventExchange                       // Seat exchanged its Favor on Bill for Other from the market
	EventGain                           // Seat takes Minions from the supply
	EventCollect                        // Seat takes Count favors of Bill to its score pile
	EventReturned                       // Count unclaimed guilty pleasures go under the deck
	EventShredded                       // Seat discarded Target's Favor from Bill
	EventEmbezzled                      // Seat took Minions from Target
	EventEnding                         // the game ends (Reason): final voting follows (Round > 0, house rules "even": after Round)
	EventFinalVoting                    // final voting begins
	EventShareholders                   // Seat shows its shareholder cards: Types
	EventScore                          // Seat scores Score
	EventOver                           // the game is over: Winners
	EventNoAction                       // Seat has no action it can take: its Count actions left are lost (house rules "even")
)

// Event is one thing that happened, for narration and front ends. Which fields count depends on
// Kind.
type Event struct {
	Kind     EventKind
	Seat     int
	Target   int
	Round    int
	Corp     int
	Favor    int
	Other    int
	Bill     int
	Kingdom  int
	Leader   int
	Pleasure int
	Card     int
	Count    int
	Minions  [NumMinions]int
	Seats    []int
	Votes    []int
	Yes, No  int
	Result   VoteResult
	Veto     bool
	Reason   EndReason
	Types    []FavorType
	Score    Score
	Winners  []int
	Move     Move
}

// emit tells the event to OnEvent (after the input is applied whole).
func (g *Game) emit(e Event) {
	if g.recording {
		g.events = append(g.events, e)
	}
}

func (e Event) String() string {
	seat := fmt.Sprintf("seat %d", e.Seat)
	switch e.Kind {
	case EventCorporation:
		return fmt.Sprintf("%s is %s and takes %s", seat, corporations[e.Corp].Name, minionWords(e.Minions))
	case EventFirst:
		return seat + " is the starting player"
	case EventMarket:
		return fmt.Sprintf("%s comes to the market", favorWords(e.Favor))
	case EventDisplay:
		return fmt.Sprintf("guilty pleasure %s is on display", pleasureID(e.Pleasure))
	case EventDiscarded:
		return seat + " discards a chaos card face down"
	case EventTurn:
		return fmt.Sprintf("round %d: %s's turn", e.Round, seat)
	case EventTake:
		return fmt.Sprintf("%s takes %s for %s", seat, favorWords(e.Favor), minionWords(e.Minions))
	case EventPlace:
		return fmt.Sprintf("%s places %s on %s", seat, favorWords(e.Favor), BillName(e.Bill))
	case EventInfluence:
		s := fmt.Sprintf("%s pays %s to influence %s", seat, minionWords(e.Minions), leaders[e.Leader].Name)
		if e.Target >= 0 {
			s += fmt.Sprintf(", stealing from seat %d", e.Target)
		}
		return s
	case EventControl:
		return fmt.Sprintf("%s controls %s", seat, leaders[e.Leader].Name)
	case EventStealFailed:
		return fmt.Sprintf("%s's steal of %s from seat %d fails", seat, leaders[e.Leader].Name, e.Target)
	case EventMonarch:
		return fmt.Sprintf("%s has the allegiance of %s, monarch of %s", seat, kingdoms[e.Kingdom].Monarch, kingdoms[e.Kingdom].Name)
	case EventCall:
		who := map[int]string{callAuto: "automatically (a favor added to a bill of four)", callFinal: "in final voting"}[e.Seat]
		if who == "" {
			who = "by " + seat
		}
		return fmt.Sprintf("a vote on %s is called %s; voting: %s", BillName(e.Bill), who, seatsWords(e.Seats))
	case EventVotes:
		var s []string
		for i, v := range e.Votes {
			if v >= 0 {
				s = append(s, fmt.Sprintf("seat %d %s", i, yesNo(v == 1)))
			}
		}
		return fmt.Sprintf("the votes on %s: %s", BillName(e.Bill), strings.Join(s, ", "))
	case EventChaos:
		c := chaosCards[e.Card]
		args := strings.TrimPrefix(chaosArgs(e.Move), ": ")
		if args != "" {
			args = " (" + args + ")"
		}
		return fmt.Sprintf("%s plays %q%s: %s", seat, c.Name, args, c.Text())
	case EventResult:
		veto := ""
		if e.Veto {
			veto = ", vetoed"
		}
		return fmt.Sprintf("%s %s, %d to %d%s", BillName(e.Bill), e.Result, e.Yes, e.No, veto)
	case EventBillDiscarded:
		return fmt.Sprintf("the %s of %s %s discarded", countWords(e.Count, "favor", "favors"), BillName(e.Bill), pluralWord(e.Count, "is", "are"))
	case EventPleasure:
		if e.Pleasure < 0 {
			return seat + " takes no guilty pleasure"
		}
		return fmt.Sprintf("%s takes guilty pleasure %s", seat, pleasureID(e.Pleasure))
	case EventCycle:
		return fmt.Sprintf("%s puts %s under the guilty pleasure deck", seat, pleasureID(e.Pleasure))
	case EventUnmarked:
		return fmt.Sprintf("%s removes seat %d's marker from %s", seat, e.Target, leaders[e.Leader].Name)
	case EventExchange:
		return fmt.Sprintf("%s exchanges %s on %s for %s from the market", seat, favorID(e.Favor), BillName(e.Bill), favorID(e.Other))
	case EventGain:
		return fmt.Sprintf("%s takes %s from the supply", seat, minionWords(e.Minions))
	case EventCollect:
		return fmt.Sprintf("%s takes %s of %s to its score pile", seat, countWords(e.Count, "favor", "favors"), BillName(e.Bill))
	case EventReturned:
		return fmt.Sprintf("%s under the deck", countWords(e.Count, "unclaimed guilty pleasure goes", "unclaimed guilty pleasures go"))
	case EventShredded:
		return fmt.Sprintf("%s discards seat %d's %s from %s", seat, e.Target, favorID(e.Favor), BillName(e.Bill))
	case EventEmbezzled:
		return fmt.Sprintf("%s takes %s from seat %d", seat, minionWords(e.Minions), e.Target)
	case EventEnding:
		why := [...]string{"", "the last favor was drawn", "the last guilty pleasure was drawn",
			fmt.Sprintf("%d rounds were played", MaxRounds)}[e.Reason]
		if e.Round > 0 {
			return fmt.Sprintf("the game is ending: %s; round %d is played to its end, then final voting", why, e.Round)
		}
		return "the game ends: " + why
	case EventNoAction:
		return fmt.Sprintf("%s has no action it can take and loses %s", seat, countWords(e.Count, "action", "actions"))
	case EventFinalVoting:
		return "final voting on every bill with favors, left to right"
	case EventShareholders:
		return fmt.Sprintf("%s shows its shareholder cards: %s", seat, typesWords(e.Types))
	case EventScore:
		sc := e.Score
		return fmt.Sprintf("%s scores %d: %s, %d as a shareholder, %d for guilty pleasures (%s)",
			seat, sc.Total, countWords(sc.Favors, "favor", "favors"), sc.Shareholder, sc.Pleasures, countWords(sc.Minions, "minion", "minions"))
	case EventOver:
		if len(e.Winners) == 1 {
			return fmt.Sprintf("seat %d wins", e.Winners[0])
		}
		return "seats " + seatsWords(e.Winners) + " share the win"
	}
	return fmt.Sprintf("event %d", e.Kind)
}

func favorWords(f int) string {
	if f < 0 || f >= len(favors) {
		return favorID(f)
	}
	fv := favors[f]
	return fmt.Sprintf("%s (%s, %s)", fv.ID, fv.Minions[0], fv.Minions[1])
}

func seatsWords(s []int) string {
	if len(s) == 0 {
		return "nobody"
	}
	w := make([]string, len(s))
	for i, v := range s {
		w[i] = fmt.Sprint(v)
	}
	return strings.Join(w, ", ")
}

func typesWords(ts []FavorType) string {
	w := make([]string, len(ts))
	for i, t := range ts {
		w[i] = t.String()
	}
	return strings.Join(w, " and ")
}

// countWords is n and the noun that goes with it: "1 favor", "3 favors".
func countWords(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, pluralWord(n, one, many))
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
