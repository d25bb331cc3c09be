package script_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/corruptia/script"
)

var update = flag.Bool("update", false, "rewrite the golden scripts in testdata from fresh recordings")

func record(t *testing.T, players int, seed uint64) *script.Script {
	t.Helper()
	bots := make([]bot.Bot, players)
	for s := range bots {
		bots[s], _ = bot.New([]string{"heuristic", "random"}[s%2], seed<<3|uint64(s))
	}
	sc, err := script.Record(players, corruptia.DefaultConfig(), bots, seed)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestRecordReplay: a game recorded among bots, written and read back, replays to its end:
// the same outcome and digest as the game that was played.
func TestRecordReplay(t *testing.T) {
	for n := corruptia.MinPlayers; n <= corruptia.MaxPlayers; n++ {
		for seed := range uint64(4) {
			sc := record(t, n, seed)
			data, err := sc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			back, err := script.Parse(data)
			if err != nil {
				t.Fatalf("%d players, seed %d: %v", n, seed, err)
			}
			if !reflect.DeepEqual(back, sc) {
				t.Fatalf("%d players, seed %d: the script read back differs", n, seed)
			}
			var told []string
			res, err := back.Run(func(e engine.Event) { told = append(told, e.Text) })
			if err != nil {
				t.Fatalf("%d players, seed %d: %v", n, seed, err)
			}
			if !res.Finished || len(res.Winners) == 0 || res.Next != nil || len(told) < 100 {
				t.Fatalf("%d players, seed %d: finished %v, winners %v, next %v, %d events", n, seed, res.Finished, res.Winners, res.Next, len(told))
			}
			again, _ := sc.Run(nil)
			if again.Digest != res.Digest || !reflect.DeepEqual(again.Scores, res.Scores) {
				t.Fatalf("two replays of one script differ")
			}
		}
	}
}

// golden scripts: recorded games, cut or broken at an entry. want.json holds the Result of a
// good one; .want the error of a bad one.
var goldens = []struct {
	name    string
	players int
	seed    uint64
	edit    func(t *testing.T, sc *script.Script)
}{
	{"game-2p", 2, 5, nil},
	{"game-4p", 4, 7, nil},
	{"game-5p-cut", 5, 3, func(t *testing.T, sc *script.Script) { sc.Moves = sc.Moves[:index(t, sc, isVotes, 4)] }},
	{"bad-not-held", 3, 2, func(t *testing.T, sc *script.Script) {
		i := index(t, sc, isMove(corruptia.MovePropose), 1)
		sc.Moves[i].Bill = sc.Moves[index(t, sc, isMove(corruptia.MovePropose), 0)].Bill
	}},
	{"bad-out-of-turn", 3, 2, func(t *testing.T, sc *script.Script) {
		i := index(t, sc, isMove(corruptia.MovePropose), 2)
		sc.Moves[i].Seat = (sc.Moves[i].Seat + 1) % 3
	}},
	{"bad-absent-no-token", 3, 2, func(t *testing.T, sc *script.Script) {
		sc.Moves[index(t, sc, isVotes, 0)].Votes[1] = corruptia.VoteAbsent
	}},
	{"bad-not-touching", 3, 2, func(t *testing.T, sc *script.Script) {
		i := index(t, sc, isMove(corruptia.MovePropose), 0)
		sc.Moves[i].At.Row += 6
	}},
	{"bad-after-the-end", 2, 5, func(t *testing.T, sc *script.Script) {
		sc.Moves = append(sc.Moves, script.Entry{Kind: script.EntryMove, Seat: 0, Move: corruptia.MoveCall})
	}},
}

func isVotes(e script.Entry) bool { return e.Kind == script.EntryVotes }

func isMove(k corruptia.MoveKind) func(script.Entry) bool {
	return func(e script.Entry) bool { return e.Kind == script.EntryMove && e.Move == k }
}

// index is the index of the k-th entry (from 0) that matches.
func index(t *testing.T, sc *script.Script, match func(script.Entry) bool, k int) int {
	for i, e := range sc.Moves {
		if match(e) {
			if k == 0 {
				return i
			}
			k--
		}
	}
	t.Fatal("no such entry")
	return -1
}

func TestGolden(t *testing.T) {
	if *update {
		for _, g := range goldens {
			sc := record(t, g.players, g.seed)
			if g.edit != nil {
				g.edit(t, sc)
			}
			data, err := sc.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("testdata", g.name+".json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := sc.Run(nil)
			if err != nil {
				err = os.WriteFile(filepath.Join("testdata", g.name+".want"), []byte(err.Error()+"\n"), 0o644)
			} else {
				out, _ := json.MarshalIndent(res, "", " ")
				err = os.WriteFile(filepath.Join("testdata", g.name+".want.json"), append(out, '\n'), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	files, _ := filepath.Glob("testdata/*.json")
	checked := 0
	for _, file := range files {
		if strings.HasSuffix(file, ".want.json") {
			continue
		}
		base := strings.TrimSuffix(file, ".json")
		t.Run(filepath.Base(base), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			sc, err := script.Parse(data)
			if err == nil {
				var res *script.Result
				if res, err = sc.Run(nil); err == nil {
					out, _ := json.MarshalIndent(res, "", " ")
					got = string(out) + "\n"
				}
			}
			if err != nil {
				got = err.Error() + "\n"
			}
			want, err1 := os.ReadFile(base + ".want.json")
			if err1 != nil {
				want, err1 = os.ReadFile(base + ".want")
			}
			if err1 != nil {
				t.Fatalf("no .want or .want.json beside %s", file)
			}
			if got != string(want) {
				t.Errorf("%s:\ngot  %s\nwant %s", file, got, want)
			}
		})
		checked++
	}
	if checked < len(goldens) {
		t.Errorf("%d golden scripts checked, want at least %d", checked, len(goldens))
	}
}

// TestParseErrors: a malformed script says where and what.
func TestParseErrors(t *testing.T) {
	deck := make([]string, corruptia.NumBills)
	for i := range deck {
		deck[i] = `"` + corruptia.Bill(i).String() + `"`
	}
	doc := func(moves string) string {
		return `{"players": 3, "first": 0, "deck": [` + strings.Join(deck, ",") + `], "moves": [` + moves + `]}`
	}
	for _, c := range []struct{ in, want string }{
		{``, "empty script"},
		{`{"players": 3,`, "line 1, column 15"},
		{`{"players": 3, "first": 0, "moves": []}`, "deck: missing"},
		{`{"players": 7, "first": 0, "deck": [], "moves": []}`, "players: 7"},
		{`{"Players": 3}`, `unknown field "Players"`},
		{`{"players": 3, "players": 3}`, `"players" appears twice`},
		{`{"players": 3, "first": 0, "deck": ["cul01", "cul01"], "moves": []}`, "deck[1]: cul01 appears twice"},
		{`{"players": 3, "first": 0, "deck": ["cul01"], "moves": []}`, "deck: 1 bills, want all 90"},
		{doc(`{"seat": 0, "discard": "cul01", "offer": true}`), "move 1: an entry needs exactly one"},
		{doc(`{"seat": 0, "offer": false}`), `move 1: "offer" must be true`},
		{doc(`{"die": "R", "seat": 1}`), `move 1: a draw has no "seat"`},
		{doc(`{"votes": ["yes", "no"]}`), "move 1: 2 votes at a table of 3"},
		{doc(`{"seat": 0, "propose": "cul01", "at": [0, 1], "workers": ["$4@cul02", "employee@0", "employee@0"]}`), `move 1: worker "$4@cul02"`},
		{doc(`{"seat": 0, "propose": "cul01", "at": [0, 1]}`), `move 1: a proposal needs "workers"`},
		{doc(`{"seat": 0, "blackmail": 1}`), `move 1: a blackmail needs "demand"`},
		{doc(`{"seat": 0, "pass": true, "take": "cul01"}`), `move 1: "take" goes with "swap"`},
		{doc(`{"toss": "heads"}`), `move 1: toss "heads"`},
		{doc(`{"seat": 3, "call": true}`), "move 1: seat 3 is not between 0 and 2"},
	} {
		_, err := script.Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%.60q): %v, want %q", c.in, err, c.want)
		}
	}
}

// FuzzParseScript: Parse never panics, and whatever it accepts, Marshal writes so that Parse
// reads the same script (and Marshal is then stable); running it never panics. Short runs:
// go test -run='^$' -fuzz='^FuzzParseScript$' -fuzztime=5000x ./engine/corruptia/script/
func FuzzParseScript(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && !strings.HasSuffix(file, ".want.json") {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"players": 2, "first": 1, "deck": [], "moves": [{"die": "R"}, {"toss": "approve"}]}`))
	f.Add([]byte(`{"players": 3, "amendments": 0, "first": 0, "deck": ["cul01"], "redeck": [], "moves": [{"votes": ["yes", "no", "absent"]}]}`))
	f.Add([]byte(`{"players": 3, "amendments": 40, "first": 2, "deck": ["cul01"], "pile": ["edu02", "cul01"], "moves": [{"seat": 1, "blackmail": 0, "card": "offshore-account", "demand": "no"}, {"seat": 2, "blackmail": 1, "card": "yacht", "demand": "yes"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := script.Parse(data)
		if err != nil {
			if sc != nil || err.Error() == "" {
				t.Fatalf("a script and an error, or an empty error: %v", err)
			}
			return
		}
		out, err := sc.Marshal()
		if err != nil {
			t.Fatalf("Parse accepted what Marshal cannot write: %v", err)
		}
		back, err := script.Parse(out)
		if err != nil {
			t.Fatalf("Parse refuses what Marshal wrote: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, sc) {
			t.Fatalf("round trip:\n%+v\nwant\n%+v", back, sc)
		}
		if again, err := back.Marshal(); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Marshal is not stable: %v", err)
		}
		if len(sc.Moves) <= 400 {
			_, _ = sc.Run(nil)
		}
	})
}
