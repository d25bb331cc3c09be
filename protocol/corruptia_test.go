package protocol_test

import (
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// corruptiaSpec is a Corruptia table of n bots of kind, with the default configuration.
func corruptiaSpec(n int, kind string, seed uint64) gameSpec {
	config, _ := corruptia.EncodeConfig(corruptia.DefaultConfig())
	return gameSpec{game: "corruptia", config: config, players: n,
		player: func(i int) engine.Player {
			p, _ := bot.NewPlayer(kind, seed+uint64(i))
			return p
		}}
}

// TestCorruptiaTable: Corruptia plays to the end through the kit at every table size, over an
// in-memory network that loses, duplicates and reorders messages; every node ends with the
// same log and digest, and the log audits as valid.
func TestCorruptiaTable(t *testing.T) {
	t.Parallel()
	for n := corruptia.MinPlayers; n <= corruptia.MaxPlayers; n++ {
		if testing.Short() && n%2 == 1 || protocol.RaceDetectorForTest && n > corruptia.MinPlayers {
			continue // -short: the tables of two and four; under the race detector, of two
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			net := memnet.New(uint64(n), memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1})
			defer net.Close()
			runs := playNodes(t, net, corruptiaSpec(n, "heuristic", 7))
			checkSame(t, runs)
			t.Logf("scores %v, winners %v, %d entries", runs[0].out.Scores, runs[0].out.Winners, runs[0].out.Entries)
		})
	}
}
