package corruptia

import (
	"os"
	"strings"
	"testing"

	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/script"
	"corruption/ui"
)

// noBillScript is the newcomer harness's recorded game of three senators in which seat 1, due
// to propose after the script's 50th move, holds no bill any free cell can take.
const noBillScript = "../../cmd/corruption/testdata/learn/corruptia-nobill-3p.json"

// scriptProposals replays the script at path move by move and returns, at each of its
// positions where a senator is due to propose, the game as that senator's node holds it.
func scriptProposals(t *testing.T, path string) (games []*rules.Game, seats []int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	all := sc.Moves
	for n := range len(all) + 1 {
		sc.Moves = all[:n]
		g, seat, err := sc.Follow(-1, nil)
		if err != nil {
			t.Fatalf("%s cut at move %d: %v", path, n, err)
		}
		if g.Next().Kind == rules.DecidePropose {
			games, seats = append(games, g), append(seats, seat)
		}
	}
	return games, seats
}

// TestNoBillWords: when the person is due to propose and holds no bill it may propose (the
// decision's can_nobill, one choice: show the hand), nothing the board says asks for a
// proposal: the page's "what the game waits for" (the negotiation panel's line) says there is
// no bill to propose and marks it (next.nobill, which the seat's mark follows), and so does the
// terminal's board, which lists no workers either, in every language; at every other proposal
// the board still asks for one.
func TestNoBillWords(t *testing.T) {
	games, seats := scriptProposals(t, noBillScript)
	names := names5[:3]
	nobills, proposals := 0, 0
	for i, g := range games {
		seat := seats[i]
		for _, lang := range ui.Languages {
			b := In(lang)
			d := b.Decision(g, seat, names).(*Decision)
			next := b.Draw(g, seat, names).Game.(*gameState).Next
			text := b.Show(g, seat, names) + b.Choices(g, seat, names)
			s := b.to(names, seat)
			propose, nobill := s.sayAs("next.propose", seat), s.sayAs("next.nobill", seat)
			if d.CanNoBill {
				nobills++
				if !next.NoBill || next.Text != nobill {
					t.Errorf("%s, seat %d with no bill to propose: the page waits for %q (nobill %v), want %q", lang, seat, next.Text, next.NoBill, nobill)
				}
				for _, asks := range []string{propose, b.say("text.workers")} {
					if strings.Contains(text, asks) {
						t.Errorf("%s, seat %d with no bill to propose: the terminal asks for a proposal (%q):\n%s", lang, seat, asks, text)
					}
				}
				if !strings.Contains(text, nobill) {
					t.Errorf("%s, seat %d with no bill to propose: the terminal does not say %q:\n%s", lang, seat, nobill, text)
				}
				continue
			}
			proposals++
			if next.NoBill || next.Text != propose {
				t.Errorf("%s, seat %d with a bill to propose: the page waits for %q (nobill %v), want %q", lang, seat, next.Text, next.NoBill, propose)
			}
			if strings.Contains(text, nobill) {
				t.Errorf("%s, seat %d with a bill to propose: the terminal says %q:\n%s", lang, seat, nobill, text)
			}
		}
	}
	if nobills == 0 || proposals == 0 {
		t.Fatalf("%s: %d positions with no bill to propose and %d with one, want some of each", noBillScript, nobills, proposals)
	}
}
