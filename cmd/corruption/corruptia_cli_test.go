package main

// Corruptia on the command line: its settings flag, help, simulations, scripts, a whole game in
// the terminal against local bots, and the audit of its bad logs.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// corruptiaScripts are the engine's golden scripts.
var corruptiaScripts = filepath.Join("..", "..", "engine", "corruptia", "script", "testdata")

// TestCorruptiaFlags: --game corruptia takes --amendments (0 to 9) and refuses the other games'
// settings and table sizes, with exit status 2 and a message that names the flag.
func TestCorruptiaFlags(t *testing.T) {
	for _, cmd := range []string{"demo", "play", "bot", "simulate"} {
		if r := runCLI(t, cmd, "--help"); !strings.Contains(r.stdout, "--amendments") || !strings.Contains(r.stdout, "corruptia") {
			t.Errorf("%s --help does not offer --amendments and --game corruptia\n%s", cmd, r.stdout)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bot", "--game", "corruptia", "--no-mdns", "--table", "t", "--players", "6"}, "--players: 6, want 2 to 5"},
		{[]string{"bot", "--game", "corruptia", "--no-mdns", "--table", "t", "--players", "1"}, "--players: 1, want 2 to 5"},
		{[]string{"bot", "--game", "corruptia", "--no-mdns", "--table", "t", "--players", "3", "--amendments", "10"}, "--amendments: 10, want 0 to 9"},
		{[]string{"simulate", "--game", "corruptia", "--amendments", "-1"}, "--amendments: -1, want 0 to 9"},
		{[]string{"simulate", "--game", "corruptia", "--variant", "closed"}, "--variant is a setting of corruption, not of Corruptia"},
		{[]string{"simulate", "--game", "corruptia", "--bots", "heuristic,genius"}, `unknown bot kind "genius"`},
		{[]string{"demo", "--game", "corruptia", "--bots", "5", "--text"}, "--bots: 5, want 1 to 4"},
		{[]string{"play", "--game", "corruptia", "--table", "t", "--players", "2", "--bots", "2"}, "no room for you and your 2 bots"},
	} {
		r := runCLI(t, tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("want exit 2 and %q\n%v", tc.want, r)
		}
	}
}

// TestCorruptiaSimulate: simulate --game corruptia prints each bot kind's, seat's and place's
// record, the same for the same seed; --json is one object with the engine's keys; --show tells
// the first game round by round.
func TestCorruptiaSimulate(t *testing.T) {
	t.Parallel()
	args := []string{"simulate", "--game", "corruptia", "--games", "30", "--players", "3", "--seed", "5"}
	a, b := runCLI(t, args...), runCLI(t, args...)
	if a.code != 0 || untimed(a.stdout) != untimed(b.stdout) {
		t.Fatalf("simulate is not repeatable:\n%v\n%v", a, b)
	}
	for _, want := range []string{"30 games, 3 senators, up to 3 amendments a turn, seed 5", "heuristic", "random", "place", "0 (token)", "A mean game:", "games per second"} {
		if !strings.Contains(a.stdout, want) {
			t.Errorf("simulate does not say %q\n%s", want, a.stdout)
		}
	}
	r := runCLI(t, "simulate", "--game", "corruptia", "--games", "10", "--players", "5", "--amendments", "0", "--bots", "random", "--json")
	var res struct {
		Games   int                        `json:"games"`
		Players int                        `json:"players"`
		Config  string                     `json:"config"`
		ByBot   map[string]json.RawMessage `json:"by_bot"`
		BySeat  []json.RawMessage          `json:"by_seat"`
		ByPlace []json.RawMessage          `json:"by_place"`
		Stats   map[string]float64         `json:"stats"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
		t.Fatalf("simulate --json:\n%v", r)
	}
	if res.Games != 10 || res.Players != 5 || res.Config != "no amendments" || len(res.ByBot) != 1 || len(res.BySeat) != 5 || len(res.ByPlace) != 5 ||
		res.Stats["amendments"] != 0 || res.Stats["approved"] == 0 {
		t.Errorf("simulate --json: %+v", res)
	}
	r = runCLI(t, "simulate", "--game", "corruptia", "--games", "1", "--players", "2", "--show")
	for round := 1; round <= 5; round++ {
		if !strings.Contains(r.stdout, fmt.Sprintf("== Round %d ==", round)) {
			t.Errorf("--show does not tell round %d\n%s", round, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "the game is over: scores") {
		t.Errorf("--show does not tell the end\n%s", r.stdout)
	}
}

// TestCorruptiaReplayScript: replay --game corruptia --script gives the engine's golden results
// as JSON (the keys every game shares first), tells a script round by round, says where a cut
// script stops, and refuses an illegal move with "move K: ..." and exit 1.
func TestCorruptiaReplayScript(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"game-2p", "game-4p", "game-5p-cut"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(corruptiaScripts, name+".json")
			r := runCLI(t, "replay", "--game", "corruptia", "--script", path, "--json")
			want, err := os.ReadFile(filepath.Join(corruptiaScripts, name+".want.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got, exp map[string]any
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || json.Unmarshal(want, &exp) != nil {
				t.Fatalf("%v", r)
			}
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("replay --json says\n%s\nwant\n%s", r.stdout, want)
			}
			if i := strings.Index(r.stdout, `"finished"`); i != 1 || !strings.Contains(r.stdout[:60], `"scores"`) {
				t.Errorf("the result does not start with the keys every game shares: %.80s", r.stdout)
			}
			text := runCLI(t, "replay", "--game", "corruptia", "--script", path)
			if text.code != 0 || !strings.Contains(text.stdout, "== Round 1 ==") {
				t.Errorf("replay tells no round\n%v", text)
			}
			cut := exp["next"] != nil
			if strings.Contains(text.stdout, "The script stops here") != cut {
				t.Errorf("replay of a script that stops before the end (%v) says\n%s", cut, text.stdout)
			}
		})
	}
	for _, name := range []string{"bad-absent-no-token", "bad-after-the-end", "bad-not-held", "bad-not-touching", "bad-out-of-turn"} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(corruptiaScripts, name+".want"))
			if err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, "replay", "--game", "corruptia", "--script", filepath.Join(corruptiaScripts, name+".json"), "--json")
			var res struct {
				Finished bool
				Error    *struct {
					Move    int
					Message string
				}
			}
			if r.code != 1 || strings.TrimSpace(r.stderr) != strings.TrimSpace(string(want)) || json.Unmarshal([]byte(r.stdout), &res) != nil ||
				res.Error == nil || fmt.Sprintf("move %d: %s", res.Error.Move, res.Error.Message) != strings.TrimSpace(string(want)) {
				t.Errorf("want exit 1, %q on stderr and in the JSON\n%v", strings.TrimSpace(string(want)), r)
			}
		})
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, `{"players": 2, "first": 0, "deck": ["cul01"], "moves": [], "colour": "red"}`)
	if r := runCLI(t, "replay", "--game", "corruptia", "--script", bad); r.code != 1 || !strings.Contains(r.stderr, "colour") {
		t.Errorf("a script with an unknown field\n%v", r)
	}
}

// TestCorruptiaAuditBadLogs: corruption audit gives every Corruptia bad log of protocol's
// testdata the verdict its .expect records (the same that every honest node reaches, see
// protocol.TestCorruptiaBadLogs): the seat blamed, the entry, the reason; and the golden log
// audits as valid with the outcome its .expect records.
func TestCorruptiaAuditBadLogs(t *testing.T) {
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
		Entries int    `json:"entries"`
	}
	logs, err := filepath.Glob(filepath.Join(dir, "corruptia-bad", "*.log"))
	if err != nil || len(logs) < 7 {
		t.Fatalf("%d bad logs (%v)", len(logs), err)
	}
	for _, log := range logs {
		name := strings.TrimSuffix(filepath.Base(log), ".log")
		t.Run(name, func(t *testing.T) {
			x := expect(strings.TrimSuffix(log, ".log") + ".expect")
			r := runCLI(t, "audit", "--json", log)
			var rep report
			if r.code != 1 || json.Unmarshal([]byte(r.stdout), &rep) != nil {
				t.Fatalf("want exit 1 and a JSON report\n%v", r)
			}
			if rep.Valid || strconv.Itoa(rep.Blamed) != x["blamed"] || strconv.FormatInt(rep.At, 10) != x["seq"] || !strings.Contains(rep.Problem, x["problem"]) {
				t.Errorf("audit: %+v\nwant seat %s blamed at %s for %q", rep, x["blamed"], x["seq"], x["problem"])
			}
			if text := runCLI(t, "audit", log); text.code != 1 || !strings.Contains(text.stderr, fmt.Sprintf("(seat %s blamed)", x["blamed"])) {
				t.Errorf("audit in words\n%v", text)
			}
		})
	}
	x := expect(filepath.Join(dir, "corruptia-4.expect"))
	r := runCLI(t, "audit", "--json", filepath.Join(dir, "corruptia-4.log"))
	var rep report
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil || !rep.Valid || rep.Digest != x["digest"] || fmt.Sprint(rep.Scores) != x["scores"] {
		t.Errorf("the golden log: %+v, want %v\n%v", rep, x, r)
	}
	replay := runCLI(t, "replay", filepath.Join(dir, "corruptia-4.log"))
	if replay.code != 0 || !strings.Contains(replay.stdout, "== Round 5 ==") || !strings.Contains(replay.stdout, "the game is over") || !strings.Contains(replay.stdout, x["digest"]) {
		t.Errorf("replay of the golden log\n%v", replay)
	}
}

// TestCorruptiaDemoText plays a whole game of Corruptia in the terminal against two local bots,
// answering every decision with the example the terminal gives, after a few mistakes each
// refused with a reason; the table ends, signed off and audited.
func TestCorruptiaDemoText(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "demo", "--game", "corruptia", "--text", "--bots", "2", "--json", "--timeout", "30s")
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
	prompts, errors, help := 0, 0, false
	for sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		switch {
		case strings.Contains(line, "Moves: discard BILL"):
			help = true // the help's example is not a new decision
		case strings.HasPrefix(line, "  for example: ") && help:
			help = false
		case strings.HasPrefix(line, "  for example: "):
			if prompts == 0 {
				fmt.Fprintln(stdin, "discard zzz99")
				fmt.Fprintln(stdin, "call")
				fmt.Fprintln(stdin, "help")
			}
			prompts++
			fmt.Fprintln(stdin, strings.TrimPrefix(line, "  for example: "))
		case strings.Contains(line, "error: "):
			errors++
		}
	}
	err = wait()
	noPanic(t, []string{"demo", "--game", "corruptia", "--text"}, out.String()+stderr.String())
	if err != nil {
		t.Fatalf("demo --text: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), stderr.String())
	}
	if errors != 2 || !strings.Contains(out.String(), `"zzz99" is not a bill`) || !strings.Contains(out.String(), "not to call") {
		t.Errorf("%d errors shown, want the 2 bad moves refused with reasons\n%s", errors, out.String())
	}
	for _, want := range []string{"== Round 5 ==", "The program (rows", "Your hand:", "The votes, revealed together", "Moves: discard BILL", "The game is over", "Audit: the log checks"} {
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
