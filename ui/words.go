package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"corruption/protocol"
)

// shellWords are the shell's strings, the page's and the server's and the terminal's, one file
// a language: static/lang/LANG.json.
var shellWords = MustLoadWords(static, "static/lang")

// SeatName is a player's name, or "seat N" when it has none.
func SeatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// verdictText says why the table halted, in words, in lang.
func verdictText(lang string, v *protocol.Verdict, names []string, me int) string {
	who := SeatName(names, v.Seat)
	you := v.Seat == me
	switch v.Kind {
	case protocol.VerdictAbandoned:
		if you {
			return shellWords.Say(lang, "verdict.abandoned.you", "seq", v.Seq)
		}
		return shellWords.Say(lang, "verdict.abandoned", "who", who, "seq", v.Seq)
	case protocol.VerdictEquivocation:
		if you {
			return shellWords.Say(lang, "verdict.equivocation.you", "seq", v.Seq)
		}
		return shellWords.Say(lang, "verdict.equivocation", "who", who, "seq", v.Seq)
	case protocol.VerdictBroken:
		return shellWords.Say(lang, "verdict.broken", "seq", v.Seq, "reason", v.Reason)
	}
	if you {
		return shellWords.Say(lang, "verdict.cheat.you", "seq", v.Seq, "reason", v.Reason)
	}
	return shellWords.Say(lang, "verdict.cheat", "who", who, "seq", v.Seq, "reason", v.Reason)
}

// auditText is the audit of the person's log, in words.
func auditText(lang string, r Result) string {
	switch {
	case r.Err != nil: // the log stops where the node did: nothing to audit
		return shellWords.Say(lang, "audit.none")
	case r.Outcome != nil && r.Outcome.Paused: // the log stops where every seat agreed
		return shellWords.Say(lang, "audit.paused")
	case r.Audit != nil && r.Audit.Valid:
		return shellWords.Say(lang, "audit.valid", "entries", r.Audit.Entries, "digest", fmt.Sprintf("%.16s", r.Audit.Digest))
	case r.Audit != nil:
		return shellWords.Say(lang, "audit.invalid", "problem", r.Audit.Problem)
	}
	return shellWords.Say(lang, "audit.ended")
}

// ending is how the table ended (finished, abandoned, halted or stopped) and a headline that
// says it in plain words.
func ending(lang string, r *Result, names []string, me int) (status, headline string) {
	o := r.Outcome
	switch {
	case o != nil && o.Verdict != nil:
		v := o.Verdict
		if v.Kind == protocol.VerdictAbandoned {
			if v.Seat == me {
				return "abandoned", shellWords.Say(lang, "end.abandoned.you")
			}
			return "abandoned", shellWords.Say(lang, "end.abandoned", "who", SeatName(names, v.Seat))
		}
		if v.Kind == protocol.VerdictBroken {
			return "halted", shellWords.Say(lang, "end.broken")
		}
		if v.Seat == me {
			return "halted", shellWords.Say(lang, "end.cheat.you")
		}
		if o.Forfeit && slices.Contains(o.Winners, me) {
			return "halted", shellWords.Say(lang, "end.forfeit", "who", SeatName(names, v.Seat))
		}
		return "halted", shellWords.Say(lang, "end.cheat", "who", SeatName(names, v.Seat))
	case r.Err != nil && errors.Is(r.Err, context.Canceled) && len(names) == 0:
		return "stopped", shellWords.Say(lang, "end.left.early")
	case r.Err != nil && errors.Is(r.Err, context.Canceled) && r.escrow: // the others play on (depart.go)
		return "stopped", shellWords.Say(lang, "end.left.escrow")
	case r.Err != nil && errors.Is(r.Err, context.Canceled):
		return "stopped", shellWords.Say(lang, "end.left")
	case errors.As(r.Err, new(*protocol.SeatOpenedError)):
		headline, _ := openedEnding(lang, r.Err)
		return "stopped", headline
	case r.Err != nil:
		return "stopped", shellWords.Say(lang, "end.error", "error", r.Err.Error())
	case o != nil && o.Finished && slices.ContainsFunc(o.Convicted, func(c protocol.Conviction) bool { return c.Seat == me }):
		return "finished", shellWords.Say(lang, "end.finished.cheated")
	case o != nil && o.Finished && slices.Contains(o.Open, me): // the person came back to watch
		return "finished", shellWords.Say(lang, "end.finished.open")
	case o != nil && o.Finished:
		return "finished", shellWords.Say(lang, "end.finished")
	case o != nil && o.Paused:
		return "paused", shellWords.Say(lang, "end.paused", "entries", o.Entries)
	}
	return "stopped", shellWords.Say(lang, "end.unfinished")
}
