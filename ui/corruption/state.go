package corruption

import (
	"fmt"

	rules "corruption/engine/corruption"
	"corruption/ui"
)

// gameState is the board as the person's view shows it.
type gameState struct {
	Round      int         `json:"round"`
	Phase      string      `json:"phase"`
	First      int         `json:"first"`
	FaceUp     []int       `json:"face_up"`
	FaceUpRule string      `json:"face_up_rule"`
	Next       nextState   `json:"next"`
	Bodies     []bodyState `json:"bodies"`
	Cards      []cardState `json:"cards"` // this round's cards, in play order
	Hand       []handCard  `json:"hand"`
	NextUp     bool        `json:"next_face_up"` // the person's next card goes face up under a contract
}

// nextState is the decision due, whoever's it is.
type nextState struct {
	Kind  string `json:"kind"` // deal faceup place reveal assign kill remove none
	Seat  int    `json:"seat"`
	Index int    `json:"index,omitempty"`
	Step  int    `json:"step,omitempty"` // the awarding step (1 to 5)
	Text  string `json:"text"`
}

// bodyState is one government body: its Swiss account and its contracts on the table.
type bodyState struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Swiss     string          `json:"swiss"` // the account's spot
	Contracts []contractState `json:"contracts"`
}

// contractState is one contract on the table.
type contractState struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Value     int    `json:"value"`
	Deferred  bool   `json:"deferred"`
	Cancelled bool   `json:"cancelled"`
}

// cardState is one placed card. Card is empty when the person may not see it.
type cardState struct {
	Index    int    `json:"index"`
	Seat     int    `json:"seat"`
	Spot     string `json:"spot"`
	Pos      int    `json:"pos"`
	Card     string `json:"card,omitempty"`
	Label    string `json:"label"`
	FaceUp   bool   `json:"face_up"`  // placed face up
	Revealed bool   `json:"revealed"` // public
	Mine     bool   `json:"mine"`
	Peeked   bool   `json:"peeked"`          // the person peeked at it
	Known    bool   `json:"known,omitempty"` // another seat's face-down card the person's node knows: its seat is open (openCards)
	Dead     bool   `json:"dead,omitempty"`
	Removed  bool   `json:"removed,omitempty"`
	Assigned string `json:"assigned,omitempty"` // a Swiss bribe's contract
}

// handCard is a card in the person's hand.
type handCard struct {
	Card  string `json:"card"`
	Label string `json:"label"`
}

// Decision is the person's decision due, with every legal choice: the fields the board adds to
// the shell's (its id and since when).
type Decision struct {
	Kind     string        `json:"kind"` // faceup place assign kill remove
	Index    int           `json:"index,omitempty"`
	Prompt   string        `json:"prompt"`
	CanPeek  bool          `json:"can_peek,omitempty"`
	Peekable []int         `json:"peekable,omitempty"`
	Cards    []CardChoice  `json:"cards,omitempty"`    // place: each card in hand and where it may go
	Assign   []ContractRef `json:"assign,omitempty"`   // assign: the contracts
	Targets  []int         `json:"targets,omitempty"`  // kill, remove: the cards
	CanPass  bool          `json:"can_pass,omitempty"` // remove
	Placed   int           `json:"placed"`             // cards the person placed this round
}

// CardChoice is a card the person may place and the spots it may go to.
type CardChoice struct {
	Card  string   `json:"card"`
	Label string   `json:"label"`
	Spots []string `json:"spots"`
}

// ContractRef names a contract.
type ContractRef struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Value int    `json:"value"`
}

