package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"corruption/engine/corruption"
)

// newGame starts a full-information game of n players with the deck in index order and seat 0
// first: City Hall gets school and monument, the County Seat library and firehouse, the
// Capitol police and postoffice.
func newGame(t *testing.T, n int, opts ...func(*corruption.Config)) *corruption.State {
	t.Helper()
	deck := make([]corruption.Contract, corruption.NumContracts)
	for i := range deck {
		deck[i] = corruption.Contract(i)
	}
	cfg := corruption.Config{Players: n, Deck: deck}
	for _, o := range opts {
		o(&cfg)
	}
	s, err := corruption.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func apply(t *testing.T, s *corruption.State, moves ...string) {
	t.Helper()
	for _, line := range moves {
		d := s.Next()
		m, err := ParseMove(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		m.Seat = d.Seat
		if err := s.Apply(m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
	}
}

func TestParseMove(t *testing.T) {
	tests := []struct {
		in   string
		want corruption.Move
		err  string
	}{
		{in: "4000 airport", want: corruption.Move{Kind: corruption.MovePlace, Card: corruption.Bribe4000, Spot: corruption.ContractSpot(22)}},
		{in: "  8000   SWISS:CITY ", want: corruption.Move{Kind: corruption.MovePlace, Card: corruption.Bribe8000, Spot: corruption.SwissCity}},
		{in: "place reporter monument", want: corruption.Move{Kind: corruption.MovePlace, Card: corruption.Reporter, Spot: corruption.ContractSpot(1)}},
		{in: "peek 5", want: corruption.Move{Kind: corruption.MovePeek, Index: 5}},
		{in: "kill #7", want: corruption.Move{Kind: corruption.MoveKill, Index: 7}},
		{in: "remove 12", want: corruption.Move{Kind: corruption.MoveRemove, Index: 12}},
		{in: "pass", want: corruption.Move{Kind: corruption.MovePass}},
		{in: "assign monument", want: corruption.Move{Kind: corruption.MoveAssign, Contract: 1}},
		{in: "faceup 1 3", want: corruption.Move{Kind: corruption.MoveFaceUp, Positions: 0b101}},
		{in: "faceup", want: corruption.Move{Kind: corruption.MoveFaceUp}},
		{in: "faceup none", want: corruption.Move{Kind: corruption.MoveFaceUp}},
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
		m, err := ParseMove(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseMove(%q): error %v, want one with %q", tt.in, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("ParseMove(%q): %v", tt.in, err)
		case tt.err == "" && m != tt.want:
			t.Errorf("ParseMove(%q) = %+v, want %+v", tt.in, m, tt.want)
		}
	}
}

func TestMoveRequest(t *testing.T) {
	tests := []struct {
		req  MoveRequest
		want corruption.Move
		err  string
	}{
		{req: MoveRequest{Kind: "place", Card: "da", Spot: "school"}, want: corruption.Move{Kind: corruption.MovePlace, Card: corruption.DA, Spot: 0}},
		{req: MoveRequest{Text: "pass"}, want: corruption.Move{Kind: corruption.MovePass}},
		{req: MoveRequest{Kind: "faceup", Positions: []int{2, 6}}, want: corruption.Move{Kind: corruption.MoveFaceUp, Positions: 0b100010}},
		{req: MoveRequest{Kind: "assign", Contract: "dam"}, want: corruption.Move{Kind: corruption.MoveAssign, Contract: 23}},
		{req: MoveRequest{Kind: "remove", Index: 3}, want: corruption.Move{Kind: corruption.MoveRemove, Index: 3}},
		{req: MoveRequest{Kind: "kill"}, err: "not a card number"},
		{req: MoveRequest{Kind: "place", Card: "1000", Spot: "swiss:moon"}, err: "unknown place"},
		{req: MoveRequest{Kind: "bribe"}, err: `unknown move kind "bribe"`},
		{req: MoveRequest{}, err: "no kind"},
	}
	for _, tt := range tests {
		m, err := tt.req.Move()
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
	s := newGame(t, 3)
	v := s.View(0)
	for _, tt := range []struct {
		move string
		err  string
	}{
		{"1000 school", ""},
		{"8000 swiss:city", ""},
		{"da swiss:city", "cannot"},
		{"1000 airport", "not on the table"},
		{"peek 1", "cannot peek now"},
		{"assign school", "not to assign"},
		{"pass", "not to pass"},
	} {
		m, _ := ParseMove(tt.move)
		m.Seat = 0
		err := Check(v, m)
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q: %v, want %q", tt.move, err, tt.err)
		}
	}
	if err := Check(s.View(1), corruption.Move{Seat: 1, Kind: corruption.MovePlace, Card: corruption.Bribe1000}); !errors.Is(err, ErrNotAsked) {
		t.Errorf("seat 1 out of turn: %v, want ErrNotAsked", err)
	}
	if err := Check(v, corruption.Move{Seat: 2, Kind: corruption.MovePlace, Card: corruption.Bribe1000}); err == nil {
		t.Error("a move made for another seat passed")
	}

	// Round 1: seat 0 puts a bribe on City Hall's Swiss account and a reporter on the school
	// with a bribe of its own; everyone else plays bribes; then the awarding decisions come.
	apply(t, s,
		"8000 swiss:city", "1000 school", "1000 monument",
		"4000 school", "2000 school", "2000 monument",
		"reporter school", "4000 monument", "4000 library",
		"1000 library", "6000 library", "6000 firehouse",
		"2000 police", "8000 police", "8000 postoffice",
		"6000 postoffice", "10000 postoffice", "10000 police")
	d := s.Next()
	if d.Kind != corruption.DecideAssign || d.Seat != 0 {
		t.Fatalf("after the placements: %v, want seat 0 to assign", d)
	}
	v = s.View(0)
	for _, tt := range []struct {
		move string
		err  string
	}{
		{"assign library", "cannot go to Public Library"},
		{"pass", "not to pass"},
		{"assign monument", ""},
	} {
		m, _ := ParseMove(tt.move)
		m.Seat = 0
		if err := Check(v, m); (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q: %v, want %q", tt.move, err, tt.err)
		}
	}
	apply(t, s, "assign monument")
	d = s.Next()
	if d.Kind != corruption.DecideRemove || d.Seat != 0 {
		t.Fatalf("after the assignment: %v, want seat 0's reporter", d)
	}
	v = s.View(0)
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
		m, _ := ParseMove(tt.move)
		m.Seat = 0
		if err := Check(v, m); (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q (options %v): %v, want %q", tt.move, opts, err, tt.err)
		}
	}
}

// TestHumanDecide: Decide waits for Submit, which refuses illegal and stale moves and takes a
// legal one; ctx ends the wait.
func TestHumanDecide(t *testing.T) {
	s := newGame(t, 3)
	changes := make(chan struct{}, 16)
	h := NewHuman(func() { changes <- struct{}{} })
	if err := h.Submit(0, corruption.Move{Kind: corruption.MovePass}); !errors.Is(err, ErrNotAsked) {
		t.Fatalf("Submit with nothing asked: %v", err)
	}
	type result struct {
		m   corruption.Move
		err error
	}
	got := make(chan result, 1)
	go func() {
		m, err := h.Decide(context.Background(), s.Clone().View(0))
		got <- result{m, err}
	}()
	<-changes
	p, ok := h.Pending()
	if !ok || p.ID != 1 || p.View.Seat() != 0 {
		t.Fatalf("Pending = %+v, %v", p, ok)
	}
	if err := h.Submit(p.ID+1, corruption.Move{Kind: corruption.MovePlace, Card: corruption.Bribe1000, Spot: 0}); !errors.Is(err, ErrStale) {
		t.Errorf("stale submit: %v", err)
	}
	if err := h.Submit(p.ID, corruption.Move{Kind: corruption.MovePlace, Card: corruption.DA, Spot: corruption.SwissCounty}); err == nil {
		t.Error("a district attorney on a Swiss account was taken")
	}
	if _, ok := h.Pending(); !ok {
		t.Error("an illegal move ended the decision")
	}
	want := corruption.Move{Kind: corruption.MovePlace, Card: corruption.Bribe2000, Spot: corruption.SwissCounty}
	if err := h.Submit(p.ID, want); err != nil {
		t.Fatal(err)
	}
	r := <-got
	want.Seat = 0
	if r.err != nil || r.m != want {
		t.Errorf("Decide = %+v, %v; want %+v", r.m, r.err, want)
	}
	if _, ok := h.Pending(); ok {
		t.Error("still pending after the answer")
	}
	if err := h.Submit(0, want); !errors.Is(err, ErrNotAsked) {
		t.Errorf("second submit: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, err := h.Decide(ctx, s.View(0))
		got <- result{err: err}
	}()
	<-changes
	<-changes // the first decision's end
	cancel()
	select {
	case r := <-got:
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("cancelled Decide: %v", r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Decide does not return when its context ends")
	}
	if _, ok := h.Pending(); ok {
		t.Error("still pending after the context ended")
	}
}
