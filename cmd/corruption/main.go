// Command corruption plays Bruno Faidutti's card game Corruption, peer to peer: `demo` and `play`
// seat a person at a table in the browser, `bot` seats a computer player, `audit` and `replay`
// check and tell a saved log, `simulate` plays many engine-only games among bots. It is thin:
// the rules are in engine/, the table in protocol/, the network in p2p/, the page in ui/.
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
