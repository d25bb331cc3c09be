package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	rules "corruption/engine/kingdoms"
	"corruption/engine/kingdoms/bot"
	"corruption/engine/kingdoms/script"
	board "corruption/ui/kingdoms"
)

// kingdomsGame is Corrupted Kingdoms' entry in games: --rules, the heuristic and random bots
// (answering the response rounds after a fixed delay), bot.Simulate, the scenario scripts
// (docs/KINGDOMS.md); its boards are ui/games', whose terminal also sends a person's answers
// after a fixed delay.
var kingdomsGame = &game{
	id:           "kingdoms",
	flags:        kingdomsFlags,
	bots:         bot.Kinds,
	bot:          kingdomsBot,
	simulate:     kingdomsSimulate,
	replayScript: kingdomsScript,
	record:       kingdomsRecord,
	narrator:     kingdomsNarrator,
	score:        func(n int) string { return fmt.Sprintf("%d %s", n, pluralWord(n, "point", "points")) },
}

// settings reads the other games' flags (to refuse them), and games holds this entry: it is
// set here rather than in the entry, which would make their initialisation a loop.
func init() { kingdomsGame.settings = kingdomsSettings }

// botAnswerDelay is how long a bot's node waits, from the moment the table asks, before it
// answers a steal or revealed votes: the same for every answer, so that its timing does not
// tell whether it held a card it could play (board.Responder).
const botAnswerDelay = 100 * time.Millisecond

func kingdomsFlags(prefix string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "rules", Value: rules.Advanced.String(), Usage: prefix + "Corrupted Kingdoms' `RULES`: " +
			"advanced (bill bonuses and chaos cards; the only rules at 2 players), basic, bonuses (basic with bill bonuses) or chaos (basic with chaos cards)"},
		&cli.StringFlag{Name: "house", Value: "none", Usage: prefix + "Corrupted Kingdoms' house `RULES`, not the rule sheet's: " +
			"none (the sheet's rules alone) or even (fairer places in turn order: the round in which a deck runs out is played to its end, " +
			"and a passed bill's guilty pleasures are taken from the bottom marker up; docs/KINGDOMS.md, \"Balance\")"},
	}
}

// kingdomsSettings reads --rules and --house, and refuses the settings flags of the other games.
func kingdomsSettings(c *cli.Context) ([]byte, error) {
	for id, g := range games {
		if id == kingdomsGame.id {
			continue
		}
		for _, f := range g.flags("") {
			if name := f.Names()[0]; name != "rules" && name != "house" && c.IsSet(name) {
				return nil, usageError("--%s is a setting of %s, not of Corrupted Kingdoms (its settings are --rules and --house)", name, id)
			}
		}
	}
	cfg, err := rules.ParseConfig(c.String("rules"))
	if err != nil {
		return nil, usageError("--rules: %v", err)
	}
	if c.IsSet("house") {
		even := cfg.Even
		if cfg, err = cfg.WithHouse(c.String("house")); err != nil {
			return nil, usageError("--house: %v", err)
		}
		if even && !cfg.Even {
			return nil, usageError("--house none: --rules %s asks for the house rules %s", c.String("rules"), rules.HouseEven)
		}
	}
	return rules.EncodeConfig(cfg), nil
}

