package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
)

var update = flag.Bool("update", false, "rewrite the recorded game scripts in testdata/scripts from fresh simulations")

// The scripts recorded from simulations, and what replaying each must give. Each NAME.json has
// a NAME.want.json: the summary of the game as the simulation that played it left it.
var recorded = []struct {
	name    string
	players int
	variant corruption.Variant
	lbb     bool
	seed    uint64
	// cut, when not nil, picks how many of the game's moves to keep, and the move to put
	// after them.
	cut func(moves []corruption.Move, states func(k int) *corruption.State) (keep int, extra *corruption.Move)
}{
	{name: "game-4p-standard", players: 4, variant: corruption.Standard, seed: 7},
	{name: "game-5p-free-stud-lbb", players: 5, variant: corruption.FreeStud, lbb: true, seed: 11},
	{name: "game-3p-closed", players: 3, variant: corruption.Closed, seed: 13},
	// The 4-player game stopped at its first awarding decision of round 2.
	{name: "partial-4p", players: 4, variant: corruption.Standard, seed: 7,
		cut: func(moves []corruption.Move, states func(int) *corruption.State) (int, *corruption.Move) {
			for k := range moves {
				s := states(k)
				if d := s.Next(); s.Round() == 2 && (d.Kind == corruption.DecideAssign || d.Kind == corruption.DecideKill || d.Kind == corruption.DecideRemove) {
					return k, nil
				}
			}
			panic("no awarding decision in round 2")
		}},
	// The 4-player game with its first placement of round 3 made by the wrong seat.
	{name: "illegal-4p-out-of-turn", players: 4, variant: corruption.Standard, seed: 7,
		cut: func(moves []corruption.Move, states func(int) *corruption.State) (int, *corruption.Move) {
			for k, m := range moves {
				if s := states(k); s.Round() == 3 && m.Kind == corruption.MovePlace {
					m.Seat = (m.Seat + 1) % 4
					return k, &m
				}
			}
			panic("no placement in round 3")
		}},
	// The 4-player game, and a placement after its end.
	{name: "illegal-4p-after-end", players: 4, variant: corruption.Standard, seed: 7,
		cut: func(moves []corruption.Move, _ func(int) *corruption.State) (int, *corruption.Move) {
			m := moves[0]
			return len(moves), &m
		}},
}

// recordGame plays a game among bots as corruption simulate does and returns it as a script,
// with the state the game reached.
func recordGame(t *testing.T, players int, v corruption.Variant, lbb bool, seed uint64) (*script.Script, *corruption.State) {
	t.Helper()
	var moves []corruption.Move
	var state *corruption.State
	_, err := bot.Simulate(bot.SimConfig{Games: 1, Players: players, Variant: v, LBB: lbb, Seed: seed,
		Bots:     []string{"heuristic", "random"},
		ShowMove: func(m corruption.Move) { moves = append(moves, m) },
		Attach:   func(s *corruption.State) { state = s }})
	if err != nil {
		t.Fatal(err)
	}
	return &script.Script{Config: bot.GameConfig(players, v, lbb, seed, 0), Moves: moves}, state
}

// writeRecordedScripts rewrites the recorded scripts and their wants (go test -run
// TestReplayScript -update).
func writeRecordedScripts(t *testing.T) {
	dir := filepath.Join("testdata", "scripts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range recorded {
		sc, end := recordGame(t, r.players, r.variant, r.lbb, r.seed)
		if !end.Over() {
			t.Fatalf("%s: the simulated game did not end", r.name)
		}
		want := script.Summarize(end, len(sc.Moves))
		if r.cut != nil {
			states := func(k int) *corruption.State {
				pre := &script.Script{Config: sc.Config, Moves: sc.Moves[:k]}
				s, err := pre.Run()
				if err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
				return s
			}
			keep, extra := r.cut(sc.Moves, states)
			want = script.Summarize(states(keep), keep)
			sc = &script.Script{Config: sc.Config, Moves: append([]corruption.Move(nil), sc.Moves[:keep]...)}
			if extra != nil {
				sc.Moves = append(sc.Moves, *extra)
			}
		}
		data, err := sc.Marshal()
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		wantJSON, err := json.MarshalIndent(want, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, r.name+".json"), string(data))
		if !strings.HasPrefix(r.name, "illegal") {
			writeFile(t, filepath.Join(dir, r.name+".want.json"), string(wantJSON)+"\n")
		}
	}
}

