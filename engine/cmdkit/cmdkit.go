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
	// Simulate plays a batch of engine-only games among bots; when show is not nil, it tells
	// the first game there as it is played, after a line that says what is played.
	Simulate func(b Batch, show io.Writer) (Report, error)
	// Replay replays a scenario script (data), telling the game to tell as it goes when tell
	// is not nil. It returns where the game stands, as replay --json prints it (the illegal
	// move that stopped it included), what the game waits for when the script stops before
	// the end ("" once it is over), and the illegal move's error; a script that is malformed
	// or that the game cannot set up gives no result (nil), only its error.
	Replay func(data []byte, tell io.Writer) (result any, waits string, err error)
	// Record plays game i of a batch again, as Simulate played it, and writes it as a
	// scenario script that Replay replays to the same end.
	Record func(b Batch, i int) ([]byte, error)
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

// Report is what a batch gave: it prints itself for people with Report, and for programs as
// JSON (encoding/json).
type Report interface {
	Report(w io.Writer)
}

// Check says which part of the game is missing, if any.
func (g *Game) Check() error {
	missing := map[string]bool{"ID": g.ID == "", "Encode": g.Encode == nil, "Bots": len(g.Bots) == 0, "Bot": g.Bot == nil,
		"Simulate": g.Simulate == nil, "Replay": g.Replay == nil, "Record": g.Record == nil, "Narrator": g.Narrator == nil, "Score": g.Score == nil}
	for _, part := range []string{"ID", "Encode", "Bots", "Bot", "Simulate", "Replay", "Record", "Narrator", "Score"} {
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

// Seating says which kind of bot sits at each seat of a batch's first game: "0=heuristic
// 1=random 2=heuristic".
func Seating(kinds []string, players int) string {
	s := make([]string, players)
	for i := range s {
		s[i] = fmt.Sprintf("%d=%s", i, kinds[i%len(kinds)])
	}
	return strings.Join(s, " ")
}

// Plural is the word that goes with n: one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
