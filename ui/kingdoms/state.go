package kingdoms

import (
	rules "corruption/engine/kingdoms"
)

// gameState is the board as the person's view shows it.
type gameState struct {
	Rules     string    `json:"rules"`
	RulesText string    `json:"rules_text"`
	Bonuses   bool      `json:"bonuses"`
	Chaos     bool      `json:"chaos"`
	Players   int       `json:"players"`
	Round     int       `json:"round"`
	Turn      int       `json:"turn"` // the seat whose turn it is (-1 before the first)
	First     int       `json:"first"`
	Actions   int       `json:"actions"` // actions left in the turn
	Phase     string    `json:"phase"`   // setup, turn, vote, final, over
	Ending    string    `json:"ending,omitempty"`
	Next      nextState `json:"next"`

	Senates      []senateState    `json:"senates"`
	Kingdoms     []kingdomState   `json:"kingdoms"`
	Market       []*favorState    `json:"market"` // by slot, null when empty
	FavorDeck    int              `json:"favor_deck"`
	FavorDiscard int              `json:"favor_discard"`
	Display      []*pleasureState `json:"display"` // by slot, null when empty
	PleasureDeck int              `json:"pleasure_deck"`
	Supply       minionCounts     `json:"supply"`
	Vote         *voteState       `json:"vote"`

	Hand         []chaosState `json:"hand"`         // the person's chaos cards
	Shareholders []string     `json:"shareholders"` // the person's shareholder cards' types
}

// nextState is the decision due, whoever's it is.
type nextState struct {
	Kind  string `json:"kind"` // nothing discard action steal answer vote pick
	Seat  int    `json:"seat"`
	Seats []int  `json:"seats,omitempty"`
	Text  string `json:"text"`
}

// minionCounts are golems, goblins, devils and zombies.
type minionCounts struct {
	Golem  int `json:"golem"`
	Goblin int `json:"goblin"`
	Devil  int `json:"devil"`
	Zombie int `json:"zombie"`
}

func countsOf(m [rules.NumMinions]int) minionCounts {
	return minionCounts{Golem: m[rules.Golem], Goblin: m[rules.Goblin], Devil: m[rules.Devil], Zombie: m[rules.Zombie]}
}

type senateState struct {
	ID      string        `json:"id"`
	Name    string        `json:"name"`
	Leaders []leaderState `json:"leaders"`
}

type kingdomState struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	Monarch   string        `json:"monarch"`
	Prefers   string        `json:"prefers"`   // the monarch's favor type
	Allegiant int           `json:"allegiant"` // the seat the monarch is allegiant to, -1
	Leaders   []leaderState `json:"leaders"`
	Bills     []billState   `json:"bills"`
}

// leaderState is a senate or kingdom leader: its cost, heart and preference, its controller,
// and what it would cost the person now.
type leaderState struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Cost       [2]string `json:"cost"`
	Heart      string    `json:"heart"`
	Prefers    string    `json:"prefers,omitempty"` // a kingdom leader's favor type
	Controller int       `json:"controller"`        // a seat, -1
	Discount   int       `json:"discount"`          // cost minions the person's guilty pleasures may waive
}

// billState is a bill slot and its favors, top to bottom, each with its owner's marker.
type billState struct {
	ID     string      `json:"id"`
	Name   string      `json:"name"`
	Favors []billFavor `json:"favors"`
	Type   string      `json:"type,omitempty"`  // the top favor's type: the bill's bonus
	Bonus  string      `json:"bonus,omitempty"` // what it gives when it passes (bill bonuses)
	Voting bool        `json:"voting"`          // the vote under way is on it
}

type billFavor struct {
	Favor   string    `json:"favor"`
	Type    string    `json:"type"`
	Minions [2]string `json:"minions"`
	Seat    int       `json:"seat"`
}

type favorState struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Minions [2]string `json:"minions"`
}

type pleasureState struct {
	ID    string `json:"id"`
	Heart string `json:"heart"`
	Type  string `json:"type"`
}

// voteState is the vote under way; the votes are shown all at once, when revealed.
type voteState struct {
	Bill     string `json:"bill"`
	BillName string `json:"bill_name"`
	Caller   int    `json:"caller"` // a seat, -1 automatic (a fifth favor), -2 final voting
	Seats    []int  `json:"seats"`  // the seats voting
	Revealed bool   `json:"revealed"`
	Votes    []int  `json:"votes"` // by seat, once revealed: 1 yes, 0 no, -1 none
	Yes      int    `json:"yes"`   // the count, once revealed (with chaos cards' votes)
	No       int    `json:"no"`
	ExtraYes int    `json:"extra_yes"`
	ExtraNo  int    `json:"extra_no"`
	Veto     bool   `json:"veto"`
	Text     string `json:"text"`
}

