package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"corruption/engine/kingdoms/bot"
	"corruption/engine/kingdoms/script"
)

// TestKingdomsHelp: every command that plays a game offers --rules, with the four sets of rules
// in words a player can follow, and --game kingdoms.
func TestKingdomsHelp(t *testing.T) {
	for _, cmd := range []string{"demo", "play", "bot", "simulate"} {
		r := runCLI(t, cmd, "--help")
		for _, want := range []string{"--rules RULES", "advanced (bill bonuses and chaos cards; the only rules at 2 players)", "bonuses (basic with bill bonuses)", "kingdoms"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s --help does not say %q\n%s", cmd, want, r.stdout)
			}
		}
	}
}

// TestKingdomsSettings: a table's settings are checked as Corrupted Kingdoms' before any node
// starts: the rules' names, the table sizes, the 2-player game's rules, and another game's
// settings refused.
func TestKingdomsSettings(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"bot", "--game", "kingdoms", "--no-mdns", "--table", "t", "--players", "2", "--rules", "basic"}, "the 2-player game uses all the advanced rules"},
		{[]string{"bot", "--game", "kingdoms", "--no-mdns", "--table", "t", "--players", "7"}, "--players: 7, want 2 to 6"},
		{[]string{"bot", "--game", "kingdoms", "--no-mdns", "--table", "t", "--players", "4", "--rules", "expert"}, `--rules: unknown rules "expert" (want basic, advanced, bonuses, chaos)`},
		{[]string{"bot", "--game", "kingdoms", "--no-mdns", "--table", "t", "--players", "4", "--variant", "closed"}, "--variant is a setting of corruption, not of Corrupted Kingdoms"},
		{[]string{"simulate", "--game", "kingdoms", "--players", "1"}, "--players: 1, want 2 to 6"},
		{[]string{"demo", "--game", "kingdoms", "--bots", "6"}, "--bots: 6, want 1 to 5"},
		{[]string{"simulate", "--game", "kingdoms", "--bots", "genius"}, `unknown bot kind "genius"`},
	} {
		if r := runCLI(t, tt.args...); r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("want exit 2 and %q\n%v", tt.want, r)
		}
	}
}

// TestKingdomsSimulate: simulate plays Corrupted Kingdoms among bots, with the results by bot,
// seat, place in turn order and corporation; the same seed plays the same games.
func TestKingdomsSimulate(t *testing.T) {
	args := []string{"simulate", "--game", "kingdoms", "--games", "30", "--players", "3", "--rules", "bonuses", "--seed", "4"}
	a, b := runCLI(t, args...), runCLI(t, args...)
	if a.code != 0 || untimed(a.stdout) != untimed(b.stdout) {
		t.Fatalf("not the same games twice:\n%v\n%v", a, b)
	}
	for _, want := range []string{"30 games, 3 players, the basic rules with bill bonuses, seed 4", "heuristic", "random", "turn order", "1 (first)", "corporation", "rounds a game"} {
		if !strings.Contains(a.stdout, want) {
			t.Errorf("simulate does not say %q\n%s", want, a.stdout)
		}
	}
	r := runCLI(t, "simulate", "--game", "kingdoms", "--games", "5", "--players", "5", "--json", "--show")
	var res bot.SimResult
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || res.Games != 5 || len(res.ByPosition) != 5 || len(res.ByCorp) == 0 {
		t.Fatalf("simulate --json:\n%v", r)
	}
	if !strings.Contains(r.stderr, "Game 1 of 5: 5 players, the advanced rules") || !strings.Contains(r.stderr, "round 1: seat") {
		t.Errorf("simulate --show --json tells the first game on stderr:\n%s", r.stderr)
	}
}

// TestKingdomsReplayScripts: replay --game kingdoms --script --json prints each script's result
// as the engine's golden files have it; a bad script exits 1 with the error that names the
// move; the example of docs/ is a whole game.
func TestKingdomsReplayScripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "engine", "kingdoms", "script", "testdata", "*.json"))
	if len(files) == 0 {
		t.Fatal("no scripts")
	}
	for _, f := range files {
		want, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".want")
		if err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, "replay", "--game", "kingdoms", "--script", f, "--json")
		if strings.HasPrefix(filepath.Base(f), "bad-") {
			if r.code != 1 || !strings.Contains(r.stderr, strings.TrimSpace(string(want))) {
				t.Errorf("%s: want exit 1 and %q\n%v", f, want, r)
			}
			continue
		}
		var got, exp any
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || json.Unmarshal(want, &exp) != nil {
			t.Fatalf("%s:\n%v", f, r)
		}
		g, _ := json.Marshal(got)
		e, _ := json.Marshal(exp)
		if string(g) != string(e) {
			t.Errorf("%s: replay --json prints\n%s\nthe engine's golden file says\n%s", f, g, e)
		}
	}
	example := filepath.Join("..", "..", "docs", "examples", "kingdoms-4p.json")
	r := runCLI(t, "replay", "--game", "kingdoms", "--script", example, "--json")
	var res script.Result
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || !res.Finished || len(res.Winners) == 0 || len(res.Scores) != 4 {
		t.Fatalf("the docs' example is not a whole game:\n%v", r)
	}
	r = runCLI(t, "replay", "--game", "kingdoms", "--script", example)
	if r.code != 0 || !strings.Contains(r.stdout, "round 1: seat 2's turn") || !strings.Contains(r.stdout, "shows its shareholder cards") {
		t.Errorf("replay tells the game:\n%v", r)
	}
}

