package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/protocol"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "show a game round by round, from a scenario script or a saved table log",
		ArgsUsage: "[LOG]",
		Description: "Reads a scenario script of the --game (docs/SCRIPTS.md): the table's configuration, its\n" +
			"random setup and the moves in order. Prints a readable account of the game, or with --json\n" +
			"one object: finished, scores, winners, end (how the game ended), error, then the game's\n" +
			"own keys. A script may stop anywhere; the state reached is reported. An illegal move exits\n" +
			"with status 1 and the error \"move K: ...\" (K counts moves from 1); with --json the object\n" +
			"still says where the game stood, with \"error\": {\"move\": K, \"message\": \"...\"}. A file\n" +
			"that cannot be read or is malformed is refused with its path first, and prints nothing.\n\n" +
			"Given a LOG saved by a network table (corruption bot --out LOG), it tells that game (the\n" +
			"log names its game), checking it as corruption audit does.\n\n" +
			"Example: corruption replay --script docs/examples/rulesheet-figures-3-4.json",
		Flags: []cli.Flag{
			gameFlag(),
			&cli.StringFlag{Name: "script", Usage: "the scenario script `FILE` to replay"},
			&cli.BoolFlag{Name: "json", Usage: "print where the game stands as one JSON object"},
		},
		Action: func(c *cli.Context) error {
			g, _, err := gameOf(c)
			if err != nil {
				return err
			}
			switch {
			case c.IsSet("script") && c.NArg() == 0:
				if err := replayScript(c.App.Writer, g, c.String("script"), c.Bool("json")); err != nil {
					return cli.Exit(err.Error(), 1)
				}
				return nil
			case !c.IsSet("script") && c.NArg() == 1 && !c.Bool("json"):
				return replayLog(c, c.Args().First())
			}
			return usageError("replay takes either --script FILE [--json] or one LOG (see corruption replay --help)")
		},
	}
}

// replayScript replays the scenario script at path with g's rules: tells the game as it goes,
// and where the script stops before the end; or, asJSON, prints where the game stands as one
// JSON object, an illegal move's error included. A file that cannot be read or is malformed
// (or that the game cannot set up) is refused with its path before the error, and nothing is
// printed; an illegal move's error, "move K: ...", has no path.
func replayScript(w io.Writer, g *game, path string, asJSON bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: cannot read the script: %v", path, err)
	}
	var tell io.Writer
	if !asJSON {
		tell = w
	}
	res, waits, err := g.Replay(data, tell)
	switch {
	case res == nil && err != nil:
		return fmt.Errorf("%s: %v", path, err)
	case res == nil:
		return fmt.Errorf("%s: the script gives no result", path)
	case asJSON:
		if err := json.NewEncoder(w).Encode(res); err != nil {
			return err
		}
	case err == nil && waits != "":
		fmt.Fprintf(w, "\nThe script stops here: the game waits for %s.\n", waits)
	}
	return err
}

// replayLog tells the game of a saved log, round by round, as its game's narrator tells it.
func replayLog(c *cli.Context, path string) error {
	w := c.App.Writer
	rep, err := auditFile(path, func(g *protocol.Genesis) (engine.Options, error) {
		if c.IsSet("game") && c.String("game") != g.Game {
			return engine.Options{}, fmt.Errorf("%s is a table of %s, not of %s", path, g.Game, c.String("game"))
		}
		return engine.Options{OnEvent: narrator(w, g)}, nil
	})
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	if !rep.Valid {
		return cli.Exit("\nThe log stops here: "+rep.Problem, 1)
	}
	fmt.Fprintf(w, "\nThe log is valid: every seat signed off digest %s.\n", rep.Digest)
	if len(rep.Open) > 0 {
		printOpen(w, rep)
	}
	return nil
}

// narrator tells the events of the table g (in the events' own words for a game this
// command has no narrator for).
func narrator(w io.Writer, g *protocol.Genesis) func(engine.Event) {
	if kit, ok := games[g.Game]; ok {
		return kit.Narrator(w, g.Config, len(g.Roster))
	}
	return func(e engine.Event) { fmt.Fprintf(w, "  %s\n", e.Text) }
}
