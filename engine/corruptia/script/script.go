// Package script reads, writes and replays Corruptia scripts: a whole game (or the start of
// one) as one JSON document with full information: the table, the deck's order, and every
// decision and draw in order. The format is documented in docs/CORRUPTIA.md; players use it to
// replay and study games, tests use it to pin rules down. Run replays a script with the rules
// of package corruptia and reports where the game stands as a Result; its errors name the
// entry at fault: "move K: ...".
package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"corruption/engine/corruptia"
	"corruption/engine/internal/strictjson"
)

// Script is a game with full information: the table, the order of the bill deck after its
// shuffle, and the entries (moves, votes, die rolls, tosses) in order.
type Script struct {
	Players int
	Config  corruptia.Config
	First   int              // the first player, drawn at the start
	Deck    []corruptia.Bill // the 90 bills, top first
	Redeck  []corruptia.Bill // the rebuilt deck's order when starting bills were sent back; nil: the rest of the deck, then the bills sent back
	Pile    []corruptia.Bill // the opening discard pile's order after its shuffle; nil: the discards in turn order
	Moves   []Entry
}

// EntryKind says what an entry records.
type EntryKind uint8

const (
	EntryMove  EntryKind = iota // Seat's Move
	EntryVotes                  // every senator's vote, by seat
	EntryDie                    // the people's die
	EntryToss                   // the presidential token's toss
)

// Entry is one decision or draw.
type Entry struct {
	Kind    EntryKind
	Seat    int
	Move    corruptia.MoveKind
	Bill    corruptia.Bill // discard, propose, amend: the bill; swap: the bill given up
	Take    corruptia.Bill // swap: the bill taken from the pile
	At      corruptia.Cell
	Workers [corruptia.WorkersPerBill]Worker
	Target  int            // blackmail
	Card    string         // blackmail: the card played, by id ("forged-degree"); "": the one Seat holds on Target
	Demand  corruptia.Vote // blackmail
	Votes   []corruptia.Vote
	Die     corruptia.Die
	Approve bool // toss
}

// Worker names a worker by where it is: an official of an income on a bill of the program, or
// an employee of a senator. In a script: "$3@cul04", "employee@1".
type Worker struct {
	Employee bool
	Income   int
	Bill     corruptia.Bill
	Seat     int
}

func (w Worker) String() string {
	if w.Employee {
		return "employee@" + strconv.Itoa(w.Seat)
	}
	return fmt.Sprintf("$%d@%s", w.Income, w.Bill)
}

func parseWorker(s string, players int) (Worker, error) {
	if rest, ok := strings.CutPrefix(s, "employee@"); ok {
		seat, err := strconv.Atoi(rest)
		if err != nil || seat < 0 || seat >= players {
			return Worker{}, fmt.Errorf("worker %q: no seat %q at a table of %d", s, rest, players)
		}
		return Worker{Employee: true, Seat: seat}, nil
	}
	inc, bill, ok := strings.Cut(s, "@")
	if !ok || len(inc) != 2 || inc[0] != '$' || inc[1] < '1' || inc[1] > '0'+corruptia.Incomes {
		return Worker{}, fmt.Errorf("worker %q: want \"$1@cul04\" (an official's income and bill) or \"employee@2\"", s)
	}
	b, err := corruptia.ParseBill(bill)
	if err != nil {
		return Worker{}, fmt.Errorf("worker %q: %w", s, err)
	}
	return Worker{Income: int(inc[1] - '0'), Bill: b}, nil
}

// ParseError says where a script is malformed: "line 3, column 14", "move 12", "deck", or
// nowhere for the whole document.
type ParseError = strictjson.ParseError

type file struct {
	Players    *int              `json:"players"`
	Amendments *int              `json:"amendments"`
	First      *int              `json:"first"`
	Deck       []string          `json:"deck"`
	Redeck     []string          `json:"redeck"`
	Pile       []string          `json:"pile"`
	Moves      []json.RawMessage `json:"moves"`
}

// Parse reads a script. It rejects unknown fields, missing required fields (players, first,
// deck, moves), a deck that is not the 90 bills, and entries that do not have exactly one
// action; errors say where.
func Parse(data []byte) (*Script, error) {
	var f file
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, strictjson.At(data, err)
	}
	switch {
	case f.Players == nil:
		return nil, &ParseError{Where: "players", Err: errors.New("missing (the number of senators, 2 to 5)")}
	case f.First == nil:
		return nil, &ParseError{Where: "first", Err: errors.New("missing (the seat that holds the presidential token first)")}
	case f.Deck == nil:
		return nil, &ParseError{Where: "deck", Err: errors.New("missing (all 90 bill ids, top of the deck first)")}
	case f.Moves == nil:
		return nil, &ParseError{Where: "moves", Err: errors.New("missing (use [] for a game not yet begun)")}
	}
	sc := &Script{Players: *f.Players, First: *f.First, Config: corruptia.DefaultConfig()}
	if sc.Players < corruptia.MinPlayers || sc.Players > corruptia.MaxPlayers {
		return nil, &ParseError{Where: "players", Err: fmt.Errorf("%d, want %d to %d", sc.Players, corruptia.MinPlayers, corruptia.MaxPlayers)}
	}
	if sc.First < 0 || sc.First >= sc.Players {
		return nil, &ParseError{Where: "first", Err: fmt.Errorf("seat %d is not between 0 and %d", sc.First, sc.Players-1)}
	}
	if f.Amendments != nil {
		// Any bound: the sheet sets none. A table's configuration holds 0 to 9
		// (corruptia.EncodeConfig); a script is no table.
		if sc.Config.Amendments = *f.Amendments; sc.Config.Amendments < 0 {
			return nil, &ParseError{Where: "amendments", Err: fmt.Errorf("%d, want 0 or more a turn", sc.Config.Amendments)}
		}
	}
	var err error
	if sc.Deck, err = parseBills("deck", f.Deck); err != nil {
		return nil, err
	}
	if len(sc.Deck) != corruptia.NumBills {
		return nil, &ParseError{Where: "deck", Err: fmt.Errorf("%d bills, want all %d", len(sc.Deck), corruptia.NumBills)}
	}
	if f.Redeck != nil {
		if sc.Redeck, err = parseBills("redeck", f.Redeck); err != nil {
			return nil, err
		}
	}
	if f.Pile != nil {
		if sc.Pile, err = parseBills("pile", f.Pile); err != nil {
			return nil, err
		}
	}
	for i, raw := range f.Moves {
		e, err := parseEntry(raw, sc.Players)
		if err != nil {
			return nil, &ParseError{Where: fmt.Sprintf("move %d", i+1), Err: err}
		}
		sc.Moves = append(sc.Moves, e)
	}
	return sc, nil
}

// parseBills reads distinct bill ids.
func parseBills(what string, ids []string) ([]corruptia.Bill, error) {
	out := make([]corruptia.Bill, len(ids))
	var seen [corruptia.NumBills]bool
	for i, id := range ids {
		b, err := corruptia.ParseBill(id)
		if err != nil {
			return nil, &ParseError{Where: fmt.Sprintf("%s[%d]", what, i), Err: err}
		}
		if seen[b] {
			return nil, &ParseError{Where: fmt.Sprintf("%s[%d]", what, i), Err: fmt.Errorf("%s appears twice", b)}
		}
		seen[b], out[i] = true, b
	}
	return out, nil
}
