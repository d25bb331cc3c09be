package bot

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"corruption/engine/botkit"
	"corruption/engine/corruption"
)

// Report prints the batch's results for people: each bot kind's and each seat's games, win
// rate and mean score, and the games per second.
func (r *SimResult) Report(w io.Writer) {
	fmt.Fprintf(w, "\n%s, %d players, %s%s, seed %d\n", botkit.Games(r.Games), r.Players, r.Variant, LBBWords(r.LBB), r.Seed)
	fmt.Fprintf(w, "%-10s %8s %9s %13s\n", "bot", "seats", "win rate", "mean score")
	for _, k := range slices.Sorted(maps.Keys(r.ByBot)) {
		t := r.ByBot[k]
		fmt.Fprintf(w, "%-10s %8d %8.1f%% %13s\n", k, t.Games, 100*t.WinRate, "$"+corruption.Money(int(t.MeanScore+0.5)))
	}
	fmt.Fprintf(w, "%-10s %8s %9s %13s\n", "seat", "games", "win rate", "mean score")
	for seat, t := range r.BySeat {
		fmt.Fprintf(w, "%-10d %8d %8.1f%% %13s\n", seat, t.Games, 100*t.WinRate, "$"+corruption.Money(int(t.MeanScore+0.5)))
	}
	fmt.Fprintf(w, "%.0f games per second (%.2f s)\n", r.GamesPerSec, r.Seconds)
}

// LBBWords is " with the little black book" when it is played, else "".
func LBBWords(lbb bool) string {
	if lbb {
		return " with the little black book"
	}
	return ""
}