// summary is what replay --script --json prints.
type summary struct {
	Finished bool `json:"finished"`
	End      *struct {
		Reason string `json:"reason"`
		Move   int    `json:"move"`
	} `json:"end"`
	Error *struct {
		Move    int    `json:"move"`
		Message string `json:"message"`
	} `json:"error"`
	Round     int        `json:"round"`
	Phase     string     `json:"phase"`
	Scores    []int      `json:"scores"`
	Contracts [][]string `json:"contracts"`
	Deferred  []string   `json:"deferred"`
	Winners   []int      `json:"winners"`
	Next      *struct {
		Seat     int    `json:"seat"`
		Decision string `json:"decision"`
		Index    int    `json:"index"`
		CanPeek  bool   `json:"can_peek"`
	} `json:"next"`
	Digest string `json:"digest"`
}

func readWant(t *testing.T, name string) summary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "scripts", name+".want.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReplayScriptJSON: replaying a recorded game (or the start of one) prints where the game
// stands with every field, as the simulation that played it left it.
func TestReplayScriptJSON(t *testing.T) {
	if *update {
		writeRecordedScripts(t)
	}
	for _, rec := range recorded {
		if strings.HasPrefix(rec.name, "illegal") {
			continue
		}
		t.Run(rec.name, func(t *testing.T) {
			r := runCLI(t, "replay", "--script", filepath.Join("testdata", "scripts", rec.name+".json"), "--json")
			if r.code != 0 {
				t.Fatalf("%v", r)
			}
			var fields map[string]json.RawMessage
			dec := json.NewDecoder(strings.NewReader(r.stdout))
			if err := dec.Decode(&fields); err != nil || dec.More() {
				t.Fatalf("stdout is not one JSON object (%v)\n%s", err, r.stdout)
			}
			for _, k := range []string{"finished", "scores", "winners", "end", "error", "round", "scores", "contracts", "deferred", "next"} {
				if _, ok := fields[k]; !ok {
					t.Errorf("no %q field in %s", k, r.stdout)
				}
			}
			var got summary
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatal(err)
			}
			want := readWant(t, rec.name)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("replay reached\n%s\nthe game was\n%s", mustJSON(got), mustJSON(want))
			}
			switch {
			case rec.cut == nil && (!got.Finished || got.Round != 4 || len(got.Winners) == 0 || got.Next != nil || got.End == nil ||
				got.End.Reason != "last-round" || got.End.Move != moves(t, rec.name) || got.Error != nil):
				t.Errorf("a complete game: finished %t, round %d, winners %v, next %v, end %v, error %v", got.Finished, got.Round, got.Winners, got.Next, got.End, got.Error)
			case rec.cut != nil && (got.Finished || len(got.Winners) != 0 || got.Next == nil || got.End != nil || got.Error != nil):
				t.Errorf("an unfinished game: finished %t, winners %v, next %v, end %v, error %v", got.Finished, got.Winners, got.Next, got.End, got.Error)
			}
		})
	}
}

// TestReplayScriptText: without --json, replay tells the game round by round, and ends with
// the winners, or with the decision the game waits for.
func TestReplayScriptText(t *testing.T) {
	tests := []struct {
		name string
		last string // the last line
	}{
		{"game-4p-standard", winnerLine(readWant(t, "game-4p-standard").Winners)},
		{"game-5p-free-stud-lbb", winnerLine(readWant(t, "game-5p-free-stud-lbb").Winners)},
		{"game-3p-closed", winnerLine(readWant(t, "game-3p-closed").Winners)},
		{"partial-4p", func() string {
			n := readWant(t, "partial-4p").Next
			verb := map[string]string{"assign": "assign a Swiss bribe", "kill": "choose a hit man's target",
				"remove": "use a reporter"}[n.Decision]
			return fmt.Sprintf("The script stops here: the game waits for seat %d to %s (card %d).", n.Seat, verb, n.Index)
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, "replay", "--script", filepath.Join("testdata", "scripts", tt.name+".json"))
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("%v", r)
			}
			want := readWant(t, tt.name)
			for round := 1; round <= want.Round; round++ {
				if !strings.Contains(r.stdout, fmt.Sprintf("== Round %d ==", round)) {
					t.Errorf("round %d is not told", round)
				}
			}
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			if got := lines[len(lines)-1]; !strings.HasPrefix(got, strings.TrimSuffix(tt.last, ".")) {
				t.Errorf("the account ends with %q, want %q", got, tt.last)
			}
			if t.Failed() {
				t.Logf("%v", r)
			}
		})
	}
}

