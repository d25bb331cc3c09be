package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateRecord: simulate --record DIR writes each game it plays, of every game, as a
// script that replay --script replays to its end; and they are the games the simulation
// played: their scores and wins, summed by seat, are the simulation's.
func TestSimulateRecord(t *testing.T) {
	for _, tc := range []struct {
		game    string
		players int
		extra   []string
	}{
		{"corruption", 4, []string{"--variant", "free-stud", "--lbb"}},
		{"kingdoms", 3, []string{"--rules", "advanced"}},
		{"corruptia", 3, []string{"--amendments", "2"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "games")
			const games = 10
			args := append([]string{"simulate", "--game", tc.game, "--games", fmt.Sprint(games), "--players", fmt.Sprint(tc.players),
				"--seed", "6", "--record", dir, "--json"}, tc.extra...)
			r := runCLI(t, args...)
			var sim struct {
				BySeat []struct {
					Wins      float64 `json:"wins"`
					MeanScore float64 `json:"mean_score"`
				} `json:"by_seat"`
			}
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &sim) != nil || len(sim.BySeat) != tc.players {
				t.Fatalf("%v", r)
			}
			names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if len(names) != games || filepath.Base(names[0]) != "game-01.json" || filepath.Base(names[games-1]) != "game-10.json" {
				t.Fatalf("recorded %v", names)
			}
			scores, wins := make([]float64, tc.players), make([]float64, tc.players)
			for _, name := range names {
				r := runCLI(t, "replay", "--game", tc.game, "--script", name, "--json")
				var res struct {
					Finished bool
					Scores   []int
					Winners  []int
					End      *struct{ Reason string }
					Error    any
				}
				if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || !res.Finished || res.End == nil || res.Error != nil {
					t.Fatalf("%s does not replay to its end:\n%v", name, r)
				}
				for seat, s := range res.Scores {
					scores[seat] += float64(s)
				}
				for _, w := range res.Winners {
					wins[w] += 1 / float64(len(res.Winners))
				}
			}
			for seat, tally := range sim.BySeat {
				if math.Abs(tally.MeanScore*games-scores[seat]) > 1e-6*math.Max(1, scores[seat]) || math.Abs(tally.Wins-wins[seat]) > 1e-9 {
					t.Errorf("seat %d: the simulation scored %.1f and won %.2f; the recorded games %.1f and %.2f",
						seat, tally.MeanScore*games, tally.Wins, scores[seat], wins[seat])
				}
			}
		})
	}
}

// TestSimulateRecordErrors: --record with no directory, or one that cannot be made, is refused
// before any game is played.
func TestSimulateRecordErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "")
	for _, tc := range []struct {
		dir  string
		code int
		want string
	}{
		{"", 2, "--record: give the directory"},
		{filepath.Join(file, "games"), 1, "--record: mkdir " + file},
	} {
		r := runCLI(t, "simulate", "--games", "2", "--record", tc.dir)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("--record %q: want exit %d and %q\n%v", tc.dir, tc.code, tc.want, r)
		}
	}
	if _, err := os.Stat(filepath.Join(file, "games")); err == nil {
		t.Error("a directory was made under a file")
	}
}
