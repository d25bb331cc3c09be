package corruption

// View is what one seat may see of a game: public information, its own cards, and the cards
// its own peeks showed it. Bots and user interfaces are given a View, never the State. A View
// reads the live state: it always shows the present.
type View struct {
	s    *State
	seat int
}

// View returns seat's view of the game.
func (s *State) View(seat int) View { return View{s: s, seat: seat} }

// Seat is the seat whose view this is.
func (v View) Seat() int { return v.seat }

// Config is the game's configuration, without the deck's order (which no seat may know).
func (v View) Config() Config {
	c := v.s.cfg
	c.Deck = nil
	return c
}

func (v View) Round() int                                          { return v.s.round }
func (v View) Phase() Phase                                        { return v.s.phase }
func (v View) First() int                                          { return v.s.first }
func (v View) FaceUp() Positions                                   { return v.s.faceUp }
func (v View) Next() Decision                                      { return v.s.Next() }
func (v View) Over() bool                                          { return v.s.Over() }
func (v View) Table() []Contract                                   { return v.s.Table() }
func (v View) ContractBody(c Contract) Body                        { return v.s.ContractBody(c) }
func (v View) OnTable(c Contract) bool                             { return v.s.OnTable(c) }
func (v View) Deferred(c Contract) bool                            { return v.s.Deferred(c) }
func (v View) Cancelled(c Contract) bool                           { return v.s.Cancelled(c) }
func (v View) Winner(c Contract) int                               { return v.s.Winner(c) }
func (v View) Score(seat int) (value, contracts int)               { return v.s.Score(seat) }
func (v View) Won(seat int) []Contract                             { return v.s.Won(seat) }
func (v View) Winners() []int                                      { return v.s.Winners() }
func (v View) NumPlays() int                                       { return v.s.nplays }
func (v View) Placed(seat int) int                                 { return v.s.Placed(seat) }
func (v View) PeeksLeft(seat int) int                              { return v.s.PeeksLeft(seat) }
func (v View) CharactersLeft(seat int) (da, reporters, hitmen int) { return v.s.CharactersLeft(seat) }

// AppendTable appends the contracts on the table, left to right, to buf.
func (v View) AppendTable(buf []Contract) []Contract { return v.s.table(buf) }

// Play is the card at 1-based index i of this round, with its Card set only if this seat may
// see it: it is face up or revealed, it is this seat's own, or this seat peeked at it.
func (v View) Play(i int) (Play, bool) {
	p, ok := v.s.PlayAt(i)
	if !ok {
		return p, false
	}
	if !v.Sees(i) {
		p.Card = CardUnknown
	}
	if v.seat < 0 || v.seat >= v.s.cfg.Players {
		p.PeekedBy &= 1<<v.s.cfg.Players - 1
	}
	return p, true
}

// Sees reports whether this seat may see the card at index i.
func (v View) Sees(i int) bool {
	p, ok := v.s.PlayAt(i)
	if !ok {
		return false
	}
	if v.seat < 0 || v.seat >= v.s.cfg.Players {
		return p.Revealed // a spectator sees what is public
	}
	return p.Revealed || p.Seat == v.seat || p.PeekedBy&(1<<v.seat) != 0
}

// Hand lists this seat's cards not yet played: bribes not placed this round, characters left.
func (v View) Hand() []Card { return v.s.Hand(v.seat) }

// AppendHand appends this seat's hand to buf (no allocation when buf has room).
func (v View) AppendHand(buf []Card) []Card { return v.s.hand(v.seat, buf) }

// NextFaceUp reports whether this seat's next card will be face up if placed under a contract.
func (v View) NextFaceUp() bool { return v.s.NextFaceUp(v.seat) }

// CanPlay reports whether this seat may place card on spot now, and if not, why.
func (v View) CanPlay(card Card, spot Spot) error { return v.s.CanPlay(v.seat, card, spot) }

// Peekable lists the cards this seat may peek at now.
func (v View) Peekable() []int { return v.s.Peekable(v.seat) }

// AssignOptions, KillTargets and RemoveOptions are the choices of the awarding decision due now.
func (v View) AssignOptions() []Contract { return v.s.AssignOptions() }
func (v View) KillTargets() []int        { return v.s.KillTargets() }
func (v View) RemoveOptions() []int      { return v.s.RemoveOptions() }
