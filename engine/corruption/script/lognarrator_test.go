package script_test

import (
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
)

// TestLogNarrator: a saved log is told as a script is, from the game's events alone: for a
// game of each variant, the log narrator's account is script.Narrator's, word for word.
func TestLogNarrator(t *testing.T) {
	for _, tt := range []struct {
		v   corruption.Variant
		lbb bool
	}{{corruption.Standard, false}, {corruption.DownTheRiver, true}, {corruption.FreeStud, true}, {corruption.Closed, false}} {
		t.Run(tt.v.String(), func(t *testing.T) {
			var want, got strings.Builder
			n := &script.Narrator{W: &want}
			tell := script.LogNarrator(&got, corruption.EncodeConfig(tt.v, tt.lbb), 5)
			_, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 5, Variant: tt.v, LBB: tt.lbb, Seed: 21, Bots: []string{"heuristic", "random"},
				Attach: func(s *corruption.State) { n.State = s },
				Show: func(e corruption.Event) {
					n.Event(e)
					tell(engine.Event{Text: e.String(), Data: e})
				}})
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("the log narrator says\n%s\nthe script narrator\n%s", got.String(), want.String())
			}
			if !strings.Contains(got.String(), "== Round 4 ==") || !strings.Contains(got.String(), " win") {
				t.Errorf("the account does not tell the whole game:\n%s", got.String())
			}
		})
	}
}
