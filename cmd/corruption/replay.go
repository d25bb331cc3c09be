package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	"corruption/protocol"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "show a game round by round, from a scenario script or a saved table log",
		ArgsUsage: "[LOG]",
		Description: "Reads a scenario script of the --game (docs/SCRIPTS.md for Corruption's): the table's\n" +
			"configuration, the deck's order and the moves in order. Prints a readable account of the\n" +
			"game, or with --json one object: finished, round, scores, contracts, deferred, winners,\n" +
			"next, digest. A script may stop anywhere; the state reached is reported. An illegal move\n" +
			"exits with status 1 and an error \"move K: ...\" (K counts moves from 1).\n\n" +
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
				if err := g.replayScript(c.App.Writer, c.String("script"), c.Bool("json")); err != nil {
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
		return kit.narrator(w, g.Config, len(g.Roster))
	}
	return func(e engine.Event) { fmt.Fprintf(w, "  %s\n", e.Text) }
}
