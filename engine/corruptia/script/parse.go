package script

import (
	"encoding/json"
	"errors"
	"fmt"

	"corruption/engine/corruptia"
	"corruption/engine/internal/strictjson"
)

// entry is the JSON form of one entry: exactly one action, with its companions (at and
// workers with propose or amend, demand with blackmail, take with swap) and a seat for a
// senator's move.
type entry struct {
	Seat      *int      `json:"seat"`
	Discard   *string   `json:"discard"`
	Propose   *string   `json:"propose"`
	Amend     *string   `json:"amend"`
	At        *[]int    `json:"at"`
	Workers   *[]string `json:"workers"`
	NoBill    *bool     `json:"nobill"`
	Offer     *bool     `json:"offer"`
	Blackmail *int      `json:"blackmail"`
	Card      *string   `json:"card"`
	Demand    *string   `json:"demand"`
	Call      *bool     `json:"call"`
	Pass      *bool     `json:"pass"`
	Swap      *string   `json:"swap"`
	Take      *string   `json:"take"`
	Votes     *[]string `json:"votes"`
	Die       *string   `json:"die"`
	Toss      *string   `json:"toss"`
}

func parseEntry(raw json.RawMessage, players int) (Entry, error) {
	var en entry
	if err := strictjson.Decode(raw, &en); err != nil {
		return Entry{}, strictjson.Clean(err)
	}
	actions := 0
	for _, present := range []bool{en.Discard != nil, en.Propose != nil, en.Amend != nil, en.NoBill != nil, en.Offer != nil,
		en.Blackmail != nil, en.Call != nil, en.Pass != nil, en.Swap != nil, en.Votes != nil, en.Die != nil, en.Toss != nil} {
		if present {
			actions++
		}
	}
	if actions != 1 {
		return Entry{}, errors.New(`an entry needs exactly one of "discard", "propose", "amend", "nobill", "offer", "blackmail", "call", "pass", "swap", "votes", "die", "toss"`)
	}
	proposal := en.Propose != nil || en.Amend != nil
	switch {
	case (en.At != nil || en.Workers != nil) && !proposal:
		return Entry{}, errors.New(`"at" and "workers" go with "propose" or "amend"`)
	case (en.Demand != nil || en.Card != nil) && en.Blackmail == nil:
		return Entry{}, errors.New(`"card" and "demand" go with "blackmail"`)
	case en.Take != nil && en.Swap == nil:
		return Entry{}, errors.New(`"take" goes with "swap"`)
	}
	var e Entry
	switch {
	case en.Votes != nil:
		return parseVotes(*en.Votes, en.Seat, players)
	case en.Die != nil || en.Toss != nil:
		if en.Seat != nil {
			return e, errors.New(`a draw has no "seat": the table draws`)
		}
		if en.Die != nil {
			d, err := corruptia.ParseDie(*en.Die)
			return Entry{Kind: EntryDie, Die: d}, err
		}
		if *en.Toss != "approve" && *en.Toss != "reject" {
			return e, fmt.Errorf(`toss %q: want "approve" or "reject"`, *en.Toss)
		}
		return Entry{Kind: EntryToss, Approve: *en.Toss == "approve"}, nil
	case en.Seat == nil:
		return e, errors.New(`missing "seat"`)
	case *en.Seat < 0 || *en.Seat >= players:
		return e, fmt.Errorf("seat %d is not between 0 and %d", *en.Seat, players-1)
	}
	e.Seat = *en.Seat
	var err error
	switch {
	case en.Discard != nil:
		e.Move = corruptia.MoveDiscard
		e.Bill, err = corruptia.ParseBill(*en.Discard)
	case proposal:
		err = parseProposal(&e, en, players)
	case en.Blackmail != nil:
		e.Move, e.Target = corruptia.MoveBlackmail, *en.Blackmail
		if e.Target < 0 || e.Target >= players {
			return e, fmt.Errorf("blackmail: seat %d is not between 0 and %d", e.Target, players-1)
		}
		if en.Demand == nil || (*en.Demand != "yes" && *en.Demand != "no") {
			return e, errors.New(`a blackmail needs "demand": "yes" or "no"`)
		}
		if en.Card != nil {
			if _, _, err := parseCard(*en.Card); err != nil {
				return e, err
			}
			e.Card = *en.Card
		}
		e.Demand, _ = corruptia.ParseVote(*en.Demand)
	case en.Swap != nil:
		e.Move = corruptia.MoveSwap
		if en.Take == nil {
			return e, errors.New(`a swap needs "take": the bill taken from the discard pile`)
		}
		if e.Bill, err = corruptia.ParseBill(*en.Swap); err == nil {
			e.Take, err = corruptia.ParseBill(*en.Take)
		}
	default:
		flag, kind := en.NoBill, corruptia.MoveNoBill
		switch {
		case en.Offer != nil:
			flag, kind = en.Offer, corruptia.MoveOffer
		case en.Call != nil:
			flag, kind = en.Call, corruptia.MoveCall
		case en.Pass != nil:
			flag, kind = en.Pass, corruptia.MovePass
		}
		if !*flag {
			return e, fmt.Errorf("%q must be true", kind.String())
		}
		e.Move = kind
	}
	return e, err
}

func parseVotes(vs []string, seat *int, players int) (Entry, error) {
	if seat != nil {
		return Entry{}, errors.New(`"votes" has no "seat": it holds every senator's vote, by seat`)
	}
	if len(vs) != players {
		return Entry{}, fmt.Errorf("%d votes at a table of %d", len(vs), players)
	}
	e := Entry{Kind: EntryVotes, Votes: make([]corruptia.Vote, players)}
	for s, v := range vs {
		var err error
		if e.Votes[s], err = corruptia.ParseVote(v); err != nil {
			return Entry{}, fmt.Errorf("seat %d's vote: %w", s, err)
		}
	}
	return e, nil
}

func parseProposal(e *Entry, en entry, players int) error {
	e.Move = corruptia.MovePropose
	name := en.Propose
	if en.Amend != nil {
		e.Move, name = corruptia.MoveAmend, en.Amend
	}
	var err error
	if e.Bill, err = corruptia.ParseBill(*name); err != nil {
		return err
	}
	if en.At == nil || len(*en.At) != 2 {
		return errors.New(`a proposal needs "at": [row, column]`)
	}
	at := *en.At
	e.At = corruptia.Cell{Row: at[0], Col: at[1]}
	if at[0] < -128 || at[0] > 127 || at[1] < -128 || at[1] > 127 {
		return fmt.Errorf("cell %s is out of range", e.At)
	}
	if en.Workers == nil || len(*en.Workers) != corruptia.WorkersPerBill {
		return fmt.Errorf(`a proposal needs "workers": %d of "$1@cul04" or "employee@2"`, corruptia.WorkersPerBill)
	}
	for i, s := range *en.Workers {
		if e.Workers[i], err = parseWorker(s, players); err != nil {
			return err
		}
	}
	return nil
}
