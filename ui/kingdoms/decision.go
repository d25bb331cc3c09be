package kingdoms

import (
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
	Kind   string `json:"kind"`   // discard action steal answer vote pick
	Prompt string `json:"prompt"` // the prompt line: what is asked, and what the person may do
	// Why is the rule that makes the decision, in a sentence, for a newcomer ("" for none).
	Why     string   `json:"why,omitempty"`
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
	Text         string `json:"text"`         // the whole guide in words
	Mine         int    `json:"mine"`         // the voters the person controls
	Others       int    `json:"others"`       // the voters the other seats control
}

// buildDecision lists the choices of the decision due in the person's view v, told by t.
func buildDecision(v rules.View, t teller) *Decision {
	d := v.Next
	out := &Decision{Kind: d.Kind.String(), Choices: []Choice{}}
	for _, m := range v.Legal() {
		out.Choices = append(out.Choices, choiceOf(v, m, t))
	}
	switch d.Kind {
	case rules.DecideDiscard:
		out.Prompt = t.say("prompt.discard", "n", rules.PlaysAllowed(v.Players))
		out.Why = t.say("why.discard")
	case rules.DecideAction:
		out.Actions = d.Actions
		out.Prompt = t.plural(d.Actions, "prompt.action")
		if v.Config.Chaos && len(knownHand(v)) > 0 {
			out.Prompt += " " + t.say("prompt.action.chaos")
		}
		out.Why = t.say("why.action")
	case rules.DecideSteal:
		out.Leader = leaders[d.Leader].ID
		out.Prompt = t.say("prompt.steal", "who", capital(t.who(v.Turn)), "leader", t.leaderName(d.Leader))
		answerFields(v, out, t)
	case rules.DecideAnswer:
		out.Bill = rules.BillID(d.Bill)
		yes, no := v.Tally(v.Vote.Votes)
		out.Prompt = t.say("prompt.answer", "bill", t.billName(d.Bill), "yes", yes, "no", no)
		answerFields(v, out, t)
	case rules.DecideVote:
		out.Bill = rules.BillID(d.Bill)
		out.Prompt = t.say("prompt.vote", "bill", t.billName(d.Bill))
		out.Tally = guide(v, d.Bill, t)
		out.Why = t.say("why.vote")
	case rules.DecidePick:
		out.Bill = rules.BillID(d.Bill)
		out.Prompt = t.say("prompt.pick", "bill", capital(t.billName(d.Bill)))
		if bt, ok := billType(v, d.Bill); ok && v.Config.Bonuses {
			out.Prompt += " " + t.say("prompt.pick.bonus", "type", t.ftype(bt), "bonus", t.bonusWords(bt))
		}
		out.Why = t.say("why.pick")
	}
	return out
}

