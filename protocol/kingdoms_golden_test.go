package protocol_test

import (
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/protocol"
)

// Corrupted Kingdoms' golden log and bad logs join the others (golden_test.go, badlogs_test.go):
// the golden table is a case of goldSpecs and every bad log a case of badLogs, so that the same
// commands check them and the same -update makes them again:
//
//	go test ./protocol/ -run 'TestGolden|TestBadLogs' -update

// kingdomsWorld is a Corrupted Kingdoms table of heuristic bots, for golden logs.
func kingdomsWorld(name, about string, n int, c kingdoms.Config) worldSpec {
	return worldSpec{name: name, about: about, game: "kingdoms", config: kingdoms.EncodeConfig(c), players: n,
		bot: func(seat int) engine.Player {
			b, err := bot.New("heuristic", uint64(3000*n+seat))
			if err != nil {
				panic(err)
			}
			return bot.Player(b)
		}}
}

const kingdomsGold = "kingdoms-advanced-4"

func init() {
	goldSpecs = append(goldSpecs, kingdomsWorld(kingdomsGold, "4 players of Corrupted Kingdoms, the advanced rules (bill bonuses and chaos cards)", 4, kingdoms.Advanced))
	badLogs = append(badLogs, kingdomsBadLogs...)
}

// TestKingdomsGoldenHasEverything: the golden log holds what a Corrupted Kingdoms table must
// use of the kit: the joint draw, decks built and shuffled, private deals (shareholder and
// chaos cards), a face-down discard opened at its seat's first chaos card, chaos cards shown
// with proof, secret votes committed then opened together, answers and passes in the response
// rounds, the shareholder cards shown at the end, and every seat's sign-off.
func TestKingdomsGoldenHasEverything(t *testing.T) {
	entries := readGolden(t, kingdomsGold)
	n := countKinds(entries)
	for _, k := range []protocol.Kind{protocol.KindRandom, protocol.KindShuffle, protocol.KindShares, protocol.KindMove,
		protocol.KindCommit, protocol.KindOpen, protocol.KindSignOff} {
		if n[k] == 0 {
			t.Errorf("no %s entry", k)
		}
	}
	obs, err := protocol.NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	steps := map[string]int{}
	for _, e := range entries[1:] {
		if g := obs.Game(); g != nil {
			st := protocol.StepForTest(obs)
			kg := g.(*kingdoms.Game)
			switch {
			case e.Kind == protocol.KindCommit && st.Kind == engine.StepChoose:
				steps["vote committed"]++
			case e.Kind == protocol.KindOpen && st.Kind == engine.StepChoose:
				steps["vote opened"]++
			case e.Kind == protocol.KindOpen:
				steps["discard opened"]++
			case e.Kind == protocol.KindShares && st.Kind == engine.StepShow && st.Deck == kingdomsShareholderDeck:
				steps["shareholder shown"]++
			case e.Kind == protocol.KindShares && st.Kind == engine.StepShow:
				steps["chaos card shown"]++
			case e.Kind == protocol.KindShares && st.Kind == engine.StepDeal && st.To >= 0:
				steps["private deal"]++
			case e.Kind == protocol.KindMove && st.Respond:
				move, _, _ := protocol.ParseMoveBodyForTest(e.Body)
				if len(move) == 0 {
					steps["answer passed"]++
				} else {
					steps["answer played"]++
				}
			case e.Kind == protocol.KindMove && kg.Next().Kind == kingdoms.DecideDiscard:
				steps["discard"]++
			}
		}
		if err := obs.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"vote committed", "vote opened", "discard opened", "shareholder shown", "chaos card shown", "private deal", "answer passed", "discard"} {
		if steps[s] == 0 {
			t.Errorf("the golden log has no %s", s)
		}
	}
	t.Logf("%d entries: %v", len(entries), steps)
}
