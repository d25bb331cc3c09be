package main

import (
	"context"
	"strings"
	"testing"
)

// TestKingdomsBots: `corruption bot --game kingdoms` processes on loopback (four with the
// advanced rules, two, three with the basic rules) find each other through --peer, play
// Corrupted Kingdoms to the end and agree; their logs are identical and pass audit (finish),
// and replay tells the game round by round, to the scores and the digest.
func TestKingdomsBots(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	for _, tc := range []struct {
		name     string
		players  int
		settings []string
	}{
		{"4-advanced", 4, []string{"--game", "kingdoms", "--players", "4"}},
		{"2-advanced", 2, []string{"--game", "kingdoms", "--players", "2", "--rules", "advanced"}},
		{"3-basic", 3, []string{"--game", "kingdoms", "--players", "3", "--rules", "basic"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.players != 4 {
				t.Skip()
			}
			ctx, cancel := context.WithTimeout(context.Background(), tableTimeout)
			defer cancel()
			ps := newPlayers(t, tc.players)
			procs := startWithPeer(ctx, t, tableName(t), ps, tc.settings)
			out, _ := finish(t, procs, ps, tc.players)
			if t.Failed() || tc.players != 4 {
				return
			}
			r := runCLI(t, "replay", ps[1].log)
			if r.code != 0 {
				t.Fatalf("%v", r)
			}
			for _, want := range []string{"== Round 1 ==", "== Round 2 ==", "discards a chaos card face down", "a vote on", "the votes on",
				"shows its shareholder cards", "scores", out.Digest} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the replay of the log does not say %q\n%s", want, r.stdout)
				}
			}
			if r := runCLI(t, "replay", "--game", "corruption", ps[1].log); r.code != 1 || !strings.Contains(r.stderr, "is a table of kingdoms, not of corruption") {
				t.Errorf("replay --game corruption of a Kingdoms log:\n%v", r)
			}
		})
	}
}
