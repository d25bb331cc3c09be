package kingdoms

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	rules "corruption/engine/kingdoms"
	"corruption/ui"
)

// A typed move (parse.go) becomes the game's move in the person's view (resolve), is written
// back in the same syntax (formatMove, for the choices the page and the terminal list), and is
// checked against the decision due (check).

// resolve makes a typed move seat's move in its view: a chaos card (or a discard) named by its
// id is found in the seat's hand, a waiver by minions becomes the leader's mask.
func resolve(v rules.View, t typed) (rules.Move, error) {
	m := t.m
	m.Seat = v.Seat
	switch m.Kind {
	case rules.MoveChaos, rules.MoveDiscard:
		if m.Pos >= 0 {
			break
		}
		for _, h := range v.Hand {
			if h.Card == m.Card && !h.Played && (m.Kind == rules.MoveDiscard || !h.Discarded) {
				m.Pos = h.Pos
			}
		}
		if m.Pos < 0 {
			return m, fmt.Errorf("you hold no %s to play (your chaos cards: %s)", chaosCards[m.Card].Name, teller{}.handWords(v))
		}
		if m.Kind == rules.MoveDiscard {
			m.Card = -1
		}
	case rules.MoveInfluence:
		cost := leaders[m.Leader].Cost
		for _, w := range t.waive {
			i := slices.Index(cost[:], w)
			if i >= 0 && m.Waive&(1<<i) != 0 && cost[1] == w {
				i = 1
			}
			if i < 0 || m.Waive&(1<<i) != 0 {
				return m, fmt.Errorf("%s costs %s: you cannot waive %s", leaders[m.Leader].Name, teller{}.costWords(cost), teller{}.a(w))
			}
			m.Waive |= 1 << i
		}
	}
	return m, nil
}

// formatMove is m as the person types it: parseMove then resolve, in the same view, give m back.
func formatMove(v rules.View, m rules.Move) string {
	switch m.Kind {
	case rules.MovePass:
		return "pass"
	case rules.MoveVote:
		return "vote " + yesNo(m.Yes)
	case rules.MoveTake:
		return "take " + favors[m.Favor].ID
	case rules.MovePlace:
		return "place " + favors[m.Favor].ID + " on " + rules.BillID(m.Bill)
	case rules.MoveInfluence:
		s := "influence " + leaders[m.Leader].ID
		if m.Waive != 0 {
			s += " waive"
			for i, c := range leaders[m.Leader].Cost {
				if m.Waive&(1<<i) != 0 {
					s += " " + c.String()
				}
			}
		}
		if m.Minion != rules.NoMinion {
			s += " extra " + m.Minion.String()
		}
		return s
	case rules.MoveCall:
		return "call " + rules.BillID(m.Bill)
	case rules.MoveChaos:
		return "chaos " + chaosCards[m.Card].ID + chaosArgsText(m)
	case rules.MovePick:
		if m.Pleasure < 0 {
			return "pick none"
		}
		s := "pick " + pleasures[m.Pleasure].ID
		if m.Leader >= 0 {
			s += " remove " + leaders[m.Leader].ID
		}
		if m.Favor >= 0 {
			s += " exchange " + favors[m.Favor].ID + " for " + favors[m.Other].ID
		}
		if m.Minion != rules.NoMinion {
			s += " minion " + m.Minion.String()
		}
		return s
	case rules.MoveCycle:
		return "cycle " + pleasures[m.Pleasure].ID
	case rules.MoveDiscard:
		for _, h := range v.Hand {
			if h.Pos == m.Pos && h.Card >= 0 {
				return "discard " + chaosCards[h.Card].ID
			}
		}
		return fmt.Sprintf("discard %d", m.Pos+1)
	}
	return m.Kind.String()
}

func chaosArgsText(m rules.Move) string {
	switch chaosCards[m.Card].Effect {
	case rules.Indulge:
		return " " + pleasures[m.Pleasure].ID
	case rules.Coup, rules.Scandal:
		return " " + leaders[m.Leader].ID
	case rules.Lobby:
		return " " + rules.BillID(m.Bill)
	case rules.Earmark:
		return " " + favors[m.Favor].ID + " on " + rules.BillID(m.Bill)
	case rules.Shred:
		return " " + favors[m.Favor].ID
	case rules.Embezzle:
		return fmt.Sprintf(" %d %s", m.Target, m.Minion)
	case rules.Ballot:
		return " " + yesNo(m.Yes)
	}
	return ""
}

