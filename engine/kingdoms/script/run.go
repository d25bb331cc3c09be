package script

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"corruption/engine"
	k "corruption/engine/kingdoms"
)

// Marshal writes the script as JSON, its whole setup spelt out and one move per line.
// Parse(Marshal(s)) gives s back.
func (sc *Script) Marshal() ([]byte, error) {
	var b bytes.Buffer
	s := &sc.Setup
	fmt.Fprintf(&b, "{\"players\": %d, \"rules\": %q, \"seed\": %d,\n", sc.Players, sc.Rules, sc.Seed)
	names := func(ids []int, name func(int) string) string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = name(id)
		}
		return quote(out)
	}
	corp := func(i int) string { return k.Corporations()[i].ID }
	favor := func(i int) string { return k.Favors()[i].ID }
	pleasure := func(i int) string { return k.Pleasures()[i].ID }
	share := k.ShareholderID
	card := func(i int) string { return k.ChaosCards()[i].ID }
	fmt.Fprintf(&b, " \"corporations\": %s, \"first\": %d,\n", names(s.Corporations, corp), s.First)
	fmt.Fprintf(&b, " \"favor_deck\": %s,\n", names(s.FavorDeck, favor))
	fmt.Fprintf(&b, " \"pleasure_deck\": %s,\n", names(s.PleasureDeck, pleasure))
	b.WriteString(" \"shareholders\": [")
	for i, h := range s.Shareholders {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(names(h, share))
	}
	b.WriteString("],\n")
	if sc.Rules.Chaos {
		b.WriteString(" \"chaos\": [")
		for i, h := range s.Chaos {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(names(h, card))
		}
		b.WriteString("],\n")
	}
	b.WriteString(" \"moves\": [")
	for i, m := range sc.Moves {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		if err := sc.appendMove(&b, m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// Run replays the script's moves from the start, with onEvent (if not nil) told every event. A
// seat's answer to a steal or to a vote that the script leaves out is a pass. It returns where
// the game stands; on an illegal move, where it stood before that move and an error "move K:
// ...", K counting the script's moves from 1.
func (sc *Script) Run(onEvent func(engine.Event)) (*Result, error) {
	l, err := k.NewLocal(sc.Rules, sc.Players, sc.Setup, onEvent)
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	for i, m := range sc.Moves {
		err := sc.passUntil(l, m)
		if err == nil {
			err = l.Play(m)
		}
		if err != nil {
			return Summarize(l), fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	_, err = l.Next()
	return Summarize(l), err
}

// passUntil has the seats asked to answer pass until m's seat is asked, when m is not an answer
// itself.
func (sc *Script) passUntil(l *k.Local, m k.Move) error {
	for {
		d, err := l.Next()
		if err != nil {
			return err
		}
		answer := d.Kind == k.DecideSteal || d.Kind == k.DecideAnswer
		if !answer || d.Seat == m.Seat && (m.Kind == k.MovePass || m.Kind == k.MoveChaos) {
			return nil
		}
		if err := l.Play(k.PassMove(d.Seat)); err != nil {
			return err
		}
	}
}

// Result is where a game stands, as `corruption replay --game kingdoms --json` prints it. The
// first three keys are every game's; the others are Corrupted Kingdoms' own.
type Result struct {
	Finished bool  `json:"finished"`
	Scores   []int `json:"scores"`  // totals by seat; before the end, without the shareholder cards not yet shown
	Winners  []int `json:"winners"` // empty until finished

	Round        int              `json:"round"`
	Turn         int              `json:"turn"`
	Next         *Next            `json:"next"` // null once finished
	Corporations []string         `json:"corporations"`
	ScoreParts   []k.Score        `json:"score_parts"`
	Minions      [][4]int         `json:"minions"` // golems, goblins, devils, zombies by seat
	Piles        [][]string       `json:"piles"`
	Pleasures    [][]string       `json:"pleasures"`
	Bills        map[string][]Fav `json:"bills"`
	Control      map[string]int   `json:"control"`  // the controlled leaders' controllers
	Monarchs     map[string]int   `json:"monarchs"` // the controlled monarchs' (by kingdom)
	Market       []string         `json:"market"`
	Display      []string         `json:"display"`
	FavorDeck    int              `json:"favor_deck"`
	PleasureDeck int              `json:"pleasure_deck"`
	Digest       string           `json:"digest"` // hex SHA-256 of the public state
}

// Fav is a favor on a bill and its owner.
type Fav struct {
	Favor string `json:"favor"`
	Seat  int    `json:"seat"`
}

// Next is the decision due.
type Next struct {
	Decision string `json:"decision"` // discard, action, steal, answer, vote, pick
	Seat     int    `json:"seat"`     // -1 for a vote
	Seats    []int  `json:"seats,omitempty"`
	Actions  int    `json:"actions,omitempty"`
}

// Summarize describes where a local game stands, with public information only.
func Summarize(l *k.Local) *Result {
	g := l.Game()
	v := g.View(-1)
	r := &Result{Finished: v.Over, Winners: []int{}, Round: v.Round, Turn: v.Turn, Bills: map[string][]Fav{},
		Control: map[string]int{}, Monarchs: map[string]int{}, FavorDeck: v.FavorDeck, PleasureDeck: v.PleasureDeck}
	if v.Over {
		r.Winners = g.Outcome().Winners
	} else if v.Next.Kind != k.DecideNothing {
		r.Next = &Next{Decision: v.Next.Kind.String(), Seat: v.Next.Seat, Seats: v.Next.Seats, Actions: v.Next.Actions}
	}
	for s, sv := range v.Seats {
		sc := v.Projected(s)
		r.Scores, r.ScoreParts = append(r.Scores, sc.Total), append(r.ScoreParts, sc)
		name := ""
		if sv.Corp >= 0 {
			name = k.Corporations()[sv.Corp].ID
		}
		r.Corporations, r.Minions = append(r.Corporations, name), append(r.Minions, sv.Minions)
		r.Piles = append(r.Piles, favorIDs(sv.Pile))
		var ps []string
		for _, p := range sv.Pleasures {
			ps = append(ps, k.Pleasures()[p].ID)
		}
		r.Pleasures = append(r.Pleasures, orEmpty(ps))
	}
	for _, b := range v.Bills {
		fs := []Fav{}
		for _, f := range b.Favors {
			fs = append(fs, Fav{Favor: k.Favors()[f.Favor].ID, Seat: f.Seat})
		}
		r.Bills[k.BillID(b.Bill)] = fs
	}
	for l, c := range v.Control {
		if c >= 0 {
			r.Control[k.Leaders()[l].ID] = c
		}
	}
	for kd, c := range v.Monarchs {
		if c >= 0 {
			r.Monarchs[k.Kingdoms()[kd].ID] = c
		}
	}
	r.Market, r.Display = favorIDs(v.Market), []string{}
	for _, p := range v.Display {
		if p >= 0 {
			r.Display = append(r.Display, k.Pleasures()[p].ID)
		}
	}
	d := g.Digest()
	r.Digest = hex.EncodeToString(d[:])
	return r
}

func favorIDs(ids []int) []string {
	out := []string{}
	for _, f := range ids {
		if f >= 0 {
			out = append(out, k.Favors()[f].ID)
		}
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
