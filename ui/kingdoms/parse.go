package kingdoms

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	rules "corruption/engine/kingdoms"
)

// moveSyntax is how a move is typed (in a terminal, or as the "text" of a move request). The
// keywords are the scenario scripts' (docs/KINGDOMS.md), in one line.
const moveSyntax = `take FAVOR, place FAVOR on BILL, influence LEADER [waive MINION...] [extra MINION], call BILL, ` +
	`chaos CARD [its arguments], vote yes|no, pass, pick PLEASURE|none [remove LEADER | exchange FAVOR for FAVOR | minion MINION], ` +
	`cycle PLEASURE, discard CARD`

// effectSyntax is what a chaos card of each effect takes after its id.
var effectSyntax = map[rules.Effect]string{
	rules.Indulge: "PLEASURE", rules.Coup: "LEADER", rules.Scandal: "LEADER", rules.Lobby: "BILL",
	rules.Earmark: "FAVOR on BILL", rules.Shred: "FAVOR", rules.Embezzle: "SEAT MINION", rules.Ballot: "yes|no",
}

// typed is a move as typed: the game's move, with what only the person's hand resolves (a
// chaos card's or a discard's position) and a waiver by minions (the leader's cost makes it a
// mask) left to resolve.
type typed struct {
	m     rules.Move // Seat unset; Pos -1 for a chaos card or a discard named by card
	waive []rules.Minion
}

// words is a typed move's fields, consumed left to right.
type words struct {
	text string
	f    []string
}

func (w *words) more() bool { return len(w.f) > 0 }

func (w *words) next(what string) (string, error) {
	if len(w.f) == 0 {
		return "", fmt.Errorf("%q: %s is missing", w.text, what)
	}
	s := w.f[0]
	w.f = w.f[1:]
	return s, nil
}

// keyword consumes kw if it comes next.
func (w *words) keyword(kw string) bool {
	if len(w.f) > 0 && w.f[0] == kw {
		w.f = w.f[1:]
		return true
	}
	return false
}

func (w *words) id(what string, parse func(string) (int, error)) (int, error) {
	s, err := w.next(what)
	if err != nil {
		return -1, err
	}
	return parse(s)
}

func (w *words) minion() (rules.Minion, error) {
	s, err := w.next("a minion (golem, goblin, devil or zombie)")
	if err != nil {
		return rules.NoMinion, err
	}
	return rules.ParseMinion(s)
}

func (w *words) done() error {
	if len(w.f) > 0 {
		return fmt.Errorf("%q: %q is not part of the move (want %s)", w.text, strings.Join(w.f, " "), moveSyntax)
	}
	return nil
}

// parseMove reads a typed move (see moveSyntax). Whether it is legal now is check's business.
func parseMove(text string) (typed, error) {
	w := &words{text: text, f: strings.Fields(strings.ToLower(strings.ReplaceAll(text, ",", " ")))}
	if !w.more() {
		return typed{}, errors.New("type a move")
	}
	verb, _ := w.next("")
	var t typed
	var err error
	switch verb {
	case "pass":
		t.m = rules.PassMove(0)
	case "yes", "no":
		t.m = rules.VoteMove(0, verb == "yes")
	case "vote":
		var side string
		if side, err = w.next("yes or no"); err == nil {
			t.m, err = voteSide(side)
		}
	case "take":
		var f int
		if f, err = w.id("a favor of the market (magic-4)", rules.ParseFavor); err == nil {
			t.m = rules.TakeMove(0, f)
		}
	case "place":
		t.m, err = parsePlace(w)
	case "influence", "steal":
		t, err = parseInfluence(w)
	case "call":
		var b int
		if b, err = w.id("a bill (grimhold-1)", rules.ParseBill); err == nil {
			t.m = rules.CallMove(0, b)
		}
	case "chaos", "play":
		t.m, err = parseChaos(w)
	case "pick":
		t.m, err = parsePick(w)
	case "cycle":
		var p int
		if p, err = w.id("a guilty pleasure of the display (gold/magic)", rules.ParsePleasure); err == nil {
			t.m = rules.CycleMove(0, p)
		}
	case "discard":
		t.m, err = parseDiscard(w)
	default:
		return typed{}, fmt.Errorf("%q is not a move: want %s", text, moveSyntax)
	}
	if err == nil {
		err = w.done()
	}
	return t, err
}

func voteSide(s string) (rules.Move, error) {
	switch s {
	case "yes", "for":
		return rules.VoteMove(0, true), nil
	case "no", "against":
		return rules.VoteMove(0, false), nil
	}
	return rules.Move{}, fmt.Errorf("%q is not a vote: yes or no", s)
}

