package main

import (
	"fmt"
	"os"

	"corruption/seat/web"
)

// The phones listener serves the browser seat: its page (the laptop's page, whose seat runs
// in it), its scripts and the page's static files (seat/web.Handler), and its .wasm, committed
// in seat/web (go generate ./seat/web makes it).
func init() {
	h, err := web.Handler()
	if err != nil { // the page's own files are broken: a build that cannot be released
		fmt.Fprintf(os.Stderr, "corruption: the browser seat's page: %v\n", err)
		return
	}
	phoneSite.Page = h
}
