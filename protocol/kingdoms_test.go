package protocol_test

import (
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// kingdomsSpec is a Corrupted Kingdoms table of n bots of kind (heuristic or random).
func kingdomsSpec(n int, c kingdoms.Config, kind string, seed uint64) gameSpec {
	return gameSpec{game: "kingdoms", config: kingdoms.EncodeConfig(c), players: n,
		player: func(i int) engine.Player {
			b, err := bot.New(kind, seed+uint64(i))
			if err != nil {
				panic(err)
			}
			return bot.Player(b)
		}}
}

// kingdomsTables are a table of every size, with every set of rules: the advanced rules (the
// only ones at two players), the basic rules, and each half of the advanced rules alone.
var kingdomsTables = []struct {
	n    int
	c    kingdoms.Config
	kind string
}{
	{2, kingdoms.Advanced, "heuristic"}, {3, kingdoms.Basic, "heuristic"}, {4, kingdoms.Advanced, "heuristic"},
	{5, kingdoms.Config{Bonuses: true}, "random"}, {6, kingdoms.Config{Chaos: true}, "heuristic"},
}

// TestKingdomsTable: Corrupted Kingdoms plays to the end through the kit at every table size
// and with every set of rules, over an in-memory network that loses, duplicates and reorders
// messages: every node ends with the same log and digest, and the log audits.
func TestKingdomsTable(t *testing.T) {
	t.Parallel()
	for i, tc := range kingdomsTables {
		if testing.Short() && i%2 == 1 || protocol.RaceDetectorForTest && i > 0 {
			continue // -short: three of the five tables; under the race detector, the smallest
		}
		t.Run(fmt.Sprintf("%d-%s", tc.n, tc.c), func(t *testing.T) {
			net := memnet.New(uint64(10+tc.n), memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1})
			defer net.Close()
			runs := playNodes(t, net, kingdomsSpec(tc.n, tc.c, tc.kind, uint64(tc.n)))
			checkSame(t, runs)
			t.Logf("scores %v, winners %v, %d entries", runs[0].out.Scores, runs[0].out.Winners, runs[0].out.Entries)
		})
	}
}
