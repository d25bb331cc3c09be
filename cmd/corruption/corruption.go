package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"corruption/engine"
	rules "corruption/engine/corruption"
	"corruption/engine/corruption/bot"
	"corruption/engine/corruption/script"
)

// corruptionGame is Corruption's entry in games: --variant and --lbb, the heuristic and random
// bots, bot.Simulate and the scenario scripts (its boards are ui/games').
var corruptionGame = &game{
	id: "corruption",
	flags: func(prefix string) []cli.Flag {
		return []cli.Flag{
			&cli.StringFlag{Name: "variant", Value: "standard", Usage: prefix + "standard, down-the-river, free-stud or closed"},
			&cli.BoolFlag{Name: "lbb", Usage: prefix + "play with the little black book (two peeks each; not with closed)"},
		}
	},
	settings:     corruptionSettings,
	bots:         bot.Kinds,
	bot:          bot.ThinkingPlayer,
	simulate:     corruptionSimulate,
	replayScript: corruptionScript,
	record:       corruptionRecord,
	narrator:     corruptionNarrator,
	score:        func(n int) string { return "$" + rules.Money(n) },
}

// corruptionSettings reads --variant and --lbb.
func corruptionSettings(c *cli.Context) ([]byte, error) {
	v, err := rules.ParseVariant(c.String("variant"))
	if err != nil {
		return nil, usageError("--variant: %v", err)
	}
	lbb := c.Bool("lbb")
	if lbb && v == rules.Closed {
		return nil, usageError("--lbb: the little black book cannot be played with the closed variant")
	}
	return rules.EncodeConfig(v, lbb), nil
}

// corruptionSimulate plays the batch with bot.Simulate and prints each bot kind's and each
// seat's results.
func corruptionSimulate(out, errw io.Writer, sim simulation) error {
	v, lbb, err := rules.DecodeConfig(sim.config)
	if err != nil {
		return err
	}
	sc := bot.SimConfig{Games: sim.games, Players: sim.players, Variant: v, LBB: lbb, Bots: sim.bots, Think: sim.think, Seed: sim.seed}
	if sim.show {
		showTo := out
		if sim.json {
			showTo = errw // keep stdout one JSON object
		}
		n := &script.Narrator{W: showTo}
		fmt.Fprintf(showTo, "Game 1 of %d: %d players, %s%s; seats: %s\n", sc.Games, sc.Players, v, lbbWords(lbb), seating(sc.Bots, sc.Players))
		sc.Show = n.Event
		sc.Attach = func(s *rules.State) { n.State = s }
	}
	res, err := bot.Simulate(sc)
	if err != nil {
		return err
	}
	if sim.json {
		return json.NewEncoder(out).Encode(res)
	}
	printSimResult(out, res)
	return nil
}

func lbbWords(lbb bool) string {
	if lbb {
		return " with the little black book"
	}
	return ""
}

func seating(kinds []string, players int) string {
	s := make([]string, players)
	for i := range s {
		s[i] = fmt.Sprintf("%d=%s", i, kinds[i%len(kinds)])
	}
	return strings.Join(s, " ")
}

func printSimResult(w io.Writer, r *bot.SimResult) {
	games := "games"
	if r.Games == 1 {
		games = "game"
	}
	fmt.Fprintf(w, "\n%d %s, %d players, %s%s, seed %d\n", r.Games, games, r.Players, r.Variant, lbbWords(r.LBB), r.Seed)
	fmt.Fprintf(w, "%-10s %8s %9s %13s\n", "bot", "seats", "win rate", "mean score")
	kinds := make([]string, 0, len(r.ByBot))
	for k := range r.ByBot {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		t := r.ByBot[k]
		fmt.Fprintf(w, "%-10s %8d %8.1f%% %13s\n", k, t.Games, 100*t.WinRate, "$"+rules.Money(int(t.MeanScore+0.5)))
	}
	fmt.Fprintf(w, "%-10s %8s %9s %13s\n", "seat", "games", "win rate", "mean score")
	for seat, t := range r.BySeat {
		fmt.Fprintf(w, "%-10d %8d %8.1f%% %13s\n", seat, t.Games, 100*t.WinRate, "$"+rules.Money(int(t.MeanScore+0.5)))
	}
	fmt.Fprintf(w, "%.0f games per second (%.2f s)\n", r.GamesPerSec, r.Seconds)
}

// corruptionScript replays a scenario script (docs/SCRIPTS.md), told round by round or summed
// up (script.Summary).
func corruptionScript(data []byte, tell io.Writer) (any, string, error) {
	sc, err := script.Parse(data)
	if err != nil {
		return nil, "", err
	}
	n := &script.Narrator{W: tell}
	var opts []rules.Option
	if tell != nil {
		opts = append(opts, n.Option())
	}
	sum, err := sc.Replay(opts...)
	if sum == nil {
		return nil, "", err
	}
	waits := ""
	if tell != nil && !sum.Finished {
		waits = n.State.Next().String()
	}
	return sum, waits, err
}

