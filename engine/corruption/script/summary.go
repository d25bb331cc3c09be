package script

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"corruption/engine/corruption"
	"corruption/engine/internal/strictjson"
)

// Summary is where a game stands, as `corruption replay --json` prints it. The first five keys
// are every game's (finished, scores, winners, end, error); the others are Corruption's own.
type Summary struct {
	Finished  bool         `json:"finished"`
	Scores    []int        `json:"scores"`  // total value won, by seat
	Winners   []int        `json:"winners"` // empty until the game is over
	End       *End         `json:"end"`     // how the game ended; null until it is over
	Error     *ReplayError `json:"error"`   // the illegal move that stopped the replay; null if none
	Round     int          `json:"round"`
	Phase     string       `json:"phase"`
	Contracts [][]string   `json:"contracts"` // contract ids won, by seat
	Deferred  []string     `json:"deferred"`  // contracts left on the table after an awarding phase
	Next      *Next        `json:"next"`      // null once the game is over
	Digest    string       `json:"digest"`    // hex SHA-256 of the public state
}

// End is how a game ended: why, and the script's move (counted from 1) that ended it.
type End = strictjson.End

// EndLastRound is Corruption's one way to end: the fourth round's awarding phase is over
// ("After the fourth round, the player whose contracts have the greatest total value is the
// winner"). The end's move is the script's last, the one that finished that phase.
const EndLastRound = "last-round"

// ReplayError is an illegal move: the script's move (counted from 1) and why the game
// refused it.
type ReplayError = strictjson.ReplayError

// Next is the decision due.
type Next struct {
	Seat     int    `json:"seat"`
	Decision string `json:"decision"` // deal faceup place reveal assign kill remove
	Index    int    `json:"index,omitempty"`
	CanPeek  bool   `json:"can_peek,omitempty"`
}

// Summarize describes where s stands, s having taken the script's first applied moves (the
// end's move, once s is over). It leaves Error to the caller.
func Summarize(s *corruption.State, applied int) Summary {
	n := s.Config().Players
	sum := Summary{Finished: s.Over(), Round: s.Round(), Phase: s.Phase().String(),
		Scores: make([]int, n), Contracts: make([][]string, n), Deferred: []string{}, Winners: s.Winners()}
	for seat := 0; seat < n; seat++ {
		sum.Scores[seat], _ = s.Score(seat)
		sum.Contracts[seat] = []string{}
		for _, c := range s.Won(seat) {
			sum.Contracts[seat] = append(sum.Contracts[seat], c.String())
		}
	}
	for _, c := range s.Table() {
		if s.Deferred(c) {
			sum.Deferred = append(sum.Deferred, c.String())
		}
	}
	if s.Over() {
		sum.End = &End{Reason: EndLastRound, Move: applied}
	}
	if d := s.Next(); d.Kind != corruption.DecideNothing {
		sum.Next = &Next{Seat: d.Seat, Decision: d.Kind.String(), Index: d.Index, CanPeek: d.CanPeek}
	}
	dg := s.Digest()
	sum.Digest = hex.EncodeToString(dg[:])
	return sum
}

// Narrator writes a readable account of a game, round by round, from its events. Start the
// game with its Option to attach it.
type Narrator struct {
	W     io.Writer
	State *corruption.State
	round int
	began bool // the round's first card has been told
}

// Option attaches the narrator to a new game: it is told every event.
func (n *Narrator) Option() corruption.Option {
	return func(s *corruption.State) {
		n.State = s
		s.OnEvent = n.Event
	}
}

// Event tells one event.
func (n *Narrator) Event(e corruption.Event) {
	if e.Round != n.round {
		n.round, n.began = e.Round, false
		fmt.Fprintf(n.W, "\n== Round %d ==\n", e.Round)
	}
	if !n.began && n.State != nil && (e.Kind == corruption.EventPlaced || e.Kind == corruption.EventFaceUp || e.Kind == corruption.EventPeeked) {
		n.began = true
		fmt.Fprintf(n.W, "Seat %d plays first. Face up this round: %s.\n", n.State.First(), positionsWords(n.State))
	}
	fmt.Fprintf(n.W, "  %s\n", e)
	if (e.Kind == corruption.EventRoundOver || e.Kind == corruption.EventGameOver) && n.State != nil {
		n.scores()
	}
}

func positionsWords(s *corruption.State) string {
	if s.Phase() == corruption.PhaseFaceUp {
		return "to be chosen"
	}
	return faceUpCards(s.FaceUp().List())
}

// faceUpCards says which of each player's cards are face up this round: their positions.
func faceUpCards[P any](ps []P) string {
	if len(ps) == 0 {
		return "no card"
	}
	words := make([]string, len(ps))
	for i, p := range ps {
		words[i] = fmt.Sprint(p)
	}
	return "each player's card " + strings.Join(words, ", ")
}

func (n *Narrator) scores() {
	s := n.State
	for seat := 0; seat < s.Config().Players; seat++ {
		v, k := s.Score(seat)
		fmt.Fprintf(n.W, "  seat %d: $%s (%d contracts)\n", seat, corruption.Money(v), k)
	}
	if s.Over() {
		ws := s.Winners()
		words := make([]string, len(ws))
		for i, w := range ws {
			words[i] = fmt.Sprint(w)
		}
		if len(ws) == 1 {
			fmt.Fprintf(n.W, "Seat %s wins.\n", words[0])
		} else {
			fmt.Fprintf(n.W, "Seats %s share the win.\n", strings.Join(words, " and "))
		}
	}
}