// moves is how many moves the script testdata/scripts/NAME.json has.
func moves(t *testing.T, name string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "scripts", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return len(sc.Moves)
}

// TestReplayScriptErrors: an illegal move exits 1 with "move K: ..." on stderr, and with --json
// prints where the game stood with the error; a malformed script exits 1 saying where it is
// malformed, after the file's path, and prints nothing. Neither panics.
func TestReplayScriptErrors(t *testing.T) {
	tests := []struct {
		name   string
		prefix string   // stderr starts with it
		want   []string // and names these
	}{
		{"illegal-4p-out-of-turn", fmt.Sprintf("move %d: ", moves(t, "illegal-4p-out-of-turn")), []string{"turn"}},
		{"illegal-4p-after-end", fmt.Sprintf("move %d: ", moves(t, "illegal-4p-after-end")), []string{"over"}},
		{"illegal-da-on-swiss", "move 3: seat 2 cannot place a district attorney on swiss:city", nil},
		{"illegal-first-seat", "move 1: seat 1 ", []string{"seat 0's turn"}},
		{"illegal-bribe-twice", "move 4: seat 0 ", []string{"$10,000"}},
		{"illegal-kill-unasked", "move 2: seat 1 ", nil},
		{"malformed-syntax", "", []string{"line 6, column 13"}},
		{"malformed-two-actions", "", []string{"move 2", "exactly one"}},
		{"malformed-no-action", "", []string{"move 1"}},
		{"malformed-deck", "", []string{"deck[4]", `"airprot"`}},
		{"malformed-short-deck", "", []string{"deck", "24"}},
		{"malformed-no-players", "", []string{"players", "missing"}},
		{"malformed-players", "", []string{"players", "9"}},
		{"malformed-card", "", []string{"move 1", `"12000"`}},
		{"malformed-spot", "", []string{"move 1", `"swiss:moon"`}},
		{"malformed-unknown-field", "", []string{`"extra"`}},
		{"malformed-seat-type", "", []string{"line 2"}},
		{"malformed-truncated", "", []string{"line 2"}},
		{"malformed-array", "", []string{"line 1"}},
		{"malformed-empty", "", []string{"empty"}},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			path := filepath.Join("testdata", "scripts", tt.name+".json")
			args := []string{"replay", "--script", path}
			if asJSON {
				args = append(args, "--json")
			}
			t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
				r := runCLI(t, args...)
				if r.code != 1 {
					t.Errorf("exit %d, want 1", r.code)
				}
				msg := r.stderr
				if tt.prefix == "" {
					// A malformed file is named, then what is wrong where.
					if !strings.HasPrefix(msg, path+": ") {
						t.Errorf("stderr does not start with the file's name %q", path)
					}
				} else if !strings.HasPrefix(msg, tt.prefix) {
					t.Errorf("stderr does not start with %q", tt.prefix)
				}
				for _, w := range tt.want {
					if !strings.Contains(msg, w) {
						t.Errorf("stderr does not say %s", w)
					}
				}
				if strings.Count(strings.TrimSpace(msg), "\n") > 0 {
					t.Errorf("the error takes more than one line")
				}
				switch {
				case asJSON && tt.prefix == "" && r.stdout != "":
					t.Errorf("--json printed output for a script that cannot be read")
				case asJSON && tt.prefix != "":
					checkFailedJSON(t, r, tt.name)
				}
				if t.Failed() {
					t.Logf("%v", r)
				}
			})
		}
	}
}

