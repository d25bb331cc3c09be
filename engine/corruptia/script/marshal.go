package script

import (
	"bytes"
	"fmt"
	"strings"

	"corruption/engine/corruptia"
	"corruption/engine/internal/strictjson"
)

// Marshal writes the script as JSON, one entry a line. Parse(Marshal(s)) gives s back.
func (sc *Script) Marshal() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"players\": %d, \"amendments\": %d, \"first\": %d,\n \"deck\": %s,\n", sc.Players, sc.Config.Amendments, sc.First, billsJSON(sc.Deck))
	if sc.Redeck != nil {
		fmt.Fprintf(&b, " \"redeck\": %s,\n", billsJSON(sc.Redeck))
	}
	if sc.Pile != nil {
		fmt.Fprintf(&b, " \"pile\": %s,\n", billsJSON(sc.Pile))
	}
	err := strictjson.Moves(&b, len(sc.Moves), func(b *bytes.Buffer, i int) error { return appendEntry(b, sc.Moves[i]) })
	return b.Bytes(), err
}

func billsJSON(bs []corruptia.Bill) string {
	ss := make([]string, len(bs))
	for i, x := range bs {
		ss[i] = fmt.Sprintf("%q", x.String())
	}
	return "[" + strings.Join(ss, ", ") + "]"
}

func appendEntry(b *bytes.Buffer, e Entry) error {
	switch e.Kind {
	case EntryVotes:
		ss := make([]string, len(e.Votes))
		for i, v := range e.Votes {
			ss[i] = fmt.Sprintf("%q", v.String())
		}
		fmt.Fprintf(b, `{"votes": [%s]}`, strings.Join(ss, ", "))
		return nil
	case EntryDie:
		fmt.Fprintf(b, `{"die": %q}`, e.Die.String())
		return nil
	case EntryToss:
		fmt.Fprintf(b, `{"toss": %q}`, map[bool]string{true: "approve", false: "reject"}[e.Approve])
		return nil
	}
	fmt.Fprintf(b, `{"seat": %d, `, e.Seat)
	switch e.Move {
	case corruptia.MoveDiscard:
		fmt.Fprintf(b, `"discard": %q}`, e.Bill.String())
	case corruptia.MovePropose, corruptia.MoveAmend:
		ws := make([]string, len(e.Workers))
		for i, w := range e.Workers {
			ws[i] = fmt.Sprintf("%q", w.String())
		}
		fmt.Fprintf(b, `%q: %q, "at": [%d, %d], "workers": [%s]}`, e.Move.String(), e.Bill.String(), e.At.Row, e.At.Col, strings.Join(ws, ", "))
	case corruptia.MoveBlackmail:
		fmt.Fprintf(b, `"blackmail": %d, `, e.Target)
		if e.Card != "" {
			if _, _, err := parseCard(e.Card); err != nil {
				return err
			}
			fmt.Fprintf(b, `"card": %q, `, e.Card)
		}
		fmt.Fprintf(b, `"demand": %q}`, e.Demand.String())
	case corruptia.MoveSwap:
		fmt.Fprintf(b, `"swap": %q, "take": %q}`, e.Bill.String(), e.Take.String())
	case corruptia.MoveNoBill, corruptia.MoveOffer, corruptia.MoveCall, corruptia.MovePass:
		fmt.Fprintf(b, `%q: true}`, e.Move.String())
	default:
		return fmt.Errorf("a %s cannot be written in a script", e.Move)
	}
	return nil
}
