package botkit

import (
	"fmt"
	"io"
	"strings"
)

// TallyTable prints tallies for people, a row each under a header that names what they count
// (a bot kind, a seat, a place): games, win rate and mean score, in columns.
type TallyTable struct{ W io.Writer }

// Header starts a block of rows, each of a what.
func (t TallyTable) Header(what string) {
	fmt.Fprintf(t.W, "%-12s %7s %9s %11s\n", what, "games", "win rate", "mean score")
}

// Row prints one tally under name.
func (t TallyTable) Row(name string, tally Tally) {
	fmt.Fprintf(t.W, "%-12s %7d %8.1f%% %11.1f\n", name, tally.Games, 100*tally.WinRate, tally.MeanScore)
}

// Seating says which kind of bot sits at each seat of a batch's first game, the kinds dealt
// to seats in turn: "0=heuristic 1=random 2=heuristic".
func Seating(kinds []string, players int) string {
	s := make([]string, players)
	for i := range s {
		s[i] = fmt.Sprintf("%d=%s", i, kinds[i%len(kinds)])
	}
	return strings.Join(s, " ")
}
