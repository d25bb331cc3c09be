package script

import (
	"encoding/hex"
	"slices"

	"corruption/engine"
	"corruption/engine/internal/strictjson"
	k "corruption/engine/kingdoms"
)

// Result is where a game stands, as `corruption replay --game kingdoms --json` prints it. The
// first five keys are every game's; the others are Corrupted Kingdoms' own.
type Result struct {
	Finished bool         `json:"finished"`
	Scores   []int        `json:"scores"`  // totals by seat; before the end, without the shareholder cards not yet shown
	Winners  []int        `json:"winners"` // empty until finished
	End      *End         `json:"end"`     // how the game ended; null until it is over
	Error    *ReplayError `json:"error"`   // the illegal move that stopped the replay; null if none

	Round        int              `json:"round"`
	Turn         int              `json:"turn"`
	Next         *Next            `json:"next"` // null once finished
	Corporations []string         `json:"corporations"`
	ScoreParts   []k.Score        `json:"score_parts"`
	Minions      [][4]int         `json:"minions"`   // golems, goblins, devils, zombies by seat
	Piles        [][]string       `json:"piles"`     // by seat, in the order the favors came to it
	Pleasures    [][]string       `json:"pleasures"` // by seat, in the order they were taken
	Bills        map[string][]Fav `json:"bills"`
	Control      map[string]int   `json:"control"`  // the controlled leaders' controllers
	Monarchs     map[string]int   `json:"monarchs"` // the controlled monarchs' (by kingdom)
	Market       []string         `json:"market"`
	Display      []string         `json:"display"`
	FavorDeck    int              `json:"favor_deck"`
	PleasureDeck int              `json:"pleasure_deck"`
	Digest       string           `json:"digest"` // hex SHA-256 of the public state
}

// Fav is a favor on a bill and its owner.
type Fav struct {
	Favor string `json:"favor"`
	Seat  int    `json:"seat"`
}

// Next is the decision due.
type Next struct {
	Decision string `json:"decision"` // discard, action, steal, answer, vote, pick
	Seat     int    `json:"seat"`     // for a vote, the seat to vote next, of Seats
	Seats    []int  `json:"seats,omitempty"`
	Actions  int    `json:"actions,omitempty"`
}

// End is how a game ended: why (favor-deck, pleasure-deck or round-limit), and the script's
// move (counted from 1) during which the end came: the move that drew the last favor or guilty
// pleasure, or that ended the last turn of round MaxRounds. Final voting follows it (with the
// house rules "even", the rest of the round first), so the game is over some moves later.
type End = strictjson.End

// The reasons a game ends, as End gives them.
var endReasons = map[k.EndReason]string{k.EndFavors: "favor-deck", k.EndPleasures: "pleasure-deck", k.EndRounds: "round-limit"}

// ReplayError is an illegal move: the script's move (counted from 1) and why the game
// refused it.
type ReplayError = strictjson.ReplayError

