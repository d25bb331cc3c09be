// Command corruption plays card games peer to peer, Bruno Faidutti's Corruption first: `demo`
// and `play` seat a person at a table in the browser (or the terminal), `bot` seats a computer
// player, `audit` and `replay` check and tell a saved log, `simulate` plays many engine-only
// games among bots. It is thin: a game's rules are in engine/ (engine/corruption), the table in
// protocol/, the network in p2p/, the page's shell in ui/ and a game's board in ui/ (ui/corruption).
//
// What the command knows of each game is one line of games (games.go): the game's own part
// (engine/NAME/command: its settings, bots, simulations, scripts, log narrator, score) and its
// boards from ui/games; `--game` chooses it. One session type
// (session.go) runs a node at a table for bot, play and demo alike.
// Run `corruption --help`.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	os.Exit(run(os.Args))
}

// run runs the command line and returns the exit status. Errors are printed to stderr as they
// are: each names what was wrong.
func run(args []string) int {
	err := newApp().Run(args)
	if err == nil {
		return 0
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(os.Stderr, err)
	return 1
}
