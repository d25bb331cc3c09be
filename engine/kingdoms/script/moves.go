package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"corruption/engine/internal/strictjson"
	k "corruption/engine/kingdoms"
)

// move is the JSON form of one move: a seat, exactly one action, and the action's arguments.
type move struct {
	Seat      *int     `json:"seat"`
	Discard   *string  `json:"discard"`
	Take      *string  `json:"take"`
	Place     *string  `json:"place"`
	Influence *string  `json:"influence"`
	Call      *string  `json:"call"`
	Vote      *string  `json:"vote"`
	Pass      *bool    `json:"pass"`
	Pick      *string  `json:"pick"`
	Cycle     *string  `json:"cycle"`
	Chaos     *string  `json:"chaos"`
	On        *string  `json:"on"`
	Waive     []string `json:"waive"`
	Extra     *string  `json:"extra"`
	Pay       []string `json:"pay"`
	Remove    *string  `json:"remove"`
	Exchange  *string  `json:"exchange"`
	For       *string  `json:"for"`
	Minion    *string  `json:"minion"`
	Pleasure  *string  `json:"pleasure"`
	Leader    *string  `json:"leader"`
	Bill      *string  `json:"bill"`
	Favor     *string  `json:"favor"`
	Target    *int     `json:"target"`
	Side      *string  `json:"side"`
}

// args lists the arguments each action takes, required ones first (after the bar).
var args = map[string][2][]string{
	"place":     {{"on"}, nil},
	"influence": {nil, {"waive", "extra", "pay"}},
	"pick":      {nil, {"remove", "exchange", "for", "minion"}},
}

// effectArgs lists the arguments each chaos effect takes (all required).
var effectArgs = map[k.Effect][]string{
	k.Indulge: {"pleasure"}, k.Coup: {"leader"}, k.Scandal: {"leader"}, k.Lobby: {"bill"},
	k.Earmark: {"favor", "on"}, k.Shred: {"favor"}, k.Embezzle: {"target", "minion"}, k.Ballot: {"side"},
}

func (mv *move) present() map[string]bool {
	p := map[string]bool{}
	v := reflectFields(mv)
	for name, set := range v {
		if set {
			p[name] = true
		}
	}
	return p
}

var actions = []string{"discard", "take", "place", "influence", "call", "vote", "pass", "pick", "cycle", "chaos"}

// parseMove reads one move, and the minions it pays when it is an influence written with
// "pay" (else nil).
func (sc *Script) parseMove(raw json.RawMessage) (k.Move, []k.Minion, error) {
	var mv move
	m, err := sc.readMove(raw, &mv)
	if err != nil || m.Kind != k.MoveInfluence || mv.Pay == nil {
		return m, nil, err
	}
	if mv.Waive != nil || mv.Extra != nil {
		return m, nil, errors.New(`an influence gives the minions it pays ("pay"), or the cost minions it waives and the extra one of a steal ("waive", "extra"), not both`)
	}
	pay := make([]k.Minion, len(mv.Pay))
	for i, s := range mv.Pay {
		if pay[i], err = k.ParseMinion(s); err != nil {
			return m, nil, fmt.Errorf("pay[%d]: %w", i, err)
		}
	}
	return m, pay, nil
}

// readMove reads one move into mv and builds it.
func (sc *Script) readMove(raw json.RawMessage, mv *move) (k.Move, error) {
	if err := strictjson.Decode(raw, mv); err != nil {
		return k.Move{}, strictjson.Clean(err)
	}
	if mv.Seat == nil {
		return k.Move{}, errors.New(`missing "seat"`)
	}
	seat := *mv.Seat
	if seat < 0 || seat >= sc.Players {
		return k.Move{}, fmt.Errorf("seat %d is not between 0 and %d", seat, sc.Players-1)
	}
	has := mv.present()
	action := ""
	for _, a := range actions {
		if has[a] {
			if action != "" {
				return k.Move{}, fmt.Errorf("a move has exactly one of %s, not %q and %q", strings.Join(actions, ", "), action, a)
			}
			action = a
		}
	}
	if action == "" {
		return k.Move{}, fmt.Errorf("a move needs one of %s", strings.Join(actions, ", "))
	}
	var required, optional []string
	if a, ok := args[action]; ok {
		required, optional = a[0], a[1]
	}
	if action == "chaos" {
		c, err := k.ParseChaos(*mv.Chaos)
		if err != nil {
			return k.Move{}, err
		}
		required = effectArgs[k.ChaosCards()[c].Effect]
	}
	for name := range has {
		if name != "seat" && name != action && !slices.Contains(required, name) && !slices.Contains(optional, name) {
			return k.Move{}, fmt.Errorf("%q is not an argument of %s", name, what(action, *mv))
		}
	}
	for _, name := range required {
		if !has[name] {
			return k.Move{}, fmt.Errorf("%s needs %q", what(action, *mv), name)
		}
	}
	return sc.build(seat, action, mv)
}

