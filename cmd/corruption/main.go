// Command corruption plays Bruno Faidutti's card game Corruption: engine-only simulations and
// scripted replays today, peer-to-peer tables on a LAN as they land. Run `corruption --help`.
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
