package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

func newApp() *cli.App {
	app := &cli.App{
		Name:    "corruption",
		Version: versionString(),
		Usage:   "Bruno Faidutti's Corruption, peer to peer, with no server and no trusted dealer",
		Description: "Bribe city, county and state officials to win building contracts. Every move is\n" +
			"signed and chained into one log that every player's node replays through the same\n" +
			"rules engine; face-down cards are hidden by commitments and the contract deck is\n" +
			"shuffled by all players together, so nobody can cheat unseen.\n\n" +
			"The table is a kit that plays any game of this build: demo, play, bot, simulate and\n" +
			"replay take --game (this build plays " + joinOr(playable()) + "; the default is " + defaultGame + ").",
		Commands: []*cli.Command{
			demoCommand(),
			playCommand(),
			botCommand(),
			simulateCommand(),
			replayCommand(),
			auditCommand(),
			relayCommand(),
			hostCommand(),
		},
		OnUsageError: onUsageError,
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(c.App.ErrWriter, "corruption: unknown command %q (see corruption --help)\n", name)
			cli.OsExiter(2)
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
	}
	return app
}

// onUsageError turns a flag the parser refused into one line on stderr and exit status 2.
func onUsageError(c *cli.Context, err error, _ bool) error {
	msg := strings.ReplaceAll(err.Error(), "flag -", "flag --")
	if strings.Contains(msg, "--timeout") {
		msg += " (a duration such as 30s or 2m)"
	}
	name := "corruption"
	if c.Command != nil && c.Command.Name != "" {
		name += " " + c.Command.Name
	}
	return cli.Exit(fmt.Sprintf("%s (see %s --help)", msg, name), 2)
}

// requireFlags checks flags a command cannot do without (urfave's own check would print the
// whole help and exit 1).
func requireFlags(c *cli.Context, names ...string) error {
	var missing []string
	for _, n := range names {
		if !c.IsSet(n) {
			missing = append(missing, "--"+n)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return usageError("%s is required (see corruption %s --help)", missing[0], c.Command.Name)
	}
	return usageError("%s are required (see corruption %s --help)", strings.Join(missing, " and "), c.Command.Name)
}

// usageError is the error for a bad flag value: exit status 2, the message as it is.
func usageError(format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), 2)
}
