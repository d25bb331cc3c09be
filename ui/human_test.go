package ui

import (
	"context"
	"errors"
	"testing"
	"time"

	"corruption/engine"
)

// TestHumanDecide: Decide waits for submit, which refuses stale and illegal moves (as the
// board's Move says) and takes a legal one; ctx ends the wait.
func TestHumanDecide(t *testing.T) {
	g := newPick(3)
	changes := make(chan struct{}, 16)
	h := NewHuman(func() { changes <- struct{}{} })
	if err := h.submit(0, pickMove{1}); !errors.Is(err, ErrNotAsked) {
		t.Fatalf("submit with nothing asked: %v", err)
	}
	type result struct {
		a   engine.Action
		err error
	}
	got := make(chan result, 1)
	go func() {
		a, err := h.Decide(context.Background(), g.Clone(), 0)
		got <- result{a, err}
	}()
	<-changes
	p, ok := h.current()
	if !ok || p.ID != 1 || p.Seat != 0 || p.Game == nil {
		t.Fatalf("current = %+v, %v", p, ok)
	}
	if err := h.submit(p.ID+1, pickMove{1}); !errors.Is(err, errStale) {
		t.Errorf("stale submit: %v", err)
	}
	if err := h.submit(p.ID, pickMove{7}); err == nil {
		t.Error("an illegal move was taken")
	}
	if _, ok := h.current(); !ok {
		t.Error("an illegal move ended the decision")
	}
	if err := h.submit(p.ID, pickMove{2}); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.err != nil || string(r.a.Move) != "\x02" {
		t.Errorf("Decide = %+v, %v; want the move 2", r.a, r.err)
	}
	if _, ok := h.current(); ok {
		t.Error("still pending after the answer")
	}
	if err := h.submit(0, pickMove{2}); !errors.Is(err, ErrNotAsked) {
		t.Errorf("second submit: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, err := h.Decide(ctx, g.Clone(), 0)
		got <- result{err: err}
	}()
	<-changes // the first decision's end
	<-changes
	// A move for a seat the game does not wait for: the board's Move says so.
	if err := h.submit(0, pickMove{1}); err != nil {
		t.Fatalf("seat 0's move: %v", err)
	}
	if r := <-got; r.err != nil {
		t.Fatal(r.err)
	}
	<-changes
	go func() {
		_, err := h.Decide(ctx, g.Clone(), 1)
		got <- result{err: err}
	}()
	<-changes
	if err := h.submit(0, pickMove{1}); !errors.Is(err, ErrNotAsked) {
		t.Errorf("a move for seat 1 when the game waits for seat 0: %v", err)
	}
	cancel()
	select {
	case r := <-got:
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("cancelled Decide: %v", r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Decide does not return when its context ends")
	}
	if _, ok := h.current(); ok {
		t.Error("still pending after the context ended")
	}
}
