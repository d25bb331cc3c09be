package kingdoms

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The house rules "even" (Config.Even): the round in which a deck runs out is played to its
// end, and guilty pleasures are taken from the bottom marker up. Each case runs with and without
// them, so that the sheet's rules are held to the same facts.

var basicEven = Config{Even: true}

// TestHouseEvenPickOrder: a passed bill's guilty pleasures go top marker first (the sheet) or
// bottom marker first (even), a seat with two markers at its highest (sheet) or lowest (even).
func TestHouseEvenPickOrder(t *testing.T) {
	for _, tc := range []struct {
		rules Config
		want  []int
	}{
		{Basic, []int{0, 1, 2}},
		{basicEven, []int{0, 2, 1}},
		{Config{Bonuses: true, Even: true}, []int{0, 2, 1}},
	} {
		t.Run(tc.rules.String(), func(t *testing.T) {
			tb := deal{players: 3, rules: tc.rules, favors: basicMarket}.start(t)
			b := billOf(t, "grimhold-1")
			tb.own(1, "chancellor", "whip", "treasurer", "censor", "tribune", "marshal")
			// Markers top to bottom: seat 0, seat 1, seat 2, seat 0.
			tb.play(PlaceMove(0, favOf(t, "defense-1"), b), TakeMove(0, favOf(t, "freedom-1")))
			tb.play(PlaceMove(1, favOf(t, "magic-1"), b), TakeMove(1, favOf(t, "environment-1")))
			tb.play(PlaceMove(2, favOf(t, "industry-1"), b), TakeMove(2, favOf(t, "freedom-2")))
			tb.play(PlaceMove(0, favOf(t, "defense-2"), b), TakeMove(0, favOf(t, "magic-2")))
			tb.play(CallMove(1, b))
			tb.votes(0, 1)
			var got []int
			for d := tb.next(); d.Kind == DecidePick; d = tb.next() {
				got = append(got, d.Seat)
				tb.play(PickMove(d.Seat, -1))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("markers 0, 1, 2, 0 from the top: seats pick in the order %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHouseEvenLastRound: the draw of the last favor ends the game at once (the sheet: the rest
// of the turn and the round are lost) or at the end of its round (even: every seat has had as
// many turns), whoever draws it.
func TestHouseEvenLastRound(t *testing.T) {
	for _, tc := range []struct {
		rules  Config
		drawer int   // the seat whose first action draws the last favor, in round 1
		turns  []int // the turns each seat began, seat 0 first
		after  int   // actions made or lost (no action left to take) after the draw
	}{
		{Basic, 0, []int{1, 0, 0}, 0},
		{Basic, 1, []int{1, 1, 0}, 0},
		{Basic, 2, []int{1, 1, 1}, 0},
		{basicEven, 0, []int{1, 1, 1}, 5},
		{basicEven, 1, []int{1, 1, 1}, 3},
		{basicEven, 2, []int{1, 1, 1}, 1},
		{Advanced, 1, []int{1, 1, 0}, 0},
		{Config{Bonuses: true, Chaos: true, Even: true}, 1, []int{1, 1, 1}, 3},
	} {
		t.Run(fmt.Sprintf("%s, seat %d draws", tc.rules, tc.drawer), func(t *testing.T) {
			tb := deal{players: 3, rules: tc.rules, favors: basicMarket}.start(t)
			turns := []int{1, 0, 0} // seat 0's first turn began at the setup
			ending, after := false, 0
			for range 100 {
				d := tb.next()
				if d.Kind != DecideAction {
					break
				}
				if d.Seat == tc.drawer && d.Actions == ActionsPerTurn && tb.g().p.round == 1 {
					p := &tb.g().p
					p.favorLen = p.favorNext + 1 // the refill of this take is the last favor
				}
				m := tb.g().Legal(d.Seat)[0] // the market's first favor, taken; then a leader, a vote
				if m.Kind == MoveChaos {
					m = tb.g().legalActions(d.Seat)[0]
				}
				if ending {
					after++
				}
				tb.play(m)
				tb.next() // the table deals the refill
				for _, e := range tb.events {
					switch e.Kind {
					case EventTurn:
						turns[e.Seat]++
					case EventNoAction:
						after += e.Count
					case EventEnding:
						ending = true
						if wantRound := map[bool]int{true: 1}[tc.rules.Even]; e.Round != wantRound || e.Reason != EndFavors {
							t.Errorf("%s: round %d, reason %d; want round %d, the last favor", e, e.Round, e.Reason, wantRound)
						}
					}
				}
				tb.events = nil
				tb.passes()
			}
			if !ending {
				t.Fatal("the last favor was drawn and the game did not end")
			}
			if !slices.Equal(turns, tc.turns) || after != tc.after {
				t.Errorf("turns begun by seat %v, %d actions made or lost after the draw; want %v and %d", turns, after, tc.turns, tc.after)
			}
			if !tb.g().p.final {
				t.Errorf("no final voting: the game waits for %s", tb.next())
			}
		})
	}
}

// TestHouseEvenNoAction: in the last round of "even", a seat with no action it can take loses
// the rest of its turn (it is never asked for an action it cannot make), and the round ends.
func TestHouseEvenNoAction(t *testing.T) {
	tb := deal{players: 3, rules: basicEven, favors: basicMarket}.start(t)
	p := &tb.g().p
	p.ending = EndFavors // as if the last favor had been drawn in seat 0's turn
	p.favorLen = p.favorNext
	for i := range p.market {
		p.market[i] = -1
	}
	l := ldrOf(t, "whip")
	var pay [NumMinions]int
	for _, m := range leaders[l].Cost {
		pay[m]++
	}
	tb.give(0, pay[:]...)
	tb.give(1)
	tb.give(2)
	tb.play(InfluenceMove(0, l, 0, NoMinion)) // its last minions, and no bill holds a favor
	var lost []string
	for _, e := range tb.events {
		if e.Kind == EventNoAction {
			lost = append(lost, fmt.Sprintf("seat %d: %d", e.Seat, e.Count))
		}
	}
	if want := []string{"seat 0: 1", "seat 1: 2", "seat 2: 2"}; !slices.Equal(lost, want) {
		t.Errorf("actions lost %v, want %v", lost, want)
	}
	if d := tb.next(); d.Kind != DecideNothing || !tb.g().p.over {
		t.Errorf("the game waits for %s, want it over", d)
	}
}

// TestConfigHouse: the house rules are a bit of their own; every configuration of the sheet's
// rules encodes to the byte it always did, and names and words say which rules are played.
func TestConfigHouse(t *testing.T) {
	for _, tc := range []struct {
		c     Config
		b     byte
		name  string
		words string
	}{
		{Basic, 0, "basic", "the basic rules"},
		{Config{Bonuses: true}, 1, "bonuses", "the basic rules with bill bonuses"},
		{Config{Chaos: true}, 2, "chaos", "the basic rules with chaos cards"},
		{Advanced, 3, "advanced", "the advanced rules (bill bonuses and chaos cards)"},
		{Config{Even: true}, 4, "basic+even", `the basic rules, with the house rules "even"`},
		{Config{Bonuses: true, Even: true}, 5, "bonuses+even", `the basic rules with bill bonuses, with the house rules "even"`},
		{Config{Chaos: true, Even: true}, 6, "chaos+even", `the basic rules with chaos cards, with the house rules "even"`},
		{Config{Bonuses: true, Chaos: true, Even: true}, 7, "advanced+even", `the advanced rules (bill bonuses and chaos cards), with the house rules "even"`},
	} {
		if b := EncodeConfig(tc.c); !bytes.Equal(b, []byte{tc.b}) {
			t.Errorf("%+v encodes to %v, want [%d]", tc.c, b, tc.b)
		}
		if c, err := DecodeConfig([]byte{tc.b}); err != nil || c != tc.c {
			t.Errorf("[%d] decodes to %+v (%v), want %+v", tc.b, c, err, tc.c)
		}
		if c, err := ParseConfig(tc.name); tc.c.String() != tc.name || err != nil || c != tc.c {
			t.Errorf("%+v is named %q, which parses to %+v (%v)", tc.c, tc.c.String(), c, err)
		}
		if w := tc.c.Words(); !strings.HasPrefix(w, tc.words) || tc.c.Even != strings.Contains(w, "even") {
			t.Errorf("%+v in words: %q, want it to begin %q", tc.c, w, tc.words)
		}
		desc := Rules{}.DescribeConfig([]byte{tc.b})
		if desc != tc.c.Words() {
			t.Errorf("[%d] described as %q, want %q", tc.b, desc, tc.c.Words())
		}
	}
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{[]byte{8}, "unknown flags 0x08"},
		{[]byte{0x84}, "unknown flags 0x80"},
		{[]byte{4, 0}, "2 bytes"},
	} {
		if _, err := DecodeConfig(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error that says %q", tc.in, err, tc.want)
		}
	}
	if err := (Config{Bonuses: true, Chaos: true, Even: true}).Check(2); err != nil {
		t.Errorf("advanced+even at 2 players: %v", err)
	}
	if err := basicEven.Check(2); err == nil || !strings.Contains(err.Error(), "not basic") {
		t.Errorf("basic+even at 2 players: %v, want the 2-player game's error naming the basic rules", err)
	}
	for _, tc := range []struct{ in, want string }{
		{"advanced+odd", `unknown rules "advanced+odd"`},
		{"even", `unknown rules "even"`},
		{"advanced+even+even", `unknown rules "advanced+even+even"`},
	} {
		if c, err := ParseConfig(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%q): %+v, %v; want an error that says %s", tc.in, c, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		want Config
		err  string
	}{
		{"even", Config{Chaos: true, Even: true}, ""},
		{"none", Config{Chaos: true}, ""},
		{"fair", Config{Chaos: true}, `unknown house rules "fair" (want none or even)`},
	} {
		c, err := Config{Chaos: true, Even: true}.WithHouse(tc.name)
		if tc.err == "" && (err != nil || c != tc.want) || tc.err != "" && (err == nil || err.Error() != tc.err) {
			t.Errorf("WithHouse(%q): %+v, %v; want %+v, %q", tc.name, c, err, tc.want, tc.err)
		}
	}
}
