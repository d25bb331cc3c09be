package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

func newApp() *cli.App {
	return &cli.App{
		Name:  "corruption",
		Usage: "Bruno Faidutti's Corruption, peer to peer, with no server and no trusted dealer",
		Description: "Bribe city, county and state officials to win building contracts. Every move is\n" +
			"signed and chained into one log that every player's node replays through the same\n" +
			"rules engine; face-down cards are hidden by commitments and the contract deck is\n" +
			"shuffled by all players together, so nobody can cheat unseen.",
		HideHelpCommand: true,
		Commands: []*cli.Command{
			botCommand(),
			simulateCommand(),
			replayCommand(),
			auditCommand(),
		},
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return cli.Exit(fmt.Sprintf("%s (see %s --help)", err, strings.TrimSpace(c.Command.HelpName)), 2)
		},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(c.App.ErrWriter, "corruption: unknown command %q (see corruption --help)\n", name)
			cli.OsExiter(2)
		},
	}
}

// usageError is the error for a bad flag value: exit status 2, the message as it is.
func usageError(format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), 2)
}