// summarize describes where a local game stands, with public information only, and what tr
// followed of it.
func summarize(l *k.Local, tr *tracker) *Result {
	g := l.Game()
	v := g.View(-1)
	r := &Result{Finished: v.Over, Winners: []int{}, Round: v.Round, Turn: v.Turn, Bills: map[string][]Fav{},
		Control: map[string]int{}, Monarchs: map[string]int{}, FavorDeck: v.FavorDeck, PleasureDeck: v.PleasureDeck}
	if v.Over {
		r.Winners = g.Outcome().Winners
		r.End = tr.end
	} else if v.Next.Kind != k.DecideNothing {
		r.Next = &Next{Decision: v.Next.Kind.String(), Seat: v.Next.Seat, Seats: v.Next.Seats, Actions: v.Next.Actions}
		if d, err := l.Next(); err == nil && d.Kind == k.DecideVote {
			r.Next.Seat = d.Seat // the seat whose vote is next, of those cast one after another
		}
	}
	for s, sv := range v.Seats {
		sc := v.Projected(s)
		r.Scores, r.ScoreParts = append(r.Scores, sc.Total), append(r.ScoreParts, sc)
		name := ""
		if sv.Corp >= 0 {
			name = k.Corporations()[sv.Corp].ID
		}
		r.Corporations, r.Minions = append(r.Corporations, name), append(r.Minions, sv.Minions)
		r.Piles = append(r.Piles, favorIDs(inOrder(tr.piles[s], sv.Pile)))
		var ps []string
		for _, p := range inOrder(tr.pleasures[s], sv.Pleasures) {
			ps = append(ps, k.Pleasures()[p].ID)
		}
		r.Pleasures = append(r.Pleasures, orEmpty(ps))
	}
	for _, b := range v.Bills {
		fs := []Fav{}
		for _, f := range b.Favors {
			fs = append(fs, Fav{Favor: k.Favors()[f.Favor].ID, Seat: f.Seat})
		}
		r.Bills[k.BillID(b.Bill)] = fs
	}
	for l, c := range v.Control {
		if c >= 0 {
			r.Control[k.Leaders()[l].ID] = c
		}
	}
	for kd, c := range v.Monarchs {
		if c >= 0 {
			r.Monarchs[k.Kingdoms()[kd].ID] = c
		}
	}
	r.Market, r.Display = favorIDs(v.Market), []string{}
	for _, p := range v.Display {
		if p >= 0 {
			r.Display = append(r.Display, k.Pleasures()[p].ID)
		}
	}
	d := g.Digest()
	r.Digest = hex.EncodeToString(d[:])
	return r
}

func favorIDs(ids []int) []string {
	out := []string{}
	for _, f := range ids {
		if f >= 0 {
			out = append(out, k.Favors()[f].ID)
		}
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// tracker follows a game's events for what its state does not keep: the order in which favors
// came to each score pile (bill by bill, each bill's favors top first) and guilty pleasures to
// each seat, and how the game ended.
type tracker struct {
	bills            map[int][]placed // the favors on each bill, top first
	piles, pleasures [][]int          // by seat, in order
	end              *End
}

type placed struct{ favor, seat int }

func newTracker(players int) *tracker {
	return &tracker{bills: map[int][]placed{}, piles: make([][]int, players), pleasures: make([][]int, players)}
}

// event follows one event, told while the script's move is being played.
func (t *tracker) event(ev engine.Event, move int) {
	e, ok := ev.Data.(k.Event)
	if !ok {
		return
	}
	on := t.bills[e.Bill]
	switch e.Kind {
	case k.EventPlace:
		t.bills[e.Bill] = append(on, placed{e.Favor, e.Seat})
	case k.EventExchange:
		for i := range on {
			if on[i].favor == e.Favor {
				on[i].favor = e.Other
			}
		}
	case k.EventShredded:
		t.bills[e.Bill] = slices.DeleteFunc(on, func(p placed) bool { return p.favor == e.Favor })
	case k.EventBillDiscarded:
		delete(t.bills, e.Bill)
	case k.EventCollect:
		if e.Seat >= 0 && e.Seat < len(t.piles) {
			for _, p := range on {
				if p.seat == e.Seat {
					t.piles[e.Seat] = append(t.piles[e.Seat], p.favor)
				}
			}
		}
		t.bills[e.Bill] = slices.DeleteFunc(on, func(p placed) bool { return p.seat == e.Seat })
	case k.EventPleasure:
		if e.Seat >= 0 && e.Seat < len(t.pleasures) && e.Pleasure >= 0 {
			t.pleasures[e.Seat] = append(t.pleasures[e.Seat], e.Pleasure)
		}
	case k.EventEnding:
		if t.end == nil {
			t.end = &End{Reason: endReasons[e.Reason], Move: move}
		}
	}
}

// inOrder is the ids of held (a set, by id) in the order followed, then any it did not follow,
// by id: what the state holds decides, the events only the order.
func inOrder(followed, held []int) []int {
	out := make([]int, 0, len(held))
	for _, id := range followed {
		if slices.Contains(held, id) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, id := range held {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