// chaosState is one of the person's chaos cards.
type chaosState struct {
	Pos       int    `json:"pos"`
	Card      string `json:"card,omitempty"` // empty while unknown
	Name      string `json:"name"`
	Effect    string `json:"effect,omitempty"`
	When      string `json:"when,omitempty"`
	Text      string `json:"text,omitempty"`
	Discarded bool   `json:"discarded"`
	Played    bool   `json:"played"`
}

func favorOf(f int) *favorState {
	if f < 0 {
		return nil
	}
	fv := favors[f]
	return &favorState{ID: fv.ID, Type: fv.Type.String(), Minions: [2]string{fv.Minions[0].String(), fv.Minions[1].String()}}
}

func pleasureOf(p int) *pleasureState {
	if p < 0 {
		return nil
	}
	gp := pleasures[p]
	return &pleasureState{ID: gp.ID, Heart: gp.Heart.String(), Type: gp.Type.String()}
}

func leaderOf(v rules.View, l int, t teller) leaderState {
	ld := leaders[l]
	s := leaderState{ID: ld.ID, Name: t.leaderName(l), Cost: [2]string{ld.Cost[0].String(), ld.Cost[1].String()},
		Heart: ld.Heart.String(), Controller: v.Control[l]}
	if ld.Kingdom >= 0 {
		s.Prefers = ld.Prefers.String()
	}
	if v.Seat >= 0 && v.Playing {
		s.Discount = v.Discount(l)
	}
	return s
}

// setupDecks are the favors and guilty pleasures left in the decks while the table sets up
// (the view counts them only once play starts): every card of a deck but those dealt face up,
// once the deck is dealt from.
func setupDecks(v rules.View) (favors, pleasures int) {
	count := func(cards []int) int {
		n := 0
		for _, c := range cards {
			if c >= 0 {
				n++
			}
		}
		return n
	}
	if n := count(v.Market); n > 0 {
		favors = int(rules.NumFavorTypes)*rules.FavorsPerType(v.Players) - n
	}
	if n := count(v.Display); n > 0 {
		pleasures = rules.NumPleasures - n
	}
	return favors, pleasures
}

// buildGame describes the board from v (and nothing else but the players' names), told by t.
func buildGame(v rules.View, t teller) *gameState {
	g := &gameState{Rules: v.Config.String(), RulesText: t.rulesWords(v.Config), Bonuses: v.Config.Bonuses, Chaos: v.Config.Chaos,
		Players: v.Players, Round: v.Round, Turn: v.Turn, First: v.First, FavorDeck: v.FavorDeck,
		FavorDiscard: len(v.FavorDiscard), PleasureDeck: v.PleasureDeck, Supply: countsOf(v.Supply),
		Hand: []chaosState{}, Shareholders: []string{}}
	if !v.Playing {
		g.FavorDeck, g.PleasureDeck = setupDecks(v)
	}
	if v.Next.Kind == rules.DecideAction {
		g.Actions = v.Next.Actions
	}
	g.Phase = phaseOf(v)
	if v.Ending != rules.NotEnding {
		g.Ending = t.endingWords(v.Ending)
	}
	g.Next = nextState{Kind: v.Next.Kind.String(), Seat: v.Next.Seat, Seats: v.Next.Seats, Text: dueText(v, t)}
	for s := range rules.SenateBoards(v.Players) {
		ss := senateState{ID: senates[s].ID, Name: t.senateName(s)}
		for _, l := range senates[s].Leaders {
			ss.Leaders = append(ss.Leaders, leaderOf(v, l, t))
		}
		g.Senates = append(g.Senates, ss)
	}
	voting := -1
	if v.Vote != nil {
		voting = v.Vote.Bill
	}
	for k := range rules.KingdomBoards(v.Players) {
		kd := realms[k]
		ks := kingdomState{ID: kd.ID, Name: kd.Name, Monarch: t.monarchName(k), Prefers: kd.Prefers.String(), Allegiant: v.Monarchs[k]}
		for _, l := range kd.Leaders {
			ks.Leaders = append(ks.Leaders, leaderOf(v, l, t))
		}
		for _, b := range v.Bills {
			if rules.BillKingdom(b.Bill) == k {
				ks.Bills = append(ks.Bills, billOf(v, b, voting, t))
			}
		}
		g.Kingdoms = append(g.Kingdoms, ks)
	}
	for _, f := range v.Market {
		g.Market = append(g.Market, favorOf(f))
	}
	for _, p := range v.Display {
		g.Display = append(g.Display, pleasureOf(p))
	}
	if v.Vote != nil {
		g.Vote = voteOf(v, t)
	}
	for _, h := range v.Hand {
		g.Hand = append(g.Hand, chaosOf(h, t))
	}
	for _, t := range v.Shareholders {
		g.Shareholders = append(g.Shareholders, t.String())
	}
	return g
}

