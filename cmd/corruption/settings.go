package main

import (
	"encoding/json"
	"io"

	"github.com/urfave/cli/v2"

	"corruption/engine"
)

// flags are the game's table settings (cmdkit.Setting) as flags, with usage words prefixed by
// prefix (play says "with --table: ").
func (g *game) flags(prefix string) []cli.Flag {
	var out []cli.Flag
	for _, s := range g.Settings {
		switch d := s.Default.(type) {
		case string:
			out = append(out, &cli.StringFlag{Name: s.Name, Value: d, Usage: prefix + s.Usage})
		case int:
			out = append(out, &cli.IntFlag{Name: s.Name, Value: d, Usage: prefix + s.Usage})
		case bool:
			out = append(out, &cli.BoolFlag{Name: s.Name, Value: d, Usage: prefix + s.Usage})
		}
	}
	return out
}

// settings reads the game's settings flags into its canonical configuration, with a usage
// error that names the flag; a settings flag of another game is refused.
func (g *game) settings(c *cli.Context) ([]byte, error) {
	for _, id := range playable() {
		if id == g.ID {
			continue
		}
		for _, s := range games[id].Settings {
			if !g.Has(s.Name) && c.IsSet(s.Name) {
				return nil, usageError("--%s is a setting of %s, not of %s (%s)", s.Name, id, gameName(g.ID), g.SettingsWords())
			}
		}
	}
	config, err := g.Config(c)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return config, nil
}

// gameName is the name of the game of that id, as its rules give it.
func gameName(id string) string {
	if rules, err := engine.Lookup(id); err == nil {
		return rules.Name()
	}
	return id
}

// settingsFlags are the table settings flags of every game, once each.
func settingsFlags(prefix string) []cli.Flag {
	var out []cli.Flag
	seen := map[string]bool{}
	for _, id := range playable() {
		for _, f := range games[id].flags(prefix) {
			if name := f.Names()[0]; !seen[name] {
				seen[name] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// readSettings is the game's configuration from its flags, checked for a table of players.
func readSettings(c *cli.Context, g *game, rules engine.Rules, players int) ([]byte, error) {
	if lo, hi := rules.Players(); players < lo || players > hi {
		return nil, usageError("--players: %d, want %d to %d", players, lo, hi)
	}
	config, err := g.settings(c)
	if err != nil {
		return nil, err
	}
	if err := rules.CheckConfig(config, players); err != nil {
		return nil, usageError("%s: %v", rules.Name(), err)
	}
	return config, nil
}

// bot is a bot of the game of any kind, seeded, as a player that sits at a table as the
// game's board asks (seatBot).
func (g *game) bot(kind string, seed uint64, think int) (engine.Player, error) {
	p, err := g.Bot(kind, seed, think)
	if err != nil || g.seatBot == nil {
		return p, err
	}
	return g.seatBot(p), nil
}

// simulate plays the batch and prints its results: for people, or as one JSON object (then
// the first game, with --show, is told on errw, to keep the output one object).
func (g *game) simulate(out, errw io.Writer, sim simulation) error {
	var show io.Writer
	if sim.show {
		show = out
		if sim.json {
			show = errw
		}
	}
	res, err := g.Batches.Simulate(sim.Batch, show)
	if err != nil {
		return err
	}
	if sim.json {
		return json.NewEncoder(out).Encode(res)
	}
	res.Report(out)
	return nil
}
