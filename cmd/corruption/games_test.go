package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
	uigames "corruption/ui/games"
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

// TestGamesTable: every game this build registers has an entry in games, and every entry is
// whole: its rules, settings, bots, page and terminal, all of the same game.
func TestGamesTable(t *testing.T) {
	if got, want := playable(), engine.Games(); !slices.Equal(got, want) {
		t.Errorf("the command plays %v; the build registers %v", got, want)
	}
	// The command plays every game of the one list of games (ui/games), and that list is whole.
	if err := uigames.Check(); err != nil {
		t.Error(err)
	}
	for _, g := range uigames.All() {
		if games[g.ID()] == nil {
			t.Errorf("ui/games lists %q; the command line knows nothing of it", g.ID())
		}
	}
	if n := len(commandGames(&game{id: "nosuchgame"})); n != 0 {
		t.Errorf("a game ui/games does not list is played: %d", n)
	}
	for id, g := range games {
		if g.id != id || g.board.Game() != id {
			t.Errorf("games[%q] is %q, its board %q", id, g.id, g.board.Game())
		}
		if _, err := engine.Lookup(id); err != nil {
			t.Errorf("games[%q]: %v", id, err)
		}
		if len(g.flags("")) == 0 || g.settings == nil || g.simulate == nil || g.replayScript == nil || g.record == nil || g.narrator == nil || g.score == nil || g.text == nil {
			t.Errorf("games[%q] is not whole: %+v", id, g)
		}
		for _, kind := range g.bots {
			if _, err := g.bot(kind, 1, 0); err != nil {
				t.Errorf("games[%q]: bot %q: %v", id, kind, err)
			}
		}
		if _, err := g.bot("nope", 1, 0); err == nil {
			t.Errorf("games[%q] makes a bot of an unknown kind", id)
		}
	}
}

// TestLogNarrator: a saved log is told as a script is, from the game's events alone: for a
// game of each variant, the log narrator's account is script.Narrator's, word for word.
func TestLogNarrator(t *testing.T) {
	for _, tt := range []struct {
		v   rules.Variant
		lbb bool
	}{{rules.Standard, false}, {rules.DownTheRiver, true}, {rules.FreeStud, true}, {rules.Closed, false}} {
		t.Run(tt.v.String(), func(t *testing.T) {
			var want, got strings.Builder
			n := &script.Narrator{W: &want}
			tell := corruptionNarrator(&got, rules.EncodeConfig(tt.v, tt.lbb), 5)
			_, err := bot.Simulate(bot.SimConfig{Games: 1, Players: 5, Variant: tt.v, LBB: tt.lbb, Seed: 21, Bots: []string{"heuristic", "random"},
				Attach: func(s *rules.State) { n.State = s },
				Show: func(e rules.Event) {
					n.Event(e)
					tell(engine.Event{Text: e.String(), Data: e})
				}})
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("the log narrator says\n%s\nthe script narrator\n%s", got.String(), want.String())
			}
			if !strings.Contains(got.String(), "== Round 4 ==") || !strings.Contains(got.String(), " win") {
				t.Errorf("the account does not tell the whole game:\n%s", got.String())
			}
		})
	}
}

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