// chaosOf is a chaos card dealt to a seat, as far as the person's node knows it.
func chaosOf(h rules.HeldCard, t teller) chaosState {
	cs := chaosState{Pos: h.Pos, Name: t.say("chaos.unknown"), Discarded: h.Discarded, Played: h.Played}
	if h.Card >= 0 {
		c := chaosCards[h.Card]
		cs.Card, cs.Name, cs.Effect, cs.When, cs.Text = c.ID, c.Name, t.say("effect.name."+c.Effect.String()), t.effectWhen(c.Effect), t.chaosText(c)
	}
	return cs
}

func billOf(v rules.View, b rules.BillView, voting int, t teller) billState {
	bs := billState{ID: rules.BillID(b.Bill), Name: t.billName(b.Bill), Favors: []billFavor{}, Voting: b.Bill == voting}
	for _, f := range b.Favors {
		fv := favors[f.Favor]
		bs.Favors = append(bs.Favors, billFavor{Favor: fv.ID, Type: fv.Type.String(),
			Minions: [2]string{fv.Minions[0].String(), fv.Minions[1].String()}, Seat: f.Seat})
	}
	if len(b.Favors) > 0 {
		ft, tl := favors[b.Favors[0].Favor].Type, t
		bs.Type = ft.String()
		if v.Config.Bonuses {
			bs.Bonus = tl.bonusWords(ft)
		}
	}
	return bs
}

func voteOf(v rules.View, t teller) *voteState {
	vv := v.Vote
	vs := &voteState{Bill: rules.BillID(vv.Bill), BillName: t.billName(vv.Bill), Caller: vv.Caller, Seats: vv.Seats,
		Revealed: vv.Revealed, Votes: vv.Votes, ExtraYes: vv.ExtraYes, ExtraNo: vv.ExtraNo, Veto: vv.Veto}
	if vs.Seats == nil {
		vs.Seats = []int{}
	}
	if vv.Revealed {
		vs.Yes, vs.No = v.Tally(vv.Votes)
		vs.Text = t.say("vote.revealed", "bill", vs.BillName, "yes", vs.Yes, "no", vs.No)
		if vv.Veto {
			vs.Text += t.say("vote.vetoed")
		}
		return vs
	}
	var who []string
	for _, s := range vv.Seats {
		who = append(who, t.who(s))
	}
	vs.Text = t.say("vote.under.way", "bill", vs.BillName, "voting", t.agree(vv.Seats, "vote.secret", "who", t.joinAnd(who)))
	if len(who) == 0 {
		vs.Text = t.say("vote.under.way.nobody", "bill", vs.BillName)
	}
	return vs
}

func phaseOf(v rules.View) string {
	switch {
	case v.Over:
		return "over"
	case !v.Playing:
		return "setup"
	case v.Final:
		return "final"
	case v.Vote != nil:
		return "vote"
	}
	return "turn"
}

func (t teller) endingWords(r rules.EndReason) string {
	switch r {
	case rules.EndFavors:
		return t.say("ending.favors")
	case rules.EndPleasures:
		return t.say("ending.pleasures")
	case rules.EndRounds:
		return t.say("ending.rounds", "n", rules.MaxRounds)
	}
	return ""
}

// dueText says in words what the game waits for.
func dueText(v rules.View, t teller) string {
	d := v.Next
	who := capital(t.who(d.Seat))
	switch d.Kind {
	case rules.DecideNothing:
		switch {
		case v.Over:
			return t.say("due.over")
		case !v.Playing:
			return t.say("due.setup")
		}
		return t.say("due.deals")
	case rules.DecideDiscard:
		return t.you(d.Seat, "due.discard", "who", who)
	case rules.DecideAction:
		return t.you(d.Seat, "due.action", "who", t.who(d.Seat), "round", v.Round, "n", d.Actions)
	case rules.DecideSteal:
		return t.you(d.Seat, "due.steal", "who", who, "leader", t.leaderName(d.Leader))
	case rules.DecideAnswer:
		return t.you(d.Seat, "due.answer", "who", who, "bill", t.billName(d.Bill))
	case rules.DecideVote:
		var ws []string
		for _, s := range d.Seats {
			ws = append(ws, t.who(s))
		}
		return capital(t.say("due.vote", "bill", t.billName(d.Bill), "voting", t.agree(d.Seats, "vote.secret", "who", t.joinAnd(ws))))
	case rules.DecidePick:
		return t.you(d.Seat, "due.pick", "who", who)
	}
	return d.String()
}

