// Command corruption plays Bruno Faidutti's card game Corruption, peer to peer.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "corruption:", err)
		os.Exit(1)
	}
}