// corruptionRecord plays game i of the batch again, as bot.Simulate played it, and writes it
// as a script.
func corruptionRecord(sim simulation, i int) ([]byte, error) {
	v, lbb, err := rules.DecodeConfig(sim.config)
	if err != nil {
		return nil, err
	}
	bots, err := bot.SimConfig{Players: sim.players, Bots: sim.bots, Seed: sim.seed}.GameBots(i)
	if err != nil {
		return nil, err
	}
	sc := &script.Script{Config: bot.GameConfig(sim.players, v, lbb, sim.seed, i)}
	s, err := rules.New(sc.Config)
	if err != nil {
		return nil, err
	}
	if err := bot.Play(s, bots, func(m rules.Move) { sc.Moves = append(sc.Moves, m) }); err != nil {
		return nil, err
	}
	return sc.Marshal()
}

// corruptionNarrator tells a saved table's game as script.Narrator tells a script's, from the
// game's events alone: the audit's copy of the game is its own, not ours to read, so the
// narrator keeps what it needs (the round's first player, the face-up positions, the scores)
// from the events.
func corruptionNarrator(w io.Writer, config []byte, players int) func(engine.Event) {
	v, _, _ := rules.DecodeConfig(config)
	n := &logNarrator{w: w, variant: v, score: make([]int, players), won: make([]int, players)}
	return n.event
}

type logNarrator struct {
	w          io.Writer
	variant    rules.Variant
	round      int
	began      bool  // the round's first card (or choice) has been told
	score, won []int // by seat: the value of the contracts won, and how many
}

func (n *logNarrator) event(ev engine.Event) {
	e, ok := ev.Data.(rules.Event)
	if !ok {
		fmt.Fprintf(n.w, "  %s\n", ev.Text)
		return
	}
	if e.Round != n.round {
		n.round, n.began = e.Round, false
		fmt.Fprintf(n.w, "\n== Round %d ==\n", e.Round)
	}
	// The round's first player acts first: it chooses the face-up positions, peeks or places.
	if !n.began && (e.Kind == rules.EventPlaced || e.Kind == rules.EventFaceUp || e.Kind == rules.EventPeeked) {
		n.began = true
		fmt.Fprintf(n.w, "Seat %d plays first. Face up this round: %s.\n", e.Seat, n.faceUpWords(e))
	}
	fmt.Fprintf(n.w, "  %s\n", e)
	if e.Kind == rules.EventAwarded && e.Seat >= 0 && e.Seat < len(n.score) {
		n.score[e.Seat] += e.Contract.Value()
		n.won[e.Seat]++
	}
	if e.Kind == rules.EventRoundOver || e.Kind == rules.EventGameOver {
		n.scores(e.Kind == rules.EventGameOver)
	}
}

// downTheRiver is the down-the-river variant's face-up positions, by round (docs/RULES.md).
var downTheRiver = [...][]int{1: {3}, 2: {3, 4}, 3: {2, 3, 4}, 4: {2, 3, 4, 5}}

// faceUpWords says which cards go face up this round, as script.Narrator does.
func (n *logNarrator) faceUpWords(first rules.Event) string {
	var ps []int
	switch {
	case first.Kind == rules.EventFaceUp:
		ps = first.Positions.List()
	case n.variant == rules.Standard:
		for p := 1; p <= n.round; p++ {
			ps = append(ps, p)
		}
	case n.variant == rules.DownTheRiver && n.round < len(downTheRiver):
		ps = downTheRiver[n.round]
	}
	if len(ps) == 0 {
		return "no card"
	}
	words := make([]string, len(ps))
	for i, p := range ps {
		words[i] = fmt.Sprint(p)
	}
	return "each player's card " + strings.Join(words, ", ")
}

// scores tells every seat's score, and at the end the winners: the highest score, then the
// most contracts.
func (n *logNarrator) scores(over bool) {
	best, most := -1, -1
	var winners []string
	for seat := range n.score {
		fmt.Fprintf(n.w, "  seat %d: $%s (%d contracts)\n", seat, rules.Money(n.score[seat]), n.won[seat])
		switch s, k := n.score[seat], n.won[seat]; {
		case s > best || (s == best && k > most):
			best, most, winners = s, k, []string{fmt.Sprint(seat)}
		case s == best && k == most:
			winners = append(winners, fmt.Sprint(seat))
		}
	}
	switch {
	case !over:
	case len(winners) == 1:
		fmt.Fprintf(n.w, "Seat %s wins.\n", winners[0])
	default:
		fmt.Fprintf(n.w, "Seats %s share the win.\n", strings.Join(winners, " and "))
	}
}