// answerFields says whether the person holds a card it may play now, and when the page sends
// the answer.
func answerFields(v rules.View, out *Decision, t teller) {
	out.AnswerDelayMS = AnswerDelay.Milliseconds()
	for _, c := range out.Choices {
		out.Playable = out.Playable || c.Group == "chaos"
	}
	if !out.Playable {
		out.Prompt += " " + t.say("prompt.answer.none")
	}
	out.Prompt += " " + t.say("why.answer", "n", int(AnswerDelay/time.Second))
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
func guide(v rules.View, bill int, t teller) *voteGuide {
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
	g.Uncontrolled = t.say("tally.uncontrolled", "yes", yes, "no", no)
	g.Text = t.say("tally", "uncontrolled", g.Uncontrolled, "mine", g.Mine, "others", g.Others)
	return g
}

// choiceOf is a legal move as a choice, in words.
func choiceOf(v rules.View, m rules.Move, t teller) Choice {
	c := Choice{Text: formatMove(v, m), Group: m.Kind.String()}
	switch m.Kind {
	case rules.MoveTake:
		c.Favor = favors[m.Favor].ID
		c.Label = t.say("choice.take", "favor", t.favorName(m.Favor), "a", t.a(favors[m.Favor].Minions[0]), "b", t.a(favors[m.Favor].Minions[1]))
	case rules.MovePlace:
		c.Favor, c.Bill = favors[m.Favor].ID, rules.BillID(m.Bill)
		c.Label = t.say("choice.place", "favor", t.favorName(m.Favor), "bill", t.billName(m.Bill))
	case rules.MoveInfluence:
		c.Leader = leaders[m.Leader].ID
		c.Label = influenceWords(v, m, t)
	case rules.MoveCall:
		c.Bill = rules.BillID(m.Bill)
		c.Label = t.say("choice.call", "bill", t.billName(m.Bill))
	case rules.MoveChaos:
		c.Card = chaosCards[m.Card].ID
		c.Label = t.say("choice.chaos", "card", chaosName(m.Card), "what", t.chaosWhat(m))
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
		c.Label = t.say("choice.vote." + yesNo(m.Yes))
	case rules.MovePass:
		c.Label = t.say("choice.pass")
	case rules.MovePick:
		c.Label = pickWords(v, m, t)
		if m.Pleasure >= 0 {
			c.Pleasure = pleasures[m.Pleasure].ID
		}
	case rules.MoveCycle:
		c.Pleasure = pleasures[m.Pleasure].ID
		c.Label = t.say("choice.cycle", "pleasure", t.pleasureName(m.Pleasure))
	case rules.MoveDiscard:
		c.Label = t.say("choice.discard.n", "n", m.Pos+1)
		for _, h := range v.Hand {
			if h.Pos == m.Pos && h.Card >= 0 {
				c.Card = chaosCards[h.Card].ID
				c.Label = t.say("choice.discard", "card", chaosName(h.Card), "text", t.chaosText(chaosCards[h.Card]))
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
			waived = append(waived, t.a(c))
		} else {
			pay = append(pay, t.a(c))
		}
	}
	if owner := v.Control[m.Leader]; owner >= 0 {
		pay = append(pay, t.say("minion.more", "minion", t.a(m.Minion)))
	}
	paid := t.say("pay.nothing")
	if len(pay) > 0 {
		paid = t.joinAnd(pay)
	}
	s := t.say("choice.influence", "leader", t.leaderWords(m.Leader), "pay", paid)
	if owner := v.Control[m.Leader]; owner >= 0 {
		s = t.say("choice.stealfrom", "leader", t.leaderWords(m.Leader), "from", t.who(owner), "pay", paid)
	}
	if len(waived) > 0 {
		s += " " + t.plural(len(waived), "pay.waive", "heart", t.heart(ld.Heart), "minions", t.joinAnd(waived))
	}
	return s
}

// chaosWhat says what playing a chaos card does (after its name).
func (t teller) chaosWhat(m rules.Move) string {
	c := chaosCards[m.Card]
	switch c.Effect {
	case rules.Indulge:
		return t.say("do.indulge", "pleasure", t.pleasureName(m.Pleasure))
	case rules.Coup:
		return t.say("do.coup", "leader", t.leaderWords(m.Leader))
	case rules.Scandal:
		return t.say("do.scandal", "leader", t.leaderWords(m.Leader))
	case rules.Lobby:
		return t.say("do.lobby", "bill", t.billName(m.Bill))
	case rules.Earmark:
		return t.say("do.earmark", "favor", t.favorName(m.Favor), "bill", t.billName(m.Bill))
	case rules.Shred:
		return t.say("do.shred", "favor", t.favorName(m.Favor))
	case rules.Embezzle:
		return t.say("do.embezzle", "minion", t.minion(m.Minion), "from", t.who(m.Target))
	case rules.Ballot:
		return t.say("do.ballot."+yesNo(m.Yes), "n", c.Votes)
	}
	return strings.TrimSuffix(lowerFirst(t.chaosText(c)), ".")
}

func lowerFirst(s string) string {
	for i, r := range s {
		return strings.ToLower(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// yesNo is a vote in words.
func (t teller) yesNo(yes bool) string { return t.say("vote." + yesNo(yes)) }

// pickWords says what a pick takes, with its bonus.
func pickWords(v rules.View, m rules.Move, t teller) string {
	if m.Pleasure < 0 {
		return t.say("choice.pick.none")
	}
	s := t.say("choice.pick", "pleasure", t.pleasureName(m.Pleasure))
	if m.Leader >= 0 {
		s += " " + t.say("choice.pick.remove", "owner", t.who(v.Control[m.Leader]), "leader", t.leaderWords(m.Leader))
	}
	if m.Favor >= 0 {
		s += " " + t.say("choice.pick.exchange", "favor", t.favorName(m.Favor), "other", t.favorName(m.Other))
	}
	if m.Minion != rules.NoMinion {
		s += " " + t.say("choice.pick.minion", "minion", t.a(m.Minion))
	}
	return s
}