// checkFailedJSON: replay --json of a script with an illegal move printed one object, the one
// of the script cut before that move, with "error" naming the move as stderr does.
func checkFailedJSON(t *testing.T, r result, name string) {
	t.Helper()
	var got summary
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON object (%v)", err)
	}
	if got.Error == nil || fmt.Sprintf("move %d: %s", got.Error.Move, got.Error.Message) != strings.TrimSpace(r.stderr) {
		t.Fatalf("the error is %+v, stderr says %q", got.Error, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "scripts", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	sc.Moves = sc.Moves[:got.Error.Move-1]
	before, err := sc.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if got.Digest != before.Digest || got.Finished != before.Finished || got.Round != before.Round || (got.Next == nil) != (before.Next == nil) {
		t.Errorf("the game stood at %s, --json says %+v", mustJSON(before), got)
	}
	if got.Finished != (name == "illegal-4p-after-end") {
		t.Errorf("finished %t", got.Finished)
	}
}

func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return err.Error()
	}
	return b.String()
}

// TestScriptsDocFailingJSON: the failing script's JSON that docs/SCRIPTS.md shows is what
// replay --json prints for it.
func TestScriptsDocFailingJSON(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "SCRIPTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "<!-- failing-json:")
	_, block, ok2 := strings.Cut(block, "```json\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/SCRIPTS.md shows no failing script's JSON")
	}
	r := runCLI(t, "replay", "--script", filepath.Join("testdata", "scripts", "illegal-da-on-swiss.json"), "--json")
	var got, want any
	if err := json.Unmarshal([]byte(block), &want); err != nil {
		t.Fatalf("the docs' JSON: %v", err)
	}
	if r.code != 1 || json.Unmarshal([]byte(r.stdout), &got) != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("replay --json prints\n%s\nthe docs show\n%s", r.stdout, block)
	}
}

// TestScriptErrorFormat: every game's scripts fail alike. A file that cannot be read or is
// malformed: the error starts with its path, and nothing is printed; an illegal move: the error
// starts "move K: " (no path), and --json prints where the game stood, with that error.
func TestScriptErrorFormat(t *testing.T) {
	dir := t.TempDir()
	syntax := filepath.Join(dir, "syntax.json")
	writeFile(t, syntax, "{\"players\": 3,\n \"moves\": [}")
	kingdoms := filepath.Join("..", "..", "engine", "kingdoms", "script", "testdata")
	for _, tc := range []struct {
		game, path string
		illegal    bool
	}{
		{"corruption", syntax, false},
		{"kingdoms", syntax, false},
		{"corruptia", syntax, false},
		{"kingdoms", filepath.Join(dir, "missing.json"), false},
		{"corruptia", filepath.Join(dir, "missing.json"), false},
		{"kingdoms", filepath.Join(kingdoms, "bad-two-players-basic.json"), false},
		{"corruption", filepath.Join("testdata", "scripts", "illegal-bribe-twice.json"), true},
		{"kingdoms", filepath.Join(kingdoms, "bad-pay-two-more.json"), true},
		{"corruptia", filepath.Join(corruptiaScripts, "bad-not-held.json"), true},
	} {
		t.Run(tc.game+" "+filepath.Base(tc.path), func(t *testing.T) {
			r := runCLI(t, "replay", "--game", tc.game, "--script", tc.path, "--json")
			if r.code != 1 || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
				t.Fatalf("want exit 1 and one line on stderr\n%v", r)
			}
			if !tc.illegal {
				if !strings.HasPrefix(r.stderr, tc.path+": ") || r.stdout != "" {
					t.Errorf("want the path first and nothing printed\n%v", r)
				}
				return
			}
			var res struct {
				Finished bool
				Error    *struct {
					Move    int
					Message string
				}
			}
			if !strings.HasPrefix(r.stderr, "move ") || json.Unmarshal([]byte(r.stdout), &res) != nil || res.Error == nil ||
				fmt.Sprintf("move %d: %s", res.Error.Move, res.Error.Message) != strings.TrimSpace(r.stderr) || res.Finished {
				t.Errorf("want \"move K: ...\" on stderr and in the JSON printed\n%v", r)
			}
		})
	}
}
