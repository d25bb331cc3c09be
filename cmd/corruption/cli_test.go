package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol"
)

// TestHelp: the app and every command answer --help (and -h) with exit 0 on stdout, naming
// every flag, and the examples the help gives can be followed.
func TestHelp(t *testing.T) {
	tests := []struct {
		args  []string
		flags []string
	}{
		{nil, []string{"bot", "simulate", "replay", "audit", "--help"}},
		{[]string{"bot"}, []string{"--game", "--table", "--players", "--variant", "--lbb", "--name", "--data", "--out",
			"--listen", "--peer", "--no-mdns", "--timeout", "--seed", "--json", "--verbose"}},
		{[]string{"simulate"}, []string{"--game", "--games", "--players", "--variant", "--lbb", "--bots", "--seed", "--json", "--show", "--record"}},
		{[]string{"replay"}, []string{"--game", "--script", "--json", "LOG"}},
		{[]string{"audit"}, []string{"--json", "LOG"}},
	}
	for _, tt := range tests {
		for _, h := range []string{"--help", "-h"} {
			args := append(append([]string(nil), tt.args...), h)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				r := runCLI(t, args...)
				if r.code != 0 {
					t.Fatalf("exit %d, want 0\n%v", r.code, r)
				}
				for _, f := range tt.flags {
					if !strings.Contains(r.stdout, f) {
						t.Errorf("the help does not mention %s\n%s", f, r.stdout)
					}
				}
			})
		}
	}
}

// TestHelpExamples: the files the help's examples name exist (relative to the repository
// root, where a player who cloned it runs them), and the examples run.
func TestHelpExamples(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "replay", "--help")
	re := regexp.MustCompile(`corruption replay --script (\S+)`)
	m := re.FindAllStringSubmatch(r.stdout, -1)
	if len(m) == 0 {
		t.Fatalf("the replay help gives no example of --script\n%s", r.stdout)
	}
	for _, ex := range m {
		path := filepath.Join(root, ex[1])
		if _, err := os.Stat(path); err != nil {
			t.Errorf("replay --help: the example %q names a file that does not exist: %v", ex[0], err)
			continue
		}
		if r := runCLI(t, "replay", "--script", path, "--json"); r.code != 0 {
			t.Errorf("replay --help example fails:\n%v", r)
		}
	}
}