// TestKingdomsDemoText: demo --game kingdoms --text seats the person with local bots: the game
// starts, the board and the first decision are shown, a typed move is taken, and the command
// stops when it cannot read the next one.
func TestKingdomsDemoText(t *testing.T) {
	t.Parallel()
	r := runCLIInput(t, "discard 1\n", "demo", "--game", "kingdoms", "--text", "--bots", "2")
	for _, want := range []string{"Corrupted Kingdoms, the advanced rules", "Your shareholder card", "Discard one of your chaos cards face down", "> "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo --text does not show %q\n%v", want, r)
		}
	}
	if r.code != 1 || !strings.Contains(r.stderr, "the input ended") {
		t.Errorf("want exit 1 when the input ends\n%v", r)
	}
}

// runCLIInput is runCLI with input on the command's stdin.
func runCLIInput(t *testing.T, input string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(input), &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	r := result{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("corruption %s hangs\n%v", strings.Join(args, " "), r)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("corruption %s: %v", strings.Join(args, " "), err)
	}
	noPanic(t, r.args, r.stdout+r.stderr)
	return r
}

// TestKingdomsDemoTextGame plays a whole game of Corrupted Kingdoms in the terminal against
// two local bots, answering every decision with the example the terminal gives, after two
// mistakes each refused with its reason; the table ends, signed off and audited, and the
// terminal has told it to the end.
func TestKingdomsDemoTextGame(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game at the terminal, its answers each 3 s after the ask: skipped in -short mode")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "demo", "--game", "kingdoms", "--text", "--bots", "2", "--json", "--timeout", "30s")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	wait := func() error {
		var err error
		once.Do(func() { err = cmd.Wait() })
		return err
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		wait()
	})
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	prompts, mistakes, help := 0, 0, false
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		switch {
		case strings.HasPrefix(line, "> Moves: "):
			help = true // the help's example is not a new decision
		case strings.HasPrefix(line, "  for example: ") && help:
			help = false
		case strings.HasPrefix(line, "  for example: "):
			if prompts == 0 {
				fmt.Fprintln(stdin, "discard nonsense")
				fmt.Fprintln(stdin, "influence whip")
				fmt.Fprintln(stdin, "help")
			}
			prompts++
			fmt.Fprintln(stdin, strings.TrimPrefix(line, "  for example: "))
		case strings.Contains(line, "error: "):
			mistakes++
		}
	}
	err = wait()
	noPanic(t, []string{"demo", "--game", "kingdoms", "--text"}, out.String()+stderr.String())
	if err != nil {
		t.Fatalf("demo --text: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), stderr.String())
	}
	if mistakes != 2 || !strings.Contains(out.String(), `unknown chaos card "nonsense"`) ||
		!strings.Contains(out.String(), "it is your turn to discard a chaos card, not to influence a leader") {
		t.Errorf("%d errors shown, want the 2 bad moves refused with reasons\n%s", mistakes, out.String())
	}
	for _, want := range []string{"The High Senate:", "Market:", "Your shareholder card", "Moves: take FAVOR", "Final voting on every bill", "Audit: the log checks"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the terminal never shows %q", want)
		}
	}
	var o outcome
	if err := json.Unmarshal([]byte(lastLine(out.String())), &o); err != nil || !o.Finished || len(o.Scores) != 3 {
		t.Errorf("outcome %+v, %v", o, err)
	}
	t.Logf("%d prompts answered; scores %v", prompts, o.Scores)
}

