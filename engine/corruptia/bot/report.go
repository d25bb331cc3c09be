package bot

import (
	"fmt"
	"io"

	"corruption/engine/botkit"
)

// Report prints the batch's results for people: by bot kind, seat and place in the first
// round's order (games, win rate, mean score), what happened in a mean game, and the games per
// second.
func (r *SimResult) Report(w io.Writer) {
	fmt.Fprintf(w, "\n%s, %d senators, %s, seed %d (a win shared by k senators counts 1/k; fair is %.1f%%)\n",
		botkit.Games(r.Games), r.Players, r.Config, r.Seed, 100/float64(r.Players))
	t := botkit.TallyTable{W: w}
	t.Kinds(r.ByBot)
	t.Seats(r.BySeat)
	t.Header("place")
	for place, s := range r.ByPlace {
		t.Row(fmt.Sprintf("%d%s", place, map[bool]string{true: " (token)"}[place == 0]), s)
	}
	s := r.Stats
	fmt.Fprintf(w, "A mean game: %.1f bills approved, %.1f rejected, %.1f ties tossed; %.1f absences, %.1f swaps; %.1f blackmails (%.1f ignored); "+
		"%.1f employees offered, %.1f amendments; %.2f turns with no bill; winning score %.0f\n",
		s.Approved, s.Rejected, s.Tosses, s.Absent, s.Swaps, s.Blackmails, s.Ignored, s.Offers, s.Amendments, s.NoBill, s.WinScore)
	fmt.Fprintf(w, "%.0f games per second (%.2f s)\n", r.GamesPerSec, r.Seconds)
}