// TestUsageErrors: bad command lines exit non-zero with one error line on stderr that names
// what was wrong; never a panic, and nothing on stdout for a script to mistake for output.
// Usage errors exit 2; input that cannot be read or is not what it should be exits 1.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.log")
	notLog := filepath.Join(dir, "notes.txt")
	magicOnly := filepath.Join(dir, "magic.log")
	missing := filepath.Join(dir, "missing.log")
	writeFile(t, empty, "")
	writeFile(t, notLog, "this is not a log\n")
	writeFile(t, magicOnly, protocol.LogMagic)
	script := filepath.Join("testdata", "scripts", "partial-4p.json")
	loop := []string{"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0"}
	botArgs := func(extra ...string) []string {
		return append(append([]string{"bot"}, loop...), extra...)
	}

	tests := []struct {
		name string
		args []string
		code int
		want []string // each must appear in stderr
	}{
		{"unknown command", []string{"nope"}, 2, []string{`"nope"`, "unknown command"}},
		{"unknown app flag", []string{"--nope"}, 2, []string{"nope"}},
		{"unknown command flag", []string{"simulate", "--nope"}, 2, []string{"nope"}},
		{"simulate argument", []string{"simulate", "extra"}, 2, []string{`"extra"`}},
		{"simulate players 9", []string{"simulate", "--players", "9"}, 2, []string{"--players", "9", "3 to 7"}},
		{"simulate players 2", []string{"simulate", "--players", "2"}, 2, []string{"--players", "2"}},
		{"simulate players abc", []string{"simulate", "--players", "abc"}, 2, []string{"players", `"abc"`}},
		{"simulate variant", []string{"simulate", "--variant", "nope"}, 2, []string{"--variant", `"nope"`}},
		{"simulate lbb closed", []string{"simulate", "--lbb", "--variant", "closed"}, 2, []string{"--lbb", "closed"}},
		{"simulate games 0", []string{"simulate", "--games", "0"}, 2, []string{"--games", "0"}},
		{"simulate games negative", []string{"simulate", "--games", "-3"}, 2, []string{"--games", "-3"}},
		{"simulate bots", []string{"simulate", "--bots", "random,nope"}, 2, []string{"--bots", `"nope"`}},
		{"simulate seed", []string{"simulate", "--seed", "-1"}, 2, []string{"seed", `"-1"`}},
		{"bot without flags", []string{"bot"}, 2, []string{"table", "players"}},
		{"bot without table", botArgs("--players", "3"), 2, []string{"table"}},
		{"bot without players", botArgs("--table", "t"), 2, []string{"players"}},
		{"bot players 2", botArgs("--table", "t", "--players", "2"), 2, []string{"--players", "2"}},
		{"bot players 8", botArgs("--table", "t", "--players", "8"), 2, []string{"--players", "8"}},
		{"bot variant", botArgs("--table", "t", "--players", "3", "--variant", "nope"), 2, []string{"--variant", `"nope"`}},
		{"bot lbb closed", botArgs("--table", "t", "--players", "3", "--lbb", "--variant", "closed"), 2, []string{"--lbb", "closed"}},
		{"bot timeout short", botArgs("--table", "t", "--players", "3", "--timeout", "0s"), 2, []string{"--timeout"}},
		{"bot timeout abc", botArgs("--table", "t", "--players", "3", "--timeout", "abc"), 2, []string{"timeout", `"abc"`}},
		{"bot table slash", botArgs("--table", "a/b", "--players", "3"), 2, []string{"--table", `"a/b"`}},
		{"bot table empty", botArgs("--table", "", "--players", "3"), 2, []string{"--table"}},
		{"bot table long", botArgs("--table", strings.Repeat("x", 200), "--players", "3"), 2, []string{"--table"}},
		{"bot argument", botArgs("--table", "t", "--players", "3", "extra"), 2, []string{`"extra"`}},
		{"bot peer not multiaddr", botArgs("--table", "t", "--players", "3", "--peer", "not-a-multiaddr"), 2, []string{"--peer", `"not-a-multiaddr"`}},
		{"bot peer without id", botArgs("--table", "t", "--players", "3", "--peer", "/ip4/127.0.0.1/tcp/1"), 2, []string{"--peer", "/p2p/"}},
		{"bot listen", []string{"bot", "--no-mdns", "--table", "t", "--players", "3", "--listen", "garbage"}, 2, []string{"listen", `"garbage"`}},
		{"audit no file", []string{"audit"}, 2, []string{"LOG"}},
		{"audit two files", []string{"audit", empty, notLog}, 2, []string{"LOG"}},
		{"audit missing file", []string{"audit", missing}, 1, []string{missing, "no such file"}},
		{"audit empty file", []string{"audit", empty}, 1, []string{empty, "empty"}},
		{"audit not a log", []string{"audit", notLog}, 1, []string{notLog, "not a corruption log"}},
		{"audit no entries", []string{"audit", magicOnly}, 1, []string{magicOnly, "no entries"}},
		{"audit directory", []string{"audit", dir}, 1, []string{dir, "directory"}},
		{"replay nothing", []string{"replay"}, 2, []string{"--script", "LOG"}},
		{"replay script and log", []string{"replay", "--script", script, empty}, 2, []string{"--script", "LOG"}},
		{"replay json log", []string{"replay", "--json", empty}, 2, []string{"--json"}},
		{"replay missing log", []string{"replay", missing}, 1, []string{missing, "no such file"}},
		{"replay empty log", []string{"replay", empty}, 1, []string{empty, "empty"}},
		{"replay not a log", []string{"replay", notLog}, 1, []string{notLog, "not a corruption log"}},
		{"replay missing script", []string{"replay", "--script", missing}, 1, []string{missing, "no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d", r.code, tt.code)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr does not name %s", w)
				}
			}
			if r.stdout != "" {
				t.Errorf("an error printed %d bytes on stdout (help text belongs to --help)", len(r.stdout))
			}
			if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n > 2 {
				t.Errorf("the error takes %d lines; want a short message", n+1)
			}
			if t.Failed() {
				t.Logf("%v", r)
			}
		})
	}
}

// simResult is the JSON of simulate --json.
type simResult struct {
	Games       int                 `json:"games"`
	Players     int                 `json:"players"`
	Variant     string              `json:"variant"`
	LBB         bool                `json:"little_black_book"`
	Seed        uint64              `json:"seed"`
	ByBot       map[string]simTally `json:"by_bot"`
	BySeat      []simTally          `json:"by_seat"`
	Seconds     float64             `json:"seconds"`
	GamesPerSec float64             `json:"games_per_second"`
}

type simTally struct {
	Games     int     `json:"games"`
	Wins      float64 `json:"wins"`
	WinRate   float64 `json:"win_rate"`
	MeanScore float64 `json:"mean_score"`
}

func TestSimulateJSON(t *testing.T) {
	r := runCLI(t, "simulate", "--games", "200", "--players", "4", "--json")
	if r.code != 0 {
		t.Fatalf("%v", r)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &raw); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, r.stdout)
	}
	for _, k := range []string{"by_bot", "by_seat", "games_per_second"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("no %q in %s", k, r.stdout)
		}
	}
	var res simResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Games != 200 || res.Players != 4 || res.Variant != "standard" || res.LBB {
		t.Errorf("games %d players %d variant %q lbb %t, want 200 4 standard false", res.Games, res.Players, res.Variant, res.LBB)
	}
	if res.GamesPerSec <= 0 {
		t.Errorf("games_per_second %v", res.GamesPerSec)
	}
	if len(res.BySeat) != 4 {
		t.Fatalf("by_seat has %d seats, want 4", len(res.BySeat))
	}
	wins := 0.0
	for seat, s := range res.BySeat {
		if s.Games != 200 {
			t.Errorf("seat %d played %d games, want 200", seat, s.Games)
		}
		wins += s.Wins
	}
	if math.Abs(wins-200) > 1e-6 {
		t.Errorf("the seats' wins add up to %v, want 200 (one per game)", wins)
	}
	h, rnd := res.ByBot["heuristic"], res.ByBot["random"]
	if len(res.ByBot) != 2 || h.Games != 400 || rnd.Games != 400 {
		t.Errorf("by_bot %+v, want heuristic and random with 400 seat-games each", res.ByBot)
	}
	if math.Abs(h.Wins+rnd.Wins-200) > 1e-6 {
		t.Errorf("the bots' wins add up to %v, want 200", h.Wins+rnd.Wins)
	}
	if h.WinRate <= rnd.WinRate || h.MeanScore <= rnd.MeanScore {
		t.Errorf("the heuristic bot (win rate %.3f, mean $%.0f) does not beat the random bot (%.3f, $%.0f)",
			h.WinRate, h.MeanScore, rnd.WinRate, rnd.MeanScore)
	}
}