func what(action string, mv move) string {
	if action == "chaos" {
		return "chaos card " + *mv.Chaos
	}
	return action
}

// build makes the move from its parsed fields, whose presence parseMove checked.
func (sc *Script) build(seat int, action string, mv *move) (k.Move, error) {
	var err error
	id := func(s *string, parse func(string) (int, error)) int {
		if s == nil || err != nil {
			return -1
		}
		var v int
		v, err = parse(*s)
		return v
	}
	minion := func(s *string) k.Minion {
		if s == nil || err != nil {
			return k.NoMinion
		}
		var m k.Minion
		m, err = k.ParseMinion(*s)
		return m
	}
	var m k.Move
	switch action {
	case "discard":
		c := id(mv.Discard, k.ParseChaos)
		m = k.DiscardMove(seat, sc.position(seat, c, &err))
	case "take":
		m = k.TakeMove(seat, id(mv.Take, k.ParseFavor))
	case "place":
		m = k.PlaceMove(seat, id(mv.Place, k.ParseFavor), id(mv.On, k.ParseBill))
	case "influence":
		l := id(mv.Influence, k.ParseLeader)
		w := uint8(0)
		if err == nil {
			w, err = waive(l, mv.Waive)
		}
		m = k.InfluenceMove(seat, l, w, minion(mv.Extra))
	case "call":
		m = k.CallMove(seat, id(mv.Call, k.ParseBill))
	case "vote":
		if *mv.Vote != "yes" && *mv.Vote != "no" {
			return m, fmt.Errorf(`"vote" is "yes" or "no", not %q`, *mv.Vote)
		}
		m = k.VoteMove(seat, *mv.Vote == "yes")
	case "pass":
		if !*mv.Pass {
			return m, errors.New(`"pass" must be true`)
		}
		m = k.PassMove(seat)
	case "pick":
		p := -1
		if *mv.Pick != "none" {
			p = id(mv.Pick, k.ParsePleasure)
		}
		m = k.PickMove(seat, p)
		m.Leader, m.Favor, m.Other = id(mv.Remove, k.ParseLeader), id(mv.Exchange, k.ParseFavor), id(mv.For, k.ParseFavor)
		m.Minion = minion(mv.Minion)
	case "cycle":
		m = k.CycleMove(seat, id(mv.Cycle, k.ParsePleasure))
	case "chaos":
		c := id(mv.Chaos, k.ParseChaos)
		m = k.ChaosMove(seat, c, sc.position(seat, c, &err))
		m.Pleasure, m.Leader, m.Bill = id(mv.Pleasure, k.ParsePleasure), id(mv.Leader, k.ParseLeader), id(mv.Bill, k.ParseBill)
		m.Favor, m.Minion = id(mv.Favor, k.ParseFavor), minion(mv.Minion)
		if mv.On != nil {
			m.Bill = id(mv.On, k.ParseBill)
		}
		if mv.Target != nil {
			m.Target = *mv.Target
		}
		if mv.Side != nil {
			if *mv.Side != "yes" && *mv.Side != "no" {
				return m, fmt.Errorf(`"side" is "yes" (for) or "no" (against), not %q`, *mv.Side)
			}
			m.Yes = *mv.Side == "yes"
		}
	}
	return m, err
}

// position is where chaos card c was dealt to seat.
func (sc *Script) position(seat, c int, err *error) int {
	if *err != nil {
		return -1
	}
	if seat < len(sc.Setup.Chaos) {
		if i := slices.Index(sc.Setup.Chaos[seat], c); i >= 0 {
			return i
		}
	}
	*err = fmt.Errorf("seat %d was not dealt chaos card %s", seat, k.ChaosCards()[c].ID)
	return -1
}

