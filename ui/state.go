package ui

import (
	"fmt"
	"strings"

	"corruption/engine/corruption"
	"corruption/protocol"
)

// State is what GET /api/state answers and what /api/events streams: everything the page
// shows. The game part is built from the person's View only.
type State struct {
	Version  int          `json:"version"`
	Mode     string       `json:"mode"` // lobby, waiting (for seats), setup (keys, shuffle), game, over
	Me       Me           `json:"me"`
	Lobby    *LobbyState  `json:"lobby,omitempty"`
	Table    *TableState  `json:"table,omitempty"`
	Seats    []SeatState  `json:"seats,omitempty"`
	Game     *GameState   `json:"game,omitempty"`
	Decision *Decision    `json:"decision,omitempty"`
	Clock    *Clock       `json:"clock,omitempty"`
	Alerts   []Alert      `json:"alerts,omitempty"`
	Result   *ResultState `json:"result,omitempty"`
	LogStart int          `json:"log_start"` // the index of Log[0] in the whole log
	Log      []LogLine    `json:"log"`
}

// Me is the person.
type Me struct {
	Name string `json:"name"`
	Seat int    `json:"seat"` // -1 before the table forms
}

// TableState is the table's settings and progress.
type TableState struct {
	Name    string   `json:"name"`
	Players int      `json:"players"`
	Variant string   `json:"variant"`
	LBB     bool     `json:"lbb"`
	Entries int      `json:"entries"`
	Members []string `json:"members,omitempty"` // names heard while the table forms
	Bots    int      `json:"bots"`              // local bots started for it
}

// SeatState is one player as everyone sees them.
type SeatState struct {
	Seat      int      `json:"seat"`
	Name      string   `json:"name"`
	Me        bool     `json:"me"`
	Score     int      `json:"score"`
	Contracts []string `json:"contracts"` // names of the contracts won
	Placed    int      `json:"placed"`    // cards placed this round
	DA        int      `json:"da"`        // characters left when the round began
	Reporters int      `json:"reporters"`
	HitMen    int      `json:"hitmen"`
	Peeks     int      `json:"peeks"`
	Winner    bool     `json:"winner"`
	Due       bool     `json:"due"` // the table waits for this seat
}

// GameState is the board as the person's view shows it.
type GameState struct {
	Round      int         `json:"round"`
	Phase      string      `json:"phase"`
	First      int         `json:"first"`
	FaceUp     []int       `json:"face_up"`
	FaceUpRule string      `json:"face_up_rule"`
	Next       NextState   `json:"next"`
	Bodies     []BodyState `json:"bodies"`
	Cards      []CardState `json:"cards"` // this round's cards, in play order
	Hand       []HandCard  `json:"hand"`
	NextUp     bool        `json:"next_face_up"` // the person's next card goes face up under a contract
}

// NextState is the decision due, whoever's it is.
type NextState struct {
	Kind  string `json:"kind"` // deal faceup place reveal assign kill remove none
	Seat  int    `json:"seat"`
	Index int    `json:"index,omitempty"`
	Step  int    `json:"step,omitempty"` // the awarding step (1 to 5)
	Text  string `json:"text"`
}

// BodyState is one government body: its Swiss account and its contracts on the table.
type BodyState struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Swiss     string          `json:"swiss"` // the account's spot
	Contracts []ContractState `json:"contracts"`
}

// ContractState is one contract on the table.
type ContractState struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Value     int    `json:"value"`
	Deferred  bool   `json:"deferred"`
	Cancelled bool   `json:"cancelled"`
}

// CardState is one placed card. Card is empty when the person may not see it.
type CardState struct {
	Index    int    `json:"index"`
	Seat     int    `json:"seat"`
	Spot     string `json:"spot"`
	Pos      int    `json:"pos"`
	Card     string `json:"card,omitempty"`
	Label    string `json:"label"`
	FaceUp   bool   `json:"face_up"`  // placed face up
	Revealed bool   `json:"revealed"` // public
	Mine     bool   `json:"mine"`
	Peeked   bool   `json:"peeked"` // the person peeked at it
	Dead     bool   `json:"dead,omitempty"`
	Removed  bool   `json:"removed,omitempty"`
	Assigned string `json:"assigned,omitempty"` // a Swiss bribe's contract
}

// HandCard is a card in the person's hand.
type HandCard struct {
	Card  string `json:"card"`
	Label string `json:"label"`
}

