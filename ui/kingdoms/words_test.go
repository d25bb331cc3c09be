package kingdoms

import (
	"regexp"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	rules "corruption/engine/kingdoms"
)

var annWord = regexp.MustCompile(`(?i)\bann\b`)

// TestTellEveryEvent: every event of whole games is told in a sentence, for a player and for
// an onlooker, with names and "you", and no formatting slip.
func TestTellEveryEvent(t *testing.T) {
	kinds := map[rules.EventKind]bool{}
	rare := func(k rules.EventKind) bool {
		return k == rules.EventStealFailed || k == rules.EventEmbezzled || k == rules.EventShredded
	}
	missing := func() []string {
		var out []string
		for k := rules.EventCorporation; k <= rules.EventOver; k++ {
			if !kinds[k] && !rare(k) {
				out = append(out, eventKind(k))
			}
		}
		return out
	}
	// The tables in turn, until every kind of event was told (a magic bonus's exchange is rare).
	for i := 0; i < 60 && (i < 2*len(tables) || len(missing()) > 0); i++ {
		tb := tables[i%len(tables)]
		play(t, tb, uint64(13+i), nil, enginetest.Events(func(e engine.Event) {
			ke := e.Data.(rules.Event)
			kinds[ke.Kind] = true
			for _, me := range []int{-1, 0} {
				l := Board{}.Tell(e, names[:tb.players], me)
				if l.Kind == "event" || l.Text == "" || strings.Contains(l.Text, "%!") || strings.Contains(l.Text, "seat -") ||
					!strings.HasSuffix(l.Text, ".") || strings.ToUpper(l.Text[:1]) != l.Text[:1] {
					t.Fatalf("%v told as %+v", ke, l)
				}
				if me == 0 && annWord.MatchString(l.Text) {
					t.Fatalf("%v told to ann as %q: she is \"you\"", ke, l.Text)
				}
			}
		}))
	}
	if m := missing(); len(m) > 0 {
		t.Errorf("no %v events in the games", m)
	}
}

func TestTell(t *testing.T) {
	for _, tt := range []struct {
		e    rules.Event
		me   int
		want string
	}{
		{rules.Event{Kind: rules.EventTurn, Seat: 1, Round: 3}, 1, "Round 3: your turn."},
		{rules.Event{Kind: rules.EventVotes, Bill: 0, Votes: []int{1, -1, 0}}, 2, "The votes on Grimhold's left bill, revealed together: ann yes and you no."},
		{rules.Event{Kind: rules.EventCall, Seat: -1, Bill: 1, Seats: []int{0}}, 0, "A vote on Grimhold's right bill is called automatically (a favor added to a bill of four); you vote in secret."},
		{rules.Event{Kind: rules.EventOver, Winners: []int{0, 2}}, 2, "Ann and you share the win."},
		{rules.Event{Kind: rules.EventEnding, Reason: rules.EndFavors}, 0, "The game ends: the last favor was drawn."},
		{rules.Event{Kind: rules.EventEnding, Reason: rules.EndFavors, Round: 4}, 0, "The game is ending: the last favor was drawn. Round 4 is played to its end, then final voting."},
		{rules.Event{Kind: rules.EventNoAction, Seat: 1, Count: 2}, 1, "You have no action left to take and lose the rest of your turn."},
		{rules.Event{Kind: rules.EventNoAction, Seat: 1, Count: 1}, 0, "Bob has no action left to take and loses the rest of their turn."},
		{rules.Event{Kind: rules.EventShareholders, Seat: 1, Types: []rules.FavorType{rules.Magic}}, 0, "Bob shows their shareholder card: magic."},
	} {
		if got := describe(tt.e, names[:3], tt.me, ""); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.e.Kind, got, tt.want)
		}
	}
	if l := (Board{}).Tell(engine.Event{Text: "a note"}, names, 0); l.Text != "a note" {
		t.Errorf("an event of another game: %+v", l)
	}
}
