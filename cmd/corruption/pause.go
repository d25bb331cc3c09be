package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"corruption/protocol"
	"corruption/ui"
)

// The table's pause (protocol/pause.go) at the command line. Bots agree to every pause a seat
// asks (their nodes' AgreeToPauses); a person asks, agrees or keeps playing from the page or
// the terminal, through the node's slot (ui.NodeSlot, seat.Config.Slot). A paused table ends
// the command with exit status 0 and a line that says how to resume it: the same command with
// the same --data. A table whose node keeps its data in a temporary directory (no --data:
// demo, or play without --data) cannot resume: the command says so.

// pauseAt asks node's table to pause once its log holds at entries (bot --pause-at), unless
// the node resumed a pause at or past that: an OnChange that chains next.
func pauseAt(at int, node func() *protocol.Node, next func(protocol.Status)) func(protocol.Status) {
	var once sync.Once
	return func(st protocol.Status) {
		if next != nil {
			next(st)
		}
		if at <= 0 || st.Entries < at || st.State == nil || st.Done || st.Verdict != nil || st.Pause.Resumed >= at {
			return
		}
		once.Do(func() {
			var slot ui.NodeSlot
			slot.Attach(node())
			go func() { // OnChange must not call back into the node
				if err := slot.Pause(true); err != nil {
					fmt.Fprintf(os.Stderr, "corruption: --pause-at: %v\n", err)
				}
			}()
		})
	}
}

// resumeCommand is the command that resumes table c, which ended with o, when it paused (""
// when it did not, or cannot resume: its data directory is temporary).
func (s *session) resumeCommand(o *protocol.Outcome, c ui.TableChoice) string {
	if o == nil || !o.Paused || s.tmpData != "" {
		return ""
	}
	args := os.Args[1:]
	has := map[string]bool{}
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") {
			has[name] = true
		}
	}
	if !has["table"] {
		// A table chosen in the page's lobby: its game, name, players, bots and their level, in
		// place of the command's --game, --players, --bots, --level and settings (the log holds
		// the settings).
		args = append(dropFlags(args, lobbyFlags()), "--game", c.Game, "--table", c.Table, "--players", fmt.Sprint(c.Players))
		if c.Bots > 0 {
			args = append(args, "--bots", fmt.Sprint(c.Bots))
			if c.Level != "" {
				args = append(args, "--level", c.Level)
			}
		}
	}
	cmd := []string{"corruption"}
	for _, a := range args {
		cmd = append(cmd, shellQuote(a))
	}
	return strings.Join(cmd, " ")
}

// lobbyFlags are the flags a table chosen in the lobby sets, each with whether it takes a
// value: --game, --players, --bots, --level and every game's settings.
func lobbyFlags() map[string]bool {
	out := map[string]bool{"game": true, "players": true, "bots": true, "level": true}
	for _, id := range playable() {
		for _, f := range games[id].flags("") {
			_, isBool := f.(*cli.BoolFlag)
			out[f.Names()[0]] = !isBool
		}
	}
	return out
}

// dropFlags is args without the flags of names (--name, -name, --name=V, and --name V when
// it takes a value).
func dropFlags(args []string, names map[string]bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, withValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takes, ok := names[name]
		if !strings.HasPrefix(a, "-") || !ok {
			out = append(out, a)
			continue
		}
		if takes && !withValue {
			i++ // its value
		}
	}
	return out
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./:@,+%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// printPaused says that the table is paused, and how to resume it.
func (s *session) printPaused(w io.Writer, r *played) {
	fmt.Fprintf(w, "Table %q is paused at entry %d: every player agreed.\n", r.out.Table, r.out.Entries)
	if cmd := s.resumeCommand(r.out, r.seat.choice); cmd != "" {
		fmt.Fprintf(w, "Every player resumes it with the same command and data directory; yours:\n  %s\n", cmd)
	} else {
		fmt.Fprintf(w, "This node kept its data in a temporary directory (no --data), now removed: the table cannot resume here.\n")
	}
}
