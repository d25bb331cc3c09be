package ui

import (
	"context"
	"fmt"
	"strings"

	"corruption/engine"
)

// "Pass ahead" at the terminal. Some games ask a seat for answers that a pass declines (in
// Corrupted Kingdoms: a chaos card against a steal or the revealed votes). Their text board is
// an AutoPasser; at the terminal the person sets "pass ahead" with a line (pass ahead on, pass
// ahead off, or in the terminal's language), and while it is set, at every decision the
// terminal first asks the board to pass by itself, and reads a line only when the board
// declines (any decision that is no such answer). The board decides when the pass leaves: it
// must be the moment any answer would, so that the pass says nothing of the seat's hand.

// An AutoPasser is a TextBoard that can pass an answer ahead, without a line.
type AutoPasser interface {
	TextBoard
	// AutoPass is the pass that answers the decision g waits for from seat, once it may leave
	// (it may wait, and then ends early with ctx's error); ok is false, at once, when that
	// decision is none a pass set ahead answers. The board has shown the decision (Show) first.
	AutoPass(ctx context.Context, g engine.Game, seat int) (a engine.Action, ok bool, err error)
}

// autoPass lets the board pass the decision by itself, when the person set pass ahead and the
// board can; done reports that the decision is over (passed, or ctx done).
func (t *Terminal) autoPass(ctx context.Context, board TextBoard, g engine.Game, seat int) (a engine.Action, done bool, err error) {
	t.mu.Lock()
	on := t.ahead
	t.mu.Unlock()
	ap, ok := board.(AutoPasser)
	if !on || !ok {
		return engine.Action{}, false, nil
	}
	a, ok, err = ap.AutoPass(ctx, g, seat)
	switch {
	case err != nil:
		return engine.Action{}, true, err
	case ok:
		t.printf("%s\n", t.say("term.ahead.passed"))
	}
	return a, ok, nil
}

// passAheadLine sets or clears pass ahead from a line that says so ("pass ahead on", "pass
// ahead off"; "pass ahead" alone says whether it is set), and reports whether the line was
// one. A board that cannot pass ahead has no such command.
func (t *Terminal) passAheadLine(board TextBoard, line string) bool {
	if _, ok := board.(AutoPasser); !ok {
		return false
	}
	var arg string
	found := false
	for _, cmd := range []string{"pass ahead", t.say("term.cmd.ahead")} {
		if rest, ok := cutWord(line, cmd); ok {
			arg, found = rest, true
			break
		}
	}
	if !found {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch w := strings.ToLower(arg); {
	case w == "on" || w == t.say("term.cmd.on"):
		t.ahead = true
	case w == "off" || w == t.say("term.cmd.off"):
		t.ahead = false
	case w != "":
		fmt.Fprintf(t.out, "%s\n", t.say("term.error", "error", t.say("term.ahead.usage", "value", arg)))
		return true
	}
	key := "term.ahead.off"
	if t.ahead {
		key = "term.ahead.on"
	}
	fmt.Fprintf(t.out, "%s\n", t.say(key))
	return true
}

// cutWord returns what follows cmd in line (trimmed), if line is cmd or begins with cmd and a
// space, in any case.
func cutWord(line, cmd string) (string, bool) {
	if len(line) < len(cmd) || !strings.EqualFold(line[:len(cmd)], cmd) {
		return "", false
	}
	rest := line[len(cmd):]
	if rest != "" && rest[0] != ' ' {
		return "", false
	}
	return strings.TrimSpace(rest), true
}
