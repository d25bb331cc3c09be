package protocol

import (
	"errors"
	"fmt"
)

// VerdictKind says how a table ended badly.
type VerdictKind uint8

const (
	// VerdictCheat: a seat signed an entry that breaks the rules or the cryptography.
	VerdictCheat VerdictKind = 1 + iota
	// VerdictEquivocation: a seat signed two different entries for one place in the log.
	VerdictEquivocation
	// VerdictAbandoned: the seat due to write stayed silent past the table's timeout.
	VerdictAbandoned
	// VerdictBroken: the game asked the table for a step it cannot perform, or refused a result
	// it asked for: a bug in the game, not a seat's fault (Seat is -1).
	VerdictBroken
)

var verdictNames = [...]string{"", "cheat", "equivocation", "abandoned", "broken"}

func (k VerdictKind) String() string {
	if int(k) < len(verdictNames) && k > 0 {
		return verdictNames[k]
	}
	return fmt.Sprintf("verdict(%d)", uint8(k))
}

// Verdict is why a table halted: the entry, the seat blamed, and the reason. Every honest node
// that sees the same log reaches the same verdict.
type Verdict struct {
	Kind   VerdictKind `json:"kind"`
	Seq    uint64      `json:"seq"`  // the entry at fault (for an abandonment, the entry that never came)
	Seat   int         `json:"seat"` // the seat blamed
	Reason string      `json:"reason"`
	// committed: the game refused values the seat had committed to earlier and opened at the
	// entry; nobody can open others in its place, so the table cannot play on (convict.go).
	committed bool
	// refused: the game refused values the seat opened (committed or not), which a conviction
	// calls its hidden choice or its move, not its opening (convict.go).
	refused bool
}

// MarshalText writes the kind's name: cheat, equivocation, abandoned.
func (k VerdictKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *VerdictKind) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if i > 0 && n == string(b) {
			*k = VerdictKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verdict kind %q", b)
}

func (v *Verdict) Error() string {
	switch v.Kind {
	case VerdictAbandoned:
		return fmt.Sprintf("entry %d: seat %d abandoned the table: %s", v.Seq, v.Seat, v.Reason)
	case VerdictEquivocation:
		return fmt.Sprintf("entry %d: seat %d equivocated: %s", v.Seq, v.Seat, v.Reason)
	case VerdictBroken:
		return fmt.Sprintf("entry %d: the game broke the table: %s", v.Seq, v.Reason)
	}
	return fmt.Sprintf("entry %d: seat %d cheated: %s", v.Seq, v.Seat, v.Reason)
}

// Errors for entries a table does not take, that blame nobody.
var (
	// ErrDuplicate: the entry is already in the log.
	ErrDuplicate = errors.New("entry already in the log")
	// ErrHalted: the table has a verdict and takes no more entries.
	ErrHalted = errors.New("the table has halted")
	// ErrDone: the table is complete.
	ErrDone = errors.New("the table is complete")
)

// GapError: the entry comes after entries this table has not seen yet.
type GapError struct{ Have, Got uint64 }

func (e *GapError) Error() string {
	return fmt.Sprintf("entry %d is ahead of the log, which has %d entries", e.Got, e.Have)
}

// RejectError: an entry no seat can be blamed for (a bad signature, another table's entry, an
// entry out of turn or off the chain). It is dropped.
type RejectError struct {
	Seq    uint64
	Reason string
	chain  bool // the entry does not chain to this log: a sign of another version of it
}

func (e *RejectError) Error() string { return fmt.Sprintf("entry %d rejected: %s", e.Seq, e.Reason) }

func reject(e *Entry, format string, args ...any) error {
	return &RejectError{Seq: e.Seq, Reason: fmt.Sprintf(format, args...)}
}
