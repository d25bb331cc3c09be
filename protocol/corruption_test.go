package protocol_test

import (
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/protocol"
	"corruption/protocol/memnet"
)

// corruptionSpec is a Corruption table of n heuristic bots.
func corruptionSpec(n int, v corruption.Variant, lbb bool, seed uint64) gameSpec {
	return gameSpec{game: "corruption", config: corruption.EncodeConfig(v, lbb), players: n,
		player: func(i int) engine.Player {
			b, _ := bot.New("heuristic", seed+uint64(i))
			return bot.Player(b)
		}}
}

// TestCorruptionTable: Corruption plays to the end through the kit, over an in-memory network
// that loses, duplicates and reorders messages.
func TestCorruptionTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n   int
		v   corruption.Variant
		lbb bool
	}{{3, corruption.Standard, false}, {4, corruption.FreeStud, true}, {5, corruption.Closed, false}} {
		if protocol.RaceDetectorForTest && tc.n > 3 {
			continue // the variants are the engine's, one goroutine's: the race pass plays the first
		}
		t.Run(fmt.Sprintf("%d-%s-%v", tc.n, tc.v, tc.lbb), func(t *testing.T) {
			net := memnet.New(uint64(tc.n), memnet.Faults{Drop: 0.05, Duplicate: 0.05, Reorder: 0.1})
			defer net.Close()
			runs := playNodes(t, net, corruptionSpec(tc.n, tc.v, tc.lbb, 1))
			checkSame(t, runs)
			t.Logf("scores %v, winners %v, %d entries", runs[0].out.Scores, runs[0].out.Winners, runs[0].out.Entries)
		})
	}
}
