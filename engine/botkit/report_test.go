package botkit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTotals: totals count a game by kind and by seat, and a result that embeds them keeps
// their fields where they stand in its JSON.
func TestTotals(t *testing.T) {
	tot := NewTotals(7, 2)
	tot.Add("random", 1, 20, 1)
	tot.Add("random", 0, 10, 0)
	if r := tot.ByBot["random"]; r.Games != 2 || r.Wins != 1 || r.MeanScore != 15 || tot.BySeat[1].Games != 1 || tot.BySeat[1].MeanScore != 20 {
		t.Errorf("totals: %+v", tot)
	}
	res := struct {
		Games int `json:"games"`
		Totals
		Seconds float64 `json:"seconds"`
	}{Games: 2, Totals: tot}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	order := []string{`"games"`, `"seed":7`, `"by_bot"`, `"by_seat"`, `"seconds"`}
	for i := 1; i < len(order); i++ {
		if strings.Index(string(b), order[i-1]) > strings.Index(string(b), order[i]) || !strings.Contains(string(b), order[i]) {
			t.Errorf("%s comes before %s in %s", order[i], order[i-1], b)
		}
	}
}

// TestTallyTable: tallies print a row each under their header, the bot kinds by name, and
// the first game's seating and a number of games say themselves in words.
func TestTallyTable(t *testing.T) {
	var b strings.Builder
	tt := TallyTable{W: &b}
	tt.Kinds(map[string]Tally{"random": {Games: 4, WinRate: 0.25, MeanScore: 3}, "heuristic": {Games: 4, WinRate: 0.75, MeanScore: 9.5}})
	tt.Seats([]Tally{{Games: 2, WinRate: 0.5, MeanScore: 1}})
	want := "bot            games  win rate  mean score\n" +
		"heuristic          4     75.0%         9.5\n" +
		"random             4     25.0%         3.0\n" +
		"seat           games  win rate  mean score\n" +
		"0                  2     50.0%         1.0\n"
	if b.String() != want {
		t.Errorf("the table is\n%s\nwant\n%s", b.String(), want)
	}
	if got := Seating([]string{"a", "b"}, 3); got != "0=a 1=b 2=a" {
		t.Errorf("Seating = %q", got)
	}
	if Games(1) != "1 game" || Games(12) != "12 games" {
		t.Errorf("Games: %q, %q", Games(1), Games(12))
	}
}