// waive turns the names of the cost minions waived into bits of leader l's cost.
func waive(l int, names []string) (uint8, error) {
	cost := k.Leaders()[l].Cost
	var w uint8
	for _, s := range names {
		m, err := k.ParseMinion(s)
		if err != nil {
			return 0, err
		}
		switch {
		case cost[0] == m && w&1 == 0:
			w |= 1
		case cost[1] == m && w&2 == 0:
			w |= 2
		default:
			return 0, fmt.Errorf("waive: %s's cost has no %s left to waive", k.Leaders()[l].ID, m)
		}
	}
	return w, nil
}

// appendMove writes m as a script move; an influence with pay not nil, as the minions it pays.
func (sc *Script) appendMove(b *bytes.Buffer, m k.Move, pay []k.Minion) error {
	fmt.Fprintf(b, `{"seat": %d, `, m.Seat)
	field := func(name string, v any) { fmt.Fprintf(b, `, %q: %s`, name, quote(v)) }
	switch m.Kind {
	case k.MoveDiscard:
		fmt.Fprintf(b, `"discard": %q`, k.ChaosCards()[sc.Setup.Chaos[m.Seat][m.Pos]].ID)
	case k.MoveTake:
		fmt.Fprintf(b, `"take": %q`, k.Favors()[m.Favor].ID)
	case k.MovePlace:
		fmt.Fprintf(b, `"place": %q, "on": %q`, k.Favors()[m.Favor].ID, k.BillID(m.Bill))
	case k.MoveInfluence:
		l := k.Leaders()[m.Leader]
		fmt.Fprintf(b, `"influence": %q`, l.ID)
		if pay != nil {
			names := make([]string, len(pay))
			for i, mn := range pay {
				names[i] = mn.String()
			}
			field("pay", names)
			break
		}
		if m.Waive != 0 {
			var names []string
			for i, c := range l.Cost {
				if m.Waive&(1<<i) != 0 {
					names = append(names, c.String())
				}
			}
			field("waive", names)
		}
		if m.Minion != k.NoMinion {
			field("extra", m.Minion.String())
		}
	case k.MoveCall:
		fmt.Fprintf(b, `"call": %q`, k.BillID(m.Bill))
	case k.MoveVote:
		fmt.Fprintf(b, `"vote": %q`, map[bool]string{true: "yes", false: "no"}[m.Yes])
	case k.MovePass:
		b.WriteString(`"pass": true`)
	case k.MovePick:
		if m.Pleasure < 0 {
			b.WriteString(`"pick": "none"`)
		} else {
			fmt.Fprintf(b, `"pick": %q`, k.Pleasures()[m.Pleasure].ID)
		}
		appendOptional(field, m)
	case k.MoveCycle:
		fmt.Fprintf(b, `"cycle": %q`, k.Pleasures()[m.Pleasure].ID)
	case k.MoveChaos:
		c := k.ChaosCards()[m.Card]
		fmt.Fprintf(b, `"chaos": %q`, c.ID)
		appendEffect(field, c.Effect, m)
	default:
		return fmt.Errorf("a %s move cannot be written in a script", m.Kind)
	}
	b.WriteByte('}')
	return nil
}

func appendOptional(field func(string, any), m k.Move) {
	if m.Leader >= 0 {
		field("remove", k.Leaders()[m.Leader].ID)
	}
	if m.Favor >= 0 {
		field("exchange", k.Favors()[m.Favor].ID)
	}
	if m.Other >= 0 {
		field("for", k.Favors()[m.Other].ID)
	}
	if m.Minion != k.NoMinion {
		field("minion", m.Minion.String())
	}
}

func appendEffect(field func(string, any), e k.Effect, m k.Move) {
	for _, name := range effectArgs[e] {
		switch name {
		case "pleasure":
			field(name, k.Pleasures()[m.Pleasure].ID)
		case "leader":
			field(name, k.Leaders()[m.Leader].ID)
		case "bill":
			field(name, k.BillID(m.Bill))
		case "favor":
			field(name, k.Favors()[m.Favor].ID)
		case "on":
			field(name, k.BillID(m.Bill))
		case "target":
			field(name, m.Target)
		case "minion":
			field(name, m.Minion.String())
		case "side":
			field(name, map[bool]string{true: "yes", false: "no"}[m.Yes])
		}
	}
}

func quote(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// reflectFields reports, by JSON name, which of mv's fields are present.
func reflectFields(mv *move) map[string]bool {
	out := map[string]bool{}
	v := reflect.ValueOf(mv).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[name] = !v.Field(i).IsNil()
	}
	return out
}
