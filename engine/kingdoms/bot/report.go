package bot

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"corruption/engine/botkit"
)

// Report prints the batch's results for people: by bot kind, seat, place in turn order and
// corporation (games, win rate, mean score), the rounds of a mean game and the games per
// second.
func (r *SimResult) Report(w io.Writer) {
	fmt.Fprintf(w, "\n%s, %d players, %s, seed %d (a win shared by k players counts 1/k; fair is %.1f%%)\n",
		botkit.Games(r.Games), r.Players, r.config.Words(), r.Seed, 100/float64(r.Players))
	t := botkit.TallyTable{W: w}
	t.Kinds(r.ByBot)
	t.Seats(r.BySeat)
	t.Header("turn order")
	for pos, s := range r.ByPosition {
		t.Row(fmt.Sprintf("%d%s", pos+1, map[bool]string{true: " (first)"}[pos == 0]), s)
	}
	t.Header("corporation")
	for _, k := range slices.Sorted(maps.Keys(r.ByCorp)) {
		t.Row(k, r.ByCorp[k])
	}
	fmt.Fprintf(w, "%.1f rounds a game; %.0f games per second (%.2f s)\n", r.MeanRounds, r.GamesPerSec, r.Seconds)
}
