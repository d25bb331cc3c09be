package protocol

import (
	"fmt"

	"corruption/engine"
)

// Decisions reads the players' decisions back from a log: for every move and every committed
// choice, by seq, the game's encoding and the hidden values that the log's openings later
// showed (nil for a value never opened). Replaying a log's decisions through fresh nodes with the
// same keys and seeds writes the same log again, which is how the golden logs are checked.
func Decisions(entries []*Entry) (map[uint64]engine.Action, error) {
	if len(entries) == 0 {
		return nil, fmt.Errorf("no entries")
	}
	obs, err := NewTable(entries[0], nil, engine.Options{})
	if err != nil {
		return nil, err
	}
	out := map[uint64]engine.Action{}
	where := map[int][2]uint64{} // ref -> (seq of its decision, index among its hidden values)
	for _, e := range entries[1:] {
		refs, refBefore := obs.openRefsIf(e), len(obs.values)
		if err := obs.Append(e); err != nil {
			return nil, fmt.Errorf("decisions: %w", err)
		}
		switch e.Kind {
		case KindMove:
			b, err := parseMoveBody(e.Body)
			if err != nil {
				return nil, err
			}
			out[e.Seq] = engine.Action{Move: b.move, Hidden: make([][]byte, len(b.hidden))}
			for i := range b.hidden {
				where[refBefore+i] = [2]uint64{e.Seq, uint64(i)}
			}
		case KindCommit:
			out[e.Seq] = engine.Action{Hidden: make([][]byte, 1)}
			where[refBefore] = [2]uint64{e.Seq, 0}
		case KindOpen:
			b, err := parseOpenBody(e.Body, len(refs))
			if err != nil {
				return nil, err
			}
			for k, ref := range refs {
				if w, ok := where[ref]; ok {
					out[w[0]].Hidden[w[1]] = b.openings[k].Card()
				}
			}
		}
	}
	return out, nil
}

// openRefsIf is the refs an open entry e would open now (nil for other entries).
func (t *Table) openRefsIf(e *Entry) []int {
	if e.Kind != KindOpen || t.stage != stagePlay || t.verdict != nil {
		return nil
	}
	if t.step.Kind == engine.StepChoose && t.step.turn < len(t.step.Seats) {
		return nil
	}
	return append([]int(nil), t.step.openRefs()...)
}
