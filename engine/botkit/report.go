package botkit

import (
	"fmt"
	"io"
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
