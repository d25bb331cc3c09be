package bot

import (
	"math"

	k "corruption/engine/kingdoms"
)

// The components, read once.
var (
	favors    = k.Favors()
	pleasures = k.Pleasures()
	leaders   = k.Leaders()
	realms    = k.Kingdoms()
	chaos     = k.ChaosCards()
)

// board is what the heuristic bot makes of its view: who holds what power over which bills,
// how likely each bill is to pass, and what its passing is worth to the bot.
type board struct {
	p        *params
	v        k.View
	me, n    int
	shares   [k.NumFavorTypes]bool // the bot's shareholder types
	gps      [k.MaxPlayers][k.NumFavorTypes]int
	power    [k.MaxPlayers][3]int // eligible voters each seat controls on each kingdom's bills
	pass     [k.NumBills]float64  // the chance each bill passes in the end
	gain     [k.NumBills]float64  // what its passing is worth to the bot
	nbills   int
	endSoon  float64 // 0 early, 1 when a deck is about to run out
	minionVs [k.NumMinions]float64
	// freeSenators is the number of senators nobody controls.
	freeSenators int
}

func look(v k.View, p *params) *board {
	b := &board{p: p, v: v, me: v.Seat, n: v.Players, nbills: len(v.Bills)}
	for _, t := range v.Shareholders {
		b.shares[t] = true
	}
	for s, sv := range v.Seats {
		for _, p := range sv.Pleasures {
			b.gps[s][pleasures[p].Type]++
		}
	}
	b.countPower()
	// Rounds left: about 1.2 favors leave the market per turn; a few more guilty pleasures
	// leave the deck per bill passed.
	rounds := math.Min(float64(v.FavorDeck)/(1.2*float64(b.n)), float64(v.PleasureDeck)/2)
	b.endSoon = math.Max(0, 1-rounds/3)
	have := b.minionCount()
	for m := range k.NumMinions {
		w := b.p.minion
		switch {
		case have >= 6:
			w /= 3
		case have >= 3:
			w *= 2.0 / 3
		}
		b.minionVs[m] = w*(1-b.endSoon) + 0.03
	}
	for bill := range b.nbills {
		b.pass[bill], b.gain[bill] = b.estimate(bill, -1, 0)
	}
	return b
}

// countPower counts each seat's voters on each kingdom's bills.
func (b *board) countPower() {
	b.power = [k.MaxPlayers][3]int{}
	b.freeSenators = 0
	for l, c := range b.v.Control {
		if c < 0 && k.InPlay(l, b.n) && leaders[l].Kingdom < 0 {
			b.freeSenators++
		}
		if c < 0 || !k.InPlay(l, b.n) {
			continue
		}
		if kd := leaders[l].Kingdom; kd >= 0 {
			b.power[c][kd]++
		} else {
			for kd := range len(b.v.Monarchs) {
				b.power[c][kd]++
			}
		}
	}
	for kd, c := range b.v.Monarchs {
		if c >= 0 {
			b.power[c][kd]++
		}
	}
}

// backers is the mask of seats with a favor on bill.
func (b *board) backers(bill int) int {
	mask := 0
	for _, f := range b.v.Bills[bill].Favors {
		mask |= 1 << f.Seat
	}
	return mask
}

// votes counts a vote on bill if its backers (and extraSeat, placing extraFavor) vote yes and
// every other seat no, the bot as its interest says: yes, no.
func (b *board) votes(bill, extraFavor, extraSeat int) (yes, no int) {
	yes, no, _ = b.count(bill, extraFavor, extraSeat)
	return yes, no
}

// count is votes, with the number of uncontrolled kingdom voters who vote no for want of a
// favor of their type.
func (b *board) count(bill, extraFavor, extraSeat int) (yes, no, open int) {
	kd := k.BillKingdom(bill)
	mask := b.backers(bill)
	if extraSeat >= 0 {
		mask |= 1 << extraSeat
	}
	if extraSeat != b.me && b.gain[bill] < 0 {
		mask &^= 1 << b.me
	}
	var types [k.NumFavorTypes]bool
	for _, f := range b.v.Bills[bill].Favors {
		types[favors[f.Favor].Type] = true
	}
	if extraFavor >= 0 {
		types[favors[extraFavor].Type] = true
	}
	total := k.Voters(b.n)
	for s := range b.n {
		if mask&(1<<s) != 0 {
			yes += b.power[s][kd]
		}
	}
	for _, l := range realms[kd].Leaders {
		if b.v.Control[l] < 0 {
			if types[leaders[l].Prefers] {
				yes++
			} else {
				open++
			}
		}
	}
	if b.v.Monarchs[kd] < 0 {
		if types[realms[kd].Prefers] {
			yes++
		} else {
			open++
		}
	}
	return yes, total - yes, open
}

