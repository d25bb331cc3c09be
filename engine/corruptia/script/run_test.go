package script_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/engine/corruptia/script"
)

// TestRecordFromIsTheSimulatedGame: a game of a simulation's batch, recorded with its bots and
// its chance, replays to the very end the simulation's game reached (bot.Play from the same
// bots and chance), opening discard pile included.
func TestRecordFromIsTheSimulatedGame(t *testing.T) {
	for n := corruptia.MinPlayers; n <= corruptia.MaxPlayers; n++ {
		sim := bot.SimConfig{Players: n, Seed: 9, Bots: []string{"heuristic", "random"}}
		for g := range 3 {
			bots, err := sim.GameBots(g)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := script.RecordFrom(n, corruptia.DefaultConfig(), bots, corruptia.Seeded(sim.Seed, uint64(g)))
			if err != nil {
				t.Fatal(err)
			}
			played, _ := corruptia.NewGame(corruptia.DefaultConfig(), n, nil)
			bots, _ = sim.GameBots(g)
			if err := bot.Play(corruptia.NewHost(played), corruptia.Seeded(sim.Seed, uint64(g)), bots); err != nil {
				t.Fatal(err)
			}
			data, _ := sc.Marshal()
			back, err := script.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			res, err := back.Run(nil)
			d := played.Digest()
			if err != nil || res.Digest != fmt.Sprintf("%x", d[:]) || !slices.Equal(res.Scores, played.Outcome().Scores) {
				t.Fatalf("%d players, game %d: the recording replays to %v, %v; the game played scored %v", n, g, err, res.Scores, played.Outcome().Scores)
			}
			if sc.Pile == nil || !strings.Contains(string(data), `"pile": [`) {
				t.Errorf("%d players, game %d: no opening discard pile written", n, g)
			}
		}
	}
}

// TestEndAndError: a finished game ends at its last entry, in its last round; a cut one has no
// end; an entry the game refuses is in the Result as in the error, with the game where it stood.
func TestEndAndError(t *testing.T) {
	sc := record(t, 3, 4)
	res, err := sc.Run(nil)
	if err != nil || res.End == nil || *res.End != (script.End{Reason: "last-round", Move: len(sc.Moves)}) || res.Error != nil {
		t.Fatalf("a whole game: %v, end %+v, error %v", err, res.End, res.Error)
	}
	cut := *sc
	cut.Moves = sc.Moves[:len(sc.Moves)/2]
	if res, err := cut.Run(nil); err != nil || res.End != nil || res.Finished {
		t.Errorf("half a game: %v, end %+v", err, res.End)
	}
	bad := *sc
	bad.Moves = slices.Clone(sc.Moves)
	k := slices.IndexFunc(bad.Moves, func(e script.Entry) bool { return e.Kind == script.EntryMove && e.Move == corruptia.MovePropose })
	bad.Moves[k].Seat = (bad.Moves[k].Seat + 1) % 3
	res, err = bad.Run(nil)
	var re *script.ReplayError
	if !errors.As(err, &re) || re.Move != k+1 || res.Error != re || res.Finished || res.End != nil || res.Next == nil {
		t.Fatalf("a proposal out of turn at entry %d: %v, result error %v", k+1, err, res.Error)
	}
	before := bad
	before.Moves = bad.Moves[:k]
	if want, _ := before.Run(nil); want.Digest != res.Digest {
		t.Errorf("the result is not where the game stood before the bad entry")
	}
}

// blackmails calls each with a recorded game and the index of a blackmail in it.
func blackmails(t *testing.T, each func(sc *script.Script, i int)) {
	found := 0
	for n := 3; n <= corruptia.MaxPlayers; n++ {
		for seed := range uint64(6) {
			sc := record(t, n, seed)
			for i, e := range sc.Moves {
				if e.Kind == script.EntryMove && e.Move == corruptia.MoveBlackmail {
					each(sc, i)
					found++
					break
				}
			}
		}
	}
	if found < 3 {
		t.Fatalf("%d recorded games with a blackmail: the test tries too little", found)
	}
}

