package kingdoms

import (
	"testing"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/ui/boardtest"
)

// TestTextNames: the text mode names the players as the shell gives them, escaped, isolated
// and with their seats (boardtest.TextNames).
func TestTextNames(t *testing.T) {
	boardtest.TextNames(t, rules.Rules{}, rules.EncodeConfig(rules.Advanced), Board{},
		func(seed uint64) (engine.Player, error) { return bot.NewPlayer("heuristic", seed) })
}
