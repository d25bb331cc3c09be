package script_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/script"
)

// recorded calls each with a few games recorded among bots, of every size, with chaos cards
// (answers to pass) and without: fresh scripts, recorded once for every test.
func recorded(t *testing.T, each func(name string, sc *script.Script, digest [32]byte)) {
	t.Helper()
	recordOnce.Do(func() {
		for players := 2; players <= 5; players++ {
			for _, rules := range []kingdoms.Config{kingdoms.Advanced, kingdoms.Basic, {Chaos: true, Even: true}} {
				if rules.Check(players) != nil {
					continue
				}
				for seed := uint64(1); seed <= 4; seed++ {
					sc, digest := record(t, rules, players, seed)
					data, err := sc.Marshal()
					if err != nil {
						t.Fatal(err)
					}
					recordings = append(recordings, recording{fmt.Sprintf("%s/%d/%d", rules, players, seed), data, digest})
				}
			}
		}
	})
	for _, r := range recordings {
		sc, err := script.Parse(r.data)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		each(r.name, sc, r.digest)
	}
}

type recording struct {
	name   string
	data   []byte
	digest [32]byte
}

var (
	recordOnce sync.Once
	recordings []recording
)

// paidFor is the minions influence m pays: its cost less the minions waived, and the extra one.
func paidFor(m kingdoms.Move) []kingdoms.Minion {
	pay := []kingdoms.Minion{}
	for i, c := range kingdoms.Leaders()[m.Leader].Cost {
		if m.Waive&(1<<i) == 0 {
			pay = append(pay, c)
		}
	}
	if m.Minion != kingdoms.NoMinion {
		pay = append(pay, m.Minion)
	}
	return pay
}

// TestPayAsMinions: every influence of recorded games, written as the minions it pays, reads
// back and replays to the same end; a payment of two minions more is refused at its move with
// what the influence costs.
func TestPayAsMinions(t *testing.T) {
	steals, influences := 0, 0
	recorded(t, func(name string, sc *script.Script, digest [32]byte) {
		sc.Pay = make([][]kingdoms.Minion, len(sc.Moves))
		first := -1
		for i, m := range sc.Moves {
			if m.Kind != kingdoms.MoveInfluence {
				continue
			}
			influences++
			if m.Minion != kingdoms.NoMinion {
				steals++
			}
			if first < 0 {
				first = i
			}
			sc.Pay[i] = paidFor(m)
			sc.Moves[i] = kingdoms.InfluenceMove(m.Seat, m.Leader, 0, kingdoms.NoMinion)
		}
		data, err := sc.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := script.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, data)
		}
		res, err := back.Run(nil)
		if err != nil || !res.Finished || res.Digest != hexDigest(digest) {
			t.Fatalf("%s: the game paid in minions replays to %v, finished %v", name, err, res.Finished)
		}
		if first < 0 {
			return
		}
		back.Pay[first] = append(back.Pay[first], kingdoms.Golem, kingdoms.Golem)
		res, err = back.Run(nil)
		var re *script.ReplayError
		if !errors.As(err, &re) || re.Move != first+1 || res.Error != re || res.Finished {
			t.Fatalf("%s: two more golems at move %d: %v", name, first+1, err)
		}
		if !strings.Contains(err.Error(), "cannot influence") && !strings.Contains(err.Error(), "cannot steal") ||
			!strings.Contains(err.Error(), "golem, golem") {
			t.Errorf("%s: %v does not say what was paid and what it costs", name, err)
		}
	})
	if steals == 0 || influences == 0 {
		t.Fatalf("%d influences, %d steals: the test tries nothing", influences, steals)
	}
}

