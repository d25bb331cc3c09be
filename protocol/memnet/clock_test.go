package memnet

import (
	"testing"
	"time"
)

// TestClockTicks: a ticker ticks at each period the clock passes, with the clock's time, once
// whatever the jump; Now follows Advance; a stopped ticker gets nothing more.
func TestClockTicks(t *testing.T) {
	c := NewClock()
	start := c.Now()
	ticks, stop := c.Ticker(time.Second)
	c.Advance(999 * time.Millisecond)
	if len(ticks) != 0 {
		t.Fatalf("a tick before its period: %v", <-ticks)
	}
	c.Advance(time.Millisecond)
	if got := <-ticks; !got.Equal(start.Add(time.Second)) || !c.Now().Equal(got) {
		t.Fatalf("tick at %v, clock at %v; want both at %v", got, c.Now(), start.Add(time.Second))
	}
	c.Advance(10 * time.Second) // ten periods in one jump: one tick
	if got := <-ticks; !got.Equal(start.Add(11 * time.Second)) {
		t.Fatalf("tick at %v after a jump, want %v", got, start.Add(11*time.Second))
	}
	if len(ticks) != 0 {
		t.Fatal("a jump of ten periods left more than one tick")
	}
	stop()
	c.Advance(time.Hour)
	if len(ticks) != 0 {
		t.Fatal("a stopped ticker ticked")
	}
}

// TestClockSlowReaderGetsLatestTick: a reader that takes no tick while the clock passes many
// periods, in many steps, finds one tick waiting, of the time of the last one.
func TestClockSlowReaderGetsLatestTick(t *testing.T) {
	c := NewClock()
	ticks, stop := c.Ticker(time.Hour)
	defer stop()
	for range 12 * 24 * 2 { // twelve days in half hours
		c.Advance(30 * time.Minute)
	}
	if len(ticks) != 1 {
		t.Fatalf("%d ticks waiting, want 1", len(ticks))
	}
	if got := <-ticks; !got.Equal(c.Now()) {
		t.Fatalf("the waiting tick is of %v, %v before the clock's time: want the last tick's", got, c.Now().Sub(got))
	}
}