// TestBlackmailCard: a recorded blackmail names the card played, and the game replays with or
// without it; a card the seat does not hold, or held on another senator, is refused at its
// entry with what is wrong.
func TestBlackmailCard(t *testing.T) {
	blackmails(t, func(sc *script.Script, i int) {
		e := sc.Moves[i]
		n := sc.Players
		if want := script.CardID(e.Target, ((e.Seat-e.Target)%n+n)%n); e.Card != want {
			t.Fatalf("seat %d's blackmail on seat %d names %q, want %q", e.Seat, e.Target, e.Card, want)
		}
		data, _ := sc.Marshal()
		if !strings.Contains(string(data), fmt.Sprintf(`"blackmail": %d, "card": %q`, e.Target, e.Card)) {
			t.Fatalf("the card is not written:\n%s", data)
		}
		whole, err := sc.Run(nil)
		if err != nil {
			t.Fatal(err)
		}
		old := *sc
		old.Moves = slices.Clone(sc.Moves)
		old.Moves[i].Card = "" // as scripts were written before cards were named
		if res, err := old.Run(nil); err != nil || res.Digest != whole.Digest {
			t.Fatalf("without the card: %v", err)
		}
		other := (e.Seat + 1) % n
		if other == e.Target {
			other = (other + 1) % n
		}
		for card, want := range map[string]string{
			// the card on the same senator, dealt to another seat
			script.CardID(e.Target, ((other-e.Target)%n+n)%n): fmt.Sprintf("it does not hold it (seat %d does)", other),
			// a card the seat holds, on another senator
			script.CardID(other, ((e.Seat-other)%n+n)%n): fmt.Sprintf("that card is dirt on seat %d", other),
		} {
			old.Moves[i].Card = card
			_, err := old.Run(nil)
			var re *script.ReplayError
			if !errors.As(err, &re) || re.Move != i+1 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), card) {
				t.Errorf("seat %d plays %s on seat %d: %v, want move %d: ...%s", e.Seat, card, e.Target, err, i+1, want)
			}
		}
	})
}

// TestCardIDs: the 20 cards have 20 ids, each listed in docs/CORRUPTIA.md.
func TestCardIDs(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/CORRUPTIA.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for p := range corruptia.MaxPlayers {
		for k := 1; k < corruptia.MaxPlayers; k++ {
			id := script.CardID(p, k)
			if seen[id] || id == "" {
				t.Errorf("card %d of seat %d's party: id %q again", k, p, id)
			}
			seen[id] = true
			if !strings.Contains(string(doc), "`"+id+"`") {
				t.Errorf("docs/CORRUPTIA.md does not list the card id %s", id)
			}
		}
	}
}

// TestAnyAmendmentBound: a script may bound the amendments of a turn beyond the tables' 9: a
// turn of 12 amendments replays with "amendments": 12 (and to the game's end, as without them),
// and is refused at the tenth with 9.
func TestAnyAmendmentBound(t *testing.T) {
	sc := record(t, 3, 2)
	// The first call of a turn without amendments, and its proposal.
	c, p := -1, -1
	for i, e := range sc.Moves {
		if e.Kind == script.EntryMove && (e.Move == corruptia.MovePropose || e.Move == corruptia.MoveAmend) {
			p = i
		}
		if e.Kind == script.EntryMove && e.Move == corruptia.MoveCall && sc.Moves[p].Move == corruptia.MovePropose {
			c = i
			break
		}
	}
	if c < 0 {
		t.Fatal("no turn without amendments")
	}
	active := sc.Moves[c].Seat
	var turn []script.Entry
	for range 12 {
		amend := sc.Moves[p]
		amend.Move = corruptia.MoveAmend
		turn = append(turn, amend)
		for s := 1; s < 3; s++ {
			turn = append(turn, script.Entry{Kind: script.EntryMove, Seat: (active + s) % 3, Move: corruptia.MovePass})
		}
	}
	long := *sc
	long.Moves = slices.Concat(sc.Moves[:c], turn, sc.Moves[c:])
	long.Config.Amendments = 12
	data, _ := long.Marshal()
	back, err := script.Parse(data)
	if err != nil || back.Config.Amendments != 12 {
		t.Fatalf("amendments 12: %v", err)
	}
	res, err := back.Run(nil)
	if err != nil || !res.Finished {
		t.Fatalf("12 amendments in a turn, with a bound of 12: %v", err)
	}
	short, _ := sc.Run(nil)
	if !slices.Equal(res.Scores, short.Scores) {
		t.Errorf("the game amended 12 times scores %v, without the amendments %v", res.Scores, short.Scores)
	}
	back.Config.Amendments = 9
	_, err = back.Run(nil)
	if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("move %d: ", c+1+9*3)) || !strings.Contains(err.Error(), "its 9 amendments") {
		t.Errorf("the tenth amendment with a bound of 9: %v", err)
	}
	for in, want := range map[string]string{`-1`: "amendments: -1, want 0 or more", `1000`: ""} {
		_, err := script.Parse([]byte(`{"players": 2, "amendments": ` + in + `, "first": 0, "deck": [], "moves": []}`))
		if want == "" && err != nil && strings.HasPrefix(err.Error(), "amendments") || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("amendments %s: %v, want %q", in, err, want)
		}
	}
}
