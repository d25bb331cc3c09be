package corruptia

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
	"corruption/ui"
)

// gameAt plays a 3-senator game among heuristic bots until stop holds of the game (or its
// end), and returns it.
func gameAt(t *testing.T, stop func(g *rules.Game) bool) *rules.Game {
	t.Helper()
	g, err := rules.NewGame(rules.DefaultConfig(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := rules.NewHost(g)
	chance := rules.Seeded(11, 3)
	bots := make([]bot.Bot, 3)
	for s := range bots {
		bots[s], _ = bot.New("heuristic", uint64(s))
	}
	for range 5000 {
		if err := h.Run(chance); err != nil {
			t.Fatal(err)
		}
		if stop(g) {
			return g
		}
		switch st := g.Due(); st.Kind {
		case engine.StepOver:
			t.Fatal("the game ended before the position the test wants")
		case engine.StepChoose:
			votes := make([]rules.Vote, 3)
			for s := range votes {
				votes[s] = bots[s].Vote(g.View(s))
			}
			err = h.Votes(votes)
		default:
			err = h.Move(st.Seat, bots[st.Seat].Decide(g.View(st.Seat)))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no such position")
	return nil
}

func due(k rules.DecisionKind) func(g *rules.Game) bool {
	return func(g *rules.Game) bool { return g.Next().Kind == k }
}

// TestMoveErrors: a move that does not parse, or does not answer the decision due, or breaks a
// rule, is refused with a reason in words, and nothing is encoded.
func TestMoveErrors(t *testing.T) {
	parse := []struct{ text, want string }{
		{"", "Type a move"},
		{"bribe 3", "is not a move"},
		{"discard", "want discard and a bill"},
		{"discard xyz01", "is not a bill"},
		{"propose edu09 1,1 $1@cul01", "a bill, a cell and three workers"},
		{"propose edu09 1;1 $1@cul01 $1@cul01 employee", "is not a cell"},
		{"propose edu09 1,1 $4@cul01 $1@cul01 employee", "is not a worker"},
		{"propose edu09 1,1 1@cul01 $1@cul01 employee", "is not a worker"},
		{"propose edu09 1,1 $1@cul01 $1@cul01 employee@x", "employee@SEAT"},
		{"blackmail ann yes", "is not a seat number"},
		{"blackmail 1 absent", "demand yes or no"},
		{"vote maybe", "is not a vote"},
		{"swap cul01", "swap, the bill you give up"},
		{"pass now", "pass alone"},
	}
	for _, tc := range parse {
		if _, err := (Board{}).ParseText(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseText(%q): %v, want %q", tc.text, err, tc.want)
		}
	}

	g := gameAt(t, due(rules.DecidePropose))
	seat := g.Next().Seat
	v := g.View(seat)
	hand := v.Hand()
	legal := v.Proposals(nil)
	if len(legal) == 0 {
		t.Fatal("no legal proposal")
	}
	p := legal[0]
	var notHeld rules.Bill
	for b := rules.Bill(0); b < rules.NumBills; b++ {
		if !contains(hand, b) {
			notHeld = b
			break
		}
	}
	ok := proposalText(v, p)
	far := strings.Replace(ok, cellKey(p.At), "40,40", 1)
	other := (seat + 1) % 3
	refused := []struct {
		seat       int
		text, want string
	}{
		{seat, "pass", "It is your turn to propose a bill"},
		{seat, "yes", "There is no vote now"},
		{seat, "discard " + hand[0].String(), "not to discard"},
		{seat, strings.Replace(ok, p.Bill.String(), notHeld.String(), 1), "You do not hold " + notHeld.String()},
		{seat, far, "touches no bill of the program"},
		{seat, "propose " + p.Bill.String() + " " + cellKey(p.At) + " $1@" + notHeld.String() + " employee employee", "is not in the program"},
		{other, ok, ui.ErrNotAsked.Error()},
	}
	for _, tc := range refused {
		_, err := action(t, g, tc.seat, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("seat %d types %q: %v, want %q", tc.seat, tc.text, err, tc.want)
		}
	}
	if _, err := action(t, g, seat, ok); err != nil {
		t.Errorf("the legal proposal %q is refused: %v", ok, err)
	}

	g = gameAt(t, func(g *rules.Game) bool {
		if g.Next().Kind != rules.DecideRespond {
			return false
		}
		v := g.View(-1)
		for s := range 3 {
			if v.Approval[s] == 0 && s != g.Next().Seat && v.Holds[g.Next().Seat][s] {
				return true
			}
		}
		return false
	})
	seat, v = g.Next().Seat, g.View(-1)
	for s := range 3 {
		if v.Approval[s] == 0 && s != seat && v.Holds[seat][s] {
			if _, err := action(t, g, seat, "blackmail "+string(rune('0'+s))+" yes"); err == nil || !strings.Contains(err.Error(), "no public approval") {
				t.Errorf("a blackmail on a senator with no approval: %v", err)
			}
		}
	}
	if _, err := action(t, g, seat, "blackmail "+string(rune('0'+seat))+" no"); err == nil || !strings.Contains(err.Error(), "cannot blackmail") {
		t.Errorf("a blackmail on oneself: %v", err)
	}

	g = gameAt(t, func(g *rules.Game) bool {
		return g.Next().Kind == rules.DecideVote && g.View(-1).Approval[0] == 0
	})
	if _, err := action(t, g, 0, "absent"); err == nil || !strings.Contains(err.Error(), "needs a public approval token") {
		t.Errorf("an absence without a token: %v", err)
	}
}

func contains(bs []rules.Bill, b rules.Bill) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// TestMoveRequests: the page's requests read as the typed syntax does.
func TestMoveRequests(t *testing.T) {
	for _, tc := range []struct {
		req  string
		want string // the typed move it stands for ("" for an error)
	}{
		{`{"kind":"discard","bill":"edu09"}`, "discard edu09"},
		{`{"kind":"propose","bill":"edu09","at":"1,-1","workers":["$1@cul01","employee","employee@2"]}`, "propose edu09 1,-1 $1@cul01 employee employee@2"},
		{`{"kind":"blackmail","target":2,"demand":"no"}`, "blackmail 2 no"},
		{`{"kind":"vote","vote":"absent"}`, "absent"},
		{`{"kind":"swap","bill":"cul01","take":"env04"}`, "swap cul01 env04"},
		{`{"kind":"call"}`, "call"},
		{`{"text":"amend edu09 1,-1 $1@cul01 employee employee@2"}`, "amend edu09 1,-1 $1@cul01 employee employee@2"},
		{`{"kind":"propose","bill":"edu09","at":"1,-1","workers":["employee"]}`, ""},
		{`{"kind":"blackmail","demand":"no"}`, ""},
		{`{"kind":"bribe"}`, ""},
		{`{}`, ""},
		{`[1]`, ""},
	} {
		m, err := Board{}.ParseMove(json.RawMessage(tc.req))
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: read as %+v", tc.req, m)
			}
			continue
		}
		want, err2 := parseMove(tc.want)
		if err != nil || err2 != nil {
			t.Errorf("%s: %v %v", tc.req, err, err2)
			continue
		}
		if got := m.(boardMove).m; !sameMove(got, want) {
			t.Errorf("%s: read as %+v, want %+v", tc.req, got, want)
		}
	}
}

func sameMove(a, b move) bool {
	if a.kind != b.kind || a.vote != b.vote || a.bill != b.bill || a.at != b.at || a.target != b.target ||
		a.demand != b.demand || a.take != b.take || len(a.workers) != len(b.workers) {
		return false
	}
	for i := range a.workers {
		if a.workers[i] != b.workers[i] {
			return false
		}
	}
	return true
}

// TestSettings: the lobby's form reads into the canonical configuration and shows back.
func TestSettings(t *testing.T) {
	b := Board{}
	for _, tc := range []struct {
		form string
		want int
		err  bool
	}{{`{}`, 3, false}, {`{"amendments":0}`, 0, false}, {`{"amendments":9}`, 9, false}, {`{"amendments":10}`, 0, true}, {`{"amendments":"x"}`, 0, true}} {
		c, err := b.ParseSettings(json.RawMessage(tc.form))
		if (err != nil) != tc.err {
			t.Errorf("%s: %v", tc.form, err)
			continue
		}
		if err == nil && b.ShowSettings(c).(settings).Amendments != tc.want {
			t.Errorf("%s: shows %+v", tc.form, b.ShowSettings(c))
		}
	}
	if b.Game() != "corruptia" {
		t.Errorf("the board's game is %q", b.Game())
	}
	if _, err := b.Assets().Open("board.js"); err != nil {
		t.Error(err)
	}
	if _, err := b.Assets().Open("board.css"); err != nil {
		t.Error(err)
	}
}

// TestNotAsked: a move at a table that has not started, or of another game, is not asked.
func TestNotAsked(t *testing.T) {
	m, _ := Board{}.ParseText("pass")
	if _, err := m.Action(nil, 0); !errors.Is(err, ui.ErrNotAsked) {
		t.Errorf("a move with no game: %v", err)
	}
	if d := (Board{}).Draw(nil, 0, []string{"a", "b"}); d.Started || len(d.Seats) != 2 {
		t.Errorf("the drawing of no game: %+v", d)
	}
	if (Board{}).Decision(nil, 0, nil) != nil {
		t.Error("a decision with no game")
	}
}

// FuzzParseText: a typed move or a page's request never panics, and a move that reads is
// checked without panicking against a game in progress.
func FuzzParseText(f *testing.F) {
	for _, s := range []string{"propose edu09 1,1 $1@cul04 $2@def07 employee", "blackmail 2 no", "swap cul01 env04", "vote absent", "discard edu01",
		"amend edu09 (1,-1) $1@cul01 employee employee@2", "propose edu09 999999999999999999999,1 $1@cul04 $2@def07 employee"} {
		f.Add(s)
	}
	g, _ := rules.NewGame(rules.DefaultConfig(), 2, nil)
	h := rules.NewHost(g)
	h.Run(rules.Seeded(1, 1))
	f.Fuzz(func(t *testing.T, s string) {
		if m, err := (Board{}).ParseText(s); err == nil {
			m.Action(g, g.Next().Seat)
		}
		if m, err := (Board{}).ParseMove(json.RawMessage(s)); err == nil {
			m.Action(g, 0)
		}
	})
}
