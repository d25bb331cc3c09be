// Package cmdkit is what a command line knows of a game beyond its rules, said in the standard
// library's words so that a game's own package can give it: the game's table settings (a
// name, a default, bounds and a usage line each, and how their values make the game's
// canonical configuration), its bots, its simulated batches and their report, its scenario
// scripts replayed and recorded, the narrator of a saved log, and the unit of its score.
//
// Each game gives one Game, from its package engine/NAME/command; the command line builds
// its flags and its commands from the list of them, and knows no game by name. cmdkit promises
// that a Game whose Check passes has every part a command needs.
package cmdkit

import (
	"fmt"
	"io"
	"strings"

	"corruption/engine"
)

// Game is one game as a command line drives it. Every field is needed (Check).
type Game struct {
	// ID is the game's id, as engine's registry knows it.
	ID string
	// Settings are the game's table settings, in the order its help lists them.
	Settings []Setting
	// Encode is the game's canonical configuration from the settings' values (their bounds
	// already checked: Config); its error names the setting that was wrong ("--variant: ...").
	Encode func(v Values) ([]byte, error)
	// Bots are the kinds of bot a simulation plays by default, the one a network table seats
	// first.
	Bots []string
	// Bot makes a bot of any kind (the levels' too), seeded, as a player; think is a strong
	// bot's budget in playouts a decision (0: its default for a person's table).
	Bot func(kind string, seed uint64, think int) (engine.Player, error)
	// Batches plays batches of engine-only games among bots, and writes one of their games
	// down as a script (a Batches of the game's own types).
	Batches Batcher
	// Replay replays a scenario script (data), telling the game to tell as it goes when tell
	// is not nil. It returns where the game stands, as replay --json prints it (the illegal
	// move that stopped it included), what the game waits for when the script stops before
	// the end ("" once it is over), and the illegal move's error; a script that is malformed
	// or that the game cannot set up gives no result (nil), only its error.
	Replay func(data []byte, tell io.Writer) (result any, waits string, err error)
	// Narrator tells the events of a saved table of config and players as its log is
	// replayed.
	Narrator func(w io.Writer, config []byte, players int) func(engine.Event)
	// Score is a score in the game's unit: "$12,000", "1 point".
	Score func(int) string
}

// Setting is one table setting of a game, as a flag of the command line.
type Setting struct {
	Name string // the flag's name, without its dashes
	// Default is the setting's value when not given: a string, an int, or a bool (a switch,
	// given without a value).
	Default  any
	Min, Max int    // an int's bounds
	Usage    string // the flag's usage line (a `WORD` in backquotes names its value)
}

// Values are the settings' values, as a command line read them (urfave/cli's *cli.Context is
// one): each by its setting's name, and whether it was given.
type Values interface {
	String(name string) string
	Int(name string) int
	Bool(name string) bool
	IsSet(name string) bool
}

// Batch is a batch of engine-only games among bots.
type Batch struct {
	Games, Players int
	Config         []byte   // the game's canonical configuration
	Bots           []string // kinds, dealt to seats in turn
	Think          int      // a strong bot's budget, in playouts a decision (0: the game's default for a batch)
	Seed           uint64
}

// Batcher plays a game's batches of engine-only games among bots.
type Batcher interface {
	// Simulate plays the batch; when show is not nil, it tells the first game there as it
	// is played, after a line that says what is played.
	Simulate(b Batch, show io.Writer) (Report, error)
	// Record plays game i of the batch again, as Simulate played it, and writes it as a
	// scenario script that Game.Replay replays to the same end.
	Record(b Batch, i int) ([]byte, error)
}

// Batches is a Batcher from a game's own functions, over its own types: S a batch as its bot
// package plays it (its configuration decoded), R the results, M a script.
type Batches[S any, R Report, M Script] struct {
	Decode   func(b Batch) (S, error)    // the batch as the game's bots play it
	Tell     func(s *S, show io.Writer)  // has the first game told to show, after a line that says what is played
	Play     func(s S) (R, error)        // plays the batch
	Recorded func(s S, i int) (M, error) // game i of the batch, as Play played it, as a script
}

