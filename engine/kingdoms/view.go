package kingdoms

import "slices"

// View is what one seat may see of a game, as of the moment it was taken: everything public,
// and this seat's own secrets (its shareholder cards, its chaos hand and discard). Bots and
// boards are given a View; a View of seat -1 is an observer's, with no secrets at all. Its
// fields are copies: change them freely.
type View struct {
	Seat    int    `json:"seat"`
	Players int    `json:"players"`
	Config  Config `json:"config"`

	Started      bool     `json:"started"`      // the corporations are drawn
	Playing      bool     `json:"playing"`      // the setup is over
	Corporations []int    `json:"corporations"` // by seat (-1 before the draw)
	First        int      `json:"first"`
	Turn         int      `json:"turn"`
	Round        int      `json:"round"`
	Next         Decision `json:"next"`

	Market       []int           `json:"market"`        // favors, by slot (-1: empty)
	FavorDeck    int             `json:"favor_deck"`    // favors left in the deck
	FavorDiscard []int           `json:"favor_discard"` // the discard pile, by id
	Bills        []BillView      `json:"bills"`         // the bills at this table, left to right
	Control      []int           `json:"control"`       // each leader's controller, -1 (every leader; see InPlay)
	Monarchs     []int           `json:"monarchs"`      // each kingdom at this table's monarch's controller, -1
	Display      []int           `json:"display"`       // guilty pleasures, by slot (-1: empty)
	PleasureDeck int             `json:"pleasure_deck"` // guilty pleasures left in the deck
	Supply       [NumMinions]int `json:"supply"`        // golems, goblins, devils, zombies
	Seats        []SeatView      `json:"seats"`
	Vote         *VoteView       `json:"vote"` // the vote under way, or nil

	Ending EndReason `json:"ending"`
	Final  bool      `json:"final"`
	Over   bool      `json:"over"`
	Scores []Score   `json:"scores"` // once over

	Hand         []HeldCard  `json:"hand"`         // this seat's chaos cards, by position
	Shareholders []FavorType `json:"shareholders"` // this seat's shareholder cards

	g *Game
}

// BillView is a bill and its favors, top to bottom.
type BillView struct {
	Bill   int         `json:"bill"`
	Favors []BillFavor `json:"favors"`
}

// BillFavor is a favor on a bill and the seat whose marker is next to it.
type BillFavor struct {
	Favor int `json:"favor"`
	Seat  int `json:"seat"`
}

// SeatView is one seat's public side.
type SeatView struct {
	Corp         int             `json:"corp"`
	Minions      [NumMinions]int `json:"minions"`
	Pleasures    []int           `json:"pleasures"`
	Pile         []int           `json:"pile"`         // its score pile, by favor id
	ChaosPlayed  []int           `json:"chaos_played"` // the chaos cards it played
	ChaosLeft    int             `json:"chaos_left"`   // the chaos cards it may still play
	Shareholders []FavorType     `json:"shareholders"` // shown at the end
}

// VoteView is the vote under way.
type VoteView struct {
	Bill     int   `json:"bill"`
	Caller   int   `json:"caller"` // a seat, -1 automatic, -2 final voting
	Seats    []int `json:"seats"`  // the seats voting
	Votes    []int `json:"votes"`  // by seat, once revealed: 1 yes, 0 no, -1 none
	Revealed bool  `json:"revealed"`
	ExtraYes int   `json:"extra_yes"` // chaos cards' votes
	ExtraNo  int   `json:"extra_no"`
	Veto     bool  `json:"veto"`
}

// HeldCard is a chaos card dealt to this seat.
type HeldCard struct {
	Pos       int  `json:"pos"`
	Card      int  `json:"card"` // -1 while unknown
	Discarded bool `json:"discarded"`
	Played    bool `json:"played"`
}

// View is seat's view of the game now (seat -1: an observer's).
func (g *Game) View(seat int) View {
	p := &g.p
	v := View{Seat: seat, Players: g.n, Config: g.cfg, Started: p.corp[0] >= 0, Playing: int(p.stage) >= len(g.steps),
		First: int(p.first), Turn: int(p.turn), Round: int(p.round), Next: g.Next(), FavorDeck: int(p.favorLen - p.favorNext),
		PleasureDeck: int(p.gpLen - p.gpNext), Ending: p.ending, Final: p.final, Over: p.over, Scores: g.Scores(), g: g}
	if !v.Playing {
		v.FavorDeck, v.PleasureDeck = 0, 0 // the decks are still being built
	}
	for s := range g.n {
		v.Corporations = append(v.Corporations, int(p.corp[s]))
		v.Market = append(v.Market, int(p.market[s]))
		v.Display = append(v.Display, int(p.display[s]))
		v.Seats = append(v.Seats, g.seatView(s))
	}
	v.FavorDiscard = bitList(p.discards, NumFavors)
	for b := range BillsPerKingdom * KingdomBoards(g.n) {
		bv := BillView{Bill: b, Favors: []BillFavor{}}
		for _, f := range p.bills[b] {
			bv.Favors = append(bv.Favors, BillFavor{Favor: int(f.favor), Seat: int(f.seat)})
		}
		v.Bills = append(v.Bills, bv)
	}
	for _, c := range p.control {
		v.Control = append(v.Control, int(c))
	}
	for k := range KingdomBoards(g.n) {
		v.Monarchs = append(v.Monarchs, int(p.monarch[k]))
	}
	for m, k := range p.supply {
		v.Supply[m] = int(k)
	}
	if p.vote.bill >= 0 {
		v.Vote = g.voteView()
	}
	if seat >= 0 && seat < g.n {
		v.Hand, v.Shareholders = g.secrets(seat)
	}
	return v
}