// TestKingdomsAuditBadLogs: corruption audit, in JSON and in words, gives each of Corrupted
// Kingdoms' cheat logs (protocol/testdata/bad/kingdoms-*) the verdict its .expect names: the
// entry, the seat blamed (none for an entry written out of turn) and the reason; the golden
// log audits as valid with its digest and scores, and replay LOG tells it to its end.
func TestKingdomsAuditBadLogs(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "protocol", "testdata")
	expect := func(path string) map[string]string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		x := map[string]string{}
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ": "); ok && !strings.HasPrefix(l, "#") {
				x[k] = v
			}
		}
		return x
	}
	type report struct {
		Valid   bool   `json:"valid"`
		Blamed  int    `json:"blamed"`
		At      int64  `json:"at"`
		Problem string `json:"problem"`
		Digest  string `json:"digest"`
		Scores  []int  `json:"scores"`
	}
	logs, err := filepath.Glob(filepath.Join(dir, "bad", "kingdoms-*.log"))
	if err != nil || len(logs) < 6 {
		t.Fatalf("%d bad logs (%v)", len(logs), err)
	}
	for _, log := range logs {
		t.Run(strings.TrimSuffix(filepath.Base(log), ".log"), func(t *testing.T) {
			x := expect(strings.TrimSuffix(log, ".log") + ".expect")
			r := runCLI(t, "audit", "--json", log)
			var rep report
			if r.code != 1 || json.Unmarshal([]byte(r.stdout), &rep) != nil {
				t.Fatalf("want exit 1 and a JSON report\n%v", r)
			}
			if rep.Valid || strconv.Itoa(rep.Blamed) != x["blamed"] || strconv.FormatInt(rep.At, 10) != x["seq"] || !strings.Contains(rep.Problem, x["problem"]) {
				t.Errorf("audit: %+v\nwant seat %s blamed at %s for %q", rep, x["blamed"], x["seq"], x["problem"])
			}
			text := runCLI(t, "audit", log)
			blamed := fmt.Sprintf("(seat %s blamed)", x["blamed"])
			if x["blamed"] == "-1" {
				blamed = "rejected: " + x["problem"]
			}
			if text.code != 1 || !strings.Contains(text.stderr, blamed) {
				t.Errorf("audit in words: want %q\n%v", blamed, text)
			}
		})
	}
	x := expect(filepath.Join(dir, "kingdoms-advanced-4.expect"))
	r := runCLI(t, "audit", "--json", filepath.Join(dir, "kingdoms-advanced-4.log"))
	var rep report
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil || !rep.Valid || rep.Digest != x["digest"] || fmt.Sprint(rep.Scores) != x["scores"] {
		t.Errorf("the golden log: %+v, want %v\n%v", rep, x, r)
	}
	replay := runCLI(t, "replay", filepath.Join(dir, "kingdoms-advanced-4.log"))
	if replay.code != 0 || !strings.Contains(replay.stdout, "== Round 2 ==") || !strings.Contains(replay.stdout, "shows its shareholder cards") || !strings.Contains(replay.stdout, x["digest"]) {
		t.Errorf("replay of the golden log\n%v", replay)
	}
}

// TestKingdomsHouse: --house offers the house rules "even" in every command that plays, in
// words a player can follow; a bad value, a contradiction with --rules and another game are
// refused with what was wrong; simulate plays them and prints the places in turn order.
func TestKingdomsHouse(t *testing.T) {
	for _, cmd := range []string{"demo", "play", "bot", "simulate"} {
		r := runCLI(t, cmd, "--help")
		for _, want := range []string{"--house RULES", "none (the sheet's rules alone) or even (fairer places in turn order"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s --help does not say %q\n%s", cmd, want, r.stdout)
			}
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"bot", "--game", "kingdoms", "--no-mdns", "--table", "t", "--players", "4", "--house", "fair"}, `--house: unknown house rules "fair" (want none or even)`},
		{[]string{"simulate", "--game", "kingdoms", "--players", "4", "--rules", "basic+even", "--house", "none"}, "--house none: --rules basic+even asks for the house rules even"},
		{[]string{"simulate", "--game", "kingdoms", "--players", "2", "--rules", "basic", "--house", "even"}, "the 2-player game uses all the advanced rules, not basic"},
		{[]string{"simulate", "--game", "corruptia", "--players", "4", "--house", "even"}, "--house is a setting of kingdoms"},
	} {
		if r := runCLI(t, tt.args...); r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("want exit 2 and %q\n%v", tt.want, r)
		}
	}
	for _, args := range [][]string{
		{"--house", "even"},
		{"--rules", "advanced+even"},
		{"--rules", "advanced+even", "--house", "even"},
	} {
		r := runCLI(t, append([]string{"simulate", "--game", "kingdoms", "--games", "20", "--players", "4", "--seed", "3"}, args...)...)
		for _, want := range []string{`20 games, 4 players, the advanced rules (bill bonuses and chaos cards), with the house rules "even"`, "turn order", "1 (first)", "\n4 "} {
			if r.code != 0 || !strings.Contains(r.stdout, want) {
				t.Errorf("simulate %v does not say %q\n%v", args, want, r)
			}
		}
	}
	r := runCLI(t, "simulate", "--game", "kingdoms", "--games", "3", "--players", "3", "--rules", "basic", "--house", "even", "--json")
	var res bot.SimResult
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil || res.Rules != "basic+even" || len(res.ByPosition) != 3 {
		t.Errorf("simulate --house even --json: rules %q, %d places\n%v", res.Rules, len(res.ByPosition), r)
	}
}