// TestPayParse: "pay" is an influence's alone, with neither "waive" nor "extra", and names
// minions.
func TestPayParse(t *testing.T) {
	for in, want := range map[string]string{
		`{"seat": 0, "influence": "whip", "pay": ["goblin"], "waive": ["zombie"]}`: `not both`,
		`{"seat": 0, "influence": "whip", "pay": ["gremlin"]}`:                     `pay[0]: unknown minion "gremlin"`,
		`{"seat": 0, "take": "magic-1", "pay": ["goblin"]}`:                        `"pay" is not an argument of take`,
	} {
		_, err := script.Parse([]byte(`{"players": 3, "moves": [` + in + `]}`))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// TestNoTrailingPasses: a whole game without the passes that end it is the whole game (2-player
// games among them); a script that stops at an answer before the end still stops there.
func TestNoTrailingPasses(t *testing.T) {
	cut, cut2 := 0, 0
	// Two-player games of these seeds end with passes (those of recorded do not).
	twos := func(t *testing.T, each func(string, *script.Script, [32]byte)) {
		recorded(t, each)
		for _, seed := range []uint64{11, 13} {
			sc, digest := record(t, kingdoms.Advanced, 2, seed)
			each(fmt.Sprintf("advanced/2/%d", seed), sc, digest)
		}
	}
	twos(t, func(name string, sc *script.Script, digest [32]byte) {
		k := len(sc.Moves)
		for k > 0 && sc.Moves[k-1].Kind == kingdoms.MovePass {
			k--
		}
		if k == len(sc.Moves) {
			return
		}
		cut++
		if sc.Players == 2 {
			cut2++
		}
		k, sc.Moves = len(sc.Moves)-k, sc.Moves[:k]
		overs := 0
		res, err := sc.Run(func(e engine.Event) {
			if e.Data.(kingdoms.Event).Kind == kingdoms.EventOver {
				overs++
			}
		})
		if err != nil || !res.Finished || res.Digest != hexDigest(digest) {
			t.Fatalf("%s: without its %d trailing passes: %v, finished %v", name, k, err, res.Finished)
		}
		if quiet, _ := sc.Run(nil); quiet.Digest != res.Digest || overs != 1 {
			t.Errorf("%s: the end is told %d times", name, overs)
		}
	})
	if cut == 0 || cut2 == 0 {
		t.Fatalf("%d recorded games end with passes, %d of 2 players: the test tries too little", cut, cut2)
	}
	// A game stopped at the revealed votes of a bill mid-game waits for the answers.
	stopped := 0
	recorded(t, func(name string, sc *script.Script, _ [32]byte) {
		for i := len(sc.Moves) / 2; i < len(sc.Moves)-1; i++ {
			if sc.Moves[i].Kind == kingdoms.MovePass && sc.Moves[i-1].Kind == kingdoms.MoveVote {
				sc.Moves = sc.Moves[:i]
				res, err := sc.Run(nil)
				if err != nil || res.Finished || res.Next == nil || res.Next.Decision != "answer" {
					t.Fatalf("%s: stopped after the votes, before an answer: %v, next %+v", name, err, res.Next)
				}
				stopped++
				return
			}
		}
	})
	if stopped == 0 {
		t.Fatal("no game stopped at an answer: the test tries nothing")
	}
}

// TestEnd: a finished game says which deck ran out (it is empty) and the move during which it
// did: the game before that move had not begun to end, and after it had.
func TestEnd(t *testing.T) {
	recorded(t, func(name string, sc *script.Script, _ [32]byte) {
		res, err := sc.Run(nil)
		if err != nil || res.End == nil {
			t.Fatalf("%s: %v, end %v", name, err, res.End)
		}
		switch e := res.End; {
		case e.Reason == "favor-deck" && res.FavorDeck == 0, e.Reason == "pleasure-deck" && res.PleasureDeck == 0:
		default:
			t.Fatalf("%s: end %+v with %d favors and %d guilty pleasures left", name, e, res.FavorDeck, res.PleasureDeck)
		}
		ending := func(moves int) bool {
			pre := *sc
			pre.Moves = sc.Moves[:moves]
			seen := false
			if _, err := pre.Run(func(e engine.Event) {
				seen = seen || e.Data.(kingdoms.Event).Kind == kingdoms.EventEnding
			}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return seen
		}
		if k := res.End.Move; ending(k-1) || !ending(k) {
			t.Errorf("%s: the end at move %d: the game ends after %d moves %v, after %d %v", name, k, k-1, ending(k-1), k, ending(k))
		}
	})
}

// TestVoteOrder: in docs/KINGDOMS.md's example (testdata/vote-order.json), the seats that
// control a voter vote, in turn order from the seat whose turn it is: seat 2, then seat 0; seat
// 1 does not vote. The result says so while the vote is due, and votes in another order or by
// another seat are refused.
func TestVoteOrder(t *testing.T) {
	data, err := os.ReadFile("testdata/vote-order.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	n := len(sc.Moves)
	if m := sc.Moves[n-3]; m.Kind != kingdoms.MoveCall || m.Seat != 2 {
		t.Fatalf("the example's third move from the end is %v, not seat 2's call", m)
	}
	for cast, seat := range []int{2, 0} {
		cut := *sc
		cut.Moves = sc.Moves[:n-2+cast]
		res, err := cut.Run(nil)
		if err != nil || res.Next == nil || res.Next.Decision != "vote" || res.Next.Seat != seat || !slices.Equal(res.Next.Seats, []int{2, 0}) {
			t.Errorf("%d votes cast: %v, next %+v, want seat %d's vote of seats [2 0]", cast, err, res.Next, seat)
		}
	}
	for _, votes := range [][]kingdoms.Move{
		{kingdoms.VoteMove(0, true), kingdoms.VoteMove(2, false)},
		{kingdoms.VoteMove(2, false), kingdoms.VoteMove(1, true)},
	} {
		bad := *sc
		bad.Moves = append(slices.Clone(sc.Moves[:n-2]), votes...)
		_, err := bad.Run(nil)
		var re *script.ReplayError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "the game waits for seat") {
			t.Errorf("votes %v: %v", votes, err)
		}
	}
}
