package protocol

import (
	"fmt"
	"sort"
	"time"

	"corruption/engine"
	"crypto/ed25519"
)

// Status is a snapshot of a node's table for front ends.
type Status struct {
	Table string
	Game  string   // the game's id
	Seat  int      // this node's seat (-1 before the table forms)
	Names []string // the players' names by seat (nil before the table forms)
	// Keys are the players' identity keys by seat, as Names (the page's rematch without a
	// cheater names them to the next table's node).
	Keys []ed25519.PublicKey
	// Roster is, by seat, the player's place in the genesis roster, by which a chat message
	// names its speaker (ChatMessage.Member); nil before the table forms.
	Roster  []int
	Members []string // names of the nodes heard while forming
	// Full is how many tables of this name, with every seat taken, the node heard of while it
	// forms: a latecomer's page says the table is full (0 once the node sits).
	Full     int
	State    engine.Game // a private copy of the game as this node knows it (nil before it starts)
	Step     engine.Step // the game's step the table performs now
	Entries  int
	Due      int       // the seat the table waits for (-1 when none)
	DueWhat  string    // what the table waits for, in words ("seat 2 to write its shuffle")
	DueSince time.Time // since when
	Timeout  time.Duration
	// Allowance and Bank are the clock of the seat due, by this node's account: the time it
	// has for the entry due from DueSince, then what is left of its bank (zero when the entry
	// is not a decision, or the table has no bank).
	Allowance time.Duration
	Bank      time.Duration
	Done      bool
	Verdict   *Verdict
	// Escrow: the table escrows its seats' root secrets (PROTOCOL.md, "Escrow"), so all the
	// other players together could read this seat's cards; fewer cannot.
	Escrow bool
	// Open is the seats whose players left and that a bot plays for the table (depart.go),
	// ascending; Leaving is the seat whose departure this node agreed to and waits for the other
	// players to agree to as well (-1: none).
	Open    []int
	Leaving int
	// Convicted is the seats caught cheating among the open ones, with what each did and the
	// entry that proves it (convict.go), in the order of the log.
	Convicted []Conviction
	// Pause is the table's pause: who asks, who agrees, whether it pauses (pause.go).
	Pause PauseStatus
}

// Outcome is how a table ended, as a node saw it.
type Outcome struct {
	Table    string   `json:"table"`
	Game     string   `json:"game"`
	ID       string   `json:"id"`
	Seat     int      `json:"seat"`
	Finished bool     `json:"finished"`
	Scores   []int    `json:"scores"`
	Winners  []int    `json:"winners"`
	Digest   string   `json:"digest"`
	Entries  int      `json:"entries"`
	Verdict  *Verdict `json:"verdict,omitempty"`
	Open     []int    `json:"open,omitempty"` // the seats a bot played after their players left
	OpenedAt []uint64 `json:"-"`              // the seq of each open seat's depart entry, as Open
	// Convicted is the seats among Open caught cheating (convict.go): the table played on
	// without them, as after a departure.
	Convicted []Conviction `json:"convicted,omitempty"`
	// Forfeit: a table of two seats halted naming one seat for a cheat or an equivocation (no
	// seat can be opened at two): the other wins by forfeit, and Winners names it.
	Forfeit bool `json:"forfeit,omitempty"`
	// Paused: every seat agreed to pause the table; its node stopped at Entries and resumes it
	// when started again with the same data directory and table (pause.go).
	Paused bool `json:"paused,omitempty"`
}

// report tells OnChange about a change.
func (n *Node) report() {
	if n.cfg.OnChange == nil {
		return
	}
	// What changed is told before the snapshot is made: the node's loop reports after every
	// message and tick, and most change nothing (the snapshot copies the game).
	full := 0
	if n.table == nil {
		full = len(n.liveTables())
	}
	key := [5]int{0, len(n.members), 0, 0, full}
	if t := n.table; t != nil {
		key[0] = int(t.Len())
		if t.Verdict() != nil {
			key[2] = 1
		}
		if t.Done() {
			key[3] = 1
		}
	}
	if key == n.reported {
		return
	}
	st := Status{Table: n.cfg.Table, Game: n.cfg.Game, Seat: n.self.seat, Due: -1, DueSince: n.progress, Timeout: n.cfg.Timeout, Leaving: -1, Full: full}
	for _, h := range n.members {
		st.Members = append(st.Members, h.name)
	}
	sort.Strings(st.Members)
	if t := n.table; t != nil {
		for _, m := range t.Players() {
			st.Names = append(st.Names, m.Name)
			st.Keys = append(st.Keys, m.Key)
		}
		st.Roster = t.RosterOrder()
		st.Entries, st.Done, st.Verdict, st.Timeout = int(t.Len()), t.Done(), t.Verdict(), t.g.Timeout
		st.Escrow = t.g.Escrow
		st.Open = t.Open()
		st.Convicted = t.Convictions()
		if p := t.Promised(); p != nil {
			st.Leaving = p.Seat
		}
		st.Pause = n.pauseStatus()
		st.Due, _ = t.Due()
		if st.Due >= 0 {
			st.Allowance, st.Bank = n.allowed(st.Due)
		}
		st.DueWhat = t.DueString()
		st.Step = t.DueStep()
		if g := t.Game(); g != nil {
			st.State = g.Clone()
		}
	}
	n.reported = key
	n.cfg.OnChange(st)
}

func (n *Node) outcome() *Outcome {
	o := &Outcome{Table: n.cfg.Table, Game: n.cfg.Game, Seat: n.self.seat}
	if t := n.table; t != nil {
		fillOutcome(o, t)
	}
	o.Paused = n.pause.paused
	return o
}

func fillOutcome(o *Outcome, t *Table) {
	o.Game = t.g.Game
	o.ID = fmt.Sprintf("%x", t.id[:8])
	o.Entries = int(t.Len())
	o.Verdict = t.Verdict()
	o.Finished = t.Done()
	o.Open = t.Open()
	o.Convicted = t.Convictions()
	for _, seat := range o.Open {
		at, _ := t.OpenedAt(seat)
		o.OpenedAt = append(o.OpenedAt, at)
	}
	if g := t.Game(); g != nil {
		out := g.Outcome()
		o.Scores = out.Scores
		o.Winners = out.Winners
		d := g.Digest()
		o.Digest = fmt.Sprintf("%x", d)
	}
	if v := o.Verdict; v != nil && len(t.keys) == 2 && (v.Kind == VerdictCheat || v.Kind == VerdictEquivocation) && v.Seat >= 0 {
		o.Winners, o.Forfeit = []int{1 - v.Seat}, true
	}
}

// reporter is what OnChange was last told: entries, members, verdict, done, full tables heard.
type reporter struct {
	reported [5]int
}

// reportAgain makes the next report tell OnChange, changed or not (a departure or a pause
// being agreed, which the key does not show).
func (r *reporter) reportAgain() { r.reported = [5]int{-1} }
