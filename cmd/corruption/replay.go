package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"corruption/engine/corruption"
	"corruption/engine/corruption/script"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "show a game round by round, from a scenario script or a saved table log",
		ArgsUsage: "[LOG]",
		Description: "Reads a scenario script (docs/SCRIPTS.md): the table's configuration, the deck's\n" +
			"order and the moves in order. Prints a readable account of the game, or with --json one\n" +
			"object: finished, round, scores, contracts, deferred, winners, next, digest. A script may\n" +
			"stop anywhere; the state reached is reported. An illegal move exits with status 1 and\n" +
			"an error \"move K: ...\" (K counts moves from 1).\n\n" +
			"Given a LOG saved by a network table (corruption bot --out LOG), it tells that game,\n" +
			"checking it as corruption audit does.\n\n" +
			"Example: corruption replay --script docs/examples/rulesheet-figures-3-4.json",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "script", Usage: "the scenario script `FILE` to replay"},
			&cli.BoolFlag{Name: "json", Usage: "print where the game stands as one JSON object"},
		},
		Action: func(c *cli.Context) error {
			switch {
			case c.IsSet("script") && c.NArg() == 0:
				return replayScript(c, c.String("script"), c.Bool("json"))
			case !c.IsSet("script") && c.NArg() == 1 && !c.Bool("json"):
				return replayLog(c, c.Args().First())
			}
			return usageError("replay takes either --script FILE [--json] or one LOG (see corruption replay --help)")
		},
	}
}

func replayScript(c *cli.Context, path string, asJSON bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return cli.Exit(fmt.Sprintf("cannot read script: %v", err), 1)
	}
	sc, err := script.Parse(data)
	if err != nil {
		return cli.Exit(fmt.Sprintf("%s: %v", path, err), 1)
	}
	out := c.App.Writer
	var opts []corruption.Option
	if !asJSON {
		opts = append(opts, (&script.Narrator{W: out}).Option())
	}
	s, runErr := sc.Run(opts...)
	if runErr != nil {
		return cli.Exit(runErr.Error(), 1)
	}
	if asJSON {
		enc := json.NewEncoder(out)
		return enc.Encode(script.Summarize(s))
	}
	if !s.Over() {
		fmt.Fprintf(out, "\nThe script stops here: the game waits for %s.\n", s.Next())
	}
	return nil
}