// seatState is a seat's fields of the board's (the shell adds its name, whether it is due and
// whether it won).
type seatState struct {
	Corp         string          `json:"corp"`
	CorpName     string          `json:"corp_name"`
	Mat          []string        `json:"mat"`
	Minions      minionCounts    `json:"minions"`
	MinionTotal  int             `json:"minion_total"`
	Pleasures    []pleasureState `json:"pleasures"`
	Pile         int             `json:"pile"`         // favors in its score pile
	PileTypes    map[string]int  `json:"pile_types"`   // by favor type
	Leaders      []string        `json:"leaders"`      // the leaders it controls
	Monarchs     []string        `json:"monarchs"`     // the monarchs allegiant to it
	ChaosLeft    int             `json:"chaos_left"`   // chaos cards it may still play
	ChaosPlayed  []string        `json:"chaos_played"` // the chaos cards it played, by name
	Shareholders []string        `json:"shareholders"` // shown at the end
	Score        int             `json:"score"`        // as the person knows it (its own shareholder cards counted)
	Parts        *rules.Score    `json:"score_parts"`  // favors, shareholder, pleasures, total, minions
	Turn         bool            `json:"turn"`         // it is its turn
	First        bool            `json:"first"`        // the starting player
	// Known is another seat's secret cards that the person's node knows: an open seat's (its
	// player left, openCards); nil for every other seat.
	Known *knownState `json:"known,omitempty"`
}

// knownState is an open seat's secret cards as the person's node knows them: its shareholder
// cards' types and its chaos cards, the one it discarded face down marked.
type knownState struct {
	Shareholders []string     `json:"shareholders"`
	Hand         []chaosState `json:"hand"`
}

// openCards is seat's secret cards that the person's node (kg, the person at me) knows though
// they are not its own: those of an open seat, whose player left and whose secret every node
// rebuilt (protocol/depart.go); the node's game learnt them as if they were its own, so seat's
// own view of the node's game shows them. Nil for the person's seat and for any seat of which
// the node knows no secret card (every seat but an open one).
func openCards(kg *rules.Game, me, seat int, t teller) *knownState {
	if kg == nil || seat == me || seat < 0 || seat >= kg.Players() {
		return nil
	}
	sv := kg.View(seat)
	k := &knownState{Shareholders: []string{}, Hand: []chaosState{}}
	known := false
	for _, t := range sv.Shareholders {
		k.Shareholders, known = append(k.Shareholders, t.String()), true
	}
	for _, h := range sv.Hand {
		k.Hand = append(k.Hand, chaosOf(h, t))
		known = known || h.Card >= 0
	}
	if !known {
		return nil
	}
	return k
}

// seatFields describes seat from the person's view (empty before the game starts).
func seatFields(v rules.View, started bool, seat int, t teller) seatState {
	s := seatState{Mat: []string{}, Pleasures: []pleasureState{}, PileTypes: map[string]int{}, Leaders: []string{},
		Monarchs: []string{}, ChaosPlayed: []string{}, Shareholders: []string{}}
	if !started || seat >= len(v.Seats) {
		return s
	}
	sv := v.Seats[seat]
	if sv.Corp >= 0 {
		c := corporations[sv.Corp]
		s.Corp, s.CorpName = c.ID, c.Name
		for _, m := range c.Mat {
			s.Mat = append(s.Mat, m.String())
		}
	}
	s.Minions = countsOf(sv.Minions)
	for _, k := range sv.Minions {
		s.MinionTotal += k
	}
	for _, p := range sv.Pleasures {
		s.Pleasures = append(s.Pleasures, *pleasureOf(p))
	}
	s.Pile = len(sv.Pile)
	for _, f := range sv.Pile {
		s.PileTypes[favors[f].Type.String()]++
	}
	for l, c := range v.Control {
		if c == seat && rules.InPlay(l, v.Players) {
			s.Leaders = append(s.Leaders, t.leaderName(l))
		}
	}
	for k, c := range v.Monarchs {
		if c == seat {
			s.Monarchs = append(s.Monarchs, t.monarchName(k))
		}
	}
	s.ChaosLeft = sv.ChaosLeft
	for _, c := range sv.ChaosPlayed {
		s.ChaosPlayed = append(s.ChaosPlayed, chaosName(c))
	}
	for _, t := range sv.Shareholders {
		s.Shareholders = append(s.Shareholders, t.String())
	}
	sc := v.Projected(seat)
	s.Score = sc.Total
	if v.Over && seat < len(v.Scores) {
		sc = v.Scores[seat]
		s.Score, s.Parts = sc.Total, &sc
	}
	s.Turn = v.Turn == seat && !v.Over
	s.First = v.First == seat
	return s
}
