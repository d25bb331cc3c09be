package kingdoms

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"corruption/engine/enginetest"
	rules "corruption/engine/kingdoms"
)

// TestDrawShowsOnlyTheView: after every input of whole games, what the page draws for each
// seat from its own node's copy names no chaos card of another seat's that was not played,
// holds no other seat's shareholder cards before they are shown, and no vote before the votes
// are revealed together; it always encodes as JSON.
func TestDrawShowsOnlyTheView(t *testing.T) {
	checked := 0
	for _, tb := range tables {
		t.Run(tb.String(), func(t *testing.T) {
			play(t, tb, 11, nil, enginetest.Watch(func(tn enginetest.Turn) error {
				for seat, g := range tn.Seats {
					kg := g.(*rules.Game)
					v := kg.View(seat)
					drawn := Board{}.Draw(g, seat, names[:tb.players])
					b, err := json.Marshal(drawn)
					if err != nil {
						t.Fatal(err)
					}
					if !drawn.Started {
						continue
					}
					gs := drawn.Game.(*gameState)
					mine := map[string]bool{}
					for _, h := range gs.Hand {
						mine[h.Card] = true
					}
					public := map[string]bool{}
					for _, sv := range v.Seats {
						for _, c := range sv.ChaosPlayed {
							public[chaosCards[c].ID] = true
						}
					}
					for _, c := range chaosCards {
						if strings.Contains(string(b), `"`+c.ID+`"`) && !mine[c.ID] && !public[c.ID] {
							t.Fatalf("input %d: seat %d's page names chaos card %s, neither its own nor played", tn.N, seat, c.ID)
						}
					}
					shown := tn.Observer.(*rules.Game).View(-1)
					for s, f := range drawn.Seats {
						if sh := f.(seatState).Shareholders; len(sh) != len(shown.Seats[s].Shareholders) {
							t.Fatalf("input %d: seat %d's page shows seat %d's shareholder cards %v, shown with proof: %v", tn.N, seat, s, sh, shown.Seats[s].Shareholders)
						}
					}
					if len(gs.Shareholders) != len(v.Shareholders) {
						t.Fatalf("input %d: seat %d's page shows shareholder cards %v, it holds %v", tn.N, seat, gs.Shareholders, v.Shareholders)
					}
					if vt := gs.Vote; vt != nil && !vt.Revealed && slices.ContainsFunc(vt.Votes, func(x int) bool { return x >= 0 }) {
						t.Fatalf("input %d: seat %d's page shows votes %v before they are revealed", tn.N, seat, vt.Votes)
					}
					checked++
				}
				return nil
			}))
		})
	}
	t.Logf("%d drawings checked", checked)
}

// TestDecisionWords: each kind of decision says what it asks and lists its choices in words.
func TestDecisionWords(t *testing.T) {
	seen := map[string]*Decision{}
	for _, tb := range tables {
		play(t, tb, 5, func(g *rules.Game, seat int) {
			v := g.View(seat)
			d := buildDecision(v, teller{names, v.Seat, ""})
			if d.Prompt == "" || len(d.Choices) == 0 {
				t.Fatalf("%s: %+v", v.Next, d)
			}
			if _, ok := seen[d.Kind]; !ok {
				seen[d.Kind] = d
			}
			if (d.Kind == "steal" || d.Kind == "answer") && (d.AnswerDelayMS != AnswerDelay.Milliseconds() || !strings.Contains(d.Prompt, "whatever you hold")) {
				t.Errorf("an answer's decision does not say when it is sent: %+v", d)
			}
			if d.Kind == "vote" && (d.Tally == nil || d.Tally.Mine == 0) {
				t.Errorf("a vote's decision: %+v (the seat votes: it controls a voter)", d.Tally)
			}
		})
	}
	for _, k := range []string{"discard", "action", "vote", "pick", "answer"} {
		if seen[k] == nil {
			t.Errorf("no %s decision in the games", k)
			continue
		}
		t.Logf("%s: %s; e.g. %q", k, seen[k].Prompt, seen[k].Choices[0].Label)
	}
}

