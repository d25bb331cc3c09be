//go:build adversary

package main

import (
	"crypto/ed25519"
	"fmt"

	"github.com/urfave/cli/v2"

	"corruption/protocol"
	"corruption/protocol/cheat"
)

// The adversary build: go build -tags adversary ./cmd/corruption gives bot a --cheat flag that
// makes its node cheat on purpose (protocol/cheat), to try what a table does with a cheater.
// The default build has no such flag (TestNoCheatFlag).

func init() {
	adversaryFlags = []cli.Flag{
		&cli.StringFlag{Name: "cheat", Usage: "cheat as `KIND[@N]` says, at its Nth chance (the first by default); --cheat list prints every kind"},
	}
	adversary = func(c *cli.Context) (bool, func(ed25519.PrivateKey) func(*protocol.Entry) (*protocol.Entry, []*protocol.Entry), error) {
		spec := c.String("cheat")
		switch spec {
		case "":
			return false, nil, nil
		case "list":
			fmt.Fprint(c.App.Writer, cheat.List())
			return true, nil, nil
		}
		ch, err := cheat.Parse(spec)
		if err != nil {
			return false, nil, usageError("%v", err)
		}
		fmt.Fprintf(c.App.ErrWriter, "corruption: this bot cheats (--cheat %s): the other players' nodes will catch it\n", spec)
		return false, ch.Tamper, nil
	}
}
