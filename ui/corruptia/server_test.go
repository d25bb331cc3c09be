package corruptia

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	rules "corruption/engine/corruptia"
	"corruption/protocol"
	"corruption/ui"
	"corruption/ui/boardtest"
)

const testKey = boardtest.Key

// TestPageLanguages: the shell's server with Corruptia's board, asked for the page's state in
// each language, tells the board, the decision and the log in it, the person's own note (its
// opening discard) too, though the note was added when the page spoke English.
func TestPageLanguages(t *testing.T) {
	g := gameAt(t, due(rules.DecidePropose))
	seat := g.Next().Seat
	s, ts := boardtest.Page(t, ui.Config{Name: "ann", Board: Board{}, Human: ui.NewHuman(nil)})
	s.SetTable(ui.TableChoice{Table: "t", Game: "corruptia", Players: 3})
	s.Update(protocol.Status{Table: "t", Game: "corruptia", Seat: seat, Names: names5[:3], State: g, Due: seat, Timeout: time.Minute})
	for _, lang := range ui.Languages {
		req, _ := http.NewRequest("GET", ts.URL+"/api/state?lang="+lang, nil)
		req.Header.Set("X-Corruption-Key", testKey)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Game struct {
				Next struct{ Text string } `json:"next"`
			} `json:"game"`
			Log []ui.LogLine `json:"log"`
		}
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		b := In(lang)
		v := g.View(seat)
		if want := b.to(ui.ShownNames(lang, names5[:3]), seat).nextOf(v).Text; st.Game.Next.Text != want {
			t.Errorf("%s: the page waits for %q, want %q", lang, st.Game.Next.Text, want)
		}
		note := b.say("note.opening", "bill", b.bill(v.Opening))
		found := false
		for _, l := range st.Log {
			found = found || l.Text == note
		}
		if !found {
			t.Errorf("%s: the log does not say %q:\n%v", lang, note, st.Log)
		}
		if lang != "en" && strings.Contains(note, "You discarded") {
			t.Errorf("%s: the note is English: %q", lang, note)
		}
	}
}

// TestTerminalLanguages: the terminal's board (--text, by LANG) speaks the board's language:
// the table, the decision and the choices; only the typed moves stay English.
func TestTerminalLanguages(t *testing.T) {
	g := gameAt(t, due(rules.DecidePropose))
	seat := g.Next().Seat
	for _, lang := range ui.Languages {
		b := In(lang)
		out := b.Show(g, seat, names5[:3]) + b.Choices(g, seat, names5[:3])
		for _, key := range []string{"text.senators", "prompt.propose", "text.workers"} {
			want := words.Say(lang, key)
			if i := strings.Index(want, "{"); i > 0 {
				want = want[:i]
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s: the terminal does not say %q (%s):\n%s", lang, want, key, out)
			}
		}
		if lang != "en" && (strings.Contains(out, "Your hand:") || strings.Contains(out, "Senators:")) {
			t.Errorf("%s: the terminal speaks English:\n%s", lang, out)
		}
	}
}
