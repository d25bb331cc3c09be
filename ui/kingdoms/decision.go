package kingdoms

import (
	"fmt"
	"strings"
	"time"

	rules "corruption/engine/kingdoms"
)

// AnswerDelay is how long after the table asks the person to answer a steal or a vote the page
// sends the answer, at the earliest: a pass set ahead goes exactly then, whatever the person's
// hand, and an answer chosen sooner waits until then (see Responder and docs/KINGDOMS.md).
const AnswerDelay = 3 * time.Second

// Decision is the person's decision due, with every legal choice: the fields the board adds to
// the shell's (its id and since when).
type Decision struct {
	Kind    string   `json:"kind"` // discard action steal answer vote pick
	Prompt  string   `json:"prompt"`
	Actions int      `json:"actions,omitempty"` // action: actions left this turn
	Bill    string   `json:"bill,omitempty"`    // vote, answer, pick: the bill
	Leader  string   `json:"leader,omitempty"`  // steal: the leader stolen
	Choices []Choice `json:"choices"`
	// Answer decisions (steal, answer): the page sends its answer AnswerDelayMS after the
	// decision was asked, and Playable says whether the person holds a card it may play.
	AnswerDelayMS int64 `json:"answer_delay_ms,omitempty"`
	Playable      bool  `json:"playable,omitempty"`
	// Vote decisions: the count if the person votes yes or no and the other seats vote for
	// what they hold on the bill (a guide, not a promise).
	Tally *voteGuide `json:"tally,omitempty"`
}

// Choice is one legal move: its typed form (what the page posts), in words, and what it names
// on the board (for the board's clickable parts).
type Choice struct {
	Text     string `json:"text"`
	Label    string `json:"label"`
	Group    string `json:"group"` // take place influence call chaos vote pass pick cycle discard
	Favor    string `json:"favor,omitempty"`
	Bill     string `json:"bill,omitempty"`
	Leader   string `json:"leader,omitempty"`
	Pleasure string `json:"pleasure,omitempty"`
	Card     string `json:"card,omitempty"`
}

// voteGuide is what the uncontrolled voters and the seats' own voters say about a vote.
type voteGuide struct {
	Uncontrolled string `json:"uncontrolled"` // the uncontrolled voters: "4 for, 6 against"
	Mine         int    `json:"mine"`         // the voters the person controls
	Others       int    `json:"others"`       // the voters the other seats control
}

// buildDecision lists the choices of the decision due in the person's view v.
func buildDecision(v rules.View, names []string) *Decision {
	d := v.Next
	t := teller{names, v.Seat}
	out := &Decision{Kind: d.Kind.String(), Choices: []Choice{}}
	for _, m := range v.Legal() {
		out.Choices = append(out.Choices, choiceOf(v, m, t))
	}
	switch d.Kind {
	case rules.DecideDiscard:
		n := rules.PlaysAllowed(v.Players)
		out.Prompt = fmt.Sprintf("Discard one of your chaos cards face down; you may play the other %d during the game. Nobody will ever see which card you discarded.", n)
	case rules.DecideAction:
		out.Actions = d.Actions
		out.Prompt = fmt.Sprintf("Your turn: %d %s left. Take a favor (for its minions, or onto a bill), influence a leader, or call a vote on a bill of a kingdom where you control a leader.",
			d.Actions, plural(d.Actions, "action", "actions"))
		if v.Config.Chaos && len(knownHand(v)) > 0 {
			out.Prompt += " You may play a chaos card first (not an action)."
		}
	case rules.DecideSteal:
		out.Leader = leaders[d.Leader].ID
		out.Prompt = fmt.Sprintf("%s is stealing %s from you. You may answer with a chaos card, or pass.", capital(t.who(v.Turn)), leaders[d.Leader].Name)
		answerFields(v, out)
	case rules.DecideAnswer:
		out.Bill = rules.BillID(d.Bill)
		yes, no := v.Tally(v.Vote.Votes)
		out.Prompt = fmt.Sprintf("The votes on %s are revealed: %d for, %d against. You may answer with a chaos card, or pass.", rules.BillName(d.Bill), yes, no)
		answerFields(v, out)
	case rules.DecideVote:
		out.Bill = rules.BillID(d.Bill)
		out.Prompt = fmt.Sprintf("Vote on %s, in secret: your voters vote as you do. The votes are revealed together once every player has voted.", rules.BillName(d.Bill))
		out.Tally = guide(v, d.Bill)
	case rules.DecidePick:
		out.Bill = rules.BillID(d.Bill)
		out.Prompt = fmt.Sprintf("%s passed: take a guilty pleasure from the display (or none).", capital(rules.BillName(d.Bill)))
		if bt, ok := billType(v, d.Bill); ok && v.Config.Bonuses {
			out.Prompt += fmt.Sprintf(" It is a %s bill: %s.", bt, bonusWords(bt))
		}
	}
	return out
}

