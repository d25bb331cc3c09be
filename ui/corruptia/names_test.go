package corruptia

import (
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/ui/boardtest"
)

// TestTextNames: the text mode names the players as the shell gives them, escaped, isolated
// and with their seats (boardtest.TextNames).
func TestTextNames(t *testing.T) {
	config, err := rules.EncodeConfig(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	boardtest.TextNames(t, rules.Rules{}, config, Board{},
		func(seed uint64) (engine.Player, error) { return bot.NewPlayer("heuristic", seed) })
}
