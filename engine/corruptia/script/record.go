package script

import (
	"fmt"

	"corruption/engine"
	"corruption/engine/corruptia"
	"corruption/engine/corruptia/bot"
)

// Record plays a game among bots (one per seat) with draws from seed, as bot.Simulate does,
// and writes it down as a script, whatever the bots do: Run replays it to the same end.
func Record(players int, cfg corruptia.Config, bots []bot.Bot, seed uint64) (*Script, error) {
	return RecordFrom(players, cfg, bots, corruptia.Seeded(seed, 0x5c41b7))
}

// RecordFrom is Record drawing from c: given bot.Simulate's bots and chance of a game of its
// batch (bot.SimConfig.GameBots, corruptia.Seeded(seed, game)), it plays and writes down that
// very game, as bot.Play plays it.
func RecordFrom(players int, cfg corruptia.Config, bots []bot.Bot, c corruptia.Chance) (*Script, error) {
	g, err := corruptia.NewGame(cfg, players, nil)
	if err != nil {
		return nil, err
	}
	if len(bots) != players {
		return nil, fmt.Errorf("%d bots at a table of %d", len(bots), players)
	}
	rec := &recorder{sc: &Script{Players: players, Config: cfg}, g: g, c: c}
	h := corruptia.NewHost(g)
	for range 100000 {
		if err := h.Run(rec); err != nil {
			return nil, err
		}
		switch st := g.Due(); st.Kind {
		case engine.StepOver:
			return rec.sc, nil
		case engine.StepChoose:
			e := Entry{Kind: EntryVotes, Votes: make([]corruptia.Vote, players)}
			for s := range e.Votes {
				e.Votes[s] = bots[s].Vote(g.View(s))
			}
			rec.sc.Moves = append(rec.sc.Moves, e)
			if err := h.Votes(e.Votes); err != nil {
				return nil, err
			}
		default:
			m := bots[st.Seat].Decide(g.View(st.Seat))
			rec.sc.Moves = append(rec.sc.Moves, entryOf(g, st.Seat, m))
			if err := h.Move(st.Seat, m); err != nil {
				return nil, fmt.Errorf("%s bot at seat %d: %s: %w", bots[st.Seat].Name(), st.Seat, m, err)
			}
		}
	}
	return nil, fmt.Errorf("the game is not over after 100000 decisions")
}

// entryOf is seat's move m, due in g, as a script's entry.
func entryOf(g *corruptia.Game, seat int, m corruptia.Move) Entry {
	e := Entry{Kind: EntryMove, Seat: seat, Move: m.Kind, Take: m.Take, Target: m.Target, Demand: m.Demand}
	hand := g.View(seat).Hand()
	switch n := g.Players(); m.Kind {
	case corruptia.MoveBlackmail:
		if m.Target >= 0 && m.Target < n && m.Target != seat {
			e.Card = CardID(m.Target, ((seat-m.Target)%n+n)%n)
		}
	case corruptia.MoveDiscard, corruptia.MoveSwap:
		e.Bill = hand[m.Slot]
	case corruptia.MovePropose, corruptia.MoveAmend:
		p := m.Proposal.Canonical()
		prog := g.View(-1).Program
		e.Bill, e.At = p.Bill, p.At
		for i, w := range p.Workers {
			if w.Employee {
				e.Workers[i] = Worker{Employee: true, Seat: w.From}
			} else {
				e.Workers[i] = Worker{Income: w.Income, Bill: prog[w.From].Bill}
			}
		}
	}
	return e
}

// recorder draws from c and writes the draws down.
type recorder struct {
	sc *Script
	g  *corruptia.Game
	c  corruptia.Chance
}

func (r *recorder) Order(deck int, cards []int) error {
	if err := r.c.Order(deck, cards); err != nil {
		return err
	}
	switch bs := toBills(cards); deck {
	case corruptia.DeckBills:
		r.sc.Deck = bs // after a setup started again, the last deck: its replay needs no restart
	case corruptia.DeckRebuilt:
		r.sc.Redeck = bs
	case corruptia.DeckPile:
		r.sc.Pile = bs
	}
	return nil
}

func (r *recorder) Int(d corruptia.Draw, n int) (int, error) {
	v, err := r.c.Int(d, n)
	if err != nil {
		return 0, err
	}
	switch d {
	case corruptia.DrawFirst:
		r.sc.First = v
	case corruptia.DrawDie:
		r.sc.Moves = append(r.sc.Moves, Entry{Kind: EntryDie, Die: corruptia.Die(v)})
	case corruptia.DrawToss:
		r.sc.Moves = append(r.sc.Moves, Entry{Kind: EntryToss, Approve: v == 1})
	}
	return v, nil
}