// answerFields says whether the person holds a card it may play now, and when the page sends
// the answer.
func answerFields(v rules.View, out *Decision) {
	out.AnswerDelayMS = AnswerDelay.Milliseconds()
	for _, c := range out.Choices {
		out.Playable = out.Playable || c.Group == "chaos"
	}
	if !out.Playable {
		out.Prompt += " You hold no chaos card you may play now."
	}
	out.Prompt += fmt.Sprintf(" Your answer is sent %d s after the table asked, whatever you hold, so that nobody learns from the timing whether you could have played one.", AnswerDelay/time.Second)
}

func billType(v rules.View, bill int) (rules.FavorType, bool) {
	for _, b := range v.Bills {
		if b.Bill == bill && len(b.Favors) > 0 {
			return favors[b.Favors[0].Favor].Type, true
		}
	}
	return 0, false
}

// guide counts the voters on bill: the uncontrolled ones as the rules make them vote, the
// person's, and the other seats'.
func guide(v rules.View, bill int) *voteGuide {
	has := map[rules.FavorType]bool{}
	for _, b := range v.Bills {
		if b.Bill == bill {
			for _, f := range b.Favors {
				has[favors[f.Favor].Type] = true
			}
		}
	}
	g := &voteGuide{}
	var yes, no int
	count := func(controller int, prefers rules.FavorType, senator bool) {
		switch {
		case controller == v.Seat:
			g.Mine++
		case controller >= 0:
			g.Others++
		case !senator && has[prefers]:
			yes++
		default:
			no++
		}
	}
	k := rules.BillKingdom(bill)
	for s := range rules.SenateBoards(v.Players) {
		for _, l := range senates[s].Leaders {
			count(v.Control[l], 0, true)
		}
	}
	for _, l := range realms[k].Leaders {
		count(v.Control[l], leaders[l].Prefers, false)
	}
	count(v.Monarchs[k], realms[k].Prefers, false)
	g.Uncontrolled = fmt.Sprintf("%d for, %d against", yes, no)
	return g
}

// choiceOf is a legal move as a choice, in words.
func choiceOf(v rules.View, m rules.Move, t teller) Choice {
	c := Choice{Text: formatMove(v, m), Group: m.Kind.String()}
	switch m.Kind {
	case rules.MoveTake:
		c.Favor = favors[m.Favor].ID
		c.Label = fmt.Sprintf("Take %s for %s and %s", favors[m.Favor].ID, a(favors[m.Favor].Minions[0].String()), a(favors[m.Favor].Minions[1].String()))
	case rules.MovePlace:
		c.Favor, c.Bill = favors[m.Favor].ID, rules.BillID(m.Bill)
		c.Label = fmt.Sprintf("Place %s on %s", favors[m.Favor].ID, rules.BillName(m.Bill))
	case rules.MoveInfluence:
		c.Leader = leaders[m.Leader].ID
		c.Label = influenceWords(v, m, t)
	case rules.MoveCall:
		c.Bill = rules.BillID(m.Bill)
		c.Label = "Call a vote on " + rules.BillName(m.Bill)
	case rules.MoveChaos:
		c.Card = chaosCards[m.Card].ID
		c.Label = chaosWords(m, t)
		switch chaosCards[m.Card].Effect {
		case rules.Coup, rules.Scandal:
			c.Leader = leaders[m.Leader].ID
		case rules.Lobby:
			c.Bill = rules.BillID(m.Bill)
		case rules.Earmark:
			c.Favor, c.Bill = favors[m.Favor].ID, rules.BillID(m.Bill)
		case rules.Shred:
			c.Favor = favors[m.Favor].ID
		case rules.Indulge:
			c.Pleasure = pleasures[m.Pleasure].ID
		}
	case rules.MoveVote:
		c.Label = "Vote " + yesNo(m.Yes)
	case rules.MovePass:
		c.Label = "Pass (play no chaos card)"
	case rules.MovePick:
		c.Label = pickWords(v, m, t)
		if m.Pleasure >= 0 {
			c.Pleasure = pleasures[m.Pleasure].ID
		}
	case rules.MoveCycle:
		c.Pleasure = pleasures[m.Pleasure].ID
		c.Label = fmt.Sprintf("First put %s under the deck and draw another in its place (environment bonus)", pleasures[m.Pleasure].ID)
	case rules.MoveDiscard:
		c.Label = fmt.Sprintf("Discard card %d face down", m.Pos+1)
		for _, h := range v.Hand {
			if h.Pos == m.Pos && h.Card >= 0 {
				c.Card = chaosCards[h.Card].ID
				c.Label = fmt.Sprintf("Discard %s face down (%s)", chaosCards[h.Card].Name, chaosCards[h.Card].Text())
			}
		}
	}
	return c
}

