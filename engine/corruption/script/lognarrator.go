package script

import (
	"fmt"
	"io"
	"strings"

	"corruption/engine"
	"corruption/engine/corruption"
)

// LogNarrator tells a saved table's game, of config and players, as Narrator tells a script's,
// from the game's events alone: the audit's copy of the game is its own, not the narrator's to
// read, so the narrator keeps what it needs (the round's first player, the face-up positions,
// the scores) from the events.
func LogNarrator(w io.Writer, config []byte, players int) func(engine.Event) {
	v, _, _ := corruption.DecodeConfig(config)
	n := &logNarrator{w: w, variant: v, score: make([]int, players), won: make([]int, players)}
	return n.event
}

type logNarrator struct {
	w          io.Writer
	variant    corruption.Variant
	round      int
	began      bool  // the round's first card (or choice) has been told
	score, won []int // by seat: the value of the contracts won, and how many
}

func (n *logNarrator) event(ev engine.Event) {
	e, ok := ev.Data.(corruption.Event)
	if !ok {
		fmt.Fprintf(n.w, "  %s\n", ev.Text)
		return
	}
	if e.Round != n.round {
		n.round, n.began = e.Round, false
		fmt.Fprintf(n.w, "\n== Round %d ==\n", e.Round)
	}
	// The round's first player acts first: it chooses the face-up positions, peeks or places.
	if !n.began && (e.Kind == corruption.EventPlaced || e.Kind == corruption.EventFaceUp || e.Kind == corruption.EventPeeked) {
		n.began = true
		fmt.Fprintf(n.w, "Seat %d plays first. Face up this round: %s.\n", e.Seat, n.faceUpWords(e))
	}
	fmt.Fprintf(n.w, "  %s\n", e)
	if e.Kind == corruption.EventAwarded && e.Seat >= 0 && e.Seat < len(n.score) {
		n.score[e.Seat] += e.Contract.Value()
		n.won[e.Seat]++
	}
	if e.Kind == corruption.EventRoundOver || e.Kind == corruption.EventGameOver {
		n.scores(e.Kind == corruption.EventGameOver)
	}
}

// downTheRiver is the down-the-river variant's face-up positions, by round (docs/RULES.md).
var downTheRiver = [...][]int{1: {3}, 2: {3, 4}, 3: {2, 3, 4}, 4: {2, 3, 4, 5}}

// faceUpWords says which cards go face up this round, as Narrator does.
func (n *logNarrator) faceUpWords(first corruption.Event) string {
	var ps []int
	switch {
	case first.Kind == corruption.EventFaceUp:
		ps = first.Positions.List()
	case n.variant == corruption.Standard:
		for p := 1; p <= n.round; p++ {
			ps = append(ps, p)
		}
	case n.variant == corruption.DownTheRiver && n.round < len(downTheRiver):
		ps = downTheRiver[n.round]
	}
	return faceUpCards(ps)
}

// scores tells every seat's score, and at the end the winners: the highest score, then the
// most contracts.
func (n *logNarrator) scores(over bool) {
	best, most := -1, -1
	var winners []string
	for seat := range n.score {
		fmt.Fprintf(n.w, "  seat %d: $%s (%d contracts)\n", seat, corruption.Money(n.score[seat]), n.won[seat])
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