func (g *Game) seatView(s int) SeatView {
	p := &g.p
	sv := SeatView{Corp: int(p.corp[s]), Pleasures: bitList(uint64(p.owned[s]), NumPleasures), Pile: bitList(p.piles[s], NumFavors),
		ChaosPlayed: []int{}, Shareholders: g.shownTypes(s)}
	for m, k := range p.minions[s] {
		sv.Minions[m] = int(k)
	}
	for _, c := range p.hands[s].played {
		if c >= 0 {
			sv.ChaosPlayed = append(sv.ChaosPlayed, int(c))
		}
	}
	if g.cfg.Chaos {
		sv.ChaosLeft = PlaysAllowed(g.n) - int(p.hands[s].plays)
	}
	return sv
}

func (g *Game) voteView() *VoteView {
	v := &g.p.vote
	vv := &VoteView{Bill: int(v.bill), Caller: int(v.caller), Seats: v.seatList(), ExtraYes: int(v.extraYes),
		ExtraNo: int(v.extraNo), Veto: v.veto}
	vv.Revealed = len(g.p.tasks) == 0 || g.p.tasks[0].kind != taskChoose
	for s := range g.n {
		vote := int(v.votes[s])
		if !vv.Revealed {
			vote = -1
		}
		vv.Votes = append(vv.Votes, vote)
	}
	return vv
}

// secrets is what seat knows of its own hidden cards.
func (g *Game) secrets(seat int) ([]HeldCard, []FavorType) {
	var hand []HeldCard
	if g.cfg.Chaos && int(g.p.stage) >= int(g.dealtAt(deckChaos+seat, seat)) {
		for pos := range ChaosDrawn(g.n) {
			hand = append(hand, HeldCard{Pos: pos, Card: int(g.k.chaos[seat][pos]),
				Discarded: int(g.k.discard[seat]) == pos || int(g.p.hands[seat].discardPos) == pos,
				Played:    g.p.hands[seat].played[pos] >= 0})
		}
	}
	var shares []FavorType
	for _, c := range g.k.shares[seat] {
		if c >= 0 {
			shares = append(shares, shareholders[c])
		}
	}
	return hand, shares
}

func bitList(set uint64, n int) []int {
	out := []int{}
	for i := range n {
		if set&(1<<i) != 0 {
			out = append(out, i)
		}
	}
	return out
}

// Legal lists the view's seat's legal moves now.
func (v View) Legal() []Move { return v.g.Legal(v.Seat) }

// Payments lists the ways the view's seat may pay to influence leader l now.
func (v View) Payments(l int) []Move { return v.g.Payments(v.Seat, l) }

// Discount is how many of leader l's cost minions the view's seat's guilty pleasures waive.
func (v View) Discount(l int) int { return v.g.Discount(v.Seat, l) }

// Projected is the score seat would have if the game ended now, counting the shareholder cards
// the view's seat knows (its own; everyone's once shown).
func (v View) Projected(seat int) Score {
	shares := v.g.shownTypes(seat)
	if seat == v.Seat && len(shares) == 0 {
		shares = slices.Clone(v.Shareholders)
	}
	return v.g.score(seat, shares)
}

// Tally is the count of the vote under way if the seats voted as votes says (by seat: 1 yes,
// 0 no), with the chaos cards played so far.
func (v View) Tally(votes []int) (yes, no int) {
	t := v.g.clone()
	for s := range t.n {
		t.p.vote.votes[s] = -1
		if s < len(votes) {
			t.p.vote.votes[s] = int8(votes[s])
		}
	}
	if t.p.vote.bill < 0 {
		return 0, 0
	}
	return t.tally()
}

// TallyBill is the count of a vote on bill if it were called now and the seats voted as votes
// says, without chaos cards.
func (v View) TallyBill(bill int, votes []int) (yes, no int) {
	t := v.g.clone()
	t.p.vote = vote{bill: int8(bill)}
	for s := range t.n {
		t.p.vote.votes[s] = -1
		if s < len(votes) {
			t.p.vote.votes[s] = int8(votes[s])
		}
	}
	return t.tally()
}
