package protocol

import (
	"context"
	"testing"
	"time"
)

// TestTickClockAfterAGap: a node's ticker made while another goroutine moved the clock on for
// days (a test's Pass before every node ran) hands its reader the latest tick, and Pass then
// moves the clock on, each step taken. Before memnet's ticker kept the latest tick, the reader
// got the first tick of the gap, twelve days old, and Pass waited forever for a newer one that
// the ticker's next time, moved past the gap, would not give until the clock moved on
// (TestNoClockNamesNobody hung so, once in 80 runs under -race).
func TestTickClockAfterAGap(t *testing.T) {
	c := NewTickClockForTest()
	in, stopIn := c.Clock.Ticker(time.Hour) // memnet's half of Ticker: the node has begun it
	for range 12 * 24 * 2 {
		c.Clock.Advance(30 * time.Minute) // twelve days go by before the node takes its ticks
	}
	ticks, stop := c.tapped(in, stopIn, time.Hour)
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	taken := make(chan time.Time)
	go func() {
		for {
			select {
			case tick := <-ticks:
				select {
				case taken <- tick:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	select {
	case first := <-taken:
		if age := c.Now().Sub(first); age >= time.Hour {
			t.Errorf("the reader's first tick is %v old, want the latest (less than a period)", age)
		}
	case <-ctx.Done():
		t.Fatal("no tick reaches the reader")
	}
	go func() {
		for {
			select {
			case <-taken:
			case <-ctx.Done():
				return
			}
		}
	}()
	if err := c.Pass(ctx, 3*time.Hour, 30*time.Minute); err != nil {
		t.Fatalf("Pass after the gap: %v", err)
	}
}