// influenceWords says what influencing a leader costs: "Influence the Whip: pay a goblin and a
// zombie", "Steal the Marshal from bob: pay a golem (your feasts waives a golem) and a devil".
func influenceWords(v rules.View, m rules.Move, t teller) string {
	ld := leaders[m.Leader]
	var pay, waived []string
	for i, c := range ld.Cost {
		if m.Waive&(1<<i) != 0 {
			waived = append(waived, a(c.String()))
		} else {
			pay = append(pay, a(c.String()))
		}
	}
	verb := "Influence " + leaderWords(m.Leader)
	if owner := v.Control[m.Leader]; owner >= 0 {
		verb = fmt.Sprintf("Steal %s from %s", leaderWords(m.Leader), t.who(owner))
		pay = append(pay, a(m.Minion.String())+" more")
	}
	s := verb + ": pay "
	if len(pay) == 0 {
		s += "nothing"
	} else {
		s += joinAnd(pay)
	}
	if len(waived) > 0 {
		s += fmt.Sprintf(" (your %s %s %s)", ld.Heart, plural(len(waived), "waives", "waive"), joinAnd(waived))
	}
	return s
}

// chaosWords says what playing a chaos card does.
func chaosWords(m rules.Move, t teller) string {
	c := chaosCards[m.Card]
	s := "Play " + c.Name + ": "
	switch c.Effect {
	case rules.Indulge:
		return s + "take " + pleasures[m.Pleasure].ID + " from the display"
	case rules.Coup:
		return s + "take control of " + leaderWords(m.Leader) + ", paying nothing"
	case rules.Scandal:
		return s + "remove the marker on " + leaderWords(m.Leader)
	case rules.Lobby:
		return s + "call a vote on " + rules.BillName(m.Bill)
	case rules.Earmark:
		return s + "place " + favors[m.Favor].ID + " on " + rules.BillName(m.Bill)
	case rules.Shred:
		return s + "discard " + favors[m.Favor].ID + " from its bill"
	case rules.Embezzle:
		return s + fmt.Sprintf("take up to two %ss from %s", m.Minion, t.who(m.Target))
	case rules.Ballot:
		return s + fmt.Sprintf("add %d votes %s", c.Votes, map[bool]string{true: "for", false: "against"}[m.Yes])
	}
	return s + strings.TrimSuffix(lowerFirst(c.Text()), ".")
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]-'A'+'a') + s[1:]
}

// pickWords says what a pick takes, with its bonus.
func pickWords(v rules.View, m rules.Move, t teller) string {
	if m.Pleasure < 0 {
		return "Take no guilty pleasure"
	}
	s := "Take " + pleasures[m.Pleasure].ID
	if m.Leader >= 0 {
		s += fmt.Sprintf(" and remove %s marker from %s", t.whose(v.Control[m.Leader]), leaderWords(m.Leader))
	}
	if m.Favor >= 0 {
		s += " and exchange your " + favors[m.Favor].ID + " for " + favors[m.Other].ID + " of the market"
	}
	if m.Minion != rules.NoMinion {
		s += " and " + a(m.Minion.String()) + " from the supply"
	}
	return s
}
