package corruption_test

import (
	"bytes"
	"fmt"
	"testing"

	"corruption/engine"
	"corruption/engine/corruption"
	"corruption/engine/enginetest"
)

// TestReplace: at every opening of a game played through the kit, Replace (engine.Replacer)
// gives, on the copy of the seat that opens (which knows its cards), the very cards it placed,
// and on the observer's copy (which knows none: what the table asks once a seat's card was
// refused), cards the opening takes; for a seat that is not opening, an error.
func TestReplace(t *testing.T) {
	for g := uint64(1); g <= 3; g++ {
		k := tableKind{3 + int(g), corruption.Standard, false}
		var want [][]byte // the seat's own Replace, compared with its opening when it comes
		openings := 0
		_, err := playKit(k, g, func(tn enginetest.Turn) error {
			if tn.Input.Kind == engine.InOpened && want != nil {
				openings++
				if len(want) != len(tn.Input.Values) {
					return fmt.Errorf("seat %d's copy replaces %d cards; it opened %d", tn.Input.Seat, len(want), len(tn.Input.Values))
				}
				for i := range want {
					if !bytes.Equal(want[i], tn.Input.Values[i]) {
						return fmt.Errorf("seat %d's copy replaces card %d with %q; it placed %q", tn.Input.Seat, i, want[i], tn.Input.Values[i])
					}
				}
				want = nil
			}
			st := tn.Observer.Due()
			if st.Kind != engine.StepOpen {
				return nil
			}
			seat := st.Seat
			other := (seat + 1) % len(tn.Seats)
			if _, err := tn.Observer.(engine.Replacer).Replace(other, g); err == nil {
				return fmt.Errorf("seat %d replaces cards while seat %d opens", other, seat)
			}
			vals, err := tn.Observer.(engine.Replacer).Replace(seat, g)
			if err != nil {
				return fmt.Errorf("the observer's copy replaces nothing for seat %d: %v", seat, err)
			}
			if err := tn.Observer.Clone().Apply(engine.Input{Kind: engine.InOpened, Seat: seat, Refs: st.Refs, Values: vals}); err != nil {
				return fmt.Errorf("the observer's replacement %q for seat %d is refused: %v", vals, seat, err)
			}
			if want, err = tn.Seats[seat].(engine.Replacer).Replace(seat, g); err != nil {
				return fmt.Errorf("seat %d's own copy replaces nothing: %v", seat, err)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		if openings == 0 {
			t.Fatalf("game %d: no opening", g)
		}
	}
}
