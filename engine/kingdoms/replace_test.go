package kingdoms_test

import (
	"bytes"
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/enginetest"
	"corruption/engine/kingdoms"
)

// TestReplace: at every opening of a chaos discard in games played through the kit, Replace
// (engine.Replacer) gives, on the observer's copy (which knows nothing: what the table asks once
// a seat's discard was refused) and on the seat's own, a discard the opening takes, the same on
// every copy (the public state decides it); for a seat that is not opening, an error.
func TestReplace(t *testing.T) {
	openings := 0
	for g := uint64(1); g <= 6 && openings < 3; g++ {
		var want [][]byte
		watch := func(tn enginetest.Turn) error {
			if tn.Input.Kind == engine.InOpened && want != nil {
				openings++
				want = nil
			}
			st := tn.Observer.Due()
			if st.Kind != engine.StepOpen {
				return nil
			}
			seat := st.Seat
			if _, err := tn.Observer.(engine.Replacer).Replace((seat+1)%len(tn.Seats), g); err == nil {
				return fmt.Errorf("a seat replaces a discard while seat %d opens", seat)
			}
			vals, err := tn.Observer.(engine.Replacer).Replace(seat, g)
			if err != nil {
				return fmt.Errorf("the observer's copy replaces nothing for seat %d: %v", seat, err)
			}
			if err := tn.Observer.Clone().Apply(engine.Input{Kind: engine.InOpened, Seat: seat, Refs: st.Refs, Values: vals}); err != nil {
				return fmt.Errorf("the observer's replacement %v for seat %d is refused: %v", vals, seat, err)
			}
			if want, err = tn.Seats[seat].(engine.Replacer).Replace(seat, g); err != nil || len(want) != 1 || !bytes.Equal(want[0], vals[0]) {
				return fmt.Errorf("seat %d's own copy replaces its discard with %v (%v); the observer's with %v", seat, want, err, vals)
			}
			return nil
		}
		if _, err := enginetest.Play(kingdoms.Rules{}, kingdoms.EncodeConfig(kingdoms.Advanced), kitPlayers([]string{"random"}, 4, g), g, enginetest.Watch(watch)); err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
	}
	if openings == 0 {
		t.Fatal("no chaos discard was opened in six games")
	}
}
