package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSimulateStrong: simulate seats the strong bot of every game (--bots strong,...) at the
// budget --think gives, and reports it by name; --think below 0 is a usage error.
func TestSimulateStrong(t *testing.T) {
	for _, id := range playable() {
		r := runCLI(t, "simulate", "--game", id, "--games", "2", "--players", "4", "--think", "3",
			"--bots", "strong,heuristic,easy,random", "--json")
		if r.code != 0 {
			t.Fatalf("%v", r)
		}
		var out struct {
			ByBot map[string]struct{ Games int } `json:"by_bot"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%s: %v\n%s", id, err, r.stdout)
		}
		for _, kind := range []string{"strong", "heuristic", "easy", "random"} {
			if out.ByBot[kind].Games != 2 {
				t.Errorf("%s: %s played %d games, want 2", id, kind, out.ByBot[kind].Games)
			}
		}
	}
	if r := runCLI(t, "simulate", "--games", "1", "--think", "-1"); r.code != 2 || !strings.Contains(r.stderr, "--think") {
		t.Errorf("--think -1: %v", r)
	}
}

// TestLevels: every level makes a bot of every game, each of its own kind; an unknown level is
// refused by name, by the commands too, before any table starts.
func TestLevels(t *testing.T) {
	for _, id := range playable() {
		for _, l := range levels {
			if _, err := levelPlayer(games[id], botChoice{level: l.name, think: 2}, 1); err != nil {
				t.Errorf("%s, level %s: %v", id, l.name, err)
			}
		}
		if _, err := levelPlayer(games[id], botChoice{level: "extreme"}, 1); err == nil || !strings.Contains(err.Error(), "easy, normal or hard") {
			t.Errorf("%s: level extreme: %v", id, err)
		}
	}
	for _, args := range [][]string{
		{"bot", "--level", "extreme", "--table", "t", "--players", "3"},
		{"demo", "--level", "extreme", "--text"},
		{"demo", "--think", "-5", "--text"},
	} {
		if r := runCLI(t, args...); r.code != 2 || !strings.Contains(r.stderr, "--level") && !strings.Contains(r.stderr, "--think") || strings.Contains(r.stdout, "listening") {
			t.Errorf("%v", r)
		}
	}
}