// Script is a scenario script, as a game's script package writes it.
type Script interface {
	Marshal() ([]byte, error)
}

// Simulate decodes the batch and plays it with Play, told with Tell when show is not nil.
func (bs Batches[S, R, M]) Simulate(b Batch, show io.Writer) (Report, error) {
	s, err := bs.Decode(b)
	if err != nil {
		return nil, err
	}
	if show != nil {
		bs.Tell(&s, show)
	}
	r, err := bs.Play(s)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Record decodes the batch and writes game i down with Recorded.
func (bs Batches[S, R, M]) Record(b Batch, i int) ([]byte, error) {
	s, err := bs.Decode(b)
	if err != nil {
		return nil, err
	}
	sc, err := bs.Recorded(s, i)
	if err != nil {
		return nil, err
	}
	return sc.Marshal()
}

// Report is what a batch gave: it prints itself for people with Report, and for programs as
// JSON (encoding/json).
type Report interface {
	Report(w io.Writer)
}

// Check says which part of the game is missing, if any.
func (g *Game) Check() error {
	missing := map[string]bool{"ID": g.ID == "", "Encode": g.Encode == nil, "Bots": len(g.Bots) == 0, "Bot": g.Bot == nil,
		"Batches": g.Batches == nil, "Replay": g.Replay == nil, "Narrator": g.Narrator == nil, "Score": g.Score == nil}
	for _, part := range []string{"ID", "Encode", "Bots", "Bot", "Batches", "Replay", "Narrator", "Score"} {
		if missing[part] {
			return fmt.Errorf("game %q has no %s", g.ID, part)
		}
	}
	for _, s := range g.Settings {
		switch s.Default.(type) {
		case string, int, bool:
		default:
			return fmt.Errorf("game %s: setting --%s: its default %v is not a string, an int or a bool", g.ID, s.Name, s.Default)
		}
	}
	return nil
}

// Config is the game's canonical configuration from the settings' values: each int within
// its bounds ("--amendments: 12, want 0 to 9"), then Encode.
func (g *Game) Config(v Values) ([]byte, error) {
	for _, s := range g.Settings {
		if _, isInt := s.Default.(int); isInt {
			if n := v.Int(s.Name); n < s.Min || n > s.Max {
				return nil, fmt.Errorf("--%s: %d, want %d to %d", s.Name, n, s.Min, s.Max)
			}
		}
	}
	return g.Encode(v)
}

// Has reports whether the game has a setting of that name.
func (g *Game) Has(name string) bool {
	for _, s := range g.Settings {
		if s.Name == name {
			return true
		}
	}
	return false
}

// SettingsWords names the game's settings: "its setting is --amendments", "its settings are
// --rules and --house".
func (g *Game) SettingsWords() string {
	names := make([]string, len(g.Settings))
	for i, s := range g.Settings {
		names[i] = "--" + s.Name
	}
	switch len(names) {
	case 0:
		return "it has no settings"
	case 1:
		return "its setting is " + names[0]
	}
	return "its settings are " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Plural is the word that goes with n: one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Points is a score in points: "1 point", "23 points".
func Points(n int) string { return fmt.Sprintf("%d %s", n, Plural(n, "point", "points")) }

// Replay replays a scenario script (data) with a game's own functions: parse reads it, run
// replays it (telling as it goes, as the game's Replay was asked to) and gives where the game
// stands, or nothing (R's zero) when the game cannot set the script up; waits says, of where
// the game stands, what it waits for ("" once it is over). It is the body of a Game's Replay.
func Replay[S any, R comparable](data []byte, parse func([]byte) (S, error), run func(S) (R, error), waits func(R) string) (result any, waiting string, err error) {
	s, err := parse(data)
	if err != nil {
		return nil, "", err
	}
	r, err := run(s)
	var none R
	if r == none {
		return nil, "", err
	}
	return r, waits(r), err
}