// buildGame describes the board from v (and nothing else but the players' names).
func (b Board) buildGame(v rules.View, names []string) *gameState {
	g := &gameState{Round: v.Round(), Phase: v.Phase().String(), First: v.First(), FaceUp: v.FaceUp().List(),
		FaceUpRule: b.faceUpRule(v, names), NextUp: v.NextFaceUp(), Cards: []cardState{}, Hand: []handCard{}}
	d := v.Next()
	g.Next = nextState{Kind: d.Kind.String(), Seat: d.Seat, Index: d.Index, Step: awardingStep(d.Kind), Text: b.dueText(v, d, names)}
	table := v.Table()
	for body := rules.Body(0); body < rules.NumBodies; body++ {
		bs := bodyState{ID: body.String(), Name: b.bodyName(body), Swiss: rules.SwissSpot(body).String(), Contracts: []contractState{}}
		for _, c := range table {
			if v.ContractBody(c) == body {
				bs.Contracts = append(bs.Contracts, contractState{ID: c.String(), Name: b.contractName(c), Value: c.Value(),
					Deferred: v.Deferred(c), Cancelled: v.Cancelled(c)})
			}
		}
		g.Bodies = append(g.Bodies, bs)
	}
	me := v.Seat()
	for i := 1; i <= v.NumPlays(); i++ {
		p, _ := v.Play(i)
		cs := cardState{Index: i, Seat: p.Seat, Spot: p.Spot.String(), Pos: p.Pos, FaceUp: p.FaceUp,
			Revealed: p.Revealed, Mine: p.Seat == me, Peeked: p.PeekedBy&(1<<me) != 0, Dead: p.Dead, Removed: p.Removed}
		if p.Card != rules.CardUnknown {
			cs.Card = p.Card.String()
		}
		cs.Label = b.cardLabel(p.Card)
		if p.IsAssigned {
			cs.Assigned = p.Assigned.String()
		}
		g.Cards = append(g.Cards, cs)
	}
	if !v.Over() {
		for _, c := range v.Hand() {
			g.Hand = append(g.Hand, handCard{Card: c.String(), Label: b.cardLabel(c)})
		}
	}
	return g
}

// openCards shows, on the board drawn for the person, the face-down cards of the other seats
// that the person's node knows without having peeked at them: an open seat's (its player left
// and every node rebuilt its secret, protocol/depart.go; the node's game learns that seat's
// cards, which the seat's own view, not the person's, would show). They are marked Known.
func (b Board) openCards(g *gameState, s *rules.State) {
	for i := range g.Cards {
		c := &g.Cards[i]
		if c.Card != "" {
			continue
		}
		if p, ok := s.PlayAt(c.Index); ok && p.Card != rules.CardUnknown {
			c.Card, c.Label, c.Known = p.Card.String(), b.cardLabel(p.Card), true
		}
	}
}

func awardingStep(k rules.DecisionKind) int {
	switch k {
	case rules.DecideReveal:
		return 0
	case rules.DecideAssign:
		return 1
	case rules.DecideKill:
		return 2
	case rules.DecideRemove:
		return 4
	}
	return 0
}

// faceUpRule says which cards go face up this round.
func (b Board) faceUpRule(v rules.View, names []string) string {
	variant := b.variantName(v.Config().Variant)
	if v.Phase() == rules.PhaseFaceUp || (v.Config().Variant == rules.FreeStud && v.Phase() == rules.PhaseDeal) {
		return b.say("rule.choose", "variant", variant, "who", b.who(names, v.First(), v.Seat()))
	}
	ps := v.FaceUp().List()
	if len(ps) == 0 {
		return b.say("rule.none", "variant", variant)
	}
	words := make([]string, len(ps))
	for i, p := range ps {
		words[i] = fmt.Sprint(p)
	}
	key := "rule.one"
	if len(ps) > 1 {
		key = "rule.many"
	}
	return b.say(key, "variant", variant, "list", b.joinAnd(words))
}

// dueText says in words what the game waits for.
func (b Board) dueText(v rules.View, d rules.Decision, names []string) string {
	you := d.Seat == v.Seat()
	key := "due." + d.Kind.String()
	if you && d.Seat >= 0 {
		key += ".you"
	}
	switch d.Kind {
	case rules.DecideNothing, rules.DecideDeal, rules.DecideFaceUp, rules.DecidePlace, rules.DecideReveal,
		rules.DecideAssign, rules.DecideKill, rules.DecideRemove:
		n := 0
		if d.Seat >= 0 {
			n = v.Placed(d.Seat) + 1
		}
		return capital(b.say(key, "who", ui.SeatName(names, d.Seat), "n", n, "index", d.Index))
	}
	return d.String()
}

