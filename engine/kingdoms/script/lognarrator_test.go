package script_test

import (
	"strings"
	"testing"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/engine/kingdoms/script"
)

// TestLogNarrator: a saved log is told as a script is, from the game's events alone,
// with a heading at each round.
func TestLogNarrator(t *testing.T) {
	var want, got strings.Builder
	n := script.Narrator{W: &want}
	tell := script.LogNarrator(&got, rules.EncodeConfig(rules.Advanced), 4)
	_, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 4, Rules: rules.Advanced, Seed: 21, Bots: []string{"heuristic", "random"},
		Show: func(e rules.Event) {
			ev := engine.Event{Text: e.String(), Data: e}
			n.Event(ev)
			tell(ev)
		}})
	if err != nil {
		t.Fatal(err)
	}
	var plain []string
	for _, l := range strings.Split(got.String(), "\n") {
		if !strings.HasPrefix(l, "== Round ") {
			plain = append(plain, l)
		}
	}
	if strings.Join(plain, "\n") != want.String() {
		t.Errorf("the log narrator says\n%s\nthe script narrator\n%s", got.String(), want.String())
	}
	if !strings.Contains(got.String(), "== Round 2 ==") || !strings.Contains(got.String(), " win") {
		t.Errorf("the account does not tell the whole game:\n%s", got.String())
	}
}
