// Package script reads and writes scenario scripts: a whole game of Corruption as one JSON
// document (its configuration and its moves), and replays them through the corruption. The format
// is documented in docs/SCRIPTS.md; players use it to replay and study games, tests use it to
// pin rules down.
package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"corruption/engine/corruption"
	"corruption/engine/internal/strictjson"
)

// Script is a game's configuration and its moves, in order.
type Script struct {
	Config corruption.Config
	Moves  []corruption.Move
}

// file is the JSON form of a script.
type file struct {
	Players         *int              `json:"players"`
	Variant         *string           `json:"variant"`
	LittleBlackBook *bool             `json:"little_black_book"`
	Deck            []string          `json:"deck"`
	First           *int              `json:"first"`
	Moves           []json.RawMessage `json:"moves"`
}

// move is the JSON form of one move: a seat and exactly one action.
type move struct {
	Seat   *int    `json:"seat"`
	Card   *string `json:"card"`
	On     *string `json:"on"`
	FaceUp *[]int  `json:"faceup"`
	Peek   *int    `json:"peek"`
	Assign *string `json:"assign"`
	Kill   *int    `json:"kill"`
	Remove *int    `json:"remove"`
	Pass   *bool   `json:"pass"`
}

// ParseError says where a script is malformed: "line 3, column 14", "move 12", "deck", or
// nowhere for the whole document.
type ParseError = strictjson.ParseError

// Parse reads a script. It rejects unknown fields, missing required fields (players, deck,
// first, moves), and moves that do not have exactly one action; errors say where.
func Parse(data []byte) (*Script, error) {
	var f file
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, strictjson.At(data, err)
	}
	sc := &Script{}
	c := &sc.Config
	switch {
	case f.Players == nil:
		return nil, &ParseError{Where: "players", Err: errors.New("missing (the number of players, 3 to 7)")}
	case f.Deck == nil:
		return nil, &ParseError{Where: "deck", Err: errors.New("missing (all 24 contract ids, top of the deck first)")}
	case f.First == nil:
		return nil, &ParseError{Where: "first", Err: errors.New("missing (the seat that plays first in round 1)")}
	case f.Moves == nil:
		return nil, &ParseError{Where: "moves", Err: errors.New("missing (use [] for a game not yet begun)")}
	}
	c.Players, c.First = *f.Players, *f.First
	if f.Variant != nil {
		v, err := corruption.ParseVariant(*f.Variant)
		if err != nil {
			return nil, &ParseError{Where: "variant", Err: err}
		}
		c.Variant = v
	}
	if f.LittleBlackBook != nil {
		c.LittleBlackBook = *f.LittleBlackBook
	}
	c.Deck = make([]corruption.Contract, len(f.Deck))
	for i, id := range f.Deck {
		k, err := corruption.ParseContract(id)
		if err != nil {
			return nil, &ParseError{Where: fmt.Sprintf("deck[%d]", i), Err: err}
		}
		c.Deck[i] = k
	}
	if err := c.Validate(); err != nil {
		return nil, &ParseError{Where: "config", Err: err}
	}
	for i, raw := range f.Moves {
		m, err := parseMove(raw)
		if err != nil {
			return nil, &ParseError{Where: fmt.Sprintf("move %d", i+1), Err: err}
		}
		sc.Moves = append(sc.Moves, m)
	}
	return sc, nil
}

