package kingdoms_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
)

// TestViewShowsOnlyItsSeat: a game in memory knows every seat's secrets, but a seat's view
// holds its own alone, and marshals to JSON for a board.
func TestViewShowsOnlyItsSeat(t *testing.T) {
	const n = 4
	l, err := kingdoms.NewLocal(kingdoms.Advanced, n, bot.GameSetup(kingdoms.Advanced, n, 5, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]bot.Bot, n)
	for s := range bots {
		bots[s], _ = bot.New("heuristic", uint64(s))
	}
	for range 40 {
		d, err := l.Next()
		if err != nil || d.Kind == kingdoms.DecideNothing {
			t.Fatal(d, err)
		}
		if err := l.Play(bots[d.Seat].Decide(l.Game().View(d.Seat))); err != nil {
			t.Fatal(err)
		}
	}
	g := l.Game()
	obs := g.View(-1)
	for s := range n {
		v := g.View(s)
		if len(v.Hand) != kingdoms.ChaosDrawn(n) || len(v.Shareholders) != 1 {
			t.Errorf("seat %d sees hand %+v, shares %v", s, v.Hand, v.Shareholders)
		}
		for _, h := range v.Hand {
			if h.Card < 0 {
				t.Errorf("seat %d does not see its own card %+v", s, h)
			}
		}
		// Everything but its own secrets is what the observer sees.
		v.Seat, v.Hand, v.Shareholders = -1, nil, nil
		v.Vote, obs.Vote = nil, nil
		if b1, b2 := mustJSON(t, v), mustJSON(t, obs); !reflect.DeepEqual(b1, b2) {
			t.Errorf("seat %d's view differs from the observer's beyond its secrets:\n%s\n%s", s, b1, b2)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
