package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sync"
)

// TestNoCheatFlag: the default build has no --cheat; only the adversary build (go build -tags
// adversary, adversary.go) makes a bot cheat.
func TestNoCheatFlag(t *testing.T) {
	t.Parallel()
	r := runCLI(t, "bot", "--cheat", "list")
	if r.code == 0 || !strings.Contains(r.stderr, "flag provided but not defined: -cheat") {
		t.Fatalf("bot --cheat in the default build:\n%v", r)
	}
	if r := runCLI(t, "bot", "--help"); strings.Contains(r.stdout, "cheat") {
		t.Fatalf("bot --help of the default build speaks of cheating:\n%v", r)
	}
}

// adversaryBin builds the adversary build of the command once a test run.
func adversaryBin(t *testing.T) string {
	t.Helper()
	advOnce.Do(func() {
		dir, err := os.MkdirTemp("", "corruption-adversary-")
		if err != nil {
			advErr = err
			return
		}
		advPath = filepath.Join(dir, "corruption")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "go", "build", "-tags", "adversary", "-trimpath", "-o", advPath, "corruption/cmd/corruption").CombinedOutput()
		if err != nil {
			advErr = err
			advPath = string(out)
		}
	})
	if advErr != nil {
		t.Fatalf("cannot build the adversary build: %v\n%s", advErr, advPath)
	}
	return advPath
}

// TestCheatList: the adversary build's bot --cheat list names every cheat with a line on it, and
// a cheat it does not know is a usage error that says where the list is.
func TestCheatList(t *testing.T) {
	t.Parallel()
	adv := adversaryBin(t)
	out, err := exec.Command(adv, "bot", "--cheat", "list").Output()
	if err != nil || !strings.Contains(string(out), "garbage-shuffle") || !strings.Contains(string(out), "equivocate") || strings.Count(string(out), "\n") < 10 {
		t.Fatalf("bot --cheat list: %v\n%s", err, out)
	}
	cmd := exec.Command(adv, "bot", "--cheat", "steal-cards", "--table", "t", "--players", "3")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "no such cheat (--cheat list prints every kind)") {
		t.Fatalf("bot --cheat steal-cards: %v\n%s", err, stderr.String())
	}
}

// TestCheaterOverProcesses: four bots over loopback, real processes, one of them the adversary
// build cheating (its first shuffle does not decode, in each game; or, in Corruption, two signed
// versions of its first move or shares): the three honest ones convict it, open its seat and
// finish the game with the same log, which audits valid with the conviction. The test command
// plays one cell, chosen by a seed it prints (CORRUPTION_CONVICT_SEED plays it again);
// CORRUPTION_LONG=1 or CORRUPTION_CONVICT_MATRIX=1 plays all four (a few seconds each).
func TestCheaterOverProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("network table: skipped in -short mode")
	}
	t.Parallel()
	cells := []struct {
		name        string
		settings    []string
		cheat, what string // the cheat, and what the conviction says it did
	}{
		{"corruption", []string{"--players", "4"}, "garbage-shuffle", "shuffle"},
		{"corruptia", []string{"--game", "corruptia", "--players", "4"}, "garbage-shuffle", "shuffle"},
		{"kingdoms", []string{"--game", "kingdoms", "--players", "4"}, "garbage-shuffle", "shuffle"},
		// Two signed versions of one entry: every honest node's log cut at the twins (version 5).
		{"corruption-equivocate", []string{"--players", "4"}, "equivocate", "equivocation"},
	}
	if os.Getenv("CORRUPTION_LONG") != "1" && os.Getenv("CORRUPTION_CONVICT_MATRIX") != "1" {
		seed := envSeed(t, "CORRUPTION_CONVICT_SEED")
		cells = cells[seed%uint64(len(cells)):][:1]
		t.Logf("one game over processes, seed %d (CORRUPTION_CONVICT_SEED=%d plays it again; CORRUPTION_LONG=1 plays all three)", seed, seed)
	}
	for _, tc := range cells {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cheatOverProcesses(t, tc.settings, tc.cheat, tc.what)
		})
	}
}

func cheatOverProcesses(t *testing.T, settings []string, cheat, what string) {
	adv := adversaryBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*tableTimeout)
	defer cancel()
	table := tableName(t)
	ps := newPlayers(t, 4)
	settings = append(slices.Clone(settings), "--verbose")
	const cheater = 3
	procs := startWithPeer(ctx, t, table, ps[:cheater], settings)
	first := procs[0].waitLine(t, listenLine, 20*time.Second)[1]
	args := botArgs(table, ps[cheater], settings, append(loopback, "--peer", first, "--cheat", cheat)...)
	cp := startCmd(t, ps[cheater].name+" (cheats)", exec.CommandContext(ctx, adv, args...))
	var logs [][]byte
	var seat = -1
	for i, p := range procs {
		if code := p.wait(t, 2*tableTimeout); code != 0 {
			t.Fatalf("%s exited %d, want 0", p.name, code)
		}
		var o struct {
			outcome
			Open      []int `json:"open"`
			Convicted []struct {
				Seat int    `json:"seat"`
				What string `json:"what"`
			} `json:"convicted"`
		}
		if err := json.Unmarshal([]byte(p.stdout.String()), &o); err != nil {
			t.Fatalf("%s: stdout is not one JSON outcome (%v):\n%s", p.name, err, p.stdout.String())
		}
		if seat < 0 {
			seat = seatOf(t, ps[cheater], ps[i].log)
		}
		if !o.Finished || len(o.Verdict) > 0 || len(o.Convicted) != 1 || o.Convicted[0].Seat != seat || o.Convicted[0].What != what || !slices.Contains(o.Open, seat) {
			t.Fatalf("%s: %+v; want the game finished, the cheater (seat %d) convicted (%s) and its seat open", p.name, o, seat, what)
		}
		if !strings.Contains(p.stderr.String(), "was caught cheating at entry") {
			t.Errorf("%s never told its player who was caught cheating", p.name)
		}
		b, err := os.ReadFile(ps[i].log)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, b)
	}
	for i := 1; i < len(logs); i++ {
		if !bytes.Equal(logs[i], logs[0]) {
			t.Fatalf("%s's log differs from %s's", procs[i].name, procs[0].name)
		}
	}
	if r := runCLI(t, "audit", ps[0].log); r.code != 0 || !strings.Contains(r.stdout, "was caught cheating at entry") {
		t.Fatalf("audit of the honest log:\n%v", r)
	}
	cp.wait(t, tableTimeout) // the cheater watches to the end; how it ends is its own
}

var (
	advOnce sync.Once
	advPath string
	advErr  error
)
