package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"corruption/ui"
	board "corruption/ui/corruption"
)

// TestRematchOut: a rematch's log goes beside the first table's, numbered as its table is.
func TestRematchOut(t *testing.T) {
	for _, tt := range []struct {
		out  string
		n    int
		want string
	}{
		{"", 2, ""},
		{"game.log", 2, "game-2.log"},
		{"logs/game.log", 3, "logs/game-3.log"},
		{"game", 2, "game-2"},
		{"a.b/game", 2, "a.b/game-2"},
	} {
		if got := rematchOut(tt.out, tt.n); got != tt.want {
			t.Errorf("rematchOut(%q, %d) = %q, want %q", tt.out, tt.n, got, tt.want)
		}
	}
}

// TestDemoRematch: corruption demo through the page's JSON API, without a browser: a whole
// game, then Rematch, which seats the person and the same bots at the next table (NAME #2),
// and a second whole game there; the command prints both outcomes and ends when the person
// leaves.
func TestDemoRematch(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := start(ctx, t, "demo", "demo", "--bots", "2", "--no-open", "--json", "--timeout", "30s")
	api := newAPIClient(t, p.waitLine(t, openLine, 20*time.Second)[1])
	events, _ := api.events(ctx, t)
	type state struct {
		Decision *struct {
			ID int `json:"id"`
			board.Decision
		} `json:"decision"`
		Result   *ui.ResultState `json:"result"`
		Table    *ui.TableState  `json:"table"`
		TableGen int             `json:"table_gen"`
		Rematch  string          `json:"rematch"`
	}
	// play answers every decision of table gen with its first legal choice, and returns the
	// state with the results.
	play := func(gen int) state {
		t.Helper()
		last := 0
		for events.Scan() {
			line := events.Text()
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			var st state
			if err := json.Unmarshal([]byte(line[len("data: "):]), &st); err != nil {
				t.Fatal(err)
			}
			if st.TableGen != gen {
				continue
			}
			if st.Result != nil {
				return st
			}
			d := st.Decision
			if d == nil || d.ID <= last {
				continue
			}
			last = d.ID
			move := board.MoveRequest{ID: d.ID, Kind: d.Kind}
			switch d.Kind {
			case "place":
				for _, c := range d.Cards {
					if len(c.Spots) > 0 {
						move.Card, move.Spot = c.Card, c.Spots[0]
						break
					}
				}
			case "assign":
				move.Contract = d.Assign[0].ID
			case "kill":
				move.Index = d.Targets[0]
			case "remove":
				move.Kind = "pass"
			case "faceup":
				move.Positions = []int{1}
			}
			if code, body := api.post(t, "/api/move", move); code != http.StatusOK {
				t.Fatalf("table %d, decision %d (%s): %+v refused: %d %s", gen, d.ID, d.Kind, move, code, body)
			}
		}
		t.Fatalf("the event stream ended before the results of table %d: %v", gen, events.Err())
		return state{}
	}
	first := play(0)
	name := first.Table.Name
	if !first.Result.Finished || first.Rematch != name+" #2" {
		t.Fatalf("the first table %q: results %+v, rematch offered at %q", name, first.Result, first.Rematch)
	}
	if code, body := api.post(t, "/api/rematch", struct{}{}); code != http.StatusOK || !strings.Contains(body, `"table":"`+name+` #2"`) {
		t.Fatalf("rematch: %d %s", code, body)
	}
	second := play(1)
	if second.Table.Name != name+" #2" || !second.Result.Finished || !second.Result.Valid || len(second.Result.Scores) != 3 {
		t.Errorf("the rematch: table %q, results %+v", second.Table.Name, second.Result)
	}
	if code, body := api.post(t, "/api/quit", struct{}{}); code != http.StatusOK {
		t.Fatalf("quit: %d %s", code, body)
	}
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("demo exited %d\n%s", code, p.stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(p.stdout.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("demo printed %d outcomes, want 2:\n%s", len(lines), p.stdout.String())
	}
	for i, want := range []state{first, second} {
		var out outcome
		if err := json.Unmarshal([]byte(lines[i]), &out); err != nil || out.Table != want.Table.Name || out.Digest != want.Result.Digest {
			t.Errorf("outcome %d: %s (%v), want table %q with digest %s", i+1, lines[i], err, want.Table.Name, want.Result.Digest)
		}
	}
	if n := strings.Count(p.stderr.String(), "sitting at table"); n != 2 {
		t.Errorf("demo sat at %d tables, want 2:\n%s", n, p.stderr.String())
	}
}