// TestSimulateFlags: each flag reaches the simulation: the command's results are those of
// the same batch played in this process.
func TestSimulateFlags(t *testing.T) {
	tests := []struct {
		args []string
		cfg  bot.SimConfig
	}{
		{[]string{"--games", "30", "--players", "3", "--variant", "closed", "--bots", "random", "--seed", "5"},
			bot.SimConfig{Games: 30, Players: 3, Variant: corruption.Closed, Bots: []string{"random"}, Seed: 5}},
		{[]string{"--games", "20", "--players", "7", "--variant", "free-stud", "--lbb", "--bots", "random, heuristic,random", "--seed", "9"},
			bot.SimConfig{Games: 20, Players: 7, Variant: corruption.FreeStud, LBB: true, Bots: []string{"random", "heuristic", "random"}, Seed: 9}},
		{[]string{"--games", "25", "--players", "5", "--variant", "down-the-river"},
			bot.SimConfig{Games: 25, Players: 5, Variant: corruption.DownTheRiver, Bots: []string{"heuristic", "random"}, Seed: 1}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runCLI(t, append([]string{"simulate", "--json"}, tt.args...)...)
			if r.code != 0 {
				t.Fatalf("%v", r)
			}
			var got simResult
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatalf("%v\n%s", err, r.stdout)
			}
			want, err := bot.Simulate(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got.Games != want.Games || got.Players != want.Players || got.Variant != want.Variant ||
				got.LBB != want.LBB || got.Seed != want.Seed {
				t.Errorf("got %d games, %d players, %s, lbb %t, seed %d; want %d, %d, %s, %t, %d", got.Games, got.Players,
					got.Variant, got.LBB, got.Seed, want.Games, want.Players, want.Variant, want.LBB, want.Seed)
			}
			wantBots := map[string]simTally{}
			for k, v := range want.ByBot {
				wantBots[k] = simTally{v.Games, v.Wins, v.WinRate, v.MeanScore}
			}
			wantSeats := make([]simTally, len(want.BySeat))
			for i, v := range want.BySeat {
				wantSeats[i] = simTally{v.Games, v.Wins, v.WinRate, v.MeanScore}
			}
			if !reflect.DeepEqual(got.ByBot, wantBots) || !reflect.DeepEqual(got.BySeat, wantSeats) {
				t.Errorf("the command's results differ from the same simulation in process:\ngot  %+v %+v\nwant %+v %+v",
					got.ByBot, got.BySeat, wantBots, wantSeats)
			}
		})
	}
}

// TestSimulateShow: --show tells one game, round by round, ending with the winners, and the
// winners are those of the game the simulation played.
func TestSimulateShow(t *testing.T) {
	r := runCLI(t, "simulate", "--games", "1", "--players", "4", "--seed", "3", "--show")
	if r.code != 0 {
		t.Fatalf("%v", r)
	}
	out := r.stdout
	last := -1
	for round := 1; round <= 4; round++ {
		i := strings.Index(out, "== Round "+strconv.Itoa(round)+" ==")
		if i < 0 || i < last {
			t.Fatalf("round %d is not told, or not after round %d\n%s", round, round-1, out)
		}
		last = i
	}
	var state *corruption.State
	if _, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 4, Bots: []string{"heuristic", "random"}, Seed: 3,
		Attach: func(s *corruption.State) { state = s }}); err != nil {
		t.Fatal(err)
	}
	want := winnerLine(state.Winners())
	game, _, ok := strings.Cut(out[last:], "\n\n")
	if !ok {
		t.Fatalf("no blank line between the game and the results\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(game), "\n")
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("the game ends with %q, want the winner line %q\n%s", got, want, out)
	}
	if !strings.Contains(out, "the game is over") || !strings.Contains(out, "games per second") {
		t.Errorf("the output lacks the end of the game or the results\n%s", out)
	}
}

func winnerLine(ws []int) string {
	if len(ws) == 1 {
		return "Seat " + strconv.Itoa(ws[0]) + " wins."
	}
	words := make([]string, len(ws))
	for i, w := range ws {
		words[i] = strconv.Itoa(w)
	}
	return "Seats " + strings.Join(words, " and ") + " share the win."
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
