package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	"corruption/engine/cmdkit"
	uigames "corruption/ui/games"
	kingdomsboard "corruption/ui/kingdoms"
)

// TestGameFlag: every command that plays, simulates or replays a game takes --game: an unknown
// game is a usage error that names the games this build plays; the default, and --game
// corruption, play Corruption.
func TestGameFlag(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"demo", "play", "bot", "simulate", "replay"} {
		t.Run(cmd, func(t *testing.T) {
			r := runCLI(t, cmd, "--game", "nope")
			if r.code != 2 || !strings.Contains(r.stderr, `unknown game "nope": this build plays corruptia, corruption or kingdoms`) || r.stdout != "" {
				t.Errorf("want exit 2 and the games this build plays\n%v", r)
			}
			if r := runCLI(t, cmd, "--help"); !strings.Contains(r.stdout, "--game GAME") || !strings.Contains(r.stdout, `(default: "corruption")`) {
				t.Errorf("%s --help does not offer --game, corruption by default\n%s", cmd, r.stdout)
			}
		})
	}

	script := filepath.Join("testdata", "scripts", "game-4p-standard.json")
	same := func(t *testing.T, args ...string) {
		t.Helper()
		a, b := runCLI(t, args...), runCLI(t, append(args, "--game", "corruption")...)
		if a.code != 0 || b.code != 0 || untimed(a.stdout) != untimed(b.stdout) {
			t.Errorf("--game corruption is not the default:\n%v\n%v", a, b)
		}
	}
	t.Run("simulate plays Corruption by default", func(t *testing.T) { same(t, "simulate", "--games", "3", "--seed", "4", "--show") })
	t.Run("replay reads Corruption's scripts by default", func(t *testing.T) { same(t, "replay", "--script", script, "--json") })
	t.Run("play checks Corruption's table", func(t *testing.T) {
		r := runCLI(t, "play", "--game", "corruption", "--table", "t", "--players", "3", "--bots", "3")
		if r.code != 2 || !strings.Contains(r.stderr, "no room for you and your 3 bots") {
			t.Errorf("play --game corruption does not check the table as Corruption's\n%v", r)
		}
	})
	t.Run("bot checks Corruption's table", func(t *testing.T) {
		r := runCLI(t, "bot", "--game", "corruption", "--no-mdns", "--table", "t", "--players", "8")
		if r.code != 2 || !strings.Contains(r.stderr, "--players: 8, want 3 to 7") {
			t.Errorf("bot --game corruption does not check the table as Corruption's\n%v", r)
		}
	})
	t.Run("demo plays Corruption", func(t *testing.T) {
		// Played in the terminal with no input: the game starts, the first decision is shown,
		// and the command stops when it cannot read the move.
		r := runCLI(t, "demo", "--game", "corruption", "--text", "--bots", "2", "--timeout", "30s")
		if r.code != 1 || !strings.Contains(r.stdout, "Your hand:") || !strings.Contains(r.stderr, "the input ended") {
			t.Errorf("demo --game corruption --text with no input\n%v", r)
		}
	})
}

// TestGamesTable: the command's list of games is ui/games' list, and every game this build
// registers is on it; every entry is whole (its rules, settings, bots, page and terminal, all
// of the same game), and what is the game's own (its settings, bots, simulations, scripts,
// logs' narrator, score) comes from the game's own packages, engine/ID/...: the command line
// names no game.
func TestGamesTable(t *testing.T) {
	if got, want := playable(), engine.Games(); !slices.Equal(got, want) {
		t.Errorf("the command plays %v; the build registers %v", got, want)
	}
	// The command plays every game of the one list of games (ui/games), and that list is whole.
	if err := uigames.Check(); err != nil {
		t.Error(err)
	}
	var listed []string
	for _, g := range uigames.All() {
		listed = append(listed, g.ID())
	}
	slices.Sort(listed)
	if got := slices.Sorted(maps.Keys(games)); !slices.Equal(got, listed) {
		t.Errorf("the command line's games are %v; ui/games lists %v", got, listed)
	}
	if n := len(commandGames(&cmdkit.Game{ID: "nosuchgame"})); n != 0 {
		t.Errorf("a game ui/games does not list is played: %d", n)
	}
	for id, g := range games {
		if g.ID != id || g.board.Game() != id || g.text == nil {
			t.Errorf("games[%q] is %q, its board %q, its terminal %v", id, g.ID, g.board.Game(), g.text)
		}
		if _, err := engine.Lookup(id); err != nil {
			t.Errorf("games[%q]: %v", id, err)
		}
		if err := g.Check(); err != nil {
			t.Errorf("games[%q] is not whole: %v", id, err)
		}
		if len(g.flags("")) != len(g.Settings) || len(g.Settings) == 0 {
			t.Errorf("games[%q]: %d settings make %d flags", id, len(g.Settings), len(g.flags("")))
		}
		own := "corruption/engine/" + id + "/"
		for part, f := range map[string]any{"Encode": g.Encode, "Bot": g.Bot, "Replay": g.Replay, "Narrator": g.Narrator} {
			if name := funcName(f); !strings.HasPrefix(name, own) {
				t.Errorf("games[%q].%s is %s, not of the game's own packages (%s...)", id, part, name, own)
			}
		}
		// Its batches are played by its own bots (cmdkit.Batches over its bot package's types).
		if kind := fmt.Sprintf("%T", g.Batches); !strings.Contains(kind, own+"bot.SimConfig") {
			t.Errorf("games[%q] plays its batches with %s, not its own bots (%sbot)", id, kind, own)
		}
		for _, kind := range g.Bots {
			if _, err := g.bot(kind, 1, 0); err != nil {
				t.Errorf("games[%q]: bot %q: %v", id, kind, err)
			}
		}
		if _, err := g.bot("nope", 1, 0); err == nil {
			t.Errorf("games[%q] makes a bot of an unknown kind", id)
		}
	}
	// A bot of Corrupted Kingdoms sits at a table as its board asks: behind a Responder.
	if p, err := games["kingdoms"].bot("heuristic", 1, 0); err != nil {
		t.Error(err)
	} else if r, ok := p.(*kingdomsboard.Responder); !ok || r.Delay != kingdomsboard.BotAnswerDelay {
		t.Errorf("a bot of Corrupted Kingdoms sits at a table as %T, not behind a Responder of %v", p, kingdomsboard.BotAnswerDelay)
	}
}

// funcName is the name of function f, with its package's path.
func funcName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }

// untimed is a command's output without the lines that say how long it took.
func untimed(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, "games per second") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