// seatState is a seat's fields of the board's (the shell adds its name, whether it is due and
// whether it won).
type seatState struct {
	Score     int      `json:"score"`
	Contracts []string `json:"contracts"` // names of the contracts won, in the board's language
	Values    []int    `json:"values"`    // and what each is worth: the score is their sum
	Placed    int      `json:"placed"`    // cards placed this round
	DA        int      `json:"da"`        // characters left when the round began
	Reporters int      `json:"reporters"`
	HitMen    int      `json:"hitmen"`
	Peeks     int      `json:"peeks"`
}

// seatFields describes seat from the person's view (zero before the game starts).
func (b Board) seatFields(v rules.View, started bool, seat int) seatState {
	s := seatState{Contracts: []string{}, Values: []int{}}
	if !started {
		return s
	}
	s.Score, _ = v.Score(seat)
	for _, c := range v.Won(seat) {
		s.Contracts = append(s.Contracts, b.contractName(c))
		s.Values = append(s.Values, c.Value())
	}
	s.Placed = v.Placed(seat)
	s.DA, s.Reporters, s.HitMen = v.CharactersLeft(seat)
	s.Peeks = v.PeeksLeft(seat)
	return s
}

// buildDecision lists the choices of the decision due in the person's view v.
func (b Board) buildDecision(v rules.View, names []string) *Decision {
	d := v.Next()
	out := &Decision{Kind: d.Kind.String(), Index: d.Index, Placed: v.Placed(v.Seat())}
	switch d.Kind {
	case rules.DecideFaceUp:
		out.Prompt = b.say("prompt.faceup")
	case rules.DecidePlace:
		b.placeChoices(v, d, out)
	case rules.DecideAssign:
		p, _ := v.Play(d.Index)
		out.Prompt = b.say("prompt.assign", "card", b.cardLabel(p.Card), "body", b.bodyName(p.Spot.SwissBody()), "index", d.Index)
		for _, c := range v.AssignOptions() {
			out.Assign = append(out.Assign, ContractRef{ID: c.String(), Name: b.contractName(c), Value: c.Value()})
		}
	case rules.DecideKill:
		p, _ := v.Play(d.Index)
		out.Prompt = b.say("prompt.kill", "contract", b.contractName(p.Spot.Contract()), "index", d.Index)
		out.Targets = v.KillTargets()
	case rules.DecideRemove:
		p, _ := v.Play(d.Index)
		out.Prompt = b.say("prompt.remove", "contract", b.contractName(p.Spot.Contract()), "index", d.Index)
		out.Targets, out.CanPass = v.RemoveOptions(), true
	}
	return out
}

// placeChoices fills a placement's prompt, the cards the person may peek at first, and each
// card of the hand with the places it may go.
func (b Board) placeChoices(v rules.View, d rules.Decision, out *Decision) {
	where := b.say("where.down")
	if v.NextFaceUp() {
		where = b.say("where.up")
	}
	out.Prompt = b.say("prompt.place", "n", v.Placed(v.Seat())+1, "where", where)
	out.CanPeek, out.Peekable = d.CanPeek, v.Peekable()
	if out.CanPeek {
		key := "prompt.peek"
		if n := v.PeeksLeft(v.Seat()); n == 1 {
			key = "prompt.peek.one"
		}
		out.Prompt += " " + b.say(key, "n", v.PeeksLeft(v.Seat()))
	}
	var spots []rules.Spot
	for _, c := range v.Table() {
		spots = append(spots, rules.ContractSpot(c))
	}
	for body := rules.Body(0); body < rules.NumBodies; body++ {
		spots = append(spots, rules.SwissSpot(body))
	}
	seen := map[rules.Card]bool{}
	for _, c := range v.Hand() {
		if seen[c] {
			continue
		}
		seen[c] = true
		cc := CardChoice{Card: c.String(), Label: b.cardLabel(c), Spots: []string{}}
		for _, s := range spots {
			if v.CanPlay(c, s) == nil {
				cc.Spots = append(cc.Spots, s.String())
			}
		}
		out.Cards = append(out.Cards, cc)
	}
}
