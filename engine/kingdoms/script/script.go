// Package script reads, writes and replays scenario scripts of Corrupted Kingdoms: a game as one
// JSON document (its table, its random and hidden setup, and its moves in order). The format is
// documented in docs/KINGDOMS.md ("Scripts"); players use it to replay and study games, tests to
// pin rules down. Parse is strict (unknown fields are errors); whatever it accepts, Marshal
// writes back so that Parse reads the same script.
package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"corruption/engine/internal/strictjson"
	k "corruption/engine/kingdoms"
)

// Script is a game: its table, its setup and its moves, in order.
type Script struct {
	Players int
	Rules   k.Config
	Seed    uint64 // the seed the parts of the setup the script left out were drawn from
	Setup   k.Setup
	Moves   []k.Move
	// Pay, when not nil, holds by move the minions paid of an influence written with "pay"
	// (nil for every other move, whose Moves entry is whole). Such an influence's Moves entry
	// has no waive and no extra minion: Run reads them from the minions paid, as the game then
	// stands.
	Pay [][]k.Minion
}

// file is the JSON form of a script.
type file struct {
	Players      *int              `json:"players"`
	Rules        *string           `json:"rules"`
	Seed         *uint64           `json:"seed"`
	Corporations []string          `json:"corporations"`
	First        *int              `json:"first"`
	FavorDeck    []string          `json:"favor_deck"`
	PleasureDeck []string          `json:"pleasure_deck"`
	Shareholders [][]string        `json:"shareholders"`
	Chaos        [][]string        `json:"chaos"`
	Moves        []json.RawMessage `json:"moves"`
}

// ParseError says where a script is malformed: "line 3, column 14", "move 12", "deck", or
// nowhere for the whole document.
type ParseError = strictjson.ParseError

// Parse reads a script. Only players and moves are required; the rules default to the basic
// rules (the advanced for two players), and each part of the setup left out is drawn from the
// seed (default 0).
func Parse(data []byte) (*Script, error) {
	var f file
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, strictjson.At(data, err)
	}
	if f.Players == nil {
		return nil, &ParseError{Where: "players", Err: errors.New("missing (the number of players, 2 to 6)")}
	}
	if f.Moves == nil {
		return nil, &ParseError{Where: "moves", Err: errors.New("missing (use [] for a game not yet begun)")}
	}
	sc := &Script{Players: *f.Players}
	if sc.Players < k.MinPlayers || sc.Players > k.MaxPlayers {
		return nil, &ParseError{Where: "players", Err: fmt.Errorf("%d is not between %d and %d", sc.Players, k.MinPlayers, k.MaxPlayers)}
	}
	if sc.Players == 2 {
		sc.Rules = k.Advanced
	}
	if f.Rules != nil {
		c, err := k.ParseConfig(*f.Rules)
		if err != nil {
			return nil, &ParseError{Where: "rules", Err: err}
		}
		sc.Rules = c
	}
	if err := sc.Rules.Check(sc.Players); err != nil {
		return nil, &ParseError{Where: "rules", Err: err}
	}
	if f.Seed != nil {
		sc.Seed = *f.Seed
	}
	if err := sc.readSetup(&f); err != nil {
		return nil, err
	}
	for i, raw := range f.Moves {
		m, pay, err := sc.parseMove(raw)
		if err != nil {
			return nil, &ParseError{Where: fmt.Sprintf("move %d", i+1), Err: err}
		}
		sc.Moves = append(sc.Moves, m)
		if pay != nil {
			if sc.Pay == nil {
				sc.Pay = make([][]k.Minion, len(f.Moves))
			}
			sc.Pay[i] = pay
		}
	}
	return sc, nil
}

