package corruption

import (
	"errors"
	"strings"
	"testing"

	rules "corruption/engine/corruption"
	"corruption/ui"
)

func TestParseMove(t *testing.T) {
	tests := []struct {
		in   string
		want rules.Move
		err  string
	}{
		{in: "4000 airport", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe4000, Spot: rules.ContractSpot(22)}},
		{in: "  8000   SWISS:CITY ", want: rules.Move{Kind: rules.MovePlace, Card: rules.Bribe8000, Spot: rules.SwissCity}},
		{in: "place reporter monument", want: rules.Move{Kind: rules.MovePlace, Card: rules.Reporter, Spot: rules.ContractSpot(1)}},
		{in: "peek 5", want: rules.Move{Kind: rules.MovePeek, Index: 5}},
		{in: "kill #7", want: rules.Move{Kind: rules.MoveKill, Index: 7}},
		{in: "remove 12", want: rules.Move{Kind: rules.MoveRemove, Index: 12}},
		{in: "pass", want: rules.Move{Kind: rules.MovePass}},
		{in: "assign monument", want: rules.Move{Kind: rules.MoveAssign, Contract: 1}},
		{in: "faceup 1 3", want: rules.Move{Kind: rules.MoveFaceUp, Positions: 0b101}},
		{in: "faceup", want: rules.Move{Kind: rules.MoveFaceUp}},
		{in: "faceup none", want: rules.Move{Kind: rules.MoveFaceUp}},
		{in: "", err: "type a move"},
		{in: "4001 airport", err: `unknown card "4001"`},
		{in: "4000 airfield", err: `unknown place "airfield"`},
		{in: "peek", err: "peek and a card number"},
		{in: "peek x", err: `"x" is not a card number`},
		{in: "kill 0", err: `"0" is not a card number`},
		{in: "pass 3", err: "pass alone"},
		{in: "assign mars", err: `unknown contract "mars"`},
		{in: "faceup 7", err: "not between 1 and 6"},
		{in: "faceup 2 2", err: "listed twice"},
		{in: "bribe everyone", err: `unknown card "bribe"`},
		{in: "4000", err: "is not a move"},
	}
	for _, tt := range tests {
		m, err := parseMove(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("parseMove(%q): error %v, want one with %q", tt.in, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("parseMove(%q): %v", tt.in, err)
		case tt.err == "" && m != tt.want:
			t.Errorf("parseMove(%q) = %+v, want %+v", tt.in, m, tt.want)
		}
	}
}

func TestMoveRequest(t *testing.T) {
	tests := []struct {
		req  MoveRequest
		want rules.Move
		err  string
	}{
		{req: MoveRequest{Kind: "place", Card: "da", Spot: "school"}, want: rules.Move{Kind: rules.MovePlace, Card: rules.DA, Spot: 0}},
		{req: MoveRequest{Text: "pass"}, want: rules.Move{Kind: rules.MovePass}},
		{req: MoveRequest{Kind: "faceup", Positions: []int{2, 6}}, want: rules.Move{Kind: rules.MoveFaceUp, Positions: 0b100010}},
		{req: MoveRequest{Kind: "assign", Contract: "dam"}, want: rules.Move{Kind: rules.MoveAssign, Contract: 23}},
		{req: MoveRequest{Kind: "remove", Index: 3}, want: rules.Move{Kind: rules.MoveRemove, Index: 3}},
		{req: MoveRequest{Kind: "kill"}, err: "not a card number"},
		{req: MoveRequest{Kind: "place", Card: "1000", Spot: "swiss:moon"}, err: "unknown place"},
		{req: MoveRequest{Kind: "bribe"}, err: `unknown move kind "bribe"`},
		{req: MoveRequest{}, err: "no kind"},
	}
	for _, tt := range tests {
		m, err := tt.req.move()
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%+v: error %v, want one with %q", tt.req, err, tt.err)
		case tt.err == "" && (err != nil || m != tt.want):
			t.Errorf("%+v = %+v, %v; want %+v", tt.req, m, err, tt.want)
		}
	}
}

// TestCheck: every kind of decision, with a legal move and illegal ones, and the reasons.
func TestCheck(t *testing.T) {
	tb := newTable(t, 3, rules.Standard, false)
	v := tb.view(0)
	for _, tt := range []struct {
		move string
		err  string
	}{
		{"1000 school", ""},
		{"8000 swiss:city", ""},
		{"da swiss:city", "never on a Swiss account"},
		{"1000 airport", "not on the table"},
		{"peek 1", "cannot peek now"},
		{"assign school", "not to assign"},
		{"pass", "not to pass"},
	} {
		m, _ := parseMove(tt.move)
		m.Seat = 0
		err := check(v, m)
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q: %v, want %q", tt.move, err, tt.err)
		}
	}
	if err := check(tb.view(1), rules.Move{Seat: 1, Kind: rules.MovePlace, Card: rules.Bribe1000}); !errors.Is(err, ui.ErrNotAsked) {
		t.Errorf("seat 1 out of turn: %v, want ErrNotAsked", err)
	}
	if err := check(v, rules.Move{Seat: 2, Kind: rules.MovePlace, Card: rules.Bribe1000}); err == nil {
		t.Error("a move made for another seat passed")
	}

	// Round 1: seat 0 puts a bribe on City Hall's Swiss account and a reporter on the school
	// with a bribe of its own; everyone else plays bribes; then the awarding decisions come.
	tb.play(
		"8000 swiss:city", "1000 school", "1000 monument",
		"4000 school", "2000 school", "2000 monument",
		"reporter school", "4000 monument", "4000 library",
		"1000 library", "6000 library", "6000 firehouse",
		"2000 police", "8000 police", "8000 postoffice",
		"6000 postoffice", "10000 postoffice", "10000 police")
	d := tb.view(0).Next()
	if d.Kind != rules.DecideAssign || d.Seat != 0 {
		t.Fatalf("after the placements: %v, want seat 0 to assign", d)
	}
	v = tb.view(0)
	for _, tt := range []struct {
		move string
		err  string
	}{
		{"assign library", "cannot go to Public Library"},
		{"pass", "not to pass"},
		{"assign monument", ""},
	} {
		m, _ := parseMove(tt.move)
		m.Seat = 0
		if err := check(v, m); (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q: %v, want %q", tt.move, err, tt.err)
		}
	}
	tb.play("assign monument")
	d = tb.view(0).Next()
	if d.Kind != rules.DecideRemove || d.Seat != 0 {
		t.Fatalf("after the assignment: %v, want seat 0's reporter", d)
	}
	v = tb.view(0)
	opts := v.RemoveOptions()
	for _, tt := range []struct {
		move string
		err  string
	}{
		{"remove 3", "cannot remove card 3"},
		{"kill 4", "not to kill"},
		{"pass", ""},
		{"remove 4", ""},
	} {
		m, _ := parseMove(tt.move)
		m.Seat = 0
		if err := check(v, m); (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q (options %v): %v, want %q", tt.move, opts, err, tt.err)
		}
	}
}