func kingdomsBot(kind string, seed uint64, think int) (engine.Player, error) {
	p, err := bot.ThinkingPlayer(kind, seed, think)
	if err != nil {
		return nil, err
	}
	return &board.Responder{Player: p, Delay: botAnswerDelay}, nil
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// kingdomsSimulate plays the batch with bot.Simulate and prints the results by bot kind, seat,
// place in turn order and corporation.
func kingdomsSimulate(out, errw io.Writer, sim simulation) error {
	cfg, err := rules.DecodeConfig(sim.config)
	if err != nil {
		return err
	}
	sc := bot.SimConfig{Games: sim.games, Players: sim.players, Rules: cfg, Bots: sim.bots, Think: sim.think, Seed: sim.seed}
	if sim.show {
		showTo := out
		if sim.json {
			showTo = errw // keep stdout one JSON object
		}
		n := script.Narrator{W: showTo}
		fmt.Fprintf(showTo, "Game 1 of %d: %d players, %s; seats: %s\n", sc.Games, sc.Players, cfg.Words(), seating(sc.Bots, sc.Players))
		sc.Show = func(e rules.Event) { n.Event(engine.Event{Text: e.String(), Data: e}) }
	}
	res, err := bot.Simulate(sc)
	if err != nil {
		return err
	}
	if sim.json {
		return json.NewEncoder(out).Encode(res)
	}
	printKingdomsSim(out, res, cfg)
	return nil
}

func printKingdomsSim(w io.Writer, r *bot.SimResult, cfg rules.Config) {
	fmt.Fprintf(w, "\n%d %s, %d players, %s, seed %d (a win shared by k players counts 1/k; fair is %.1f%%)\n",
		r.Games, pluralWord(r.Games, "game", "games"), r.Players, cfg.Words(), r.Seed, 100/float64(r.Players))
	row := func(name string, t bot.Tally) {
		fmt.Fprintf(w, "%-12s %7d %8.1f%% %11.1f\n", name, t.Games, 100*t.WinRate, t.MeanScore)
	}
	header := func(what string) { fmt.Fprintf(w, "%-12s %7s %9s %11s\n", what, "games", "win rate", "mean score") }
	header("bot")
	for _, k := range sortedKeys(r.ByBot) {
		row(k, r.ByBot[k])
	}
	header("seat")
	for seat, t := range r.BySeat {
		row(fmt.Sprint(seat), t)
	}
	header("turn order")
	for pos, t := range r.ByPosition {
		row(fmt.Sprintf("%d%s", pos+1, map[bool]string{true: " (first)"}[pos == 0]), t)
	}
	header("corporation")
	for _, k := range sortedKeys(r.ByCorp) {
		row(k, r.ByCorp[k])
	}
	fmt.Fprintf(w, "%.1f rounds a game; %.0f games per second (%.2f s)\n", r.MeanRounds, r.GamesPerSec, r.Seconds)
}

func sortedKeys(m map[string]bot.Tally) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// kingdomsScript replays a scenario script (docs/KINGDOMS.md, "Scripts"), told event by event
// or summed up (script.Result).
func kingdomsScript(data []byte, tell io.Writer) (any, string, error) {
	sc, err := script.Parse(data)
	if err != nil {
		return nil, "", err
	}
	var onEvent func(engine.Event)
	if tell != nil {
		onEvent = script.Narrator{W: tell}.Event
	}
	res, err := sc.Run(onEvent)
	if res == nil {
		return nil, "", err
	}
	waits := ""
	if !res.Finished && res.Next != nil {
		waits = nextWords(res.Next)
	}
	return res, waits, err
}

// kingdomsRecord plays game i of the batch again, as bot.Simulate played it, and writes it as
// a script, its whole setup spelt out.
func kingdomsRecord(sim simulation, i int) ([]byte, error) {
	cfg, err := rules.DecodeConfig(sim.config)
	if err != nil {
		return nil, err
	}
	bots, err := bot.SimConfig{Players: sim.players, Rules: cfg, Bots: sim.bots, Seed: sim.seed}.GameBots(i)
	if err != nil {
		return nil, err
	}
	sc := &script.Script{Players: sim.players, Rules: cfg, Seed: sim.seed, Setup: bot.GameSetup(cfg, sim.players, sim.seed, i)}
	l, err := rules.NewLocal(cfg, sim.players, sc.Setup, nil)
	if err != nil {
		return nil, err
	}
	if err := bot.Play(l, bots, func(m rules.Move) { sc.Moves = append(sc.Moves, m) }); err != nil {
		return nil, err
	}
	return sc.Marshal()
}

// nextWords says what a script's game waits for: "seat 2's action (1 left)".
func nextWords(n *script.Next) string {
	switch n.Decision {
	case "vote":
		ws := make([]string, len(n.Seats))
		for i, s := range n.Seats {
			ws[i] = fmt.Sprint(s)
		}
		return "the votes of seats " + strings.Join(ws, ", ")
	case "action":
		return fmt.Sprintf("seat %d's action (%d left)", n.Seat, n.Actions)
	}
	return fmt.Sprintf("seat %d to %s", n.Seat, map[string]string{"discard": "discard a chaos card", "steal": "answer a steal",
		"answer": "answer the votes", "pick": "take a guilty pleasure"}[n.Decision])
}

// kingdomsNarrator tells a saved table's game as script.Narrator tells a script's, with a
// heading at each round.
func kingdomsNarrator(w io.Writer, _ []byte, _ int) func(engine.Event) {
	n := script.Narrator{W: w}
	round := 0
	return func(ev engine.Event) {
		if e, ok := ev.Data.(rules.Event); ok && e.Kind == rules.EventTurn && e.Round != round {
			round = e.Round
			fmt.Fprintf(w, "\n== Round %d ==", round)
		}
		n.Event(ev)
	}
}
