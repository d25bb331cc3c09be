package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/protocol"
	"corruption/ui"
)

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "check a saved table log offline: signatures, proofs, commitments and every rule",
		ArgsUsage: "LOG",
		Description: "Checks a log written by a node (corruption bot --out LOG): every entry's signature\n" +
			"and chain, every key, shuffle and decryption proof, every face-down card against its\n" +
			"commitment, and every rule, by replaying the game. It needs no secret.\n" +
			"Exit 0 and the outcome when the log is a complete, valid table; exit 1 with the first\n" +
			"failing entry, the reason and the seat blamed when not. A seat whose player left, which\n" +
			"the others played on with a bot (an open seat), is listed with the entry it opened at\n" +
			"(--json: \"open\"); every one of the bot's moves is checked too.\n" +
			"With --chat LOG.chat (the table's chat, saved beside the log by --out when anyone\n" +
			"spoke), it also checks that every message was signed by the player it names, at this\n" +
			"table, and prints them.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the report as one JSON object"},
			&cli.StringFlag{Name: "chat", Usage: "also check the table's chat file `CHAT` (LOG.chat) against the log's players, and print it"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("audit takes one LOG file (see corruption audit --help)")
			}
			if c.String("chat") != "" && c.Bool("json") {
				return usageError("--chat prints the chat as text: not with --json")
			}
			rep, err := auditFile(c.Args().First(), nil)
			if err != nil {
				if c.Bool("json") {
					// Every error is a report too, so that a script reading the JSON never
					// meets plain text: a file that is no log at all blames nobody.
					rep = &protocol.Report{Problem: err.Error(), Blamed: -1, WaitingFor: -1, At: -1}
					rep.Seat = -1
					if jerr := json.NewEncoder(c.App.Writer).Encode(rep); jerr != nil {
						return jerr
					}
				}
				return cli.Exit(err.Error(), 1)
			}
			if c.Bool("json") {
				if err := json.NewEncoder(c.App.Writer).Encode(rep); err != nil {
					return err
				}
			} else if rep.Valid {
				fmt.Fprintf(c.App.Writer, "valid: table %s, %d entries, every seat signed off\n", ui.Isolate(rep.Table), rep.Entries)
				fmt.Fprintf(c.App.Writer, "scores %v, winners %v\ndigest %s\n", rep.Scores, rep.Winners, rep.Digest)
				printOpen(c.App.Writer, rep)
			}
			if chat := c.String("chat"); chat != "" {
				if err := auditChat(c.App.Writer, c.Args().First(), chat, rep); err != nil {
					return cli.Exit(err.Error(), 1)
				}
			}
			if !rep.Valid {
				msg := "invalid: " + rep.Problem
				if rep.Blamed >= 0 {
					msg += fmt.Sprintf(" (seat %d blamed)", rep.Blamed)
				}
				if rep.Forfeit {
					msg += fmt.Sprintf("; seat %d wins by forfeit", rep.Winners[0])
				}
				return cli.Exit(msg, 1)
			}
			return nil
		},
	}
}

// auditFile audits the log at path. options, when set, gives the options of the log's game
// once its genesis is read (to follow its events); a genesis it cannot read is the audit's to
// report.
func auditFile(path string, options func(*protocol.Genesis) (engine.Options, error)) (*protocol.Report, error) {
	f, err := openLog(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var opts engine.Options
	if options != nil {
		if g := readGenesis(f); g != nil {
			if opts, err = options(g); err != nil {
				return nil, err
			}
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("cannot read log: %v", err)
		}
	}
	rep, err := protocol.Audit(f, opts)
	if err != nil {
		if looksLikeScript(path) {
			return nil, fmt.Errorf("%s: %v; it looks like a scenario script: replay it with corruption replay --script %s", path, err, path)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rep, nil
}

// openLog opens a log file: a regular file (a FIFO would block, a device never end).
func openLog(path string) (*os.File, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot read log: %v", err)
	case st.IsDir():
		return nil, fmt.Errorf("%s is a directory, not a log file", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%s), not a log file", path, fileKind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read log: %v", err)
	}
	return f, nil
}

// readGenesis reads the genesis of the log r, by the rules of its version, or nil when its
// first record is none.
func readGenesis(r io.Reader) *protocol.Genesis {
	lr, err := protocol.NewLogReader(r)
	if err != nil {
		return nil
	}
	e, _, err := lr.Next()
	if err != nil || e == nil || e.Kind != protocol.KindGenesis {
		return nil
	}
	g, err := protocol.GenesisOf(e)
	if err != nil {
		return nil
	}
	return g
}

// fileKind names a file mode's type in words.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// looksLikeScript reports whether a file starts like JSON (it reads the first 4 KiB only).
func looksLikeScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 4096)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

// printOpen says which seats of an audited log a bot played after their players left or were
// caught cheating, in the order they left.
func printOpen(w io.Writer, rep *protocol.Report) {
	order := make([]int, len(rep.Open))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(rep.OpenedAt[a], rep.OpenedAt[b]) })
	for _, i := range order {
		if c, ok := protocol.ConvictionOf(rep.Convicted, rep.Open[i]); ok {
			fmt.Fprintf(w, "seat %d was caught cheating at entry %d (%s): the other players played on, with a bot in its seat (every move of the bot checked)\n", c.Seat, c.Seq, c.Reason)
			continue
		}
		fmt.Fprintf(w, "seat %d left at entry %d: the other players agreed and played on, with a bot in its seat (every move of the bot checked)\n", rep.Open[i], rep.OpenedAt[i])
	}
}