// TestSettings: the lobby's settings read and show the four sets of rules; a 2-player table
// must play the advanced rules (CheckTable's business, through the rules).
func TestSettings(t *testing.T) {
	for _, n := range rules.ConfigNames() {
		c, err := Board{}.ParseSettings(json.RawMessage(`{"table":"x","players":3,"rules":"` + n + `"}`))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if s := (Board{}).ShowSettings(c).(settings); s.Rules != n || s.RulesText == "" {
			t.Errorf("%s shows as %+v", n, s)
		}
	}
	if c, err := (Board{}).ParseSettings(json.RawMessage(`{}`)); err != nil || string(c) != string(rules.EncodeConfig(rules.Advanced)) {
		t.Errorf("no rules: %x %v, want the advanced rules", c, err)
	}
	if _, err := (Board{}).ParseSettings(json.RawMessage(`{"rules":"expert"}`)); err == nil || !strings.Contains(err.Error(), `unknown rules "expert"`) {
		t.Errorf("expert: %v", err)
	}
	b, _ := json.Marshal(Board{}.LobbyChoices())
	if !strings.Contains(string(b), `"rule_choices"`) || !strings.Contains(string(b), `"id":"bonuses"`) {
		t.Errorf("lobby choices: %s", b)
	}
	// The house rules "even": offered with the basic and advanced rules, read and shown.
	for _, n := range []string{"basic+even", "advanced+even"} {
		if !strings.Contains(string(b), `"id":"`+n+`"`) {
			t.Errorf("the lobby does not offer %s: %s", n, b)
		}
		c, err := Board{}.ParseSettings(json.RawMessage(`{"rules":"` + n + `"}`))
		if err != nil || c[0]&4 == 0 {
			t.Fatalf("%s: %x %v, want the house rules' bit", n, c, err)
		}
		if s := (Board{}).ShowSettings(c).(settings); s.Rules != n || !strings.Contains(s.RulesText, `house rules "even"`) {
			t.Errorf("%s shows as %+v", n, s)
		}
	}
}

// TestDecksCountedAtSetup: while the table sets up (the chaos discard), the page counts the
// cards left in the decks from what was dealt face up (the view counts them only once play
// starts): every favor of the game but the market, every guilty pleasure but the display; and
// from the first action on, the view's own counts.
func TestDecksCountedAtSetup(t *testing.T) {
	for _, tb := range tables {
		if !tb.rules.Chaos {
			continue
		}
		t.Run(tb.String(), func(t *testing.T) {
			discards, actions := 0, 0
			play(t, tb, 5, func(g *rules.Game, seat int) {
				v := g.View(seat)
				gs := Board{}.Draw(g, seat, names[:tb.players]).Game.(*gameState)
				switch v.Next.Kind {
				case rules.DecideDiscard:
					discards++
					if f, p := int(rules.NumFavorTypes)*rules.FavorsPerType(tb.players)-tb.players, rules.NumPleasures-tb.players; gs.FavorDeck != f || gs.PleasureDeck != p {
						t.Fatalf("seat %d's discard: the page counts %d favors and %d guilty pleasures in the decks, want %d and %d", seat, gs.FavorDeck, gs.PleasureDeck, f, p)
					}
				case rules.DecideAction:
					actions++
					if gs.FavorDeck != v.FavorDeck || gs.PleasureDeck != v.PleasureDeck {
						t.Fatalf("seat %d's action: the page counts %d and %d, the view %d and %d", seat, gs.FavorDeck, gs.PleasureDeck, v.FavorDeck, v.PleasureDeck)
					}
				}
			})
			if discards != tb.players || actions == 0 {
				t.Errorf("%d discards and %d actions seen", discards, actions)
			}
		})
	}
}
