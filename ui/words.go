package ui

import (
	"fmt"

	"corruption/protocol"
)

// SeatName is a player's name, or "seat N" when it has none.
func SeatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// verdictText says why the table halted, in words.
func verdictText(v *protocol.Verdict, names []string, me int) string {
	who := SeatName(names, v.Seat)
	if v.Seat == me {
		who = "Your node"
	}
	switch v.Kind {
	case protocol.VerdictAbandoned:
		return fmt.Sprintf("%s is gone: %s. The table named them and stopped (entry %d); every node reaches the same verdict.", who, v.Reason, v.Seq)
	case protocol.VerdictEquivocation:
		return fmt.Sprintf("%s was caught cheating: it signed two different entries for entry %d (%s). The table halted.", who, v.Seq, v.Reason)
	}
	return fmt.Sprintf("%s was caught cheating at entry %d: %s. The table halted; the log holds the proof.", who, v.Seq, v.Reason)
}

func auditText(r Result) string {
	switch {
	case r.Audit != nil && r.Audit.Valid:
		return fmt.Sprintf("Audit: the log checks. %d entries: every signature, shuffle proof, commitment and rule verified; every seat signed off the final digest %.16s….",
			r.Audit.Entries, r.Audit.Digest)
	case r.Audit != nil:
		return "Audit: the log does not check: " + r.Audit.Problem
	case r.Err != nil:
		return "The table did not finish: " + r.Err.Error()
	}
	return "The table ended."
}