// Decision is the person's decision due, with every legal choice.
type Decision struct {
	ID       int           `json:"id"`
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
	SinceMS  int64         `json:"since_ms"`
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

// Clock says whom the table waits for and since when.
type Clock struct {
	Due       int    `json:"due"` // seat, -1 when nobody
	Name      string `json:"name"`
	SinceMS   int64  `json:"since_ms"` // unix milliseconds
	TimeoutMS int64  `json:"timeout_ms"`
	NowMS     int64  `json:"now_ms"`
}

// Alert is a message the page shows in a banner.
type Alert struct {
	Level string `json:"level"` // info, warn, error
	Text  string `json:"text"`
}

// LogLine is one line of the game log.
type LogLine struct {
	Round int    `json:"round"`
	Kind  string `json:"kind"` // the event kind, or note
	Text  string `json:"text"`
}

// ResultState is how the table ended.
type ResultState struct {
	Finished bool   `json:"finished"`
	Scores   []int  `json:"scores"`
	Winners  []int  `json:"winners"`
	Digest   string `json:"digest"`
	Entries  int    `json:"entries"`
	Verdict  string `json:"verdict,omitempty"`
	Audit    string `json:"audit"`
	Valid    bool   `json:"valid"`
	Error    string `json:"error,omitempty"`
}

// buildGame describes the board from v (and nothing else but the players' names).
func buildGame(v corruption.View, names []string) *GameState {
	g := &GameState{Round: v.Round(), Phase: v.Phase().String(), First: v.First(), FaceUp: v.FaceUp().List(),
		FaceUpRule: faceUpRule(v, names), NextUp: v.NextFaceUp(), Cards: []CardState{}, Hand: []HandCard{}}
	d := v.Next()
	g.Next = NextState{Kind: d.Kind.String(), Seat: d.Seat, Index: d.Index, Step: awardingStep(d.Kind), Text: dueText(v, d, names)}
	table := v.Table()
	for b := corruption.Body(0); b < corruption.NumBodies; b++ {
		bs := BodyState{ID: b.String(), Name: b.Name(), Swiss: corruption.SwissSpot(b).String(), Contracts: []ContractState{}}
		for _, c := range table {
			if v.ContractBody(c) == b {
				bs.Contracts = append(bs.Contracts, ContractState{ID: c.String(), Name: c.Name(), Value: c.Value(),
					Deferred: v.Deferred(c), Cancelled: v.Cancelled(c)})
			}
		}
		g.Bodies = append(g.Bodies, bs)
	}
	me := v.Seat()
	for i := 1; i <= v.NumPlays(); i++ {
		p, _ := v.Play(i)
		cs := CardState{Index: i, Seat: p.Seat, Spot: p.Spot.String(), Pos: p.Pos, FaceUp: p.FaceUp,
			Revealed: p.Revealed, Mine: p.Seat == me, Peeked: p.PeekedBy&(1<<me) != 0, Dead: p.Dead, Removed: p.Removed}
		if p.Card != corruption.CardUnknown {
			cs.Card = p.Card.String()
		}
		cs.Label = cardLabel(p.Card)
		if p.IsAssigned {
			cs.Assigned = p.Assigned.String()
		}
		g.Cards = append(g.Cards, cs)
	}
	if !v.Over() {
		for _, c := range v.Hand() {
			g.Hand = append(g.Hand, HandCard{Card: c.String(), Label: cardLabel(c)})
		}
	}
	return g
}

// cardLabel is a card as the page prints it: "$4,000", "Reporter", "face down".
func cardLabel(c corruption.Card) string {
	switch {
	case c == corruption.CardUnknown:
		return "face down"
	case c.IsBribe():
		return "$" + corruption.Money(c.Value())
	case c == corruption.DA:
		return "District attorney"
	case c == corruption.Reporter:
		return "Reporter"
	case c == corruption.HitMan:
		return "Hit man"
	}
	return c.String()
}

func awardingStep(k corruption.DecisionKind) int {
	switch k {
	case corruption.DecideReveal:
		return 0
	case corruption.DecideAssign:
		return 1
	case corruption.DecideKill:
		return 2
	case corruption.DecideRemove:
		return 4
	}
	return 0
}

// faceUpRule says which cards go face up this round.
func faceUpRule(v corruption.View, names []string) string {
	variant := v.Config().Variant
	prefix := map[corruption.Variant]string{corruption.Standard: "Standard", corruption.DownTheRiver: "Down the river",
		corruption.FreeStud: "Free stud", corruption.Closed: "Closed"}[variant]
	if v.Phase() == corruption.PhaseFaceUp || (variant == corruption.FreeStud && v.Phase() == corruption.PhaseDeal) {
		who := seatName(names, v.First())
		if v.First() == v.Seat() {
			who = "you"
		}
		return prefix + ": face-up cards to be chosen by " + who
	}
	ps := v.FaceUp().List()
	if len(ps) == 0 {
		return prefix + ": every card face down"
	}
	words := make([]string, len(ps))
	for i, p := range ps {
		words[i] = fmt.Sprint(p)
	}
	card := "card "
	if len(ps) > 1 {
		card = "cards "
	}
	return prefix + ": each player's " + card + joinAnd(words) + " face up (never on a Swiss account)"
}

func joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

func seatName(names []string, seat int) string {
	if seat >= 0 && seat < len(names) && names[seat] != "" {
		return names[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}

// dueText says in words what the game waits for.
func dueText(v corruption.View, d corruption.Decision, names []string) string {
	who, you := seatName(names, d.Seat), d.Seat == v.Seat()
	verb := func(mine, theirs string) string {
		if you {
			return "you " + mine
		}
		return who + " " + theirs
	}
	switch d.Kind {
	case corruption.DecideNothing:
		return "The game is over"
	case corruption.DecideDeal:
		return "The round's contracts are being dealt"
	case corruption.DecideFaceUp:
		return "Free stud: " + verb("choose", "chooses") + " the face-up positions for this round"
	case corruption.DecidePlace:
		return fmt.Sprintf("Corruption: %s card %d of 6", verb("place", "places"), v.Placed(d.Seat)+1)
	case corruption.DecideReveal:
		return fmt.Sprintf("Revealing the face-down cards: %s card %d", verb("reveal", "reveals"), d.Index)
	case corruption.DecideAssign:
		return fmt.Sprintf("Awarding, step 1 (Swiss bribes): %s the Swiss bribe, card %d", verb("assign", "assigns"), d.Index)
	case corruption.DecideKill:
		return fmt.Sprintf("Awarding, step 2 (hit men): %s the target of the hit man, card %d", verb("choose", "chooses"), d.Index)
	case corruption.DecideRemove:
		return fmt.Sprintf("Awarding, step 4 (reporters): %s the reporter, card %d: remove a bribe or pass", verb("use", "uses"), d.Index)
	}
	return d.String()
}

// buildSeats describes every player, from the person's view.
func buildSeats(v *corruption.View, st *protocol.Status) []SeatState {
	n := len(st.Names)
	if v != nil {
		n = v.Config().Players
	}
	var winners []int
	if v != nil {
		winners = v.Winners()
	}
	out := make([]SeatState, n)
	for seat := range out {
		s := SeatState{Seat: seat, Name: seatName(st.Names, seat), Me: seat == st.Seat, Contracts: []string{},
			Due: st.Due == seat && !st.Done && st.Verdict == nil}
		if v != nil {
			s.Score, _ = v.Score(seat)
			for _, c := range v.Won(seat) {
				s.Contracts = append(s.Contracts, c.Name())
			}
			s.Placed = v.Placed(seat)
			s.DA, s.Reporters, s.HitMen = v.CharactersLeft(seat)
			s.Peeks = v.PeeksLeft(seat)
			for _, w := range winners {
				s.Winner = s.Winner || w == seat
			}
		}
		out[seat] = s
	}
	return out
}

// buildDecision lists the choices of the person's decision due in p.
func buildDecision(p Pending, names []string) *Decision {
	v := p.View
	d := v.Next()
	out := &Decision{ID: p.ID, Kind: d.Kind.String(), Index: d.Index, SinceMS: p.Since.UnixMilli(), Placed: v.Placed(v.Seat())}
	switch d.Kind {
	case corruption.DecideFaceUp:
		out.Prompt = "You lead this round: choose which positions go face up for every player (none is fine)."
	case corruption.DecidePlace:
		where := "face down"
		if v.NextFaceUp() {
			where = "face up under a contract (face down on a Swiss account)"
		}
		out.Prompt = fmt.Sprintf("Your turn: place your card %d of 6. It goes %s.", v.Placed(v.Seat())+1, where)
		out.CanPeek, out.Peekable = d.CanPeek, v.Peekable()
		if out.CanPeek {
			n, peeks := v.PeeksLeft(v.Seat()), "peeks"
			if n == 1 {
				peeks = "peek"
			}
			out.Prompt += fmt.Sprintf(" You may first peek at a face-down card (%d %s left).", n, peeks)
		}
		var spots []corruption.Spot
		for _, c := range v.Table() {
			spots = append(spots, corruption.ContractSpot(c))
		}
		for b := corruption.Body(0); b < corruption.NumBodies; b++ {
			spots = append(spots, corruption.SwissSpot(b))
		}
		seen := map[corruption.Card]bool{}
		for _, c := range v.Hand() {
			if seen[c] {
				continue
			}
			seen[c] = true
			cc := CardChoice{Card: c.String(), Label: cardLabel(c), Spots: []string{}}
			for _, s := range spots {
				if v.CanPlay(c, s) == nil {
					cc.Spots = append(cc.Spots, s.String())
				}
			}
			out.Cards = append(out.Cards, cc)
		}
	case corruption.DecideAssign:
		p, _ := v.Play(d.Index)
		out.Prompt = fmt.Sprintf("Awarding, step 1: assign your %s on the %s Swiss account (card %d) to one of its contracts. It counts half, and no reporter can remove it.",
			cardLabel(p.Card), p.Spot.SwissBody().Name(), d.Index)
		for _, c := range v.AssignOptions() {
			out.Assign = append(out.Assign, ContractRef{ID: c.String(), Name: c.Name(), Value: c.Value()})
		}
	case corruption.DecideKill:
		p, _ := v.Play(d.Index)
		out.Prompt = fmt.Sprintf("Awarding, step 2: your hit man under %s (card %d) kills one character there. Choose the victim.",
			p.Spot.Contract().Name(), d.Index)
		out.Targets = v.KillTargets()
	case corruption.DecideRemove:
		p, _ := v.Play(d.Index)
		out.Prompt = fmt.Sprintf("Awarding, step 4: your reporter under %s (card %d) may remove one bribe placed there, or pass.",
			p.Spot.Contract().Name(), d.Index)
		out.Targets, out.CanPass = v.RemoveOptions(), true
	}
	return out
}