func parseMove(raw json.RawMessage) (corruption.Move, error) {
	var mv move
	var m corruption.Move
	if err := strictjson.Decode(raw, &mv); err != nil {
		return m, strictjson.Clean(err)
	}
	if mv.Seat == nil {
		return m, errors.New(`missing "seat"`)
	}
	m.Seat = *mv.Seat
	actions := 0
	for _, present := range []bool{mv.Card != nil || mv.On != nil, mv.FaceUp != nil, mv.Peek != nil,
		mv.Assign != nil, mv.Kill != nil, mv.Remove != nil, mv.Pass != nil} {
		if present {
			actions++
		}
	}
	if actions != 1 {
		return m, errors.New(`a move needs exactly one of "card"+"on", "faceup", "peek", "assign", "kill", "remove", "pass"`)
	}
	var err error
	switch {
	case mv.Card != nil || mv.On != nil:
		if mv.Card == nil || mv.On == nil {
			return m, errors.New(`a placement needs both "card" and "on"`)
		}
		m.Kind = corruption.MovePlace
		if m.Card, err = corruption.ParseCard(*mv.Card); err != nil {
			return m, err
		}
		if m.Spot, err = corruption.ParseSpot(*mv.On); err != nil {
			return m, err
		}
	case mv.FaceUp != nil:
		m.Kind = corruption.MoveFaceUp
		if m.Positions, err = corruption.PositionsOf(*mv.FaceUp...); err != nil {
			return m, err
		}
	case mv.Peek != nil:
		m.Kind, m.Index = corruption.MovePeek, *mv.Peek
	case mv.Assign != nil:
		m.Kind = corruption.MoveAssign
		if m.Contract, err = corruption.ParseContract(*mv.Assign); err != nil {
			return m, err
		}
	case mv.Kill != nil:
		m.Kind, m.Index = corruption.MoveKill, *mv.Kill
	case mv.Remove != nil:
		m.Kind, m.Index = corruption.MoveRemove, *mv.Remove
	case mv.Pass != nil:
		if !*mv.Pass {
			return m, errors.New(`"pass" must be true`)
		}
		m.Kind = corruption.MovePass
	}
	return m, nil
}

// Marshal writes the script as JSON, one move per line. Parse(Marshal(s)) gives s back.
// Only moves that scripts can hold are written (not deals or reveals).
func (sc *Script) Marshal() ([]byte, error) {
	var b bytes.Buffer
	c := sc.Config
	fmt.Fprintf(&b, "{\"players\": %d, \"variant\": %q, \"little_black_book\": %t,\n \"deck\": [", c.Players, c.Variant, c.LittleBlackBook)
	for i, k := range c.Deck {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", k.String())
	}
	fmt.Fprintf(&b, "],\n \"first\": %d,\n", c.First)
	err := strictjson.Moves(&b, len(sc.Moves), func(b *bytes.Buffer, i int) error { return appendMove(b, sc.Moves[i]) })
	return b.Bytes(), err
}

func appendMove(b *bytes.Buffer, m corruption.Move) error {
	fmt.Fprintf(b, `{"seat": %d, `, m.Seat)
	switch m.Kind {
	case corruption.MovePlace:
		fmt.Fprintf(b, `"card": %q, "on": %q}`, m.Card.String(), m.Spot.String())
	case corruption.MoveFaceUp:
		ps, _ := json.Marshal(m.Positions.List())
		fmt.Fprintf(b, `"faceup": %s}`, ps)
	case corruption.MovePeek:
		fmt.Fprintf(b, `"peek": %d}`, m.Index)
	case corruption.MoveAssign:
		fmt.Fprintf(b, `"assign": %q}`, m.Contract.String())
	case corruption.MoveKill:
		fmt.Fprintf(b, `"kill": %d}`, m.Index)
	case corruption.MoveRemove:
		fmt.Fprintf(b, `"remove": %d}`, m.Index)
	case corruption.MovePass:
		b.WriteString(`"pass": true}`)
	default:
		return fmt.Errorf("a %s move cannot be written in a script", m.Kind)
	}
	return nil
}

// Run replays the script's moves from the start. It returns the state reached; on an illegal
// move it returns the state before that move and a *ReplayError ("move K: ..."). A
// configuration the game refuses returns no state.
func (sc *Script) Run(opts ...corruption.Option) (*corruption.State, error) {
	s, err := corruption.New(sc.Config, opts...)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	for i, m := range sc.Moves {
		if err := s.Apply(m); err != nil {
			return s, &ReplayError{Move: i + 1, Err: err}
		}
	}
	return s, nil
}

// Replay runs the script and sums up where it stopped, as `corruption replay --json` prints
// it: with the move that ended the game when it is over, and the illegal move (also
// returned) when one stopped it.
func (sc *Script) Replay(opts ...corruption.Option) (*Summary, error) {
	s, err := sc.Run(opts...)
	if s == nil {
		return nil, err
	}
	applied := len(sc.Moves)
	var re *ReplayError
	if errors.As(err, &re) {
		applied = re.Move - 1
	}
	sum := Summarize(s, applied)
	sum.Error = re
	return &sum, err
}