// readSetup reads the setup's parts and draws those left out from the seed.
func (sc *Script) readSetup(f *file) error {
	n := sc.Players
	drawn := k.RandomSetup(sc.Rules, n, rand.New(rand.NewPCG(sc.Seed, 0x6b696e67646f6d73)))
	s := &sc.Setup
	var err error
	if s.Corporations, err = ids("corporations", f.Corporations, drawn.Corporations, k.ParseCorporation); err != nil {
		return err
	}
	s.First = drawn.First
	if f.First != nil {
		s.First = *f.First
	}
	if s.FavorDeck, err = ids("favor_deck", f.FavorDeck, nil, k.ParseFavor); err != nil {
		return err
	}
	s.FavorDeck = fill(s.FavorDeck, drawn.FavorDeck, rand.New(rand.NewPCG(sc.Seed, 0x66)).Perm(k.NumFavors), k.FavorsPerType(n))
	if s.PleasureDeck, err = ids("pleasure_deck", f.PleasureDeck, nil, k.ParsePleasure); err != nil {
		return err
	}
	s.PleasureDeck = fill(s.PleasureDeck, drawn.PleasureDeck, drawn.PleasureDeck, k.NumPleasures)
	s.Shareholders = drawn.Shareholders
	if f.Shareholders != nil {
		s.Shareholders = nil
		for seat, cards := range f.Shareholders {
			h, err := ids(fmt.Sprintf("shareholders[%d]", seat), cards, nil, k.ParseShareholder)
			if err != nil {
				return err
			}
			s.Shareholders = append(s.Shareholders, h)
		}
	}
	if sc.Rules.Chaos {
		s.Chaos = drawChaos(s.Corporations, n, sc.Seed)
		if f.Chaos != nil {
			s.Chaos = nil
			for seat, hand := range f.Chaos {
				h, err := ids(fmt.Sprintf("chaos[%d]", seat), hand, nil, k.ParseChaos)
				if err != nil {
					return err
				}
				s.Chaos = append(s.Chaos, h)
			}
		}
	} else if f.Chaos != nil {
		return &ParseError{Where: "chaos", Err: fmt.Errorf("the %s rules have no chaos cards", sc.Rules)}
	}
	if err := s.Check(sc.Rules, n); err != nil {
		return &ParseError{Where: "setup", Err: err}
	}
	return nil
}

// fill completes the top of a deck: with none given, the deck drawn from the seed; else the
// top, then the cards of order not in it, while each favor type (all cards of a guilty
// pleasure deck, per = 25) has fewer than per cards.
func fill(top, drawn, order []int, per int) []int {
	if top == nil {
		return drawn
	}
	all := k.Favors()
	typeOf := func(c int) int {
		if per == k.NumPleasures || c < 0 || c >= len(all) {
			return 0
		}
		return int(all[c].Type)
	}
	count := map[int]int{}
	for _, c := range top {
		count[typeOf(c)]++
	}
	for _, c := range order {
		if !slices.Contains(top, c) && count[typeOf(c)] < per {
			top = append(top, c)
			count[typeOf(c)]++
		}
	}
	return top
}

// ids reads a list of component ids, or gives def when the list is left out.
func ids(what string, names []string, def []int, parse func(string) (int, error)) ([]int, error) {
	if names == nil {
		return def, nil
	}
	out := []int{}
	for i, s := range names {
		id, err := parse(s)
		if err != nil {
			return nil, &ParseError{Where: fmt.Sprintf("%s[%d]", what, i), Err: err}
		}
		out = append(out, id)
	}
	return out, nil
}

// drawChaos deals each seat's chaos cards from the seed, for the corporations given.
func drawChaos(corps []int, n int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, 0x6368616f73))
	all := k.Corporations()
	var out [][]int
	for _, c := range corps {
		if c < 0 || c >= len(all) {
			return nil
		}
		var hand []int
		for _, i := range rng.Perm(k.ChaosPerCorp)[:k.ChaosDrawn(n)] {
			hand = append(hand, all[c].Chaos[i])
		}
		out = append(out, hand)
	}
	return out
}