// estimate is the chance bill passes in the end and what that is worth to the bot, with
// extraFavor placed on it by seat extraSeat (-1: as it is).
func (b *board) estimate(bill, extraFavor, extraSeat int) (p, gain float64) {
	fs := b.v.Bills[bill].Favors
	if len(fs) == 0 && extraFavor < 0 {
		return 0, 0
	}
	yes, no, open := b.count(bill, extraFavor, extraSeat)
	margin := float64(yes - no)
	if b.freedom(bill, extraFavor) {
		margin += 0.9
	}
	// Before the end, favors of other types will win over some of the kingdom's uncontrolled
	// voters, and the senators nobody controls yet will be influenced, by the bill's backers in
	// proportion to their number.
	backers := bitsCount(uint8(b.backers(bill)))
	if extraSeat >= 0 && b.backers(bill)&(1<<extraSeat) == 0 {
		backers++
	}
	// A bill of four favors is voted on as soon as one more is added: it has no future but now.
	favors := len(fs)
	if extraFavor >= 0 {
		favors++
	}
	left := math.Max(0, float64(k.AutoVoteAt-favors)) / k.AutoVoteAt
	future := (1 - b.endSoon) * left * (0.6*float64(open) + float64(b.freeSenators)*float64(backers)/float64(b.n))
	margin += b.p.future * future
	p = 1 / (1 + math.Exp(-margin/1.3))
	// Each backer takes a guilty pleasure, the first marker first: the later, the worse.
	var seen [k.MaxPlayers]bool
	rank := 0.0
	add := func(f, s int) {
		gain += b.favorWorth(f, s)
		if !seen[s] {
			seen[s] = true
			gain += b.seatWorth(s, 1.4-0.25*rank)
			rank++
		}
	}
	for _, f := range fs {
		add(f.Favor, f.Seat)
	}
	if extraFavor >= 0 {
		add(extraFavor, extraSeat)
	}
	return p, gain
}

func (b *board) freedom(bill, extraFavor int) bool {
	if !b.v.Config.Bonuses {
		return false
	}
	fs := b.v.Bills[bill].Favors
	if len(fs) > 0 {
		return favors[fs[0].Favor].Type == k.Freedom
	}
	return extraFavor >= 0 && favors[extraFavor].Type == k.Freedom
}

// favorWorth is what favor f in seat s's score pile is worth to the bot: its own points, less
// an opponent's share of them, plus its shareholder point.
func (b *board) favorWorth(f, s int) float64 {
	t := favors[f].Type
	if s == b.me {
		return 1 + float64(b.gps[s][t]) + 0.3
	}
	w := -b.p.rivalry * (1 + float64(b.gps[s][t])) / float64(b.n-1)
	if b.shares[t] {
		w++
	}
	return w
}

// seatWorth is what x points to seat s are worth to the bot.
func (b *board) seatWorth(s int, x float64) float64 {
	if s == b.me {
		return x
	}
	return -b.p.rivalry * x / float64(b.n-1)
}

// value is the bills' expected worth to the bot.
func (b *board) value() float64 {
	v := 0.0
	for bill := range b.nbills {
		v += b.pass[bill] * b.gain[bill]
	}
	return v
}

// outcome is what a vote called now on bill would give the bot, if every seat votes for its
// interest: the worth of the result less the bill's expected worth now.
func (b *board) outcome(bill int) float64 {
	yes, no := b.votes(bill, -1, -1)
	switch {
	case yes > no || yes == no && b.freedom(bill, -1):
		return (1 - b.pass[bill]) * b.gain[bill]
	case no > yes:
		return -b.pass[bill] * b.gain[bill]
	}
	return 0
}

// withPower is the bills' worth if seat to controlled one more voter (one less for seat from,
// if >= 0; to < 0 for none) on kingdom kd's bills (every kingdom's, for kd < 0).
func (b *board) withPower(from, to, kd int) float64 {
	saved := b.power
	for x := range len(b.v.Monarchs) {
		if kd < 0 || x == kd {
			if to >= 0 {
				b.power[to][x]++
			}
			if from >= 0 {
				b.power[from][x]--
			}
		}
	}
	v := 0.0
	for bill := range b.nbills {
		p, g := b.estimate(bill, -1, -1)
		v += p * g
	}
	b.power = saved
	return v
}
