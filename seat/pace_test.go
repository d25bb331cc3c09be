package seat

import (
	"testing"
	"time"
)

// TestPace: the wait after a state is Share times its drawing's cost, within Min and Max.
func TestPace(t *testing.T) {
	p := Pace{Min: 200 * time.Millisecond, Max: 3 * time.Second, Share: 2}
	for _, c := range []struct{ cost, want time.Duration }{
		{0, 200 * time.Millisecond},
		{50 * time.Millisecond, 200 * time.Millisecond},
		{400 * time.Millisecond, 800 * time.Millisecond},
		{time.Second, 2 * time.Second},
		{10 * time.Second, 3 * time.Second},
	} {
		if got := p.Wait(c.cost); got != c.want {
			t.Errorf("after a state that took %v to draw: wait %v, want %v", c.cost, got, c.want)
		}
	}
}
