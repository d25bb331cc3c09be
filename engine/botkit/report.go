package botkit

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// TallyTable prints tallies for people, a row each under a header that names what they count
// (a bot kind, a seat, a place): games, win rate and mean score, in columns.
type TallyTable struct{ W io.Writer }

// Header starts a block of rows, each of a what.
func (t TallyTable) Header(what string) {
	fmt.Fprintf(t.W, "%-12s %7s %9s %11s\n", what, "games", "win rate", "mean score")
}

// Kinds prints the tallies of the bot kinds, in the order of their names.
func (t TallyTable) Kinds(byKind map[string]Tally) {
	t.Header("bot")
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		t.Row(k, byKind[k])
	}
}

// Seats prints the tallies of the seats.
func (t TallyTable) Seats(bySeat []Tally) {
	t.Header("seat")
	for seat, s := range bySeat {
		t.Row(fmt.Sprint(seat), s)
	}
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

// Games is a number of games in words: "1 game", "1000 games".
func Games(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}