func yesNo(yes bool) string {
	if yes {
		return "yes"
	}
	return "no"
}

// asked reports whether v's seat has a decision to make.
func asked(v rules.View) bool {
	d := v.Next
	if d.Kind == rules.DecideVote {
		return slices.Contains(d.Seats, v.Seat)
	}
	return d.Kind != rules.DecideNothing && d.Seat == v.Seat
}

// fits reports whether a move of kind k answers a decision of kind d.
func fits(d rules.DecisionKind, k rules.MoveKind) bool {
	switch d {
	case rules.DecideDiscard:
		return k == rules.MoveDiscard
	case rules.DecideAction:
		return k == rules.MoveTake || k == rules.MovePlace || k == rules.MoveInfluence || k == rules.MoveCall || k == rules.MoveChaos
	case rules.DecideSteal, rules.DecideAnswer:
		return k == rules.MovePass || k == rules.MoveChaos
	case rules.DecideVote:
		return k == rules.MoveVote
	case rules.DecidePick:
		return k == rules.MovePick || k == rules.MoveCycle
	}
	return false
}

// decisionVerb says what a decision asks for, after "it is your turn to".
func decisionVerb(d rules.Decision) string {
	switch d.Kind {
	case rules.DecideDiscard:
		return "discard a chaos card"
	case rules.DecideAction:
		return "take an action (or play a chaos card)"
	case rules.DecideSteal:
		return "answer the steal of " + leaders[d.Leader].Name + " (a chaos card, or pass)"
	case rules.DecideAnswer:
		return "answer the votes on " + rules.BillName(d.Bill) + " (a chaos card, or pass)"
	case rules.DecideVote:
		return "vote on " + rules.BillName(d.Bill)
	case rules.DecidePick:
		return "take a guilty pleasure"
	}
	return "wait"
}

var moveVerbs = map[rules.MoveKind]string{
	rules.MoveTake: "take a favor", rules.MovePlace: "place a favor", rules.MoveInfluence: "influence a leader",
	rules.MoveCall: "call a vote", rules.MoveChaos: "play a chaos card", rules.MovePick: "take a guilty pleasure",
	rules.MoveCycle: "cycle a guilty pleasure", rules.MoveDiscard: "discard a chaos card", rules.MoveVote: "vote",
	rules.MovePass: "pass",
}

// check reports whether m (v's seat's) answers the decision due in v, and if not, why: m must
// be one of v.Legal(), which lists every legal move (a chaos card: of the seat's own hand).
func check(g *rules.Game, v rules.View, m rules.Move) error {
	d := v.Next
	if !asked(v) {
		return ui.ErrNotAsked
	}
	if slices.Contains(v.Legal(), m) {
		return nil
	}
	if !fits(d.Kind, m.Kind) {
		return fmt.Errorf("it is your turn to %s, not to %s", decisionVerb(d), moveVerbs[m.Kind])
	}
	if m.Kind == rules.MoveChaos && !v.Config.Chaos {
		return errors.New("this table plays without chaos cards")
	}
	if _, err := g.Action(m); err != nil {
		return fmt.Errorf("you cannot %s: %s", strings.TrimPrefix(formatMove(v, m), "chaos "), reason(err, v.Seat))
	}
	return fmt.Errorf("you cannot %s now", formatMove(v, m))
}

// reason is the engine's refusal in the person's words: "action: seat 0 cannot influence whip:
// it costs ..." becomes "it costs ...".
func reason(err error, seat int) string {
	s := strings.TrimPrefix(err.Error(), "action: ")
	if i := strings.LastIndex(s, ": "); i >= 0 && strings.HasPrefix(s, fmt.Sprintf("seat %d ", seat)) {
		s = s[i+2:]
	}
	s = strings.ReplaceAll(s, fmt.Sprintf("seat %d has", seat), "you have")
	for it, you := range map[string]string{"it controls": "you control", "it has": "you have", "it discarded": "you discarded"} {
		if strings.HasPrefix(s, it) {
			s = you + s[len(it):]
		}
	}
	return s
}