func parsePlace(w *words) (rules.Move, error) {
	f, err := w.id("a favor of the market (magic-4)", rules.ParseFavor)
	if err != nil {
		return rules.Move{}, err
	}
	w.keyword("on")
	b, err := w.id("the bill to place it on (grimhold-1)", rules.ParseBill)
	return rules.PlaceMove(0, f, b), err
}

func parseInfluence(w *words) (typed, error) {
	l, err := w.id("a leader (whip)", rules.ParseLeader)
	if err != nil {
		return typed{}, err
	}
	t := typed{m: rules.InfluenceMove(0, l, 0, rules.NoMinion)}
	for w.more() {
		switch {
		case w.keyword("waive"):
			for range 2 {
				if !w.more() || w.f[0] == "extra" {
					break
				}
				m, err := w.minion()
				if err != nil {
					return t, err
				}
				t.waive = append(t.waive, m)
			}
			if len(t.waive) == 0 {
				return t, fmt.Errorf("%q: waive which minion of the cost?", w.text)
			}
		case w.keyword("extra"):
			if t.m.Minion, err = w.minion(); err != nil {
				return t, err
			}
		default:
			return t, w.done()
		}
	}
	return t, nil
}

func parseChaos(w *words) (rules.Move, error) {
	c, err := w.id("a chaos card of your hand (compound-interest)", rules.ParseChaos)
	if err != nil {
		return rules.Move{}, err
	}
	m := rules.ChaosMove(0, c, -1)
	switch chaosCards[c].Effect {
	case rules.Indulge:
		m.Pleasure, err = w.id("the guilty pleasure to take (gold/magic)", rules.ParsePleasure)
	case rules.Coup, rules.Scandal:
		m.Leader, err = w.id("the leader (whip)", rules.ParseLeader)
	case rules.Lobby:
		m.Bill, err = w.id("the bill to vote on (grimhold-1)", rules.ParseBill)
	case rules.Earmark:
		if m.Favor, err = w.id("a favor of the market (magic-4)", rules.ParseFavor); err == nil {
			w.keyword("on")
			m.Bill, err = w.id("the bill to place it on (grimhold-1)", rules.ParseBill)
		}
	case rules.Shred:
		m.Favor, err = w.id("an opponent's favor on a bill (magic-4)", rules.ParseFavor)
	case rules.Embezzle:
		w.keyword("seat")
		if m.Target, err = w.id("the seat to take minions from (a number)", parseSeat); err == nil {
			m.Minion, err = w.minion()
		}
	case rules.Ballot:
		var side string
		if side, err = w.next("yes or no"); err == nil {
			var v rules.Move
			v, err = voteSide(side)
			m.Yes = v.Yes
		}
	}
	return m, err
}

func parseSeat(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n >= rules.MaxPlayers {
		return -1, fmt.Errorf("%q is not a seat (0 to %d)", s, rules.MaxPlayers-1)
	}
	return n, nil
}

func parsePick(w *words) (rules.Move, error) {
	s, err := w.next("a guilty pleasure of the display (gold/magic), or none")
	if err != nil {
		return rules.Move{}, err
	}
	if s == "none" {
		return rules.PickMove(0, -1), nil
	}
	p, err := rules.ParsePleasure(s)
	if err != nil {
		return rules.Move{}, err
	}
	m := rules.PickMove(0, p)
	for w.more() {
		switch {
		case w.keyword("remove"):
			m.Leader, err = w.id("the leader whose marker goes (whip)", rules.ParseLeader)
		case w.keyword("exchange"):
			if m.Favor, err = w.id("your favor on another bill (magic-4)", rules.ParseFavor); err == nil {
				w.keyword("for")
				m.Other, err = w.id("a favor of the market (defense-2)", rules.ParseFavor)
			}
		case w.keyword("minion"):
			m.Minion, err = w.minion()
		default:
			return m, w.done()
		}
		if err != nil {
			return m, err
		}
	}
	return m, nil
}

func parseDiscard(w *words) (rules.Move, error) {
	s, err := w.next("the chaos card to discard (its id, or its number in your hand)")
	if err != nil {
		return rules.Move{}, err
	}
	m := rules.DiscardMove(0, -1)
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > rules.ChaosDrawn(2) {
			return m, fmt.Errorf("discard %d: your chaos cards are numbered from 1", n)
		}
		m.Pos = n - 1
		return m, nil
	}
	m.Card, err = rules.ParseChaos(s)
	return m, err
}
